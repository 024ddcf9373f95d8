"""The observation as a Gymnasium space; the encoder itself is :mod:`pickomino.observation`
(the table of keys is there)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from pickomino.core import NUM_ACTIONS
from pickomino.observation import (
    MAX_WORMS,
    NUM_TILES,
    empty_batch,
    flat_observation,
    flat_size,
    flatten,
    flatten_batch,
    observe,
    observe_into,
)

__all__ = [
    "empty_batch",
    "flat_observation",
    "flat_size",
    "flatten",
    "flatten_batch",
    "observation_space",
    "observe",
    "observe_into",
]


def observation_space(players: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "grill": spaces.MultiBinary(NUM_TILES),
            "face_down": spaces.MultiBinary(NUM_TILES),
            "tops": spaces.MultiDiscrete([NUM_TILES + 1] * players),
            "worms": spaces.Box(0, MAX_WORMS, (players,), np.int64),
            "kept": spaces.Box(0, 8, (6,), np.int64),
            "roll": spaces.Box(0, 8, (6,), np.int64),
            "total": spaces.Discrete(41),
            "dice_left": spaces.Discrete(9),
            "action_mask": spaces.MultiBinary(NUM_ACTIONS),
        }
    )
