"""PettingZoo parallel environment for 2–7 learning agents: self-play with one policy for
every seat, or one per seat.

Pickomino is a turn game: at each step exactly one agent moves, the one whose observation
(and ``infos[agent]["action_mask"]``) has legal actions — the others' masks are all zeros.
``step(actions)`` reads only ``actions[env.agent_to_move]``; what the others send is
ignored (0, ``None``, anything, or no entry at all). PettingZoo's ``aec_to_parallel``
does not fit (it asks every agent for an action each step). The agent keeps the move
through every decision of its turn, as in :mod:`pickomino.envs.aec`, with which it shares
its game (:class:`~pickomino.envs.agents_table.AgentsTable`): the same observations,
rewards (every agent's, each step) and seeded dice. Observations, rewards and infos come for
every live agent each step; when the game ends every agent is terminated at once and
``agents`` is empty. An illegal or missing action of the agent to move raises
``ValueError`` and changes nothing.

>>> from pickomino.envs.parallel import parallel_env
>>> env = parallel_env(players=3)
>>> observations, infos = env.reset(seed=4)
>>> env.agent_to_move, [int(infos[a]["action_mask"].sum() > 0) for a in env.agents]
('player_0', [1, 0, 0])
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from pickomino.core import GameState, Rules
from pickomino.envs.agents_table import AgentsTable, Observation

Infos = dict[str, dict[str, Any]]


def parallel_env(**kwargs: Any) -> PickominoParallelEnv:
    """The environment (``players``, ``rules``, ``reward``, ``render_mode``), unwrapped:
    PettingZoo's parallel wrappers add nothing a turn game needs."""
    return PickominoParallelEnv(**kwargs)


class PickominoParallelEnv(ParallelEnv[str, Observation, Any]):
    metadata = {"name": "pickomino_v1", "render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 2,
        rules: str | Rules = "official",
        reward: str = "worms",
        render_mode: str | None = None,
    ) -> None:
        self.table = AgentsTable(players, rules, reward)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.agents = list(self.possible_agents)

    @property
    def state(self) -> GameState:  # the game itself (PettingZoo: a global state array)
        return self.table.state

    @property
    def agent_to_move(self) -> str:
        return self.table.agent_to_move

    def observation_space(self, agent: str) -> spaces.Space:
        return self.table.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.table.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], Infos]:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observations()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], Infos]:
        if not self.agents:
            raise ValueError("the game is over: reset to start a new one")
        mover = self.table.agent_to_move
        if mover not in actions:
            raise ValueError(f"no action for {mover}, the agent to move")
        rewards = dict(zip(self.agents, self.table.play(actions[mover]), strict=True))
        over = self.table.state.is_over
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        observations, infos = self._observations()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> tuple[dict[str, Observation], Infos]:
        observations = {a: self.table.observe(a) for a in self.agents}
        infos = {a: {"action_mask": o["action_mask"]} for a, o in observations.items()}
        return observations, infos

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.table.render()
        return None

    def close(self) -> None:
        pass
