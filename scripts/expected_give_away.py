"""How much win chance the `expected` bot gives away, as the strategist's search sees it.

Plays `expected` vs `expected` games and, at every turn start, asks the strategist's planner
how much better than `expected`'s turn the best win-aware turn would be
(``Planner.give_away``). The sum over one player's turns is the edge a player who plays
exactly like that search could take from `expected` in a game; it bounds what the strategist
can win against `expected` for as long as it keeps the same win model. Reported per phase
(face-up tiles left on the grill) and for each lookahead depth asked for.
Run: ``.venv/bin/python scripts/expected_give_away.py --games 600 --turns 1,2``
"""

from __future__ import annotations

import math
from functools import partial

import click
import numpy as np

from pickomino.bots import make_bot
from pickomino.bots.strategist import Planner
from pickomino.core import GameState
from pickomino.sim.tournament import parallel_map
from pickomino.table import SeededDice, turn_starts

PHASES = ((9, 16), (5, 8), (3, 4), (0, 2))  # face-up tiles left on the grill


def game_give_aways(game: int, depths: tuple[int, ...]) -> list[tuple[int, list[float]]]:
    """(face-up tiles, give-away at each depth) at every turn start of one seeded game."""
    bot = make_bot("expected")
    planners = [(Planner(), depth) for depth in depths]
    state = GameState(2, start_player=game % 2)
    turns = []
    for start in turn_starts(state, [bot, bot], SeededDice(f"give-away:{game}")):
        losses = [planner.give_away(start, depth) for planner, depth in planners]
        turns.append((len(start.grill), losses))
    return turns


def _depths(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        depths = tuple(int(depth) for depth in value.split(","))
    except ValueError:
        depths = ()
    if not depths or min(depths) < 0:
        raise click.BadParameter("give whole numbers of turns, 0 or more, e.g. 1,2")
    return depths


@click.command(help=__doc__)
@click.option("--games", type=click.IntRange(min=1), default=600, show_default=True)
@click.option(
    "--turns",
    "depths",
    default="1",
    show_default=True,
    callback=_depths,
    help="Lookahead depths, comma-separated.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True)
def main(games: int, depths: tuple[int, ...], jobs: int) -> None:
    play = partial(game_give_aways, depths=depths)
    played = list(parallel_map(play, range(games), jobs))
    print(f"win chance `expected` gives away per game and player ({games} games):")
    for k, depth in enumerate(depths):
        per_game = np.array([sum(losses[k] for _, losses in turns) for turns in played]) / 2
        half_width = 1.96 * per_game.std() / math.sqrt(games)
        phases = []
        for lo, hi in PHASES:
            lost = sum(losses[k] for turns in played for n, losses in turns if lo <= n <= hi)
            phases.append(f"{lo}-{hi} tiles {lost / (2 * games):.2%}")
        print(
            f"  looking {depth} turn(s) ahead: {per_game.mean():.2%} ± {half_width:.2%}"
            f" ({', '.join(phases)})"
        )


if __name__ == "__main__":
    main()
