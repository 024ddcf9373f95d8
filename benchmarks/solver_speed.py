"""Solver speed: one full solve of a fresh value table, against a naive solver in the same run.

Why: bots solve once per turn and `advise` answers while a person waits, so a solve must be
cheap. The baseline is the textbook memoised recursion over every outcome of every roll
(1287 for eight dice) in pure Python with floats: what one would write first. Both are
checked to agree before timing; so is the pure-Python solver of the offline app.

Run: ``.venv/bin/python benchmarks/solver_speed.py [--repeat 200]``
"""

from __future__ import annotations

import argparse
import time
from functools import cache

from pickomino.core import roll_outcomes
from pickomino.core.rules import FACE_POINTS, NUM_DICE, WORM
from pickomino.solver import TurnValues
from pickomino.solver.graph import turn_graph
from pickomino.solver.plain import PlainSolution
from pickomino.solver.solve import TurnSolution


def naive_start_value(values: TurnValues) -> float:
    """Expectimax over (kept faces, dice left, total) with every roll enumerated."""
    outcomes = {n: [(c, float(p)) for c, p in roll_outcomes(n)] for n in range(NUM_DICE + 1)}

    def stop(mask: int, total: int) -> float:
        return values.end[total] if mask >> WORM & 1 else values.bust

    @cache
    def decide(mask: int, left: int, total: int) -> float:
        if left == 0 or mask == 0b111111:
            return stop(mask, total)
        return max(stop(mask, total), roll(mask, left, total))

    @cache
    def roll(mask: int, left: int, total: int) -> float:
        value = 0.0
        for counts, p in outcomes[left]:
            keeps = [
                decide(mask | 1 << f, left - c, total + c * FACE_POINTS[f])
                for f, c in enumerate(counts)
                if c and not mask >> f & 1
            ]
            value += p * (max(keeps) if keeps else values.bust)
        return value

    return roll(0, NUM_DICE, 0)


def timed(function, repeat: int) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    values = TurnValues.stake(1.0)
    start = time.perf_counter()
    turn_graph()
    build = time.perf_counter() - start
    ours = TurnSolution(values).start_value
    naive = naive_start_value(values)
    assert abs(ours - naive) < 1e-9, (ours, naive)
    assert PlainSolution(values).start_value == ours
    ours_s = timed(lambda: TurnSolution(values), args.repeat)
    plain_s = timed(lambda: PlainSolution(values), max(1, args.repeat // 10))
    naive_s = timed(lambda: naive_start_value(values), max(1, args.repeat // 100))
    print(f"turn graph, built once per process: {build * 1e3:.0f} ms")
    print(f"naive recursion : {naive_s * 1e3:9.2f} ms per solve")
    print(f"pickomino solver: {ours_s * 1e3:9.3f} ms per solve ({naive_s / ours_s:.0f}x faster)")
    print(
        f"pure Python     : {plain_s * 1e3:9.2f} ms per solve ({naive_s / plain_s:.1f}x faster;"
        " the offline app's, without NumPy)"
    )


if __name__ == "__main__":
    main()
