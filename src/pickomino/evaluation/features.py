"""What the value function reads of a position at a turn's start, from the mover's side:
each seat in turn order from the mover (its worms, its lead over the best other, the worms
under its top tile, its highest tile, its stack's height, which tile is on top), then the
grill (which tiles are face up, their worms, how many).

>>> from pickomino.core import GameState
>>> features(GameState(2)).shape == (feature_count(2),) == (60,)
True
"""

from __future__ import annotations

import numpy as np

from pickomino.core import GameState, worms_on
from pickomino.core.rules import TILES

SEAT_FEATURES = 5 + len(TILES)
GRILL_FEATURES = len(TILES) + 2


def feature_count(players: int) -> int:
    """How many numbers :func:`features` gives for a table of ``players``."""
    return players * SEAT_FEATURES + GRILL_FEATURES


def features(state: GameState) -> np.ndarray:
    """The numbers a value function reads of ``state`` (see the module docstring)."""
    players, mover = state.num_players, state.current
    scores = state.scores()
    out = np.zeros(feature_count(players))
    for place in range(players):
        seat = (mover + place) % players
        stack = state.stacks[seat]
        best_other = max(scores[other] for other in range(players) if other != seat)
        at = place * SEAT_FEATURES
        out[at : at + 5] = (
            scores[seat] / 10,
            (scores[seat] - best_other) / 10,
            worms_on(stack[-2]) / 4 if len(stack) > 1 else 0.0,
            (max(stack) - TILES[0] + 1) / len(TILES) if stack else 0.0,
            len(stack) / 8,
        )
        if stack:
            out[at + 5 + stack[-1] - TILES[0]] = 1.0
    grill = state.grill
    at = players * SEAT_FEATURES
    for tile in grill:
        out[at + tile - TILES[0]] = 1.0
    out[-2] = sum(worms_on(tile) for tile in grill) / 10
    out[-1] = len(grill) / len(TILES)
    return out
