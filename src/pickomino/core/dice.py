"""Dice rolls as chance outcomes (R2, R5).

A roll of ``n`` dice is the multiset of faces that came up, stored as a tuple of six
counts (how many 1s, 2s, 3s, 4s, 5s and worms). Its written form lists the faces in
order, e.g. ``"1145WW"``. The engine never rolls by itself: whoever drives a game picks
an outcome, for example with :func:`sample_roll` and a seeded :class:`random.Random`.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import factorial
from typing import cast

from pickomino.core.errors import BadInput
from pickomino.core.rules import FACE_POINTS, FACE_SYMBOLS, NUM_DICE

Counts = tuple[int, int, int, int, int, int]


def format_dice(counts: Sequence[int]) -> str:
    """The written form of a roll or of kept dice.

    >>> format_dice((2, 0, 0, 1, 1, 2))
    '1145WW'
    """
    return "".join(symbol * count for symbol, count in zip(FACE_SYMBOLS, counts, strict=True))


def points(counts: Counts) -> int:
    """The total of some dice (R9): face values, 5 for a worm.

    >>> points(parse_dice("WW44"))
    18
    """
    return sum(count * value for count, value in zip(counts, FACE_POINTS, strict=True))


def parse_dice(text: str) -> Counts:
    """Counts from a written roll; spaces and commas are ignored, ``w`` means a worm.

    >>> parse_dice("W 4 4 5")
    (0, 0, 0, 2, 1, 1)
    """
    counts = [0] * 6
    for char in text.upper():
        if char in " ,":
            continue
        if char not in FACE_SYMBOLS:
            raise BadInput("not_a_face", "R2", char=char)
        counts[FACE_SYMBOLS.index(char)] += 1
    if sum(counts) > NUM_DICE:
        raise BadInput("too_many_dice", "R2", given=sum(counts), count=NUM_DICE)
    return tuple(counts)  # type: ignore[return-value]


@cache
def roll_outcomes(n: int) -> tuple[tuple[Counts, Fraction], ...]:
    """Every outcome of rolling ``n`` fair dice with its exact (multinomial) probability.

    >>> len(roll_outcomes(8)), sum(p for _, p in roll_outcomes(8))
    (1287, Fraction(1, 1))
    """
    if not 0 <= n <= NUM_DICE:
        raise BadInput("too_many_dice", "R2", given=n, count=NUM_DICE)
    outcomes = []
    for faces in itertools.combinations_with_replacement(range(6), n):
        counts = cast(Counts, tuple(faces.count(face) for face in range(6)))
        ways = factorial(n)
        for count in counts:
            ways //= factorial(count)
        outcomes.append((counts, Fraction(ways, 6**n)))
    return tuple(outcomes)


def face_mask(counts: Counts) -> int:
    """Bit ``f`` set when face ``f`` shows: the engine's fast test for keepable faces."""
    return sum(1 << face for face, count in enumerate(counts) if count)


#: Every possible roll of 0..8 dice → (its canonical counts, its face mask). A roll not in
#: here is no roll; equal-valued keys (``1.0``, ``True``) map to the canonical int counts.
ROLLS: dict[Counts, tuple[Counts, int]] = {
    counts: (counts, face_mask(counts))
    for n in range(NUM_DICE + 1)
    for counts, _ in roll_outcomes(n)
}


#: Every roll of 0..8 dice in one stable order: by number of dice, then as
#: :func:`roll_outcomes` lists them. A roll's position here is its id (:func:`roll_id`):
#: 0 is the empty roll, 1–6 the rolls of one die, …, 1,716–3,002 the rolls of eight.
ALL_ROLLS: tuple[Counts, ...] = tuple(ROLLS)
_ROLL_IDS = {counts: index for index, counts in enumerate(ALL_ROLLS)}


def roll_id(counts: Sequence[int]) -> int:
    """The stable integer id of a roll given as six counts (its index in :data:`ALL_ROLLS`),
    for code that numbers chance outcomes (OpenSpiel, the batched engine).

    >>> roll_id((0, 0, 0, 0, 0, 0)), roll_id((1, 0, 0, 0, 0, 0)), roll_id((0, 0, 0, 0, 0, 8))
    (0, 1, 3002)
    """
    return _ROLL_IDS[tuple(counts)]  # type: ignore[index]


def _sampling_table(n: int) -> tuple[list[Counts], list[float]]:
    outcomes = roll_outcomes(n)
    cumulative = list(itertools.accumulate(float(p) for _, p in outcomes))
    cumulative[-1] = 1.0  # guard against rounding: random() < 1.0 always finds an outcome
    return [c for c, _ in outcomes], cumulative


_SAMPLING_TABLES = [_sampling_table(n) for n in range(NUM_DICE + 1)]


def sample_roll(n: int, rng: random.Random) -> Counts:
    """Draw one outcome of rolling ``n`` dice with the caller's random generator."""
    counts, cumulative = _SAMPLING_TABLES[n]
    return counts[bisect_right(cumulative, rng.random())]
