"""The fast bots over a whole batch: the same choices as :mod:`pickomino.bots.basic` makes
one game at a time (``tests/test_batched.py`` checks them decision by decision).

A batched bot is a function ``(games, rows, mask, rng) -> action ids`` for rows whose
current player it seats, ``mask`` being those rows' :meth:`BatchedGames.action_mask`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pickomino.core.actions import KEEP_BASE, ROLL_ID, STOP_ID, TAKE_BASE
from pickomino.core.rules import WORM
from pickomino.envs.batched.engine import CLAIM, KEEP, POINTS, WORMS, BatchedGames

BatchedBot = Callable[[BatchedGames, np.ndarray, np.ndarray, np.random.Generator], np.ndarray]

#: What a claim (action ``8 + i``) is worth to the simple bot: its worms, twice for a steal.
_CLAIM_VALUE = np.concatenate([WORMS, 2 * WORMS])
_FACES = np.arange(6)


def random_bot(
    games: BatchedGames, rows: np.ndarray, mask: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Uniform over the legal actions (as :class:`~pickomino.bots.basic.RandomBot`)."""
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def simple_bot(
    games: BatchedGames, rows: np.ndarray, mask: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """The rule-of-thumb heuristic of :class:`~pickomino.bots.basic.SimpleBot`."""
    del rng  # deterministic
    phase = games.phase[rows]
    kept = games.kept[rows]
    # keep: worms once two faces are kept, else the best count x points, ties to the higher face
    worms_now = (_FACES == WORM) & (kept[:, WORM] == 0)[:, None]
    worms_now &= ((kept > 0).sum(axis=1) >= 2)[:, None]
    score = worms_now * 1000 + games.roll[rows] * POINTS * 10 + _FACES
    keep = np.where(mask[:, KEEP_BASE : KEEP_BASE + 6], score, -1).argmax(axis=1) + KEEP_BASE
    # claim: the tile worth the most worms to us (the first in id order on a tie)
    value = np.where(mask[:, TAKE_BASE:], _CLAIM_VALUE, -1)
    claim = value.argmax(axis=1) + TAKE_BASE
    # roll or stop: stop as soon as a tile can be claimed
    can_claim = (kept[:, WORM] > 0) & (games.claims_for(rows) != 0)
    roll_or_stop = np.where(can_claim, STOP_ID, ROLL_ID)
    return np.where(phase == KEEP, keep, np.where(phase == CLAIM, claim, roll_or_stop))


BATCHED_BOTS: dict[str, BatchedBot] = {"random": random_bot, "simple": simple_bot}
