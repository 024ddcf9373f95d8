"""The valued bot: each turn solved exactly, its endings valued by the win-value network
learned by self-play (:mod:`pickomino.evaluation`): every keep, roll, stop and claim aims at
the highest chance to win the game. Under rules no network was trained for (every network
learned the official rules) it plays as the strategist does.
"""

from __future__ import annotations

from pickomino.bots.base import register
from pickomino.bots.strategist import StrategistBot
from pickomino.core import Action, GameState, Phase
from pickomino.evaluation import WinNetwork, network_for, turn_tables, win_chances
from pickomino.solver import solve
from pickomino.solver.advice import best_action
from pickomino.solver.solve import TurnSolution


@register("valued")
class ValuedBot:
    """Maximises its learned win chance over its own turn (see the module docstring)."""

    name = "valued"

    def __init__(self, seed: int = 0) -> None:
        self._fallback = StrategistBot(seed)
        self._turn: tuple[tuple[int, int], TurnSolution] | None = None

    def network(self, state: GameState) -> WinNetwork | None:
        """The network it plays by: the shipped one for the table (a benchmark may try
        another, ``benchmarks/network_match.py``)."""
        return network_for(state)

    def choose(self, state: GameState) -> Action:
        network = self.network(state)
        if network is None:
            return self._fallback.choose(state)
        if state.phase is Phase.CLAIM:
            endings = dict(state.endings(state.total))
            actions = state.legal_actions()
            chances = win_chances([endings[action] for action in actions], network)
            return actions[int(chances[:, state.current].argmax())]
        key = (state.turn, state.current)  # the table is fixed for the whole turn
        if self._turn is None or self._turn[0] != key:
            self._turn = (key, solve(turn_tables(state, network)[state.current]))
        return best_action(state, self._turn[1])
