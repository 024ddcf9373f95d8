"""Exact dynamic programme over one turn, for any value of the turn's outcomes.

Backward induction over the turn graph (fewer dice left first) gives the value of every
state under the best policy; a forward pass of that policy gives the exact distribution of
how the turn ends.

>>> from pickomino.solver import TurnValues, solve
>>> solution = solve(TurnValues.at_least(21))   # P(worm and total >= 21) with 8 dice
>>> round(solution.start_value, 4)
0.893
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cached_property, lru_cache

import numpy as np

from pickomino.solver.graph import TurnGraph, turn_graph
from pickomino.solver.turns import MAX_TOTAL, TIE, Outlook, kept_state
from pickomino.solver.values import TurnValues


class TurnSolution:
    """The values of every turn state for one value table, and the policy they imply."""

    def __init__(self, values: TurnValues, graph: TurnGraph | None = None) -> None:
        graph = graph or turn_graph()
        self.graph, self.values = graph, values
        end = np.asarray(values.end, dtype=float)
        size = len(graph.keys)
        self.stop_value = np.where(graph.has_worm, end[graph.total], values.bust)
        self.roll_value = np.full(size, -np.inf)
        vector = np.empty(size + 2)
        vector[:size] = self.stop_value
        vector[graph.bust], vector[graph.none] = values.bust, -np.inf
        for level in graph.levels:  # n = 1..8: successors are always on lower levels
            row_values = np.take(vector, level.next_by_column).max(axis=0) * level.row_prob
            rolled = np.add.reduceat(row_values, level.row_starts)  # sum the rows per state
            self.roll_value[level.states] = rolled
            vector[level.states] = np.maximum(self.stop_value[level.states], rolled)
        vector[graph.start] = self.roll_value[graph.start]  # nothing kept yet: must roll (R5)
        self._vector = vector
        self.value = vector[:size]
        # Ties stop (same value, less risk); a tie computed in floats may differ by rounding.
        self.rolls = self.roll_value > self.stop_value + TIE * np.maximum(1.0, abs(self.stop_value))
        self.rolls[graph.start] = True
        self._targets: list[np.ndarray] | None = None

    def _policy_targets(self) -> list[np.ndarray]:
        """Per level, the state each row's best keep leads to (computed on first use, 5 ms;
        a few hundred kilobytes, kept by the :data:`HOLDING` solutions that used them last)."""
        targets = self._targets
        if targets is None:
            targets = []
            for level in self.graph.levels:
                rows = level.next_by_row
                best = self._vector[rows].argmax(axis=1)  # the first best column wins
                targets.append(np.take_along_axis(rows, best[:, None], axis=1)[:, 0])
            self._targets = targets
        _hold(self)
        return targets

    @cached_property
    def fresh_ending(self) -> tuple[np.ndarray, float]:
        """How a fresh turn played with this policy ends: P(worm and total T), P(bust).
        The policy's targets it needs are let go again unless an outlook already kept them:
        a solution kept only to be evaluated (most of those in the cache) then holds a few
        kilobytes instead of a few hundred."""
        keep_targets = self._targets is not None
        outlook = self.outlook(self.graph.start)
        if not keep_targets:
            _let_go(self)
        return np.asarray(outlook.end_totals), outlook.bust_no_new_face + outlook.bust_no_worm

    def evaluate(self, other: TurnValues) -> float:
        """Value under ``other`` of a fresh turn played with this solution's policy — e.g. what
        an opponent's best turn is worth to me. Linear in ``other`` once the policy's end
        distribution is known, so a policy can be valued under many tables cheaply."""
        totals, bust = self.fresh_ending
        return float(totals @ np.asarray(other.end, dtype=float)) + bust * other.bust

    # ---------------------------------------------------------------- look-ups
    def index(self, kept: tuple[int, ...]) -> int:
        """State index of a turn with these kept dice (counts per face)."""
        return kept_state(tuple(kept))

    @property
    def start_value(self) -> float:
        """Value of a fresh turn with eight dice."""
        return float(self.value[self.graph.start])

    # ---------------------------------------------------------------- outlooks
    def outlook(self, index: int, first: str = "best") -> Outlook:
        """The turn's end distribution from state ``index`` when the player now does
        ``first`` (``"best"``, ``"roll"`` or ``"stop"``) and plays best afterwards."""
        graph = self.graph
        size = len(graph.keys)
        mass = np.zeros(size)
        final = np.zeros(size)
        mass[index] = 1.0
        rolls = self.rolls.copy()
        if first == "stop" or not graph.can_roll[index]:
            rolls[index] = False
        elif first == "roll":
            rolls[index] = True
        no_new_face = 0.0
        policy = self._policy_targets()
        for level, targets in zip(reversed(graph.levels), reversed(policy), strict=True):
            here = mass[level.states]
            if not here.any():
                continue
            rolling = rolls[level.states]
            final[level.states] += np.where(rolling, 0.0, here)
            row_mass = (here * rolling)[level.row_state] * level.row_prob
            moved = np.bincount(targets, weights=row_mass, minlength=size + 2)
            no_new_face += float(moved[graph.bust])
            mass[level.states] = 0.0
            mass += moved[:size]
        final += mass  # what is left sits on states that cannot roll: their turn ends
        worm = graph.has_worm
        end_totals = np.bincount(graph.total[worm], weights=final[worm], minlength=MAX_TOTAL + 1)
        value = self.roll_value[index] if rolls[index] else self.stop_value[index]
        success = float(end_totals[np.asarray(self.values.success)].sum())
        return Outlook(
            value=float(value),
            end_totals=tuple(float(p) for p in end_totals),
            bust_no_new_face=no_new_face,
            bust_no_worm=float(final[~worm].sum()),
            success=success,
        )


#: How many solutions keep their policy's targets at most (a few hundred kilobytes each; the
#: solutions cached, a few tens of kilobytes each without them): what the cache holds then
#: stays bounded whatever positions a server is asked about (an audit grew one by 340 MB
#: with sheets under ever new tables).
HOLDING = 256
_holding: OrderedDict[int, TurnSolution] = OrderedDict()  # by id, the last used last
_holding_lock = threading.Lock()  # servers ask in threads


def _hold(solution: TurnSolution) -> None:
    """``solution`` used its targets: it keeps them; the one that used them longest ago lets
    them go if more than :data:`HOLDING` would keep them (computed again if needed)."""
    with _holding_lock:
        _holding[id(solution)] = solution
        _holding.move_to_end(id(solution))
        while len(_holding) > HOLDING:
            _, oldest = _holding.popitem(last=False)
            oldest._targets = None


def _let_go(solution: TurnSolution) -> None:
    with _holding_lock:
        _holding.pop(id(solution), None)
    solution._targets = None


@lru_cache(maxsize=4096)
def solve(values: TurnValues) -> TurnSolution:
    """The solution for a value table; cached, since tables repeat across turns and games."""
    return TurnSolution(values)
