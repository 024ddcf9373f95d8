"""Analysis fairness: how long one address's short review (2 players) waits while another
address has just sent a burst of long ones (7 players), against the same review alone and
against a queue served in arrival order (the burst and the short review from one address,
which is what every address got before the fair queue), in one run.

Why: a review takes one core for 0.3–9 s; issue 24 found a 2-player review (0.3 s alone)
waiting 26 s behind another address's burst of 10. With the fair queue it should wait for
at most the long review under way, and the burst beyond its share is refused (429).

Run: ``.venv/bin/python benchmarks/analysis_fairness.py [--burst 10] [--seed 0]`` (the last
case waits for the whole burst: minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from analysis_speed import game_record
from fastapi import HTTPException

from pickomino.core import GameRecord
from pickomino.web.api.analysis import WAITING, Reviews, review_process

BURST, SHORT = "10.0.0.1", "10.0.0.2"


async def short_wait(
    reviews: Reviews, burst: list[GameRecord], short: GameRecord, same_address: bool
) -> tuple[float, int, int]:
    """The short review's wait once the burst is asked for, how many of the burst were
    refused and how many answered before it; the rest of the burst is then given up."""
    asked = [asyncio.create_task(reviews.get(f"long{n}", r, BURST)) for n, r in enumerate(burst)]
    await asyncio.sleep(0.1)  # the burst is in, the first long review under way
    refused = sum(task.done() and isinstance(task.exception(), HTTPException) for task in asked)
    start = time.perf_counter()
    await reviews.get("short", short, BURST if same_address else SHORT)
    wait = time.perf_counter() - start
    before = sum(task.done() for task in asked) - refused
    reviews.close()
    await asyncio.gather(*asked, return_exceptions=True)
    return wait, refused, before


async def measure(burst_size: int, seed: int) -> None:
    burst = [game_record(7, seed + n) for n in range(burst_size)]
    short = game_record(2, seed)
    cases = (
        ("alone", [], False, {}),
        ("after the burst, fair queue", burst, False, {}),
        ("after the burst, arrival order", burst, True, {"per_address": WAITING}),
    )
    with review_process() as worker:
        await Reviews(per_minute=60, worker=worker).get("warm", game_record(2, -1), SHORT)
        start = time.perf_counter()
        await Reviews(per_minute=60, worker=worker).get("long", burst[0], SHORT)
        long = time.perf_counter() - start
    print(f"one 7-player review alone: {long:.2f} s")
    for name, asked, same, limits in cases:
        with review_process() as worker:  # a fresh process: no review left over
            await Reviews(per_minute=60, worker=worker).get("warm", game_record(2, -1), SHORT)
            reviews = Reviews(per_minute=600, worker=worker, **limits)
            wait, refused, before = await short_wait(reviews, asked, short, same)
            worker.shutdown(cancel_futures=True)
        print(
            f"{name:31} the 2-player review waited {wait:6.2f} s = {wait / long:4.1f} long "
            f"reviews, behind {before} ({refused} of the burst refused)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(measure(args.burst, args.seed))


if __name__ == "__main__":
    main()
