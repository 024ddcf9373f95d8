"""Is a newly trained two-player win-value network stronger than the shipped one? A
benchmark-only bot, ``candidate``, plays exactly as `valued` but by the network in the file
given; it plays seat-rotated two-player games against each bot named (`valued` itself: the
two networks head to head, on the same seeds as ``pickomino tournament``) and prints each
result with its 95% interval. What decides whether a training's weights replace the shipped
ones, beside the drift and the endgame error (``docs/bots.md``).

Run: ``.venv/bin/python benchmarks/network_match.py CANDIDATE.npz [--against valued,expected]
[--games 6000] [--seed 1] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import os
from functools import cache
from pathlib import Path

from pickomino.bots.base import BOTS, DIFFICULTIES, register
from pickomino.bots.valued import ValuedBot
from pickomino.core import GameState
from pickomino.core.rules import Rules
from pickomino.evaluation import WinNetwork
from pickomino.sim.tournament import run_tournament

#: How the workers (other processes) learn which file the candidate plays by.
CANDIDATE = "PICKOMINO_CANDIDATE_NETWORK"


@cache
def candidate_network() -> WinNetwork:
    return WinNetwork.load(os.environ[CANDIDATE])


@register("candidate")
class CandidateBot(ValuedBot):
    """`valued` by the candidate's network (two players, the standard rules)."""

    name = "candidate"

    def network(self, state: GameState) -> WinNetwork | None:
        return candidate_network() if state.rules == Rules() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", type=Path, help="the network's weights (.npz)")
    parser.add_argument("--against", default="valued,expected", help="opponents, by comma")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be positive")
    unknown = set(args.against.split(",")) - set(BOTS) - set(DIFFICULTIES)
    if unknown:
        parser.error(f"--against: no bot named {', '.join(sorted(unknown))}")
    try:
        players = WinNetwork.load(args.candidate).players
    except (OSError, ValueError, KeyError) as error:
        parser.error(f"{args.candidate}: not a network's weights ({error})")
    if players != 2:
        parser.error(f"{args.candidate} is a network for {players} players, not 2")
    os.environ[CANDIDATE] = str(args.candidate.resolve())
    print("| match (2 players, seats rotated) | games | `candidate` wins | 95% interval |")
    print("|---|---|---|---|")
    for opponent in args.against.split(","):
        result = run_tournament(
            ["candidate", opponent], games=args.games, seed=args.seed, jobs=args.jobs
        )
        record = result.bots["candidate"]
        low, high = record.ci95
        print(
            f"| `candidate` vs `{opponent}` | {record.games:,} | {100 * record.win_share:.2f}% "
            f"| [{100 * low:.2f}, {100 * high:.2f}] |"
        )


if __name__ == "__main__":
    main()
