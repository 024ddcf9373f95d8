"""The states of one turn, in plain Python: every reachable (faces kept, dice left, total)
and, for every state that may roll, each distinguishable roll with its exact probability and
the states its keepable faces lead to. Both solvers read it: the NumPy one
(:mod:`pickomino.solver.solve`) as arrays, the pure-Python one (:mod:`pickomino.solver.plain`,
for a browser without NumPy) as it is.

A roll matters to a state only through the faces not yet kept, so rolls are *projected*:
dice showing an already-kept face are lumped together. That shrinks 1287 outcomes of eight
dice to far fewer rows for most states.

>>> tree = turn_tree()
>>> len(tree.keys), sum(len(level.rows) for level in tree.levels)
(1939, 34389)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial
from typing import NamedTuple

from pickomino.core.dice import face_mask, points
from pickomino.core.rules import FACE_POINTS, NUM_DICE, WORM

ALL_FACES = 0b111111
MAX_TOTAL = NUM_DICE * max(FACE_POINTS)  # 40

#: Relative difference below which rolling and stopping count as equally good.
TIE = 1e-9

TurnKey = tuple[int, int, int]  # (kept face mask, dice left, total)


class Row(NamedTuple):
    """One projected roll of a rolling state: its probability and, for each face it shows
    that may be kept, the state keeping it leads to (in face order; none: no new face, R7)."""

    state: int  # position of the rolling state in its level
    probability: float
    next_states: tuple[int, ...]


@dataclass(frozen=True)
class Level:
    """The rolling states with ``n`` dice left, and their rows (a state's rows contiguous)."""

    n: int
    states: tuple[int, ...]
    rows: tuple[Row, ...]
    #: the rows of the state at position p are rows[starts[p]:starts[p + 1]]
    starts: tuple[int, ...]


@dataclass(frozen=True)
class TurnTree:
    keys: tuple[TurnKey, ...]
    index: dict[TurnKey, int]
    levels: tuple[Level, ...]  # n = 1 .. 8, in that order
    start: int
    worm: tuple[bool, ...]  # per state: a worm is kept
    totals: tuple[int, ...]  # per state: the total kept
    rolling: frozenset[int]  # the states that may roll (dice left, a face not kept: R8)


@dataclass(frozen=True)
class Outlook:
    """How a turn ends, from some point on, under the best policy."""

    value: float
    #: probability of stopping with a worm and total T, for T = 0..40
    end_totals: tuple[float, ...]
    #: probability that a roll shows no new face (R7)
    bust_no_new_face: float
    #: probability of stopping without a worm (R10)
    bust_no_worm: float
    #: probability of ending with a success (a tile, or the target reached)
    success: float

    @property
    def bust(self) -> float:
        """Probability of a bust of any kind (no new face, no worm, total too low)."""
        return max(0.0, 1.0 - self.success)


@cache
def counts_up_to(n: int, places: int) -> tuple[tuple[int, ...], ...]:
    """Every ``places`` counts summing to at most ``n``, in ascending order (those of
    ``itertools.product(range(n + 1), repeat=places)`` whose sum is at most ``n``, without
    going through the others: 3,003 of 531,441 for eight dice and six faces).

    >>> counts_up_to(2, 2)
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0))
    """
    if places == 0:
        return ((),)
    return tuple(
        (first, *rest) for first in range(n + 1) for rest in counts_up_to(n - first, places - 1)
    )


@cache
def projected_rolls(kept_mask: int, n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Rolls of ``n`` dice seen only through the faces not in ``kept_mask``.

    Each entry gives the count of every face (0 for kept faces) and its probability; the
    dice not counted show kept faces.
    """
    free = [f for f in range(6) if not kept_mask >> f & 1]
    kept_faces = 6 - len(free)
    rolls = []
    for shown in counts_up_to(n, len(free)):
        rest = n - sum(shown)
        if rest and not kept_faces:
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
    return tuple(rolls)


@cache
def turn_tree() -> TurnTree:
    """Build (once per process) every reachable state of a turn and its rolls."""
    start: TurnKey = (0, NUM_DICE, 0)
    keys: list[TurnKey] = []
    index: dict[TurnKey, int] = {}
    rolls_of: dict[TurnKey, list[tuple[Fraction, list[TurnKey]]]] = {}
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
        rolls = []
        for counts, probability in projected_rolls(mask, n):
            successors = [
                (mask | 1 << f, n - c, total + c * FACE_POINTS[f])
                for f, c in enumerate(counts)
                if c
            ]
            frontier.extend(successors)
            rolls.append((probability, successors))
        rolls_of[key] = rolls

    levels = []
    for n in range(1, NUM_DICE + 1):
        rolling = [key for key in keys if key[1] == n and key in rolls_of]
        rows = tuple(
            Row(position, float(fraction), tuple(index[s] for s in successors))
            for position, key in enumerate(rolling)
            for fraction, successors in rolls_of[key]
        )
        starts = [0] * (len(rolling) + 1)
        for row in rows:
            starts[row.state + 1] += 1
        states = tuple(index[key] for key in rolling)
        levels.append(Level(n, states, rows, tuple(itertools.accumulate(starts))))
    return TurnTree(
        keys=tuple(keys),
        index=index,
        levels=tuple(levels),
        start=index[start],
        worm=tuple(bool(mask >> WORM & 1) for mask, _, _ in keys),
        totals=tuple(total for _, _, total in keys),
        rolling=frozenset(index[key] for key in rolls_of),
    )


@cache
def kept_state(kept: tuple[int, ...]) -> int:
    """Index of the turn state with these kept dice (counts per face)."""
    return turn_tree().index[(face_mask(kept), NUM_DICE - sum(kept), points(kept))]  # type: ignore[arg-type]
