"""Does the `valued` bot gain by looking a turn further? A benchmark-only bot, ``deeper``,
solves its turn exactly with each ending valued by the opponent's best reply (their turn
solved exactly over the win-value network) at every turn, where `valued` does so only with
at most three tiles face up and values the endings by the network directly before: the search
the strategist does, over the learned values instead of its win model. It plays seat-rotated
two-player games against the bots named, with the same seeds as ``pickomino tournament``, and
prints each result with its 95% interval. With ``--endgame-tiles N`` it looks the turn further
only when at most N tiles are face up (the end of the game, where the network's values drift
most: ``docs/evaluator.md``), and no turn further elsewhere; ``--endgame-turns T`` looks T turns
further there instead of one (the opponent's reply, the bot's own next turn, the opponent's
again…). With ``--endgame-tiles 3 --endgame-turns 3`` it plays as `valued` does since 7
December; with ``--endgame-turns 1``, as it did before.

Run: ``.venv/bin/python benchmarks/deeper_search.py [--against expected,valued]
[--games 6000] [--seed 1] [--endgame-tiles 16] [--endgame-turns 1] [--jobs 2]`` (about 7
minutes for 6,000 games against `expected` with 2 jobs on a slow machine, 12 minutes for both
matches; one on a fast one; the figures are in ``docs/evaluator.md``).
"""

from __future__ import annotations

import os

from matches import check_matches, match_parser, print_matches  # beside this file

from pickomino.bots.base import register
from pickomino.bots.planners import LearnedPlanner
from pickomino.bots.strategist import Planner
from pickomino.bots.valued import ValuedBot
from pickomino.core import GameState
from pickomino.evaluation import shipped_network

#: How the workers (other processes) learn from how many tiles face up the bot looks further,
#: and how many turns further it looks there.
ENDGAME_TILES = "PICKOMINO_DEEPER_ENDGAME_TILES"
ENDGAME_TURNS = "PICKOMINO_DEEPER_ENDGAME_TURNS"


class DeeperPlanner(LearnedPlanner):
    """The evaluator looking the asked turns further (one by default) with at most the asked
    tiles face up (all by default), no turn further elsewhere."""

    def lookahead(self, state: GameState) -> int:
        if len(state.grill) > int(os.environ.get(ENDGAME_TILES, "16")):
            return 0
        return int(os.environ.get(ENDGAME_TURNS, "1"))


@register("deeper")
class DeeperBot(ValuedBot):
    """`valued` one turn deeper: the opponent's best reply, then the network."""

    name = "deeper"

    def planner(self, state: GameState) -> Planner:
        if self._learned is None:
            network = shipped_network(2)
            assert network is not None, "no two-player network shipped"
            self._learned = DeeperPlanner(network)
        return self._learned


def main() -> None:
    parser = match_parser(__doc__.splitlines()[0], against="expected,valued")
    parser.add_argument(
        "--endgame-tiles", type=int, default=16, help="look further with at most this many face up"
    )
    parser.add_argument(
        "--endgame-turns", type=int, default=1, help="turns to look further there (1 to 3)"
    )
    args = parser.parse_args()
    check_matches(parser, args)
    if not 1 <= args.endgame_tiles <= 16:
        parser.error("--endgame-tiles: 1 to 16")
    if not 1 <= args.endgame_turns <= 3:
        parser.error("--endgame-turns: 1 to 3")
    os.environ[ENDGAME_TILES] = str(args.endgame_tiles)
    os.environ[ENDGAME_TURNS] = str(args.endgame_turns)
    print_matches("deeper", args)


if __name__ == "__main__":
    main()
