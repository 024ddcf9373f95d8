"""What a learning agent sees, from its own seat: one encoder for every environment.

Seats are rotated so that index 0 is the observer, 1 the next player to the left, and so on.

=============  =====================  ==============================================
key            space                  meaning
=============  =====================  ==============================================
grill          MultiBinary(16)        1 where tile 21+i lies face up on the grill
face_down      MultiBinary(16)        1 where tile 21+i is turned face down
tops           MultiDiscrete(17 × P)  top tile of each seat's stack (0: empty)
                                      as tile − 20, i.e. 1..16
worms          Box(0, 40, P)          each seat's worm count (R19)
kept           Box(0, 8, 6)           dice kept this turn, per face 1..5, W
roll           Box(0, 8, 6)           the roll to keep from (zeros unless keeping)
total          Discrete(41)           total of the kept dice
dice_left      Discrete(9)            dice not kept yet
action_mask    MultiBinary(40)        1 for each legal action id (see core.actions)
=============  =====================  ==============================================

The flat form (PettingZoo's ``observation``) concatenates them, scaled to [0, 1], without
the mask: grill, face_down, tops/16, worms/40, kept/8, roll/8, total/40, dice_left/8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from pickomino.core import NUM_ACTIONS, GameState
from pickomino.core.rules import LOWEST_TILE, TILES

MAX_WORMS = 40
NUM_TILES = len(TILES)


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


def flat_size(players: int) -> int:
    return 2 * NUM_TILES + 2 * players + 14


def empty_batch(players: int, size: int) -> dict[str, np.ndarray]:
    """Zeroed arrays for ``size`` observations (the batched form of the space)."""
    return {
        "grill": np.zeros((size, NUM_TILES), np.int8),
        "face_down": np.zeros((size, NUM_TILES), np.int8),
        "tops": np.zeros((size, players), np.int64),
        "worms": np.zeros((size, players), np.int64),
        "kept": np.zeros((size, 6), np.int64),
        "roll": np.zeros((size, 6), np.int64),
        "total": np.zeros(size, np.int64),
        "dice_left": np.zeros(size, np.int64),
        "action_mask": np.zeros((size, NUM_ACTIONS), np.int8),
    }


#: Row ``m`` holds the 16 bits of tile mask ``m`` (1 MiB, built once): a mask → bits lookup.
_MASK_BITS = ((np.arange(1 << NUM_TILES)[:, None] >> np.arange(NUM_TILES)) & 1).astype(np.int8)


def observe_into(batch: dict[str, np.ndarray], row: int, state: GameState, seat: int) -> None:
    """Write the observation of ``seat`` into row ``row`` of a batch."""
    players = state.num_players
    order = [(seat + k) % players for k in range(players)]
    batch["grill"][row] = _MASK_BITS[state.grill_mask]
    batch["face_down"][row] = _MASK_BITS[state.face_down_mask]
    batch["tops"][row] = [
        state.stacks[s][-1] - LOWEST_TILE + 1 if state.stacks[s] else 0 for s in order
    ]
    batch["worms"][row] = [state.worms(s) for s in order]
    batch["kept"][row] = state.kept
    batch["roll"][row] = state.roll
    batch["total"][row] = state.total
    batch["dice_left"][row] = state.dice_left
    mask = batch["action_mask"][row]
    mask[:] = 0
    mask[state.legal_action_ids()] = 1


def observe(state: GameState, seat: int) -> dict[str, Any]:
    """The observation of ``seat`` (normally the player to move)."""
    batch = empty_batch(state.num_players, 1)
    observe_into(batch, 0, state, seat)
    observation: dict[str, Any] = {key: value[0] for key, value in batch.items()}
    observation["total"], observation["dice_left"] = state.total, state.dice_left
    return observation


def flatten(observation: dict[str, Any]) -> np.ndarray:
    """The flat, scaled vector of an observation (see the module docstring)."""
    return np.concatenate(
        [
            observation["grill"],
            observation["face_down"],
            np.asarray(observation["tops"]) / NUM_TILES,
            np.asarray(observation["worms"]) / MAX_WORMS,
            np.asarray(observation["kept"]) / 8,
            np.asarray(observation["roll"]) / 8,
            [observation["total"] / 40, observation["dice_left"] / 8],
        ]
    ).astype(np.float32)
