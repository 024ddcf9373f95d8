"""What the review says about whole games of bots, per bot: the luck it books a game (which
should average 0 for every bot: the dice favour nobody), the drift (how far the evaluator is
from agreeing with itself: 0 for a perfect one), and how its labels tell the bots apart (the
share of each label, and of the games with at least one mistake or blunder).

Each game seats ``random``, ``simple`` and ``expected`` against the expert (``valued``, as the
strategist at table sizes without a network; ``--expert strategist`` for the strategist), or
the bots of ``--table`` (e.g. ``expected,simple``), the seats rotated; every game is played from
its own seed and reviewed with the game's evaluator (:func:`pickomino.analysis.evaluator_for`),
or with ``--judge WEIGHTS.npz``, by that network instead (the bots still play by theirs: how
much of a label is the evaluator's own noise, e.g. the expert judged by another training).
Also over all the games: each roll's luck for its roller (mean, spread, how often each luck
mark is given) and how much the dice and the decisions moved a player's chance a game.

Run: ``.venv/bin/python benchmarks/review_accounts.py [--players 2] [--games 60] [--seed 0]
[--expert valued | --table BOT,BOT,...] [--judge WEIGHTS.npz] [--jobs 2]`` (a 2-player review
takes a fraction of a second, a 5-player one several).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass
from functools import cache

from pickomino.analysis import LABEL_NAMES, LearnedPlanner, review
from pickomino.analysis.decisions import MARK_NAMES
from pickomino.bots import make_bot
from pickomino.bots.base import BOTS
from pickomino.core import Game
from pickomino.evaluation import WinNetwork
from pickomino.sim.tournament import parallel_map
from pickomino.table import SeededDice, advance

OTHERS = ("random", "simple", "expected")
BAD = ("mistake", "blunder")


def table_of(game: int, players: int, expert: str, table: tuple[str, ...] = ()) -> list[str]:
    """The bots of game ``game``: ``table`` if given, else the expert and the others in
    turn; the seats rotated."""
    bots = list(table) or [
        expert,
        *(OTHERS[(game + seat) % len(OTHERS)] for seat in range(players - 1)),
    ]
    shift = game % len(bots)
    return bots[shift:] + bots[:shift]


@dataclass
class Seat:
    """What the review of one game says of one seat."""

    bot: str
    luck: float
    drift: float
    decisions: float  # what the decisions at the table did to its chance: skill + others
    labels: Counter[str]
    marks: Counter[str]


Job = tuple[int, int, int, str, tuple[str, ...], str]


@cache
def judge(path: str) -> LearnedPlanner:
    """The evaluator by the network in ``path`` (one per process)."""
    return LearnedPlanner(WinNetwork.load(path))


def reviewed(job: Job) -> tuple[list[Seat], list[float]]:
    """Each seat of one game, and each roll's luck for its roller."""
    game_number, players, seed, expert, table, judged_by = job
    bots = table_of(game_number, players, expert, table)
    dice_seed = random.Random(seed * 100_003 + game_number).randrange(1 << 30)
    game = Game(bots)
    players_ = [make_bot(bot, dice_seed + seat) for seat, bot in enumerate(bots)]
    advance(game, players_, SeededDice(dice_seed))
    done = review(game.record, judge(judged_by) if judged_by else None)
    seats = [
        Seat(
            bots[player.seat],
            player.luck,
            player.drift,
            player.skill + player.others,
            Counter(player.labels),
            Counter(player.marks),
        )
        for player in done.players
    ]
    return seats, [roll.luck[roll.seat] for roll in done.rolls]


def mean_and_half(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return statistics.mean(values), half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expert", default="valued", choices=("valued", "strategist"))
    parser.add_argument(
        "--table",
        default="",
        help="the bots of every game, by comma (their number is the table's size)",
    )
    parser.add_argument("--judge", default="", help="review by this network's weights (.npz)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    table = tuple(bot for bot in args.table.split(",") if bot)
    unknown = sorted(set(table) - set(BOTS))
    if unknown or len(table) == 1:
        parser.error(f"--table: 2 or more of {', '.join(sorted(BOTS))}")
    players = len(table) or args.players
    if args.judge:
        try:
            judged = WinNetwork.read(args.judge).players
        except ValueError as error:
            parser.error(f"--judge {error}")
        if judged != players:
            parser.error(f"--judge {args.judge}: a network for {judged} players, not {players}")
    jobs = [
        (game, players, args.seed, args.expert, table, args.judge) for game in range(args.games)
    ]
    seats: list[Seat] = []
    rolls: list[float] = []
    for game_seats, game_rolls in parallel_map(reviewed, jobs, args.jobs):
        seats += game_seats
        rolls += [100 * luck for luck in game_rolls]
    print(f"{args.games} games of {players} players, seed {args.seed} (points of win chance)")
    drifts = [100 * seat.drift for seat in seats]
    spread, mean = statistics.pstdev(drifts), statistics.mean(drifts)
    print(f"drift per player-game: SD {spread:.2f}, mean {mean:+.2f}")
    header = "bot        luck a game       " + "".join(f"{name:>11}" for name in LABEL_NAMES)
    print(header + "  games with a mistake or worse")
    for bot in table or (args.expert, *OTHERS):
        mine = [seat for seat in seats if seat.bot == bot]
        if not mine:
            continue
        mean, half = mean_and_half([100 * seat.luck for seat in mine])
        labels = sum((seat.labels for seat in mine), Counter())
        total = sum(labels.values()) or 1
        shares = "".join(f"{100 * labels[name] / total:10.1f}%" for name in LABEL_NAMES)
        bad = 100 * statistics.mean(any(seat.labels[label] for label in BAD) for seat in mine)
        print(f"{bot:<10} {mean:+6.2f} ± {half:4.2f}    {shares}  {bad:5.1f}% of {len(mine)}")
    mean, half = mean_and_half(rolls)
    print(
        f"{len(rolls)} rolls, the roller's luck a roll: {mean:+.2f} ± {half:.2f},"
        f" SD {statistics.stdev(rolls):.1f}"
    )
    marks = sum((seat.marks for seat in seats), Counter())
    print(
        "luck marks: "
        + ", ".join(
            f"{name} 1 roll in {len(rolls) / marks[name]:.0f}" if marks[name] else f"{name} none"
            for name in MARK_NAMES
        )
    )
    print(
        f"a player-game, in size: the dice {statistics.mean(abs(100 * s.luck) for s in seats):.1f},"
        f" the decisions at the table {statistics.mean(abs(100 * s.decisions) for s in seats):.1f}"
    )


if __name__ == "__main__":
    main()
