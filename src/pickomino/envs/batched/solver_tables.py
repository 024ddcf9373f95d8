"""The exact solver's turn policies as flat arrays, for the batched ``expected`` bot.

A turn's worm-gain table (:func:`~pickomino.solver.values.worm_gain_table`) depends only on
the situation at the turn's start: the grill, the other players' top tiles and one's own.
Each row's situation is packed into one integer; each distinct situation is solved once
(through the solver's cache) and its solution copied into a *slot*: a row of
:attr:`SolverTables.values` (the value of every turn node under best play) and of
:attr:`SolverTables.rolls` (whether the best play rolls there). A decision is then array
indexing: the turn node of a row comes from :attr:`SolverTables.node` by (kept faces, dice
left, total), so the value after each keep is ``values[slot, node after the keep]``.
Slots are reused least recently used first; a call needing more slots than there are grows
the arrays.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pickomino.core.rules import NUM_DICE, TILES, Rules
from pickomino.envs.batched.engine import NUM_TILES, BatchedGames
from pickomino.solver import solve
from pickomino.solver.graph import turn_graph
from pickomino.solver.turns import MAX_TOTAL
from pickomino.solver.values import TurnValues, worm_gain_table

_OWN_SHIFT, _OTHERS_SHIFT = NUM_TILES, NUM_TILES + 5  # 16 grill bits, then own top + 1 (0..16)
_TILE_BITS = (1 << NUM_TILES) - 1


def situations(games: BatchedGames, rows: np.ndarray) -> np.ndarray:
    """Each row's turn situation as one integer: grill mask, own top tile index + 1 (0: no
    tile) and the mask of the stealable tops — what the worm-gain table is made of."""
    own = games.tops[rows, games.current[rows]] + 1
    return games.grill[rows] | own << _OWN_SHIFT | games.stealable(rows) << _OTHERS_SHIFT


def situation_values(rules: Rules, situation: int) -> TurnValues:
    """The worm-gain table of a situation packed by :func:`situations`."""
    own = situation >> _OWN_SHIFT & 31
    others = situation >> _OTHERS_SHIFT
    return worm_gain_table(
        rules,
        situation & _TILE_BITS,
        TILES[own - 1] if own else None,
        frozenset(tile for index, tile in enumerate(TILES) if others >> index & 1),
    )


def _node_table() -> np.ndarray:
    """``[kept face mask, dice left, total]`` → index of that turn node in the solver's
    graph (−1 where no turn gets)."""
    graph = turn_graph()
    table = np.full((1 << 6, NUM_DICE + 1, MAX_TOTAL + 1), -1, np.int64)
    keys = np.array(graph.keys)
    table[keys[:, 0], keys[:, 1], keys[:, 2]] = np.arange(len(keys))
    return table


class SolverTables:
    """The solved situations of one rule set, as slots of flat arrays (see the module)."""

    def __init__(self, rules: Rules, capacity: int = 2048) -> None:
        self.rules = rules
        self.node = _node_table()
        size = len(turn_graph().keys)
        self.values = np.zeros((capacity, size))
        self.rolls = np.zeros((capacity, size), bool)
        self._held = np.full(capacity, -1, np.int64)  # the situation in each slot (−1: none)
        self._used = np.zeros(capacity, np.int64)  # the call that last used each slot
        self._calls = 0

    def slots(self, situations: np.ndarray) -> np.ndarray:
        """The slot of each situation, solving those not held (grouped: once each)."""
        self._calls += 1
        unique, inverse = np.unique(situations, return_inverse=True)
        if unique.size > len(self._held):
            self._grow(max(2 * len(self._held), unique.size))
        order = np.argsort(self._held)
        found = order[np.searchsorted(self._held, unique, sorter=order).clip(max=order.size - 1)]
        missing = self._held[found] != unique
        self._used[found[~missing]] = self._calls
        if missing.any():  # into the least recently used slots, none of them this call's
            free = np.argsort(self._used, kind="stable")[: missing.sum()]
            found[missing] = free
            self._used[free] = self._calls
            for slot, situation in zip(free.tolist(), unique[missing].tolist(), strict=True):
                solution = solve(situation_values(self.rules, situation))
                self.values[slot], self.rolls[slot] = solution.value, solution.rolls
                self._held[slot] = situation
        return found[inverse.reshape(-1)]

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self._held)
        self.values = np.concatenate([self.values, np.zeros((extra, self.values.shape[1]))])
        self.rolls = np.concatenate([self.rolls, np.zeros((extra, self.rolls.shape[1]), bool)])
        self._held = np.concatenate([self._held, np.full(extra, -1, np.int64)])
        self._used = np.concatenate([self._used, np.zeros(extra, np.int64)])


@cache
def solver_tables(rules: Rules) -> SolverTables:
    """The tables of a rule set, shared by every batch of games under it in the process."""
    return SolverTables(rules)
