"""The turn's states (:mod:`pickomino.solver.turns`) as NumPy arrays, built once, so that a
solve is a handful of array operations per number of dice left."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pickomino.solver.turns import MAX_TOTAL, TurnKey, turn_tree

__all__ = ["MAX_TOTAL", "Level", "TurnGraph", "turn_graph"]


@dataclass(frozen=True)
class Level:
    """The rolling states with ``n`` dice left and their projected rolls (one row each)."""

    n: int
    states: np.ndarray  # (S,) state indices
    row_state: np.ndarray  # (R,) position in ``states`` of each row's state (ascending)
    row_starts: np.ndarray  # (S,) first row of each state: rows of a state are contiguous
    row_prob: np.ndarray  # (R,) probability of the row's roll given its state
    #: (C, R) with C = min(n, 6) columns, as a roll of n dice shows at most n faces: the
    #: state each keepable face of the row's roll leads to; ``bust`` in every column for a
    #: roll with no new face (R7), ``none`` (a -inf slot) in the columns left over
    next_by_column: np.ndarray
    #: the same, (R, C): numpy finds a best column per row fast only along the last axis
    next_by_row: np.ndarray


@dataclass(frozen=True)
class TurnGraph:
    keys: tuple[TurnKey, ...]
    index: dict[TurnKey, int]
    total: np.ndarray  # (N,) per state
    has_worm: np.ndarray  # (N,) bool
    can_roll: np.ndarray  # (N,) bool: dice left and a face not kept yet (R8)
    levels: tuple[Level, ...]  # n = 1 .. 8, in that order
    start: int

    @property
    def bust(self) -> int:
        """Slot of the value vector holding the bust value."""
        return len(self.keys)

    @property
    def none(self) -> int:
        """Slot of the value vector holding -inf (a face that cannot be kept)."""
        return len(self.keys) + 1


@cache
def turn_graph() -> TurnGraph:
    """The arrays of :func:`~pickomino.solver.turns.turn_tree` (once per process)."""
    tree = turn_tree()
    size = len(tree.keys)
    bust, none = size, size + 1
    levels = []
    for level in tree.levels:
        width = min(level.n, 6)
        padded = [
            (
                *row.next_states,
                *[none if row.next_states else bust] * (width - len(row.next_states)),
            )
            for row in level.rows
        ]
        next_by_row = np.array(padded, dtype=np.intp).reshape(-1, width)
        row_state = np.array([row.state for row in level.rows], dtype=np.intp)
        levels.append(
            Level(
                n=level.n,
                states=np.array(level.states, dtype=np.intp),
                row_state=row_state,
                row_starts=np.searchsorted(row_state, np.arange(len(level.states))),
                row_prob=np.array([row.probability for row in level.rows]),
                next_by_column=next_by_row.T.copy(),
                next_by_row=next_by_row,
            )
        )
    return TurnGraph(
        keys=tree.keys,
        index=tree.index,
        total=np.array(tree.totals, dtype=np.int64),
        has_worm=np.array(tree.worm),
        can_roll=np.array([state in tree.rolling for state in range(size)]),
        levels=tuple(levels),
        start=tree.start,
    )
