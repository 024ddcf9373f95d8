"""Does the `valued` bot gain by looking a turn further? A benchmark-only bot, ``deeper``,
solves its turn exactly with each ending valued by the opponent's best reply (their turn
solved exactly over the win-value network), where `valued` values the endings by the
network directly: the search the strategist does, over the learned values instead of its
win model. It plays seat-rotated two-player games against the bots named, with the same
seeds as ``pickomino tournament``, and prints each result with its 95% interval.

Run: ``.venv/bin/python benchmarks/deeper_search.py [--against expected,valued]
[--games 6000] [--seed 1] [--jobs 2]`` (about 7 minutes for 6,000 games against `expected`
with 2 jobs, 12 minutes for both matches; the figures are in ``docs/bots.md``).
"""

from __future__ import annotations

import argparse

from pickomino.analysis import LearnedPlanner
from pickomino.bots.base import BOTS, DIFFICULTIES, register
from pickomino.bots.strategist import Planner, StrategistBot
from pickomino.core import GameState
from pickomino.evaluation import shipped_network
from pickomino.sim.tournament import run_tournament


@register("deeper")
class DeeperBot(StrategistBot):
    """`valued` one turn deeper: the opponent's best reply, then the network."""

    name = "deeper"

    def planner(self) -> Planner:
        network = shipped_network(2)
        assert network is not None, "no two-player network shipped"
        return LearnedPlanner(network)

    def lookahead(self, state: GameState) -> int:
        return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="expected,valued", help="opponents, by comma")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be positive")
    unknown = set(args.against.split(",")) - set(BOTS) - set(DIFFICULTIES)
    if unknown:
        parser.error(f"--against: no bot named {', '.join(sorted(unknown))}")
    print("| match (2 players, seats rotated) | games | `deeper` wins | 95% interval |")
    print("|---|---|---|---|")
    for opponent in args.against.split(","):
        result = run_tournament(
            ["deeper", opponent], games=args.games, seed=args.seed, jobs=args.jobs
        )
        record = result.bots["deeper"]
        low, high = record.ci95
        print(
            f"| `deeper` vs `{opponent}` | {record.games:,} | {100 * record.win_share:.2f}% "
            f"| [{100 * low:.2f}, {100 * high:.2f}] |"
        )


if __name__ == "__main__":
    main()
