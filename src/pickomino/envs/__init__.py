"""Environments for learning code (optional extra ``pickomino[rl]``).

Importing this package registers ``pickomino/Pickomino-v1`` with Gymnasium, with a
vectorised version for ``gymnasium.make_vec`` (any bot, one game object per env), and
``pickomino/PickominoBatched-v1``, the batched arrays engine for ``make_vec`` only (fast
bots, thousands of games per step); the PettingZoo environments are
:func:`pickomino.envs.aec.env` (AEC) and :func:`pickomino.envs.parallel.parallel_env`
(parallel, for self-play).
"""

import gymnasium

from pickomino.envs.gym_env import PickominoEnv
from pickomino.envs.vector import PickominoVectorEnv

gymnasium.register(
    id="pickomino/Pickomino-v1",
    entry_point="pickomino.envs.gym_env:PickominoEnv",
    vector_entry_point="pickomino.envs.vector:PickominoVectorEnv",
)
gymnasium.register(
    id="pickomino/PickominoBatched-v1",
    vector_entry_point="pickomino.envs.batched.vector:PickominoBatchedEnv",
)

__all__ = ["PickominoEnv", "PickominoVectorEnv"]
