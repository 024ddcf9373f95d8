"""One game where every seat is a learning agent's: what the PettingZoo environments share
(the AEC one in :mod:`pickomino.envs.aec`, the parallel one in
:mod:`pickomino.envs.parallel`), so that both play, observe and reward alike.

Agents are ``player_0`` … in seat order. The agent to move is the core's current player: it
keeps the move through every decision of its turn (keep, roll, stop, claim) and hands it on
only when the turn ends, by a claim or a bust. ``reset(seed)`` rolls the dice from
``SeededDice(seed)``, so one seed gives one game for the same actions.
"""

from __future__ import annotations

import operator

import numpy as np
from gymnasium import spaces

from pickomino.core import NUM_ACTIONS, GameState, Rules
from pickomino.envs.against_bots import REWARDS, win_rewards
from pickomino.envs.spaces import flat_observation, flat_size
from pickomino.table import Person, SeededDice, advance

#: An observation: the flat vector and the mask of legal action ids (PettingZoo's classic
#: games' form), the mask all zeros for every agent but the one to move.
Observation = dict[str, np.ndarray]


class AgentsTable:
    """Rewards: ``"worms"`` gives every agent the change in its worms caused by each
    decision (a steal rewards the thief and costs the victim); ``"win"`` gives at the end 1
    to a winner (1/k for a win shared by k) and −1 to the others, 0 before."""

    def __init__(self, players: int, rules: str | Rules, reward: str) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        GameState(players)  # refuses a player count outside 2..7 (R1)
        self.players, self.reward = players, reward
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.agents = [f"player_{seat}" for seat in range(players)]
        flat = spaces.Box(0.0, 1.0, (flat_size(players),), np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": flat, "action_mask": mask}) for a in self.agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.agents}
        self._people = [Person()] * players  # every seat is an agent's: the loop stops there
        self.reset(None)

    def reset(self, seed: int | None) -> None:
        self._dice = SeededDice(seed)
        self.state = GameState(self.players, self.rules)
        advance(self.state, self._people, self._dice)

    @property
    def agent_to_move(self) -> str:
        return self.agents[self.state.current]

    def observe(self, agent: str) -> Observation:
        seat = self.agents.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if seat == self.state.current:  # only the player to move has legal actions
            mask[self.state.legal_action_ids()] = 1
        return {"observation": flat_observation(self.state, seat), "action_mask": mask}

    def play(self, action: object) -> list[float]:
        """Play a legal action id of the agent to move, then the dice up to the next
        decision; returns every seat's reward. Anything else raises ``ValueError`` and
        changes nothing."""
        state = self.state
        if state.is_over:
            raise ValueError("the game is over: reset to start a new one")
        try:
            action_id = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            action_id = -1
        if action_id not in state.legal_action_ids():
            legal = ", ".join(f"{a.id} ({a.name})" for a in state.legal_actions())
            given = repr(action)[:20]
            mover = self.agent_to_move
            raise ValueError(f"action {given} is not legal for {mover} now; legal: {legal}")
        before = state.scores()
        state.apply(action_id)
        advance(state, self._people, self._dice)
        if self.reward == "worms":
            return [float(a - b) for a, b in zip(state.scores(), before, strict=True)]
        return win_rewards(state) if state.is_over else [0.0] * self.players

    def render(self) -> str:
        from pickomino.i18n import Words  # words load only when a game is shown
        from pickomino.i18n.text import render_state

        return render_state(self.state, self.agents, Words())
