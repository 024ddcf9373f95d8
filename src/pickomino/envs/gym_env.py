"""Gymnasium single-agent environment: the agent against bots.

>>> import gymnasium as gym
>>> import pickomino.envs  # registers the environments
>>> env = gym.make("pickomino/Pickomino-v1", players=3, opponents="simple")
>>> observation, info = env.reset(seed=1)
>>> int(observation["action_mask"].sum()) >= 1
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from pickomino.core import NUM_ACTIONS, Rules
from pickomino.envs.against_bots import GameAgainstBots, opponent_list
from pickomino.envs.spaces import observation_space, observe


class LegalActions(gym.spaces.Discrete):
    """``Discrete(40)`` whose ``sample()`` draws among the actions legal right now, so that
    random agents and checkers sampling the space act legally; a given ``mask`` or
    ``probability`` is used as usual. Every id stays in the space; an illegal one is
    refused by ``step`` with an error that lists the legal ones."""

    def __init__(self, legal_mask: Callable[[], np.ndarray]) -> None:
        super().__init__(NUM_ACTIONS)
        self.legal_mask = legal_mask

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None):
        if mask is None and probability is None:
            mask = self.legal_mask()
        return super().sample(mask=mask, probability=probability)


class PickominoEnv(gym.Env):
    """One game per episode. The agent takes ``seat`` (or a random seat each episode when
    None); the bots ``opponents`` take the others. Dice and bot turns happen inside
    ``step``. See :class:`~pickomino.envs.against_bots.GameAgainstBots` for the rewards
    (``"worms"`` or ``"win"``) and :mod:`~pickomino.envs.spaces` for the observation.

    An action the mask rules out is refused: by default the step changes nothing, pays 0
    and says why in ``info["illegal_action"]``; with ``illegal="raise"`` it raises
    ``ValueError`` with the same message."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str] = "expected",
        rules: str | Rules = "official",
        reward: str = "worms",
        seat: int | None = 0,
        illegal: str = "refuse",
        render_mode: str | None = None,
    ) -> None:
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}")
        if illegal not in ("refuse", "raise"):
            raise ValueError(f"illegal must be 'refuse' or 'raise', not {illegal!r}")
        self.illegal = illegal
        rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.table = GameAgainstBots(players, opponent_list(opponents, players), rules, reward)
        self.fixed_seat, self.render_mode = seat, render_mode
        self.observation_space = observation_space(players)
        self.action_space = LegalActions(lambda: self.action_masks().astype(np.int8))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        players = self.table.players
        seat = self.fixed_seat
        if seat is None:
            seat = int(self.np_random.integers(players))
        self.table.reset(int(self.np_random.integers(2**63)), seat)
        return observe(self.table.state, seat), {}

    def step(self, action: int | np.integer):
        refusal = self.table.refusal(int(action))
        if refusal is None:
            reward, info = self.table.step(int(action)), {}
        elif self.illegal == "raise":
            raise ValueError(refusal)
        else:  # refused: nothing changes, and the info says why
            reward, info = 0.0, {"illegal_action": refusal}
        state = self.table.state
        return observe(state, self.table.seat), reward, state.is_over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the convention of maskable-policy libraries)."""
        return observe(self.table.state, self.table.seat)["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        seat = self.table.seat
        names = ["you" if s == seat else f"bot {s}" for s in range(self.table.players)]
        from pickomino.i18n import Words  # words load only when a game is shown
        from pickomino.i18n.text import render_state

        return render_state(self.table.state, names, Words())
