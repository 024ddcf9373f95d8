"""How far a value function is from agreeing with itself, per player and game: the drift.

At every turn's start of a game, a position's value changes when it is looked at one turn
further: the exact turn solver over the values of the turn's endings (the mover taking the
claim best for itself) against the value of the position itself. A perfect value function
has no such change; summed over a player's turns of one game it is the review's "drift"
(``docs/analysis.md``). This prints, over the same games, the drift's standard deviation per
player-game and the mean absolute change per turn, for the shipped win-value network and for
the strategist's win model (the baseline, in the same run). Then, for the network, where the
drift comes from: the turns split by how many tiles are face up at their start, each group's
share of the turns, the mover's mean change, its root mean square and its share of all the
changes' squares (the variance a drift adds up from), the mover's mean change split by the
mover's lead in worms (a change that keeps its sign for a leader adds up along the leader's
game, where one that every mover shares cancels out), and the mover's mean change (a value
function that undervalues the player to move has a positive one).

With more than two players every seat's value changes, not only the mover's: each seat's
value one turn further is its value over the turn's endings under the mover's best play.

Run: ``.venv/bin/python benchmarks/win_values_drift.py [--games 40] [--seed 3] [--players 2]``
(games of ``expected`` against ``simple``: the seats alternate between them, starting with
``simple`` in even games and ``expected`` in odd ones).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from pickomino.bots import make_bot
from pickomino.bots.strategist import win_probabilities
from pickomino.core import GameState
from pickomino.core.dice import sample_roll
from pickomino.evaluation import WinNetwork, shipped_network, win_chances
from pickomino.evaluation.values import result, tables_of
from pickomino.solver import solve
from pickomino.solver.endings import turn_endings

Values = Callable[[Sequence[GameState]], np.ndarray]
#: The turns split by the tiles face up at their start: the opening, the middle, the end.
FACE_UP = ((13, 16), (9, 12), (6, 8), (4, 5), (1, 3))


class Change(NamedTuple):
    """A turn's change of the mover's value, looked at one turn further, and where: the tiles
    face up, and the mover's lead in worms over the best of the others."""

    mover: float
    face_up: int
    lead: int


def change_at(state: GameState, change: np.ndarray) -> Change:
    """The mover's part of a turn's ``change`` at ``state``, the turn's start."""
    others = max(state.worms(seat) for seat in range(state.num_players) if seat != state.current)
    return Change(
        float(change[state.current]), len(state.grill), state.worms(state.current) - others
    )


#: The turns split by the mover's lead: a change that keeps its sign for the leader (or the
#: trailer) adds up along a seat's game, where one every mover shares cancels out.
LEADS = (("4+ worms ahead", 4, 99), ("level (±3)", -3, 3), ("4+ worms behind", -99, -4))


def model_values(states: Sequence[GameState]) -> np.ndarray:
    """The strategist's win model (exact for a finished game), the chances made to sum to 1."""
    rows = []
    for state in states:
        chances = result(state) if state.is_over else np.array(win_probabilities(state))
        rows.append(chances / chances.sum())
    return np.array(rows)


def network_values(states: Sequence[GameState]) -> np.ndarray:
    network = shipped_network(states[0].num_players)
    assert network is not None, "no network shipped for this table size"
    return win_chances(states, network)


def candidate_network(
    parser: argparse.ArgumentParser, path: str | None, players: int
) -> WinNetwork | None:
    """``--network PATH``: another network's weights for ``players``, or the parser's error
    (before any work); None without the option."""
    if path is None:
        return None
    try:
        network = WinNetwork.read(path)
    except ValueError as error:
        parser.error(f"--network {error}")
    if network.players != players:
        parser.error(f"--network is for {network.players} players, not {players}")
    return network


def looked_further(state: GameState, values: Values) -> np.ndarray:
    """Every seat's value of ``state`` one turn further: the mover's best turn over
    ``values``, each other seat's value under that turn's play."""
    endings = turn_endings(state)
    groups = endings.positions
    tables = tables_of([values(group) for group in groups], endings.group_of, state.current)
    best = solve(tables[state.current])
    further = np.array([best.evaluate(table) for table in tables])
    further[state.current] = best.start_value
    return further


def turn_starts_of(game: int, seed: int, players: int = 2) -> Iterator[GameState]:
    """Every turn's start of game ``game`` of ``expected`` against ``simple`` (the seats
    alternating between them), the game's own dice from ``seed``; played on in place."""
    rng = random.Random(seed * 10_007 + game)
    names = ("expected", "simple") if game % 2 else ("simple", "expected")
    bots = [make_bot(names[seat % 2], game) for seat in range(players)]
    state = GameState(players)
    while not state.is_over:
        if state.is_chance() and not any(state.kept):
            yield state
        if state.is_chance():
            state.apply_roll(sample_roll(state.dice_left, rng))
        else:
            state.apply(bots[state.current].choose(state))


def game_drifts(
    game: int, seed: int, values: dict[str, Values], players: int = 2
) -> dict[str, tuple[list[float], list[Change]]]:
    """Per value function: each seat's drift in this game, and each turn's change (the
    mover's)."""
    drift = {name: np.zeros(players) for name in values}
    changes: dict[str, list[Change]] = {name: [] for name in values}
    for state in turn_starts_of(game, seed, players):
        for name, value in values.items():
            change = looked_further(state, value) - value([state])[0]
            drift[name] += change
            changes[name].append(change_at(state, change))
    return {name: (drift[name].tolist(), changes[name]) for name in values}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, choices=range(2, 8), default=2)
    args = parser.parse_args()
    values: dict[str, Values] = {"win model": model_values, "network": network_values}
    drifts: dict[str, list[float]] = {name: [] for name in values}
    changes: dict[str, list[Change]] = {name: [] for name in values}
    for game in range(args.games):
        for name, (drift, change) in game_drifts(game, args.seed, values, args.players).items():
            drifts[name] += drift
            changes[name] += change
    print(
        f"{args.games} games of expected against simple, {args.players} players"
        " (points of win chance)"
    )
    print("| value function | drift per player-game: SD | max abs | change per turn: mean abs |")
    print("|---|---|---|---|")
    for name in values:
        sd = 100 * statistics.stdev(drifts[name])
        most = 100 * max(map(abs, drifts[name]))
        turn = 100 * statistics.mean(abs(change.mover) for change in changes[name])
        print(f"| {name} | {sd:.2f} | {most:.1f} | {turn:.2f} |")
    print_sources(changes["network"], "the network")


def print_sources(changes: list[Change], whose: str) -> None:
    """Where ``whose`` drift comes from (see the module docstring)."""
    squares = sum(change.mover**2 for change in changes)
    print(f"{whose}'s change a turn, by the tiles face up at the turn's start:")
    for low, high in FACE_UP:
        group = [change.mover for change in changes if low <= change.face_up <= high]
        if group:
            rms = 100 * math.sqrt(statistics.mean(c * c for c in group))
            share = sum(c * c for c in group) / squares
            print(
                f"  {low:>2}-{high:<2} face up: {len(group) / len(changes):4.0%} of the turns,"
                f" mean {100 * statistics.mean(group):+.2f}, RMS {rms:.2f} points,"
                f" {share:4.0%} of the squares"
            )
    leads = []
    for label, low, high in LEADS:
        group = [change.mover for change in changes if low <= change.lead <= high]
        if group:
            share = len(group) / len(changes)
            leads.append(f"{label} {share:.0%}, mean {100 * statistics.mean(group):+.2f}")
    print(f"  by the mover's lead (share of the turns, mean change): {'; '.join(leads)}")
    movers = [100 * change.mover for change in changes]
    half = 1.96 * statistics.stdev(movers) / math.sqrt(len(movers))
    print(f"the mover's change, mean: {statistics.mean(movers):+.2f} ± {half:.2f} points")


if __name__ == "__main__":
    main()
