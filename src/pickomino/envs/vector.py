"""Many games stepped together, for throughput: ``gymnasium.make_vec(..., num_envs=N)``.

Observations come as one batch of arrays (the batched Dict space); a finished game is reset
in the same step (its last observation is in ``infos["final_obs"]``).

>>> import gymnasium as gym, numpy as np
>>> import pickomino.envs
>>> envs = gym.make_vec("pickomino/Pickomino-v1", num_envs=4, opponents="simple")
>>> observations, infos = envs.reset(seed=0)
>>> observations["action_mask"].shape
(4, 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pickomino.core import NUM_ACTIONS, Rules
from pickomino.envs.against_bots import GameAgainstBots, opponent_list
from pickomino.envs.spaces import empty_batch, observation_space, observe, observe_into


class PickominoVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        players: int = 2,
        opponents: str | Sequence[str] = "expected",
        rules: str | Rules = "official",
        reward: str = "worms",
        seat: int = 0,
        **_: Any,
    ) -> None:
        rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        names = opponent_list(opponents, players)
        self.tables = [GameAgainstBots(players, names, rules, reward) for _ in range(num_envs)]
        self.num_envs, self.seat, self.players = num_envs, seat, players
        self.single_observation_space = observation_space(players)
        self.single_action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._batch = empty_batch(players, num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        for row, table in enumerate(self.tables):
            table.reset(int(self.np_random.integers(2**63)), self.seat)
            observe_into(self._batch, row, table.state, self.seat)
        return {k: v.copy() for k, v in self._batch.items()}, {}

    def step(self, actions: np.ndarray):
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, bool)
        final: dict[int, dict[str, object]] = {}
        for row, (table, action) in enumerate(zip(self.tables, actions, strict=True)):
            refusal = table.refusal(int(action))
            if refusal is not None:
                raise ValueError(f"environment {row}: {refusal}")
            rewards[row] = table.step(int(action))
            if table.state.is_over:
                terminated[row] = True
                final[row] = observe(table.state, self.seat)
                table.reset(int(self.np_random.integers(2**63)), self.seat)
            observe_into(self._batch, row, table.state, self.seat)
        infos: dict[str, Any] = {}
        if final:
            infos["final_obs"] = np.array([final.get(i) for i in range(self.num_envs)], object)
            infos["_final_obs"] = terminated.copy()
        observations = {k: v.copy() for k, v in self._batch.items()}
        return observations, rewards, terminated, np.zeros(self.num_envs, bool), infos
