"""One game between a learning agent's seat and bots: the part every environment shares."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pickomino.bots import make_bot
from pickomino.core import GameState, Rules
from pickomino.table import Person, Player, SeededDice, advance

REWARDS = ("worms", "win")


def win_rewards(state: GameState) -> list[float]:
    """The ``"win"`` reward of every seat at the end: 1 for a win (1/k for a win shared by
    k), −1 for a loss."""
    winners = state.winners()
    return [1.0 / len(winners) if s in winners else -1.0 for s in range(state.num_players)]


def opponent_list(opponents: str | Sequence[str], players: int) -> list[str]:
    """One bot name per other seat; a single name fills them all. Unknown names fail here."""
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [name.strip() for name in names]
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise ValueError(f"give one opponent bot, or {players - 1} (one per other seat)")
    for name in names:
        make_bot(name)
    return names


class GameAgainstBots:
    """A game where ``seat`` is the agent's and every other seat a bot.

    Rewards: ``"worms"`` is the change in the agent's worms since its previous decision
    (tiles won, and tiles lost to busts and steals); ``"win"`` is paid at the end only:
    1 for a win (1/k for a win shared by k), −1 for a loss.
    """

    def __init__(self, players: int, opponents: Sequence[str], rules: Rules, reward: str) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        GameState(players)  # refuses a player count outside 2..7 (R1)
        self.players, self.opponents, self.rules, self.reward = players, opponents, rules, reward
        self.state = GameState(players, rules)
        self.seat = 0

    def reset(self, seed: int, seat: int) -> None:
        rng = random.Random(seed)
        self.seat = seat
        others = [s for s in range(self.players) if s != seat]
        seated: list[Player] = [Person()] * self.players
        for s, name in zip(others, self.opponents, strict=True):
            seated[s] = make_bot(name, rng.getrandbits(32))
        self.seated, self.dice = seated, SeededDice(rng=rng)
        self.state = GameState(self.players, self.rules)
        advance(self.state, self.seated, self.dice)
        self.worms = self.state.worms(seat)

    def refusal(self, action: int) -> str | None:
        """Why ``action`` cannot be played now, or None when it can."""
        state = self.state
        if state.is_over:
            return "the game is over: reset to start a new one"
        if action in state.legal_action_ids():
            return None
        legal = ", ".join(f"{a.id} ({a.name})" for a in state.legal_actions())
        return f"action {action} is not legal now; legal: {legal}"

    def step(self, action: int) -> float:
        """Play the agent's legal action, then the dice and the bots up to the agent's next
        decision; returns the reward. Check :meth:`refusal` first."""
        state = self.state
        state.apply(action)
        advance(state, self.seated, self.dice)
        worms, before = state.worms(self.seat), self.worms
        self.worms = worms
        if self.reward == "worms":
            return float(worms - before)
        return win_rewards(state)[self.seat] if state.is_over else 0.0
