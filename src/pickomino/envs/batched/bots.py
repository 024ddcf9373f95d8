"""The bots that run over a whole batch: ``random``, ``simple`` and ``expected`` (through
cached solver tables), making the same choices as :mod:`pickomino.bots.basic` makes one game
at a time (``tests/test_batched.py`` checks them decision by decision).

A batched bot is a function ``(games, rows, rng) -> action ids`` for the rows whose current
player it seats.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pickomino.core.actions import KEEP_BASE, ROLL_ID, STOP_ID, TAKE_BASE
from pickomino.core.rules import WORM
from pickomino.envs.batched.engine import (
    CLAIM,
    FACE_BITS,
    KEEP,
    OUTCOMES,
    POINTS,
    ROLL_OR_STOP,
    WORMS,
    BatchedGames,
)
from pickomino.envs.batched.solver_tables import situations, solver_tables

BatchedBot = Callable[[BatchedGames, np.ndarray, np.random.Generator], np.ndarray]

#: What a claim (action ``8 + i``) is worth to the simple bot: its worms, twice for a steal.
_CLAIM_VALUE = np.concatenate([WORMS, 2 * WORMS])
_CLAIM_BITS = np.arange(len(_CLAIM_VALUE))
_FACES = np.arange(6)


def random_bot(games: BatchedGames, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniform over the legal actions (as :class:`~pickomino.bots.basic.RandomBot`)."""
    mask = games.action_mask(rows)
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def _simple_keeps() -> np.ndarray:
    """``[roll outcome, kept faces mask]`` → the simple bot's keep: worms once two faces are
    kept, else the best count x points, a tie going to the higher face (a worm highest)."""
    kept = (np.arange(64)[:, None] >> _FACES) & 1  # [kept mask, face]
    worms_now = (_FACES == WORM) & (kept[:, WORM] == 0)[:, None] & (kept.sum(axis=1) >= 2)[:, None]
    counts = OUTCOMES[:, None, :]
    score = worms_now * 1000 + counts * POINTS * 10 + _FACES
    legal = (counts > 0) & (kept == 0)
    return np.where(legal, score, -1).argmax(axis=2) + KEEP_BASE


SIMPLE_KEEPS = _simple_keeps()
_KEEPS = SIMPLE_KEEPS.reshape(-1)  # [roll outcome * 64 + kept faces mask]


def simple_bot(games: BatchedGames, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The rule-of-thumb heuristic of :class:`~pickomino.bots.basic.SimpleBot`: the keep
    above, stop as soon as a tile can be claimed, the best claim (below)."""
    del rng  # deterministic
    phase = games.phase[rows]
    actions = _KEEPS[(games.roll[rows] << 6) | games.kept_mask[rows]]
    deciding = phase == ROLL_OR_STOP
    if np.count_nonzero(deciding):
        can_claim = games.stop_claims(rows[deciding]) != 0
        actions[deciding] = np.where(can_claim, STOP_ID, ROLL_ID)
    claiming = phase == CLAIM
    if np.count_nonzero(claiming):
        actions[claiming] = _best_claims(games, rows[claiming])
    return actions


def _best_claims(games: BatchedGames, rows: np.ndarray) -> np.ndarray:
    """The claim worth the most worms to us (a steal twice, as it costs the victim too; the
    first in id order on a tie): the simple bot's and the expected bot's."""
    claims = games.claims[rows, None] >> _CLAIM_BITS & 1
    return np.where(claims == 1, _CLAIM_VALUE, -1).argmax(axis=1) + TAKE_BASE


def expected_bot(games: BatchedGames, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The exact solver's best play for the turn's expected worm gain, as
    :class:`~pickomino.bots.basic.ExpectedBot`: each row's situation solved once and looked
    up in :mod:`~pickomino.envs.batched.solver_tables`; a keep that leads to the highest
    value (the lowest face on a tie), roll where the solver rolls, the best claim."""
    del rng  # deterministic
    tables = solver_tables(games.rules)
    phase = games.phase[rows]
    actions = np.empty(rows.size, np.int64)
    claiming = phase == CLAIM
    if claiming.any():
        actions[claiming] = _best_claims(games, rows[claiming])
    playing = rows[~claiming]
    if not playing.size:
        return actions
    slots = tables.slots(situations(games, playing))
    mask, dice, total = games.kept_mask[playing], games.dice_left[playing], games.total[playing]
    keeping = phase[~claiming] == KEEP
    counts = OUTCOMES[games.roll[playing[keeping]]]  # [row, face]
    after = tables.node[
        mask[keeping, None] | FACE_BITS,
        dice[keeping, None] - counts,
        total[keeping, None] + counts * POINTS,
    ]
    value = tables.values[slots[keeping, None], after]
    legal = (counts > 0) & (mask[keeping, None] & FACE_BITS == 0)
    keeps = np.where(legal, value, -np.inf).argmax(axis=1) + KEEP_BASE
    rolls = tables.rolls[slots, tables.node[mask, dice, total]]
    decided = np.where(rolls, ROLL_ID, STOP_ID)
    decided[keeping] = keeps
    actions[~claiming] = decided
    return actions


BATCHED_BOTS: dict[str, BatchedBot] = {
    "random": random_bot,
    "simple": simple_bot,
    "expected": expected_bot,
}
