"""PettingZoo AEC environment for 2–7 learning agents, following the classic games:
``observe(agent)`` gives ``{"observation": flat vector, "action_mask": int8[40]}``.

Agents are ``player_0`` … in seat order; ``agent_selection`` is whoever must decide. Dice
are rolled inside ``step``. Rewards: ``"worms"`` (default) gives every agent the change in
its worms caused by each step (so a steal rewards the thief and costs the victim);
``"win"`` gives at the end 1 to a winner (1/k for a win shared by k) and −1 to the others.

>>> from pickomino.envs.aec import env
>>> game = env(players=3)
>>> game.reset(seed=4)
>>> game.agent_selection, game.observe("player_0")["action_mask"].sum() > 0
('player_0', np.True_)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pickomino.core import NUM_ACTIONS, GameState, Rules
from pickomino.envs.observation import flat_size, flatten, observe
from pickomino.envs.table import REWARDS
from pickomino.i18n import Words
from pickomino.i18n.text import render_state
from pickomino.table import Person, SeededDice, advance


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
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        GameState(players)  # refuses a player count outside 2..7 (R1)
        self.players, self.reward_kind, self.render_mode = players, reward, render_mode
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        flat = spaces.Box(0.0, 1.0, (flat_size(players),), np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": flat, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._dice = SeededDice(seed)
        self._people = [Person()] * self.players  # every seat is an agent's
        self.state = GameState(self.players, self.rules)
        advance(self.state, self._people, self._dice)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        observation = observe(self.state, seat)
        if seat != self.state.current:  # only the player to move has legal actions
            observation["action_mask"] = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": flatten(observation), "action_mask": observation["action_mask"]}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        if action is None or int(action) not in state.legal_action_ids():
            legal = ", ".join(f"{a.id} ({a.name})" for a in state.legal_actions())
            raise ValueError(f"action {action} is not legal for {agent} now; legal: {legal}")
        before = state.scores()
        state.apply(int(action))
        advance(state, self._people, self._dice)
        self._cumulative_rewards[agent] = 0.0
        after = state.scores()
        if self.reward_kind == "worms":
            self.rewards = {a: float(after[s] - before[s]) for s, a in enumerate(self.agents)}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        if state.is_over:
            winners = state.winners()
            if self.reward_kind == "win":
                self.rewards = {
                    a: 1.0 / len(winners) if s in winners else -1.0
                    for s, a in enumerate(self.agents)
                }
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.agents[state.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return render_state(self.state, self.possible_agents, Words())
        return None

    def close(self) -> None:
        pass
