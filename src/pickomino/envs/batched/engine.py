"""The rules of the core engine over arrays: ``N`` games with the same rules and player count,
each row one game, stepped together with a handful of NumPy operations per transition.

It is a second implementation of the core's transitions (``core/state.py``), kept for speed
only: ``tests/test_batched.py`` plays it in lock-step with the core on the same dice and the
same decisions and compares every game's whole state after every step. Like the core it never
rolls by itself: :meth:`BatchedGames.apply_rolls` takes the outcomes (see :func:`sample_rolls`).
Where the core walks objects, this engine looks answers up in tables built once: the claims of
every total on every grill, the faces every roll shows, and (in ``bots.py``) the simple bot's
keep for every roll and kept faces.

Tiles are bit indices 0..15 (tile 21+i); the grill and the face-down tiles are 16-bit masks;
the claims of a total are a 32-bit mask whose bit ``i`` is action id ``8 + i`` (takes, then
steals), so that the action mask is a table lookup.

>>> import numpy as np
>>> from pickomino.core import Rules
>>> games = BatchedGames(3, players=2, rules=Rules())
>>> games.apply_rolls(np.arange(3), np.array([outcome_index([1, 1, 2, 0, 1, 3])] * 3))
>>> games.apply_actions(np.arange(3), np.array([5, 5, 2]))
>>> games.total.tolist(), games.phase.tolist()
([15, 15, 6], [2, 2, 2])
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

import numpy as np

from pickomino.core.actions import NUM_ACTIONS, ROLL_ID, STOP_ID, TAKE_BASE
from pickomino.core.dice import ALL_ROLLS, roll_id, roll_outcomes
from pickomino.core.errors import BadInput
from pickomino.core.rules import FACE_POINTS, NUM_DICE, TILES, WORM, Rules, worms_on
from pickomino.core.state import Phase
from pickomino.observation import MASK_BITS

NUM_TILES = len(TILES)
#: Phase codes, in the order of :class:`~pickomino.core.state.Phase`.
PHASES = tuple(Phase)
ROLL, KEEP, ROLL_OR_STOP, CLAIM, OVER = range(len(PHASES))
ALL_FACES = (1 << 6) - 1
NO_TILE = -1
ALL_TILES = (1 << NUM_TILES) - 1

_MASKS = np.arange(1 << NUM_TILES)
#: Index of the highest set bit of every 16-bit mask (−1 for 0).
HIGHEST = np.where(_MASKS > 0, np.floor(np.log2(np.maximum(_MASKS, 1))), NO_TILE).astype(np.int64)
POPCOUNT = MASK_BITS.sum(axis=1, dtype=np.int64)
WORMS = np.array([worms_on(tile) for tile in TILES], np.int64)
POINTS = np.array(FACE_POINTS, np.int64)
FACE_BITS = 1 << np.arange(6)
#: The bit of each tile index; index −1 (an empty stack's top) has none.
TILE_BIT = np.array([*(1 << np.arange(NUM_TILES)), 0], np.int64)
_ROLL_OR_STOP_BITS = (1 << ROLL_ID) | (1 << STOP_ID)

#: Every roll of 0..8 dice, as counts per face, in the core's order (``ALL_ROLLS``);
#: a game's roll is an index into it (the core's ``roll_id``), 0 being the empty roll (no
#: dice to keep from).
OUTCOMES = np.array(ALL_ROLLS)
#: The faces each outcome shows, as a mask.
SHOWN = ((OUTCOMES > 0) * FACE_BITS).sum(axis=1)
#: For sampling: outcome ``i`` of ``n`` dice covers keys up to ``n`` + its cumulative chance.
SAMPLING_KEYS = np.concatenate(
    [
        n + np.minimum(np.cumsum([float(p) for _, p in roll_outcomes(n)]), 1.0)
        for n in range(NUM_DICE + 1)
    ]
)
SAMPLING_KEYS[np.cumsum([len(roll_outcomes(n)) for n in range(NUM_DICE + 1)]) - 1] = np.arange(
    1, NUM_DICE + 2
)  # each block ends exactly at n + 1: a key n + u with u < 1 always stays in block n
_BUCKETS = 1 << 14  # per die count


def _bucket_outcomes() -> np.ndarray:
    """Sampling keys cut into buckets: ``[bucket]`` → the outcome of every key in it, or −1
    when an outcome's bound falls inside (2 % of keys, left to ``searchsorted``)."""
    bounds = np.arange((NUM_DICE + 1) * _BUCKETS + 1) / _BUCKETS  # exact: powers of two
    first = np.searchsorted(SAMPLING_KEYS, bounds, side="right")
    last = np.searchsorted(SAMPLING_KEYS, bounds + 1 / _BUCKETS, side="left")
    return np.where(first == last, first, -1)


_BUCKET_OUTCOMES = _bucket_outcomes()
_MAX_TOTAL = NUM_DICE * max(FACE_POINTS)
#: A row of ``kept`` (six int64 counts, all 0) as one opaque item.
_NOTHING_KEPT = np.zeros((), f"V{6 * 8}")
#: ``[outcome * 6 + face]`` → how many dice keeping that face takes, and their points.
_COUNTS = OUTCOMES.reshape(-1)
_POINTS = (OUTCOMES * POINTS).reshape(-1)


#: The index in :data:`OUTCOMES` of a roll given as six counts.
outcome_index = roll_id


def sample_rolls(rng: np.random.Generator, dice: np.ndarray) -> np.ndarray:
    """One roll of ``dice[i]`` fair dice per row, as indices into :data:`OUTCOMES`."""
    return outcomes_at(dice + rng.random(len(dice)))


def outcomes_at(keys: np.ndarray) -> np.ndarray:
    """The outcome of ``n`` dice whose share of ``[n, n + 1)`` holds each key ``n + u``: a
    bucket lookup, and a binary search for the few keys near a bound."""
    outcomes = _BUCKET_OUTCOMES[(keys * _BUCKETS).astype(np.int64)]
    unsure = outcomes < 0
    if np.count_nonzero(unsure):
        outcomes[unsure] = np.searchsorted(SAMPLING_KEYS, keys[unsure], side="right")
    return outcomes


@cache
def grill_claims(any_lower: bool) -> np.ndarray:
    """``[total, grill mask]`` → the grill tiles that total may take (R11a, R11c), as a mask,
    and in bits 16..31 the tile equal to the total when the grill lacks it, the one a steal
    may take (R11b); built once per option (10 MiB)."""
    table = np.zeros((_MAX_TOTAL + 1, 1 << NUM_TILES), np.int64)
    for total in range(TILES[0], _MAX_TOTAL + 1):
        index = total - TILES[0]
        lower = _MASKS & ((1 << min(index, NUM_TILES)) - 1)
        if not any_lower:  # R11c: the nearest lower tile
            highest = HIGHEST[lower]
            lower = np.where(highest >= 0, 1 << np.maximum(highest, 0), 0)
        if index < NUM_TILES:
            exact = 1 << index
            lower = np.where(_MASKS & exact, exact, lower | (exact << NUM_TILES))
        table[total] = lower
    return table.astype(np.uint32)


def refuse_unsupported(rules: Rules, supported: dict[str, tuple[object, ...]]) -> None:
    """Read the rule options' description: an option (or a choice) this engine does not
    play is refused unless it is left at its default, so a new rule option is never
    silently ignored here.

    >>> try:
    ...     refuse_unsupported(Rules(lower_tile="any"), {"lower_tile": ("nearest",)})
    ... except BadInput as error:
    ...     print(error.code, error.params)
    option_unsupported {'option': 'lower_tile', 'given': 'any'}
    """
    for option in Rules.options():
        value = getattr(rules, option.name)
        if value != option.default and value not in supported.get(option.name, ()):
            raise BadInput("option_unsupported", option=option.name, given=str(value).lower())


class BatchedGames:
    """``size`` games of ``players`` under ``rules``, all starting with seat 0 (rows can be
    restarted one by one with :meth:`reset`). Public arrays, one row per game:

    ``grill``, ``face_down`` (tile masks), ``stacks`` (``[row, seat, depth]`` tile indices)
    with ``heights``, ``tops`` (−1: empty), ``worms``, ``current``, ``phase`` (codes of
    :data:`PHASES`), ``kept`` (counts per face), ``roll`` (an index into :data:`OUTCOMES`;
    0 unless keeping), ``kept_mask``, ``dice_left``,
    ``total``, ``claims`` (the claim mask while choosing a tile) and ``turn``.

    Methods take the rows to act on and assume the step is legal for each (callers check
    with :meth:`action_mask`); like the core they never roll dice themselves.

    A step of a few hundred games costs what its NumPy calls cost, not what they compute, so
    the transitions count calls: per-seat arrays are read through flat views at
    ``row * players + seat`` (one index array instead of two), a turn's end is one
    :meth:`_next_turn` for all the rows whose turn ended in a call, and a stack's depth 0 is
    a −1 below the tiles (the top after a pop is a plain read). ``np.count_nonzero`` tests
    masks: ``.any()`` costs several times more on small arrays. Rows of 2-D arrays are
    gathered with ``take(axis=0)`` and zeroed as single opaque items, both several times
    faster than indexing by rows.
    """

    #: The rule options these arrays play, by name, with their choices (see __init__).
    SUPPORTED: ClassVar[dict[str, tuple[object, ...]]] = {
        "flip_returned_highest": (False, True),
        "exact_match_mandatory": (False, True),
        "lower_tile": ("nearest", "any"),
    }

    def __init__(self, size: int, players: int, rules: Rules) -> None:
        refuse_unsupported(rules, self.SUPPORTED)
        self.size, self.players, self.rules = size, players, rules
        self._grill_claims = grill_claims(rules.lower_tile == "any").reshape(-1)
        self._next_seat = (np.arange(players) + 1) % players  # R17
        self.grill = np.zeros(size, np.int64)
        self.face_down = np.zeros(size, np.int64)
        below = np.full((size, players, NUM_TILES + 1), NO_TILE, np.int64)
        self.stacks = below[:, :, 1:]
        self.heights = np.zeros((size, players), np.int64)
        self.tops = np.zeros((size, players), np.int64)
        self.worms = np.zeros((size, players), np.int64)
        self.current = np.zeros(size, np.int64)
        self.turn = np.zeros(size, np.int64)
        self.phase = np.zeros(size, np.int64)
        self.kept = np.zeros((size, 6), np.int64)
        self.roll = np.zeros(size, np.int64)
        self.kept_mask = np.zeros(size, np.int64)
        self.dice_left = np.zeros(size, np.int64)
        self.total = np.zeros(size, np.int64)
        self.claims = np.zeros(size, np.int64)
        self._stop_claims = np.zeros(size, np.int64)
        # flat views: [row * players + seat], [(row * players + seat) * 17 + depth + 1]
        self._below, self._heights = below.reshape(-1), self.heights.reshape(-1)
        self._tops, self._worms = self.tops.reshape(-1), self.worms.reshape(-1)
        self._kept, self._kept_worms = self.kept.reshape(-1), self.kept[:, WORM]
        self._kept_rows = self.kept.view(_NOTHING_KEPT.dtype).reshape(-1)  # a row as one item
        row, seat = np.divmod(np.arange(size * players), players)
        #: ``[flat seat]`` → the flat indices of the other seats of its game
        self._others = row[:, None] * players + (seat[:, None] + np.arange(1, players)) % players
        self.reset(np.arange(size))

    def reset(self, rows: np.ndarray, start: np.ndarray | int = 0) -> None:
        """Start new games in ``rows`` (R4), with seat ``start`` to play first."""
        self.grill[rows] = ALL_TILES
        self.face_down[rows] = 0
        self.heights[rows] = 0
        self.tops[rows] = NO_TILE
        self.worms[rows] = 0
        self.current[rows] = start
        self.turn[rows] = 1
        self._start_turn(rows)

    def _start_turn(self, rows: np.ndarray) -> None:
        self.phase[rows] = ROLL
        self._kept_rows[rows] = _NOTHING_KEPT
        self.roll[rows] = 0
        self.kept_mask[rows] = 0
        self.dice_left[rows] = NUM_DICE  # R5
        self.total[rows] = 0
        self.claims[rows] = 0

    def _seats(self, rows: np.ndarray) -> np.ndarray:
        """The flat index of each row's current player in the per-seat arrays."""
        return rows * self.players + self.current[rows]

    # ----------------------------------------------------------------- views
    def legal_bits(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The legal action ids of ``rows`` as bit masks (bit ``i``: action ``i``)."""
        phase = self.phase[rows]
        keeps = SHOWN[self.roll[rows]] & ~self.kept_mask[rows]  # the roll is empty unless keeping
        return (
            keeps
            | ((phase == ROLL_OR_STOP) * _ROLL_OR_STOP_BITS)
            | (self.claims[rows] << TAKE_BASE)
        )

    def action_mask(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """One row of 40 flags per game: the legal action ids (none at a roll or the end)."""
        bits = self.legal_bits(rows).astype("<u8")[:, None].view(np.uint8)
        return np.unpackbits(bits, axis=1, count=NUM_ACTIONS, bitorder="little").view(bool)

    def roll_counts(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The rolls to keep from, as counts per face (zeros unless keeping)."""
        return OUTCOMES.take(self.roll[rows], axis=0)

    def stop_claims(self, rows: np.ndarray) -> np.ndarray:
        """The claim masks a stop would give ``rows`` (choosing whether to roll or stop):
        bit ``i`` for action ``8 + i``, none without a worm (R10–R12). Worked out at the
        keep, as the grill and the stacks do not change during a turn."""
        return self._stop_claims[rows]

    def stealable(self, rows: np.ndarray) -> np.ndarray:
        """The top tiles of the other players' stacks in ``rows``, as tile masks."""
        return self._stealable(self._seats(rows))

    def _stealable(self, seats: np.ndarray) -> np.ndarray:
        """The other players' top tiles, as tile masks, for players at flat ``seats``."""
        return TILE_BIT[self._tops[self._others.take(seats, axis=0)]].sum(axis=1)

    def _claims(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The claim masks the totals of ``rows`` give their current players (at flat
        ``seats``), as :meth:`stop_claims` says."""
        claims = self._grill_claims[(self.total[rows] << NUM_TILES) | self.grill[rows]]
        others = self._stealable(seats) << NUM_TILES
        claims = claims & (others | ALL_TILES)  # R11b: the exact tile on another's stack
        if self.rules.exact_match_mandatory:  # R12 option
            claims = np.where(claims > ALL_TILES, claims & ~ALL_TILES, claims)
        return claims * (self._kept_worms[rows] != 0)

    # ------------------------------------------------------------ transitions
    def apply_rolls(self, rows: np.ndarray, outcomes: np.ndarray) -> None:
        """The outcomes (indices into :data:`OUTCOMES`) of the pending rolls of ``rows``
        (R5); a roll without a new face is a bust (R7)."""
        new = (SHOWN[outcomes] & ~self.kept_mask[rows]) != 0
        self.roll[rows] = outcomes  # a bust's next turn clears it again
        self.phase[rows] = KEEP
        busts = rows[~new]
        if busts.size:
            self._bust(busts, self._seats(busts))
            self._next_turn(busts)

    def apply_actions(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """Legal decisions for the current players of ``rows``, by action id."""
        keep = actions < ROLL_ID
        kept = np.count_nonzero(keep)
        if kept == rows.size:
            self._next_turn(self._end_turn(*self._keep(rows, actions)))
            return
        stops = rows[actions == STOP_ID]
        ended = [self._end_turn(stops, self._seats(stops), self._stop_claims[stops])]
        self.phase[rows[actions == ROLL_ID]] = ROLL
        if kept:
            ended.append(self._end_turn(*self._keep(rows[keep], actions[keep])))
        claim = actions >= TAKE_BASE
        if np.count_nonzero(claim):
            claimed = actions[claim] - TAKE_BASE
            ended.append(self._claim(rows[claim], claimed % NUM_TILES, claimed >= NUM_TILES))
        self._next_turn(np.concatenate(ended))

    def _keep(
        self, rows: np.ndarray, faces: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Keep ``faces`` of the rolls of ``rows``; returns the rows whose turn ends as if
        stopped (R8), with their flat seats and claims."""
        kept = self.roll[rows] * 6 + faces
        count = _COUNTS[kept]
        self._kept[rows * 6 + faces] = count
        kept_mask = self.kept_mask[rows] | FACE_BITS[faces]
        dice_left = self.dice_left[rows] - count
        self.kept_mask[rows] = kept_mask
        self.dice_left[rows] = dice_left
        self.total[rows] += _POINTS[kept]
        self.roll[rows] = 0
        self.phase[rows] = ROLL_OR_STOP
        seats = self._seats(rows)
        claims = self._claims(rows, seats)
        self._stop_claims[rows] = claims
        over = (dice_left == 0) | (kept_mask == ALL_FACES)  # R8
        if np.count_nonzero(over):
            return rows[over], seats[over], claims[over]
        return rows[:0], seats[:0], claims[:0]

    def _end_turn(self, rows: np.ndarray, seats: np.ndarray, claims: np.ndarray) -> np.ndarray:
        """End the turns of ``rows`` (current players at flat ``seats``) by their claims: a
        bust (R13), the one claim taken (R12), or a choice among several; returns the rows
        whose turn is over."""
        if not rows.size:
            return rows
        takes = claims & ALL_TILES
        either = takes | (claims >> NUM_TILES)  # a steal is never a grill tile
        count = POPCOUNT[either]
        busts = count == 0
        if np.count_nonzero(busts):  # R13
            self._bust(rows[busts], seats[busts])
        one = count == 1  # R12: the one claim is taken
        if np.count_nonzero(one):
            self._claim_at(rows[one], seats[one], HIGHEST[either[one]], takes[one] == 0)
        choose = count > 1
        if np.count_nonzero(choose):
            chooser = rows[choose]
            self.phase[chooser] = CLAIM
            self.claims[chooser] = claims[choose]
            return rows[~choose]
        return rows

    def _claim(self, rows: np.ndarray, tiles: np.ndarray, steal: np.ndarray) -> np.ndarray:
        self._claim_at(rows, self._seats(rows), tiles, steal)
        return rows

    def _claim_at(
        self, rows: np.ndarray, seats: np.ndarray, tiles: np.ndarray, steal: np.ndarray
    ) -> None:
        """The current players (at flat ``seats``) of ``rows`` take or steal ``tiles``."""
        self.grill[rows] &= ~TILE_BIT[tiles]  # a stolen tile is not on the grill
        if np.count_nonzero(steal):
            thief, stolen = rows[steal], tiles[steal]
            victims = (self.tops[thief] == stolen[:, None]).argmax(axis=1)  # tiles are unique
            self._pop(thief * self.players + victims)
        self._push(seats, tiles)  # R14

    def _bust(self, rows: np.ndarray, seats: np.ndarray) -> None:
        """The current players (at flat ``seats``) of ``rows`` return their top tile, and
        the highest on the grill is turned face down (R15, R16)."""
        holds = self._heights[seats] > 0
        if not np.count_nonzero(holds):
            return
        losers = rows[holds]
        returned = self._pop(seats[holds])
        grill = self.grill[losers] | TILE_BIT[returned]
        highest = HIGHEST[grill]
        if self.rules.flip_returned_highest:
            flipped = TILE_BIT[highest]
        else:
            flipped = TILE_BIT[highest] * (highest != returned)
        self.grill[losers] = grill ^ flipped
        self.face_down[losers] |= flipped

    def _pop(self, seats: np.ndarray) -> np.ndarray:
        """Take the top tiles off the stacks at flat ``seats``."""
        tiles = self._tops[seats]
        height = self._heights[seats] - 1
        self._heights[seats] = height
        self._tops[seats] = self._below[seats * (NUM_TILES + 1) + height]
        self._worms[seats] -= WORMS[tiles]
        return tiles

    def _push(self, seats: np.ndarray, tiles: np.ndarray) -> None:
        """Put ``tiles`` on the stacks at flat ``seats``."""
        height = self._heights[seats] + 1
        self._below[seats * (NUM_TILES + 1) + height] = tiles
        self._heights[seats] = height
        self._tops[seats] = tiles
        self._worms[seats] += WORMS[tiles]

    def _next_turn(self, rows: np.ndarray) -> None:
        """The next player's turn in ``rows``, or the end of the games there (R17, R18)."""
        if not rows.size:
            return
        over = self.grill[rows] == 0  # R18
        if np.count_nonzero(over):
            ended = rows[over]
            self.phase[ended] = OVER
            self.roll[ended] = 0
            self.claims[ended] = 0
            rows = rows[~over]
        self.current[rows] = self._next_seat[self.current[rows]]  # R17
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
