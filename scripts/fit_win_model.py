"""Refit the strategist's win model (pickomino/bots/strategist.py) from self-play.

Plays `expected` vs `expected` games, records every turn start from both players' points of
view (lead, worms on the grill, exposed top tiles, who moves) with who won, and fits the
logistic model by Newton's method. Prints the coefficients to paste into strategist.py and
the held-out log-loss. Run: ``.venv/bin/python scripts/fit_win_model.py --games 6000``
"""

from __future__ import annotations

import click
import numpy as np

from pickomino.bots import make_bot
from pickomino.core import GameState, Rules, worms_on
from pickomino.table import SeededDice
from pickomino.table import turn_starts as played_turn_starts

C = 2.0


def turn_starts(game: int) -> list[tuple[float, ...]]:
    """(lead, grill worms, my top worms, their top worms, I move, who holds the higher tile
    (+1 me, -1 them: the tie-break of R20), I won) per player and turn."""
    bots = [make_bot("expected"), make_bot("expected")]
    state = GameState(2, Rules(), start_player=game % 2)
    seen = [
        (
            start.scores(),
            sum(worms_on(t) for t in start.grill),
            [worms_on(s[-1]) if s else 0 for s in start.stacks],
            [max(s, default=0) for s in start.stacks],
            start.current,
        )
        for start in played_turn_starts(state, bots, SeededDice(f"fit:{game}"))
    ]
    winners = state.winners()
    rows = []
    for scores, grill, tops, highest, mover in seen:
        for me in (0, 1):
            won = 1 / len(winners) if me in winners else 0.0
            lead = scores[me] - scores[1 - me]
            tie_break = (highest[me] > highest[1 - me]) - (highest[me] < highest[1 - me])
            rows.append((lead, grill, tops[me], tops[1 - me], float(mover == me), tie_break, won))
    return rows


def features(data: np.ndarray) -> np.ndarray:
    lead, grill, mine, theirs, moves, tie_break = data[:, :6].T
    root, remaining = np.sqrt(grill + C), grill + C
    return np.c_[
        lead / root,
        lead / remaining,
        (mine - theirs) / root,
        2 * moves - 1,
        tie_break / root,
        tie_break / remaining,
    ]


def fit(x: np.ndarray, y: np.ndarray, steps: int = 30) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hessian, x.T @ (p - y))
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


@click.command(help=__doc__)
@click.option("--games", type=click.IntRange(min=1), default=6000, show_default=True)
def main(games: int) -> None:
    data = np.array([row for game in range(games) for row in turn_starts(game)])
    train = np.arange(len(data)) % 5 != 0  # every fifth row held out
    x, y = features(data), data[:, 6]
    print(f"{len(data)} points of view from {games} games; held-out log-loss:")
    for name, columns in (("without the tie-break terms", 4), ("with them", 6)):
        w = fit(x[train, :columns], y[train])
        print(f"  {name}: {log_loss(x[~train, :columns], y[~train], w):.5f}")
    coefficients = ", ".join(f"{value:.4f}" for value in fit(x, y))
    print(f"LEAD, LEAD_LATE, EXPOSED, MOVER, TIE_BREAK, TIE_BREAK_LATE = {coefficients}")


if __name__ == "__main__":
    main()
