"""Environments for learning code (optional extra ``pickomino[rl]``).

Importing this package registers ``pickomino/Pickomino-v1`` with Gymnasium, with a
vectorised version for ``gymnasium.make_vec``; the PettingZoo AEC environment is
:func:`pickomino.envs.aec.env`.
"""

import gymnasium

from pickomino.envs.gym_env import PickominoEnv
from pickomino.envs.vector import PickominoVectorEnv

gymnasium.register(
    id="pickomino/Pickomino-v1",
    entry_point="pickomino.envs.gym_env:PickominoEnv",
    vector_entry_point="pickomino.envs.vector:PickominoVectorEnv",
)

__all__ = ["PickominoEnv", "PickominoVectorEnv"]
