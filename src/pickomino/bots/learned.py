"""A bot that plays a policy trained by reinforcement learning (``scripts/train_ppo.py``).

The policy is a small multilayer perceptron over the flat observation of
:mod:`pickomino.envs.spaces`; its weights ship with the package as ``.npz`` and run in
NumPy, so playing needs neither PyTorch nor Gymnasium. It plays the legal action the policy
rates highest (greedy), so it is deterministic. The shipped policy knows 2-player games
only; at a table of another size it plays as ``simple`` does, so that any seat anywhere
(tournaments, the web, the terminal) can take it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from pickomino.bots.base import register
from pickomino.bots.basic import SimpleBot
from pickomino.core import Action, GameState
from pickomino.core.actions import ACTIONS
from pickomino.evaluation.weights import load_layers, save_layers
from pickomino.observation import flatten_batch, observe

#: The policy trained against ``simple`` in 2-player games, from a warm start that imitates
#: ``expected`` (see docs/learning.md, "A learned bot").
WEIGHTS = Path(__file__).with_name("learned_2p.npz")


class Policy:
    """The actor of the trained network: tanh layers, then one logit per action id."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], players: int) -> None:
        self.layers, self.players = layers, players

    @classmethod
    def load(cls, path: Path | str) -> Policy:
        return cls(*load_layers(path))

    def save(self, path: Path | str) -> None:
        save_layers(path, self.layers, self.players)

    def logits(self, flat: np.ndarray) -> np.ndarray:
        """The action logits of a batch of flat observations."""
        hidden = flat
        for weight, bias in self.layers[:-1]:
            hidden = np.tanh(hidden @ weight + bias)
        weight, bias = self.layers[-1]
        return hidden @ weight + bias

    def act(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        """The legal action with the highest logit, for each observation of a batch."""
        logits = self.logits(flatten_batch(batch))
        return np.where(batch["action_mask"] == 1, logits, -np.inf).argmax(axis=1)


@cache
def shipped_policy() -> Policy:
    return Policy.load(WEIGHTS)


@register("learned")
class LearnedBot:
    """The shipped PPO policy; ``simple`` at tables of another size than it learned on."""

    name = "learned"

    def __init__(self, seed: int = 0, policy: Policy | None = None) -> None:
        self.policy = policy or shipped_policy()
        self.fallback = SimpleBot(seed)

    def choose(self, state: GameState) -> Action:
        if state.num_players != self.policy.players:
            return self.fallback.choose(state)
        observation = observe(state, state.current)
        batch = {key: np.asarray(value)[None] for key, value in observation.items()}
        return ACTIONS[int(self.policy.act(batch)[0])]
