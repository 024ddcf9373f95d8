"""The turn solver in pure Python, for where NumPy is not (the offline app runs the package
in the browser with Pyodide, and NumPy is not on the npm registry's Pyodide): the same
backward induction and forward pass as :mod:`pickomino.solver.solve`, row by row: every
state's value and choice equal the NumPy solver's to the last bit, the distributions walked
forward agree to rounding (``tests/test_solver_plain.py``).

>>> from pickomino.solver.values import TurnValues
>>> round(PlainSolution(TurnValues.at_least(21)).start_value, 4)
0.893
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from pickomino.solver.turns import MAX_TOTAL, TIE, Outlook, TurnTree, kept_state, turn_tree
from pickomino.solver.values import TurnValues

INF = float("inf")


class PlainSolution:
    """The values of every turn state for one value table, and the policy they imply
    (the subset of :class:`~pickomino.solver.solve.TurnSolution` that advice and bots use)."""

    def __init__(self, values: TurnValues, tree: TurnTree | None = None) -> None:
        tree = tree or turn_tree()
        self.graph, self.values = tree, values
        bust = values.bust
        self.stop_value = [
            values.end[t] if w else bust for w, t in zip(tree.worm, tree.totals, strict=True)
        ]
        self.roll_value = [-INF] * len(tree.keys)
        vector = [*self.stop_value, bust]  # the bust's slot: after every state
        for level in tree.levels:  # n = 1..8: successors are always on lower levels
            row_values = [
                (max([vector[s] for s in next_states]) if next_states else bust) * probability
                for _, probability, next_states in level.rows
            ]
            starts = level.starts
            rolled = [
                numpy_sum(row_values, starts[p], starts[p + 1]) for p in range(len(level.states))
            ]
            for state, value in zip(level.states, rolled, strict=True):
                self.roll_value[state] = value
                vector[state] = max(self.stop_value[state], value)
        vector[tree.start] = self.roll_value[tree.start]  # nothing kept yet: must roll (R5)
        self._vector = vector
        self.value = vector[:-1]
        # Ties stop (same value, less risk); a tie computed in floats may differ by rounding.
        self.rolls = [
            roll > stop + TIE * max(1.0, abs(stop))
            for roll, stop in zip(self.roll_value, self.stop_value, strict=True)
        ]
        self.rolls[tree.start] = True
        self._targets: list[list[int]] | None = None

    def _policy_targets(self) -> list[list[int]]:
        """Per level, the state each row's best keep leads to (the bust's slot for none)."""
        if self._targets is None:
            vector, bust = self._vector, len(self.graph.keys)
            self._targets = [
                [
                    max(next_states, key=vector.__getitem__) if next_states else bust
                    for _, _, next_states in level.rows
                ]
                for level in self.graph.levels
            ]
        return self._targets

    @cached_property
    def fresh_ending(self) -> tuple[tuple[float, ...], float]:
        """How a fresh turn played with this policy ends: P(worm and total T), P(bust). The
        policy's targets are let go again unless an outlook kept them (as in the NumPy one)."""
        keep_targets = self._targets is not None
        outlook = self.outlook(self.graph.start)
        if not keep_targets:
            self._targets = None
        return outlook.end_totals, outlook.bust_no_new_face + outlook.bust_no_worm

    def evaluate(self, other: TurnValues) -> float:
        """Value under ``other`` of a fresh turn played with this solution's policy (what an
        opponent's best turn is worth to me: the strategist's search asks it)."""
        totals, bust = self.fresh_ending
        return sum(p * v for p, v in zip(totals, other.end, strict=True)) + bust * other.bust

    def index(self, kept: tuple[int, ...]) -> int:
        """State index of a turn with these kept dice (counts per face)."""
        return kept_state(tuple(kept))

    @property
    def start_value(self) -> float:
        """Value of a fresh turn with eight dice."""
        return self.value[self.graph.start]

    def outlook(self, index: int, first: str = "best") -> Outlook:
        """The turn's end distribution from state ``index`` when the player now does
        ``first`` (``"best"``, ``"roll"`` or ``"stop"``) and plays best afterwards."""
        tree = self.graph
        rolls = self.rolls
        rolls_first = rolls[index]
        if first == "stop" or index not in tree.rolling:
            rolls_first = False
        elif first == "roll":
            rolls_first = True
        bust = len(tree.keys)
        mass = {index: 1.0}
        final: dict[int, float] = {}
        no_new_face = 0.0
        policy = self._policy_targets()
        for level, targets in zip(reversed(tree.levels), reversed(policy), strict=True):
            for position, state in enumerate(level.states):
                here = mass.pop(state, 0.0)
                if not here:
                    continue
                if not (rolls_first if state == index else rolls[state]):
                    final[state] = final.get(state, 0.0) + here
                    continue
                for row in range(level.starts[position], level.starts[position + 1]):
                    moved = here * level.rows[row].probability
                    target = targets[row]
                    if target == bust:
                        no_new_face += moved
                    else:
                        mass[target] = mass.get(target, 0.0) + moved
        for state, here in mass.items():  # states that cannot roll: their turn ends
            final[state] = final.get(state, 0.0) + here
        end_totals = [0.0] * (MAX_TOTAL + 1)
        no_worm = 0.0
        for state, here in final.items():
            if tree.worm[state]:
                end_totals[tree.totals[state]] += here
            else:
                no_worm += here
        value = self.roll_value[index] if rolls_first else self.stop_value[index]
        success = sum(p for p, won in zip(end_totals, self.values.success, strict=True) if won)
        return Outlook(value, tuple(end_totals), no_new_face, no_worm, success)


def numpy_sum(values: list[float], start: int, stop: int) -> float:
    """``sum(values[start:stop])`` added in the order NumPy's ``add.reduceat`` adds them (the
    first plus the sum of the rest, taken pairwise in blocks of eight): both solvers then
    give the same floats to the last bit, and break ties between equal choices alike."""
    return values[start] + _pairwise(values, start + 1, stop - start - 1)


def _pairwise(values: list[float], start: int, n: int) -> float:
    if n < 8:
        total = 0.0
        for value in values[start : start + n]:
            total += value
        return total
    if n <= 128:
        r = values[start : start + 8]
        whole = n - n % 8
        for block in range(start + 8, start + whole, 8):
            for j in range(8):
                r[j] += values[block + j]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[start + whole : start + n]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(values, start, half) + _pairwise(values, start + half, n - half)


@lru_cache(maxsize=256)
def solve(values: TurnValues) -> PlainSolution:
    """The solution for a value table; cached, since tables repeat across turns."""
    return PlainSolution(values)
