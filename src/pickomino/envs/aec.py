"""PettingZoo AEC environment for 2–7 learning agents, following the classic games:
``observe(agent)`` gives ``{"observation": flat vector, "action_mask": int8[40]}``.

Agents are ``player_0`` … in seat order; ``agent_selection`` is whoever must decide, and
stays so through every decision of a turn until it ends by a claim or a bust. Dice are
rolled inside ``step``, from ``SeededDice(seed)`` after ``reset(seed)``. Rewards (per step,
for every agent; see :class:`~pickomino.envs.agents_table.AgentsTable`): ``"worms"``
(default), the change in each agent's worms; ``"win"``, ±1 at the end. For a parallel API
see :mod:`pickomino.envs.parallel`.

>>> from pickomino.envs.aec import env
>>> game = env(players=3)
>>> game.reset(seed=4)
>>> game.agent_selection, game.observe("player_0")["action_mask"].sum() > 0
('player_0', np.True_)
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pickomino.core import GameState, Rules
from pickomino.envs.agents_table import AgentsTable, Observation


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are (illegal moves end the
    game with a penalty only under the ``TerminateIllegalWrapper``; here they raise)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    metadata = {"name": "pickomino_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        rules: str | Rules = "official",
        reward: str = "worms",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = AgentsTable(players, rules, reward)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces

    @property
    def state(self) -> GameState:  # the game itself (PettingZoo: a global state array)
        return self.table.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.table.agent_to_move

    def observe(self, agent: str) -> Observation:
        return self.table.observe(agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rewards = self.table.play(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.agents, rewards, strict=True))
        if self.table.state.is_over:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.table.agent_to_move
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.table.render()
        return None

    def close(self) -> None:
        pass
