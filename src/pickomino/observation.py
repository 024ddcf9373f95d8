"""What a learning agent sees, from its own seat: one encoder for every environment and for
the learned bot (NumPy only, so that bots can use it without the ``rl`` extra; the Gymnasium
space is in :mod:`pickomino.envs.spaces`).

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

from functools import cache
from typing import Any

import numpy as np

from pickomino.core import NUM_ACTIONS, GameState
from pickomino.core.rules import LOWEST_TILE, TILES

MAX_WORMS = 40
NUM_TILES = len(TILES)


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
MASK_BITS = ((np.arange(1 << NUM_TILES)[:, None] >> np.arange(NUM_TILES)) & 1).astype(np.int8)


def observe_into(batch: dict[str, np.ndarray], row: int, state: GameState, seat: int) -> None:
    """Write the observation of ``seat`` into row ``row`` of a batch."""
    players = state.num_players
    order = [(seat + k) % players for k in range(players)]
    batch["grill"][row] = MASK_BITS[state.grill_mask]
    batch["face_down"][row] = MASK_BITS[state.face_down_mask]
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
    return flatten_batch({key: np.asarray(value)[None] for key, value in observation.items()})[0]


#: Each tile mask's 16 bits as the flat form has them (float32).
MASK_FLOATS = MASK_BITS.astype(np.float32)


@cache
def _divisors(players: int) -> np.ndarray:
    """What the flat form divides the numbers after the two masks by (see the docstring)."""
    return np.array([NUM_TILES] * players + [MAX_WORMS] * players + [8] * 12 + [40, 8], float)


def flat_observation(state: GameState, seat: int) -> np.ndarray:
    """``flatten(observe(state, seat))`` straight from the state, equal to it to the bit:
    the per-agent path of the multi-agent environments, which observe every seat at every
    step (they take 2–3× the steps a second this way: ``benchmarks/agents_speed.py``)."""
    players = state.num_players
    order = [(seat + k) % players for k in range(players)]
    stacks = state.stacks
    numbers = [stacks[s][-1] - LOWEST_TILE + 1 if stacks[s] else 0 for s in order]
    numbers += [state.worms(s) for s in order]
    numbers += [*state.kept, *state.roll, state.total, state.dice_left]
    scaled = (np.array(numbers, float) / _divisors(players)).astype(np.float32)
    return np.concatenate(
        [MASK_FLOATS[state.grill_mask], MASK_FLOATS[state.face_down_mask], scaled]
    )


def flatten_batch(batch: dict[str, np.ndarray]) -> np.ndarray:
    """The flat, scaled vectors of a batch of observations, one row each (for policies
    that read the vector environments' batches)."""
    return np.concatenate(
        [
            batch["grill"],
            batch["face_down"],
            batch["tops"] / NUM_TILES,
            batch["worms"] / MAX_WORMS,
            batch["kept"] / 8,
            batch["roll"] / 8,
            batch["total"][:, None] / 40,
            batch["dice_left"][:, None] / 8,
        ],
        axis=1,
    ).astype(np.float32)
