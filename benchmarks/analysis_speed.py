"""Analysis speed: a whole game reviewed (``pickomino analyse``), 2 and 5 players, against
the time to replay the same record, measured in the same run on one core; and the Hint's
answer (2 to 7 players), the first of a turn (which values the turn) and a later one. The
targets: a 2-player game in under 2 s, a 5-player game in under 10 s, a Hint in 100 ms.

Why: a review values every decision of every player with the game's evaluator (the learned
win values of the table's size, one solve a turn; under other rules the strategist's search,
a search per turn), and a valuation per choice; replaying the record is the floor any
analysis pays. Each review starts from an empty search memory, as the command does; the
first game is untimed (it builds the turn graph).

Run: ``.venv/bin/python benchmarks/analysis_speed.py [--games 10] [--seed 0]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pickomino.analysis import review
from pickomino.analysis.hint import Hints
from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord, GameState
from pickomino.table import SeededDice, advance, turn_starts

#: The bots of each game, drawn per seat: the levels people meet, strongest to weakest.
BOTS = ("strategist", "expected", "simple", "random")


def game_record(players: int, seed: int) -> GameRecord:
    rng = random.Random(f"analysis-speed:{players}:{seed}")
    bots = [rng.choice(BOTS) for _ in range(players)]
    game = Game(bots)
    advance(game, [make_bot(bot, rng.randrange(1 << 30)) for bot in bots], SeededDice(seed))
    return game.record


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def measure(players: int, games: int, seed: int) -> None:
    records = [game_record(players, seed + game) for game in range(games)]
    replays = [timed(Game.from_record, record) for record in records]
    reviews = [timed(review, record) for record in records]
    moves = statistics.mean(len(record.moves) for record in records)
    mean, worst = statistics.mean(reviews), max(reviews)
    replay = statistics.mean(replays)
    print(
        f"{players} players, {games} games, {moves:.0f} moves a game: review {mean:.2f} s "
        f"(worst {worst:.2f} s), replay {1000 * replay:.1f} ms: {mean / replay:,.0f}x the replay"
    )


def measure_hint(players: int, seed: int) -> None:
    """The Hint at every seventh turn start of a game of ``expected`` bots: its first answer
    of the turn, then one after the first roll (the turn's view kept)."""
    bots = [make_bot("expected", seed + seat) for seat in range(players)]
    starts = [state.copy() for state in turn_starts(GameState(players), bots, SeededDice(seed))]
    hints, first, later = Hints(), [], []
    for state in starts[::7]:
        first.append(timed(hints.rows, state))
        state.apply_roll("12345WW3"[: state.dice_left])
        later.append(timed(hints.rows, state))
    mean, worst, after = statistics.mean(first), max(first), statistics.mean(later)
    print(
        f"hint, {players} players, {len(first)} turns: first of a turn {1000 * mean:.0f} ms "
        f"(worst {1000 * worst:.0f} ms), later {1000 * after:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    review(game_record(2, -1))  # warm-up: the turn graph, numpy
    for players, target in ((2, 2.0), (5, 10.0)):
        print(f"target: under {target:.0f} s a game")
        measure(players, args.games, args.seed)
    print("target: a Hint in under 100 ms")
    for players in range(2, 8):
        measure_hint(players, args.seed)


if __name__ == "__main__":
    main()
