"""What the benchmarks that pit one benchmark-only bot against others share: their options
(``--against``, ``--games``, ``--seed``, ``--jobs``, checked before any game) and the table
of seat-rotated two-player matches, each with its 95% interval, on the tournament's seeds."""

from __future__ import annotations

import argparse

from pickomino.bots.base import BOTS, DIFFICULTIES
from pickomino.sim.tournament import run_tournament


def match_parser(description: str, against: str) -> argparse.ArgumentParser:
    """A parser with the matches' options (``against``: the default opponents, by comma)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--against", default=against, help="opponents, by comma")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    return parser


def check_matches(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (exit 2, one line) a count below 1 or an opponent no bot is named."""
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be positive")
    unknown = set(args.against.split(",")) - set(BOTS) - set(DIFFICULTIES)
    if unknown:
        parser.error(f"--against: no bot named {', '.join(sorted(unknown))}")


def print_matches(bot: str, args: argparse.Namespace) -> None:
    """Play ``bot`` against each opponent and print a Markdown row per match."""
    print(f"| match (2 players, seats rotated) | games | `{bot}` wins | 95% interval |")
    print("|---|---|---|---|")
    for opponent in args.against.split(","):
        result = run_tournament([bot, opponent], games=args.games, seed=args.seed, jobs=args.jobs)
        record = result.bots[bot]
        low, high = record.ci95
        print(
            f"| `{bot}` vs `{opponent}` | {record.games:,} | {100 * record.win_share:.2f}% "
            f"| [{100 * low:.2f}, {100 * high:.2f}] |"
        )
