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

from matches import check_matches, match_parser, print_matches  # beside this file

from pickomino.analysis import LearnedPlanner
from pickomino.bots.base import register
from pickomino.bots.strategist import Planner, StrategistBot
from pickomino.core import GameState
from pickomino.evaluation import shipped_network


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
    parser = match_parser(__doc__.splitlines()[0], against="expected,valued")
    args = parser.parse_args()
    check_matches(parser, args)
    print_matches("deeper", args)


if __name__ == "__main__":
    main()
