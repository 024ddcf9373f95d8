"""Is a newly trained win-value network stronger than the shipped one? A benchmark-only
bot, ``candidate``, plays exactly as `valued` but by the network in the file given; at the
network's table size, it plays seat-rotated games against copies of each bot named (`valued`
itself: the two networks head to head, on the same seeds as ``pickomino tournament``) and
prints each result with its 95% interval (a fair share is one in the table's size). What
decides whether a training's weights replace the shipped ones, beside the drift and the
endgame error (``docs/evaluator.md``).

Run: ``.venv/bin/python benchmarks/network_match.py CANDIDATE.npz [--against valued,expected]
[--games 6000] [--seed 1] [--jobs 2]``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from matches import check_matches, match_parser, print_matches  # beside this file

from pickomino.bots.base import register
from pickomino.bots.valued import ValuedBot
from pickomino.core import GameState
from pickomino.core.rules import Rules
from pickomino.evaluation import WinNetwork

#: How the workers (other processes) learn which file the candidate plays by.
CANDIDATE = "PICKOMINO_CANDIDATE_NETWORK"


@cache
def candidate_network() -> WinNetwork:
    return WinNetwork.load(os.environ[CANDIDATE])


@register("candidate")
class CandidateBot(ValuedBot):
    """`valued` by the candidate's network (at its table size, the standard rules)."""

    name = "candidate"

    def network(self, state: GameState) -> WinNetwork | None:
        network = candidate_network()
        fits = state.rules == Rules() and state.num_players == network.players
        return network if fits else None


def main() -> None:
    parser = match_parser(__doc__.splitlines()[0], against="valued,expected")
    parser.add_argument("candidate", type=Path, help="the network's weights (.npz)")
    args = parser.parse_args()
    check_matches(parser, args)
    try:
        players = WinNetwork.read(args.candidate).players
    except ValueError as error:
        parser.error(str(error))
    os.environ[CANDIDATE] = str(args.candidate.resolve())
    print_matches("candidate", args, players)


if __name__ == "__main__":
    main()
