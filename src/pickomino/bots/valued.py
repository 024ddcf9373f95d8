"""The valued bot: each turn solved exactly, its endings valued by the win-value network
learned by self-play (:mod:`pickomino.evaluation`), and at the last tiles after the next
player's best reply (with two players, further still): the search of the review and the Hint
(:class:`LearnedPlanner`), so every keep, roll, stop and claim aims at the highest chance to
win the game as they value it.
Under rules no network was trained for (every network learned the official rules) it plays as
the strategist does.
"""

from __future__ import annotations

from pickomino.bots.base import register
from pickomino.bots.planners import LearnedPlanner
from pickomino.bots.strategist import Planner, StrategistBot
from pickomino.core import GameState
from pickomino.evaluation import WinNetwork, network_for


@register("valued")
class ValuedBot(StrategistBot):
    """Maximises its learned win chance by the review's search (see the module docstring)."""

    name = "valued"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._learned: LearnedPlanner | None = None

    def network(self, state: GameState) -> WinNetwork | None:
        """The network it plays by: the shipped one for the table (a benchmark may try
        another, ``benchmarks/network_match.py``)."""
        return network_for(state)

    def planner(self, state: GameState) -> Planner:
        network = self.network(state)
        if network is None:
            return super().planner(state)
        if self._learned is None or self._learned.network is not network:
            self._learned = LearnedPlanner(network)
        return self._learned
