"""What the benchmarks that pit one benchmark-only bot against others share: their options
(``--against``, ``--games``, ``--seed``, ``--jobs``, checked before any game) and the table
of seat-rotated matches (one bot against copies of another), each with its 95% interval, on
the tournament's seeds."""

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


def print_matches(bot: str, args: argparse.Namespace, players: int = 2) -> None:
    """Play ``bot`` against ``players - 1`` copies of each opponent and print a Markdown row
    per match (a fair share is ``1 / players``)."""
    print(f"| match ({players} players, seats rotated) | games | `{bot}` wins | 95% interval |")
    print("|---|---|---|---|")
    copies = "" if players == 2 else f"{players - 1}× "
    for opponent in args.against.split(","):
        table = [bot] + [opponent] * (players - 1)
        result = run_tournament(
            table, players=players, games=args.games, seed=args.seed, jobs=args.jobs
        )
        record = result.bots[bot]
        low, high = record.ci95
        print(
            f"| `{bot}` vs {copies}`{opponent}` | {record.games:,} "
            f"| {100 * record.win_share:.2f}% | [{100 * low:.2f}, {100 * high:.2f}] |"
        )
