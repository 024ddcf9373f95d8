"""Tournament speed on this machine's processes and on a local Dask cluster of as many cores:
games/s of each and their ratio, the price of the cluster's scheduling and round trips.

Both engines play the same seat-rotated tournament, in alternating rounds (the results are
checked equal). Each is warmed up first by a short tournament, so that process starts and
the bots' first solves count in neither: what is left is the steady cost of sending chunks
out and results back. The cost of an empty task on each engine is measured too: it is what
a chunk of games shares out.

Run: ``.venv/bin/python benchmarks/cluster_speed.py [--bots expected,simple] [--games 1000]
[--workers 2] [--chunk N] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from distributed import LocalCluster

from pickomino.sim import run_tournament
from pickomino.sim.engines import Engine, cluster_engine, game_ranges, local_engine, map_chunks


def games_per_second(engine: Engine, args: argparse.Namespace) -> tuple[float, dict]:
    bots = args.bots.split(",")
    start = time.perf_counter()
    result = run_tournament(bots, 2, args.games, args.seed, engine=engine, chunk=args.chunk)
    return args.games / (time.perf_counter() - start), result.to_dict()


def task_cost(engine: Engine, tasks: int = 400) -> float:
    """Milliseconds an empty task costs the engine: the overhead a chunk of games shares."""
    start = time.perf_counter()
    for _ in map_chunks(abs, range(tasks), engine):
        pass
    return 1000 * (time.perf_counter() - start) / tasks


def warm_up(engine: Engine, args: argparse.Namespace) -> None:
    """A game or more on every worker: processes started, the bots' first solves made."""
    run_tournament(args.bots.split(","), 2, 4 * engine.workers, seed=-1, engine=engine, chunk=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expected,simple")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=None, help="games a task (default: auto)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    speeds: dict[str, list[float]] = {"local": [], "cluster": []}
    with (
        local_engine(args.workers) as local,
        LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        cluster_engine(cluster.scheduler_address) as remote,
    ):
        engines = {"local": local, "cluster": remote}
        for engine in engines.values():
            warm_up(engine, args)
        costs = {name: task_cost(engine) for name, engine in engines.items()}
        results = []
        for _ in range(args.rounds):  # alternating: a busy spell of the machine hits both
            for name, engine in engines.items():
                speed, result = games_per_second(engine, args)
                speeds[name].append(speed)
                results.append(result)
    assert all(result == results[0] for result in results), "the engines' numbers differ"
    chunks = len(game_ranges(args.games, args.workers, args.chunk))
    print(f"{args.bots}, {args.games} games in {chunks} chunks, {args.workers} workers,")
    print(f"median of {args.rounds} alternating rounds (all runs gave the same numbers)")
    for name, label in (
        ("local", f"local processes (--jobs {args.workers})    "),
        ("cluster", f"local Dask cluster ({args.workers} x 1 thread)"),
    ):
        low, high = min(speeds[name]), max(speeds[name])
        print(
            f"{label}: {median(speeds[name]):8.1f} games/s (rounds {low:.1f}-{high:.1f}),"
            f" {costs[name]:.2f} ms an empty task"
        )
    ratios = [there / here for here, there in zip(speeds["local"], speeds["cluster"], strict=True)]
    print(
        f"cluster / local: {median(speeds['cluster']) / median(speeds['local']):.3f}"
        f" (round by round {min(ratios):.2f}-{max(ratios):.2f})"
    )


if __name__ == "__main__":
    main()
