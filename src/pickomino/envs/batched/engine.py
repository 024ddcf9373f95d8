"""The rules of the core engine over arrays: ``N`` games with the same rules and player count,
each row one game, stepped together with a handful of NumPy operations per transition.

It is a second implementation of the core's transitions (``core/state.py``), kept for speed
only: ``tests/test_batched.py`` plays it in lock-step with the core on the same dice and the
same decisions and compares every game's whole state after every step. Like the core it never
rolls by itself: :meth:`BatchedGames.apply_rolls` takes the outcomes (see :func:`sample_rolls`).

Tiles are bit indices 0..15 (tile 21+i); the grill and the face-down tiles are 16-bit masks;
the claims of a total are a 32-bit mask whose bit ``i`` is action id ``8 + i`` (takes, then
steals), so that the action mask is a table lookup.

>>> import numpy as np
>>> from pickomino.core import Rules
>>> games = BatchedGames(3, players=2, rules=Rules())
>>> games.apply_rolls(np.arange(3), np.array([[1, 1, 2, 0, 1, 3]] * 3))
>>> games.apply_actions(np.arange(3), np.array([5, 5, 2]))
>>> games.total.tolist(), games.phase.tolist()
([15, 15, 6], [2, 2, 2])
"""

from __future__ import annotations

import numpy as np

from pickomino.core.actions import KEEP_BASE, NUM_ACTIONS, ROLL_ID, STEAL_BASE, STOP_ID, TAKE_BASE
from pickomino.core.rules import FACE_POINTS, NUM_DICE, TILES, WORM, Rules, worms_on
from pickomino.core.state import Phase

NUM_TILES = len(TILES)
#: Phase codes, in the order of :class:`~pickomino.core.state.Phase`.
PHASES = tuple(Phase)
ROLL, KEEP, ROLL_OR_STOP, CLAIM, OVER = range(len(PHASES))
ALL_FACES = (1 << 6) - 1
NO_TILE = -1

_MASKS = np.arange(1 << NUM_TILES)
#: Bit ``i`` of every 16-bit mask, as int8 rows (1 MiB): mask → tiles lookup.
MASK_BITS = ((_MASKS[:, None] >> np.arange(NUM_TILES)) & 1).astype(np.int8)
#: Index of the highest set bit of every 16-bit mask (−1 for 0).
HIGHEST = np.where(_MASKS > 0, np.floor(np.log2(np.maximum(_MASKS, 1))), NO_TILE).astype(np.int64)
POPCOUNT = MASK_BITS.sum(axis=1, dtype=np.int64)
WORMS = np.array([worms_on(tile) for tile in TILES], np.int64)
POINTS = np.array(FACE_POINTS, np.int64)
FACE_BITS = 1 << np.arange(6)


def sample_rolls(rng: np.random.Generator, dice: np.ndarray) -> np.ndarray:
    """One roll of ``dice[i]`` fair dice per row, as counts per face (rows of six)."""
    faces = rng.integers(0, 6, (len(dice), NUM_DICE))
    thrown = np.arange(NUM_DICE) < dice[:, None]
    return ((faces[:, :, None] == np.arange(6)) & thrown[:, :, None]).sum(axis=1)


class BatchedGames:
    """``size`` games of ``players`` under ``rules``, all starting with seat 0 (rows can be
    restarted one by one with :meth:`reset`). Public arrays, one row per game:

    ``grill``, ``face_down`` (tile masks), ``stacks`` (``[row, seat, depth]`` tile indices)
    with ``heights``, ``tops`` (−1: empty), ``worms``, ``current``, ``phase`` (codes of
    :data:`PHASES`), ``kept`` and ``roll`` (counts per face), ``kept_mask``, ``dice_left``,
    ``total``, ``claims`` (the claim mask while choosing a tile) and ``turn``.

    Methods take the rows to act on and assume the step is legal for each (callers check
    with :meth:`action_mask`); like the core they never roll dice themselves.
    """

    def __init__(self, size: int, players: int, rules: Rules) -> None:
        self.size, self.players, self.rules = size, players, rules
        self.any_lower = rules.lower_tile == "any"
        self.grill = np.zeros(size, np.int64)
        self.face_down = np.zeros(size, np.int64)
        self.stacks = np.zeros((size, players, NUM_TILES), np.int64)
        self.heights = np.zeros((size, players), np.int64)
        self.tops = np.zeros((size, players), np.int64)
        self.worms = np.zeros((size, players), np.int64)
        self.current = np.zeros(size, np.int64)
        self.turn = np.zeros(size, np.int64)
        self.phase = np.zeros(size, np.int64)
        self.kept = np.zeros((size, 6), np.int64)
        self.roll = np.zeros((size, 6), np.int64)
        self.kept_mask = np.zeros(size, np.int64)
        self.dice_left = np.zeros(size, np.int64)
        self.total = np.zeros(size, np.int64)
        self.claims = np.zeros(size, np.int64)
        self.reset(np.arange(size))

    def reset(self, rows: np.ndarray, start: np.ndarray | int = 0) -> None:
        """Start new games in ``rows`` (R4), with seat ``start`` to play first."""
        self.grill[rows] = (1 << NUM_TILES) - 1
        self.face_down[rows] = 0
        self.heights[rows] = 0
        self.tops[rows] = NO_TILE
        self.worms[rows] = 0
        self.current[rows] = start
        self.turn[rows] = 1
        self._start_turn(rows)

    def _start_turn(self, rows: np.ndarray) -> None:
        self.phase[rows] = ROLL
        self.kept[rows] = 0
        self.roll[rows] = 0
        self.kept_mask[rows] = 0
        self.dice_left[rows] = NUM_DICE  # R5
        self.total[rows] = 0
        self.claims[rows] = 0

    # ----------------------------------------------------------------- views
    def action_mask(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """One row of 40 flags per game: the legal action ids (none at a roll or the end)."""
        phase = self.phase[rows]
        mask = np.zeros((len(phase), NUM_ACTIONS), bool)
        shown = (self.roll[rows] > 0) & ((self.kept_mask[rows, None] & FACE_BITS) == 0)
        mask[:, KEEP_BASE : KEEP_BASE + 6] = shown & (phase == KEEP)[:, None]
        mask[:, ROLL_ID] = mask[:, STOP_ID] = phase == ROLL_OR_STOP
        claims = np.where(phase == CLAIM, self.claims[rows], 0)
        mask[:, TAKE_BASE:STEAL_BASE] = MASK_BITS[claims & 0xFFFF]
        mask[:, STEAL_BASE:] = MASK_BITS[claims >> NUM_TILES]
        return mask

    def claims_for(self, rows: np.ndarray) -> np.ndarray:
        """The claim masks the totals of ``rows`` give their current players (R11, R12);
        like the core's ``claims_for``, without looking at worms."""
        total, grill = self.total[rows], self.grill[rows]
        index = total - TILES[0]
        exists = (index >= 0) & (index < NUM_TILES)
        exact = np.where(exists, 1 << np.clip(index, 0, NUM_TILES - 1), 0)
        lower = grill & ((1 << np.clip(index, 0, NUM_TILES)) - 1)
        if self.any_lower:
            takes = lower
        else:  # R11c: the nearest lower tile
            highest = HIGHEST[lower]
            takes = np.where(highest >= 0, 1 << np.maximum(highest, 0), 0)
        tops = self.tops[rows]
        others = np.arange(self.players) != self.current[rows, None]
        steal = exists & ((tops == index[:, None]) & others).any(axis=1)  # R11b
        if self.rules.exact_match_mandatory:  # R12 option
            takes = np.where(steal, 0, takes)
        claims = takes | np.where(steal, exact << NUM_TILES, 0)
        return np.where(grill & exact, exact, claims)  # R11a

    # ------------------------------------------------------------ transitions
    def apply_rolls(self, rows: np.ndarray, counts: np.ndarray) -> None:
        """The outcomes of the pending rolls of ``rows`` (R5); no new face is a bust (R7)."""
        self.roll[rows] = counts
        shown = ((counts > 0) * FACE_BITS).sum(axis=1)
        new = (shown & ~self.kept_mask[rows]) != 0
        self.phase[rows[new]] = KEEP
        self._bust(rows[~new])

    def apply_actions(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """Legal decisions for the current players of ``rows``, by action id."""
        keep = actions < ROLL_ID
        if keep.any():
            self._keep(rows[keep], actions[keep])
        self.phase[rows[actions == ROLL_ID]] = ROLL
        self._end_turn(rows[actions == STOP_ID])
        claim = actions >= TAKE_BASE
        if claim.any():
            claimed = actions[claim] - TAKE_BASE
            self._claim(rows[claim], claimed % NUM_TILES, claimed >= NUM_TILES)

    def _keep(self, rows: np.ndarray, faces: np.ndarray) -> None:
        count = self.roll[rows, faces]
        self.kept[rows, faces] = count
        self.kept_mask[rows] |= 1 << faces
        self.dice_left[rows] -= count
        self.total[rows] += count * POINTS[faces]
        self.roll[rows] = 0
        over = (self.dice_left[rows] == 0) | (self.kept_mask[rows] == ALL_FACES)  # R8
        self.phase[rows[~over]] = ROLL_OR_STOP
        self._end_turn(rows[over])

    def _end_turn(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        worm = self.kept[rows, WORM] > 0  # R10
        self._bust(rows[~worm])
        rows = rows[worm]
        claims = self.claims_for(rows)
        count = POPCOUNT[claims & 0xFFFF] + (claims >> NUM_TILES != 0)
        self._bust(rows[count == 0])  # R13
        choose = count > 1
        self.phase[rows[choose]] = CLAIM
        self.claims[rows[choose]] = claims[choose]
        one, claims = rows[count == 1], claims[count == 1]  # R12: the one claim is taken
        takes = claims & 0xFFFF
        steal = takes == 0
        self._claim(one, np.where(steal, HIGHEST[claims >> NUM_TILES], HIGHEST[takes]), steal)

    def _claim(self, rows: np.ndarray, tiles: np.ndarray, steal: np.ndarray) -> None:
        taken = rows[~steal]
        self.grill[taken] &= ~(1 << tiles[~steal])
        thief, stolen = rows[steal], tiles[steal]
        if thief.size:
            tops = self.tops[thief]
            others = np.arange(self.players) != self.current[thief, None]
            self._pop(thief, ((tops == stolen[:, None]) & others).argmax(axis=1))
        self._push(rows, self.current[rows], tiles)  # R14
        self._next_turn(rows)

    def _bust(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        seats = self.current[rows]
        holds = self.heights[rows, seats] > 0
        losers = rows[holds]
        if losers.size:  # R15, then R16
            returned = self._pop(losers, seats[holds])
            self.grill[losers] |= 1 << returned
            highest = HIGHEST[self.grill[losers]]
            turn = (highest != returned) | self.rules.flip_returned_highest
            losers, highest = losers[turn], highest[turn]
            self.grill[losers] &= ~(1 << highest)
            self.face_down[losers] |= 1 << highest
        self._next_turn(rows)

    def _pop(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        tiles = self.tops[rows, seats]
        height = self.heights[rows, seats] - 1
        self.heights[rows, seats] = height
        below = self.stacks[rows, seats, np.maximum(height - 1, 0)]
        self.tops[rows, seats] = np.where(height > 0, below, NO_TILE)
        self.worms[rows, seats] -= WORMS[tiles]
        return tiles

    def _push(self, rows: np.ndarray, seats: np.ndarray, tiles: np.ndarray) -> None:
        self.stacks[rows, seats, self.heights[rows, seats]] = tiles
        self.heights[rows, seats] += 1
        self.tops[rows, seats] = tiles
        self.worms[rows, seats] += WORMS[tiles]

    def _next_turn(self, rows: np.ndarray) -> None:
        over = self.grill[rows] == 0  # R18
        ended = rows[over]
        self.phase[ended] = OVER
        self.roll[ended] = 0
        self.claims[ended] = 0
        rows = rows[~over]
        self.current[rows] = (self.current[rows] + 1) % self.players  # R17
        self.turn[rows] += 1
        self._start_turn(rows)

    # ---------------------------------------------------------------- scoring
    def winners(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Flags ``[row, seat]``: most worms, then the highest tile (R19, R20)."""
        highest = np.where(
            np.arange(NUM_TILES) < self.heights[rows][:, :, None], self.stacks[rows], NO_TILE
        ).max(axis=2)
        key = self.worms[rows] * 64 + highest + 1
        return key == key.max(axis=1, keepdims=True)
