"""What the review says about whole games of bots, per bot: the luck it books a game (which
should average 0 for every bot: the dice favour nobody), the drift (how far the evaluator is
from agreeing with itself: 0 for a perfect one), and how its labels tell the bots apart (the
share of each label, and of the games with at least one mistake or blunder).

Each game seats ``random``, ``simple`` and ``expected`` against the expert (``valued``, as the
strategist at table sizes without a network; ``--expert strategist`` for the strategist), the
seats rotated; every game is played from
its own seed and reviewed with the game's evaluator (:func:`pickomino.analysis.evaluator_for`).

Run: ``.venv/bin/python benchmarks/review_accounts.py [--players 2] [--games 60] [--seed 0]
[--expert valued] [--jobs 2]`` (a 2-player review takes a fraction of a second, a
5-player one several).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter, defaultdict

from pickomino.analysis import LABEL_NAMES, review
from pickomino.bots import make_bot
from pickomino.core import Game
from pickomino.sim.tournament import parallel_map
from pickomino.table import SeededDice, advance

OTHERS = ("random", "simple", "expected")
BAD = ("mistake", "blunder")


def table_of(game: int, players: int, expert: str) -> list[str]:
    """The bots of game ``game``: the expert and the others in turn, the seats rotated."""
    bots = [expert, *(OTHERS[(game + seat) % len(OTHERS)] for seat in range(players - 1))]
    shift = game % players
    return bots[shift:] + bots[:shift]


def reviewed(job: tuple[int, int, int, str]) -> list[tuple[str, float, float, Counter[str]]]:
    """Each seat of one game: its bot, luck, drift and labels."""
    game_number, players, seed, expert = job
    bots = table_of(game_number, players, expert)
    dice_seed = random.Random(seed * 100_003 + game_number).randrange(1 << 30)
    game = Game(bots)
    players_ = [make_bot(bot, dice_seed + seat) for seat, bot in enumerate(bots)]
    advance(game, players_, SeededDice(dice_seed))
    return [
        (bots[player.seat], player.luck, player.drift, Counter(player.labels))
        for player in review(game.record).players
    ]


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
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(game, args.players, args.seed, args.expert) for game in range(args.games)]
    lucks: dict[str, list[float]] = defaultdict(list)
    drifts: list[float] = []
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    bad_games: dict[str, list[bool]] = defaultdict(list)
    for seats in parallel_map(reviewed, jobs, args.jobs):
        for bot, luck, drift, counted in seats:
            lucks[bot].append(100 * luck)
            drifts.append(100 * drift)
            labels[bot] += counted
            bad_games[bot].append(any(counted[label] for label in BAD))
    print(f"{args.games} games of {args.players} players, seed {args.seed} (points of win chance)")
    spread, mean = statistics.pstdev(drifts), statistics.mean(drifts)
    print(f"drift per player-game: SD {spread:.2f}, mean {mean:+.2f}")
    header = "bot        luck a game       " + "".join(f"{name:>11}" for name in LABEL_NAMES)
    print(header + "  games with a mistake or worse")
    for bot in (args.expert, *OTHERS):
        if bot not in lucks:
            continue
        mean, half = mean_and_half(lucks[bot])
        total = sum(labels[bot].values()) or 1
        shares = "".join(f"{100 * labels[bot][name] / total:10.1f}%" for name in LABEL_NAMES)
        bad = 100 * statistics.mean(bad_games[bot])
        print(f"{bot:<10} {mean:+6.2f} ± {half:4.2f}    {shares}  {bad:5.1f}% of {len(lucks[bot])}")


if __name__ == "__main__":
    main()
