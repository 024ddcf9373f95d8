"""The graph of one turn, built once: every reachable (faces kept, dice left, total) and,
for every state that may roll, each distinguishable roll with its exact probability and the
states its keepable faces lead to.

A roll matters to a state only through the faces not yet kept, so rolls are *projected*:
dice showing an already-kept face are lumped together. That shrinks 1287 outcomes of eight
dice to far fewer rows for most states, and makes a solve a handful of numpy operations.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import factorial

import numpy as np

from pickomino.core.rules import FACE_POINTS, NUM_DICE, WORM

ALL_FACES = 0b111111
MAX_TOTAL = NUM_DICE * max(FACE_POINTS)  # 40

TurnKey = tuple[int, int, int]  # (kept face mask, dice left, total)


@dataclass(frozen=True)
class Level:
    """The rolling states with ``n`` dice left and their projected rolls (one row each)."""

    n: int
    states: np.ndarray  # (S,) state indices
    row_state: np.ndarray  # (R,) position in ``states`` of each row's state (ascending)
    row_starts: np.ndarray  # (S,) first row of each state: rows of a state are contiguous
    row_prob: np.ndarray  # (R,) probability of the row's roll given its state (float)
    row_fraction: tuple[Fraction, ...]  # the same probabilities, exact
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
    kept_mask: np.ndarray  # (N,) per state
    dice_left: np.ndarray
    total: np.ndarray
    has_worm: np.ndarray  # (N,) bool
    can_roll: np.ndarray  # (N,) bool: dice left and a face not kept yet (R8)
    levels: tuple[Level, ...]  # n = 1 .. 8, in that order
    start: int
    #: kept dice (counts per face) → state index, filled as solutions look them up
    kept_index: dict[tuple[int, ...], int] = field(default_factory=dict)

    @property
    def bust(self) -> int:
        """Slot of the value vector holding the bust value."""
        return len(self.keys)

    @property
    def none(self) -> int:
        """Slot of the value vector holding -inf (a face that cannot be kept)."""
        return len(self.keys) + 1


def projected_rolls(kept_mask: int, n: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Rolls of ``n`` dice seen only through the faces not in ``kept_mask``.

    Each entry gives the count of every face (0 for kept faces) and its probability; the
    dice not counted show kept faces.
    """
    free = [f for f in range(6) if not kept_mask >> f & 1]
    kept_faces = 6 - len(free)
    rolls = []
    for shown in itertools.product(range(n + 1), repeat=len(free)):
        rest = n - sum(shown)
        if rest < 0 or (rest and not kept_faces):
            continue
        ways = factorial(n) // factorial(rest)  # multinomial: which dice show what
        for count in shown:
            ways //= factorial(count)
        probability = Fraction(ways * kept_faces**rest, 6**n)
        if probability:
            counts = [0] * 6
            for face, count in zip(free, shown, strict=True):
                counts[face] = count
            rolls.append((tuple(counts), probability))
    return rolls


@cache
def turn_graph() -> TurnGraph:
    """Build (once per process) the graph of every reachable state of a turn."""
    start: TurnKey = (0, NUM_DICE, 0)
    keys: list[TurnKey] = []
    index: dict[TurnKey, int] = {}
    rows_of: dict[TurnKey, list[tuple[Fraction, list[tuple[int, TurnKey]]]]] = {}
    frontier = [start]
    while frontier:
        key = frontier.pop()
        if key in index:
            continue
        index[key] = len(keys)
        keys.append(key)
        mask, n, total = key
        if n == 0 or mask == ALL_FACES:
            continue
        rows = []
        for counts, probability in projected_rolls(mask, n):
            moves = [
                (f, (mask | 1 << f, n - c, total + c * FACE_POINTS[f]))
                for f, c in enumerate(counts)
                if c
            ]
            frontier.extend(successor for _, successor in moves)
            rows.append((probability, moves))
        rows_of[key] = rows

    size = len(keys)
    bust, none = size, size + 1
    levels = []
    for n in range(1, NUM_DICE + 1):
        rolling = [key for key in keys if key[1] == n and key in rows_of]
        width = min(n, 6)
        row_state, row_fraction, row_next = [], [], []
        for position, key in enumerate(rolling):
            for probability, moves in rows_of[key]:
                next_states = [index[successor] for _, successor in moves]
                next_states += [none if moves else bust] * (width - len(moves))
                row_state.append(position)
                row_fraction.append(probability)
                row_next.append(next_states)
        next_by_row = np.array(row_next, dtype=np.intp).reshape(-1, width)
        levels.append(
            Level(
                n=n,
                states=np.array([index[k] for k in rolling], dtype=np.intp),
                row_state=np.array(row_state, dtype=np.intp),
                row_starts=np.searchsorted(row_state, np.arange(len(rolling))),
                row_prob=np.array([float(p) for p in row_fraction]),
                row_fraction=tuple(row_fraction),
                next_by_column=next_by_row.T.copy(),
                next_by_row=next_by_row,
            )
        )
    key_array = np.array(keys, dtype=np.int64)
    return TurnGraph(
        keys=tuple(keys),
        index=index,
        kept_mask=key_array[:, 0],
        dice_left=key_array[:, 1],
        total=key_array[:, 2],
        has_worm=(key_array[:, 0] >> WORM & 1).astype(bool),
        can_roll=np.array([k in rows_of for k in keys]),
        levels=tuple(levels),
        start=index[start],
    )
