"""Bot speed: whole games per second on one core, `expected` vs `expected` (the target is 200
games/s) and `strategist` vs `expected` (what a 20,000-game tournament costs), beside `simple`
vs `simple` as the baseline measured in the same run.

Why: tournaments, self-play training and the web app's bots all pay for the solver once per
turn; this shows what a solve-per-turn bot costs relative to a bot that solves nothing.
The first game of each pair is untimed (it builds the turn graph and warms the caches).

Run: ``.venv/bin/python benchmarks/bots_speed.py [--games 300] [--strategist-games 60]``
"""

from __future__ import annotations

import argparse
import time

from pickomino.core import Rules
from pickomino.sim.tournament import play_game
from pickomino.solver.solve import solve


def games_per_second(bots: tuple[str, ...], games: int, seed: int) -> float:
    play_game(bots, Rules(), seed, -1)  # warm-up
    start = time.perf_counter()
    for game in range(games):
        play_game(bots, Rules(), seed, game)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--strategist-games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    baseline = games_per_second(("simple", "simple"), args.games, args.seed)
    expected = games_per_second(("expected", "expected"), args.games, args.seed)
    strategist = games_per_second(("strategist", "expected"), args.strategist_games, args.seed)
    info = solve.cache_info()
    print(f"{args.games} games ({args.strategist_games} with the strategist), 2 players, 1 core")
    print(f"simple     vs simple  : {baseline:8.1f} games/s (baseline)")
    print(f"expected   vs expected: {expected:8.1f} games/s ({expected / baseline:.2f}x baseline)")
    ratio = strategist / baseline
    print(f"strategist vs expected: {strategist:8.1f} games/s ({ratio:.4f}x baseline)")
    print(f"solver cache: {info.hits} hits, {info.misses} misses, {info.currsize} tables kept")


if __name__ == "__main__":
    main()
