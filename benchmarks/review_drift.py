"""Where the review's drift comes from, for the evaluator as shipped and as it was.

The review's drift is the change of a player's chance between the end of one turn, as that
turn's view valued the position it ended in, and the start of the next, as the next turn's
view values it (``docs/analysis.md``). This prints its standard deviation per player-game and
each turn's change split by the tiles face up at the turn's start (as
``win_values_drift.py`` does for the network alone), on the same games (``expected`` against
``simple``), for the evaluator as shipped (:class:`~pickomino.bots.planners.LearnedPlanner`:
with two players three turns further with at most three tiles face up, two with five; with
more players one with at most three), as it was from 6 to 7 December (one turn further with at
most three tiles face up) and looking one turn at every turn (as it did before 6 December).
``--two-turns-at N`` also measures it looking two turns further with at most N tiles face up,
one turn further with at most three (not shipped: measured in ``docs/evaluator.md``);
``--network WEIGHTS.npz`` measures the evaluator over another network of the table's size (a
training's candidate) instead of the shipped one.

Run: ``.venv/bin/python benchmarks/review_drift.py [--games 40] [--seed 3] [--players 2]
[--two-turns-at 2] [--network WEIGHTS.npz]`` (seconds with two players; a minute with seven)
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from win_values_drift import (  # beside this file
    Change,
    candidate_network,
    change_at,
    print_sources,
    turn_starts_of,
)

from pickomino.analysis import TurnView
from pickomino.bots.planners import (
    LEARNED_ENDGAME_TILES,
    LOOKAHEAD_MORE_PLAYERS,
    LOOKAHEAD_TWO_PLAYERS,
    LearnedPlanner,
)
from pickomino.core import GameState
from pickomino.evaluation import WinNetwork, shipped_network


class OneTurn(LearnedPlanner):
    """The evaluator looking one turn at every turn (before 6 December)."""

    def lookahead(self, state: GameState) -> int:
        return 0


class OneReply(LearnedPlanner):
    """The evaluator from 6 to 7 December: one turn further with at most three tiles up."""

    def lookahead(self, state: GameState) -> int:
        return 1 if len(state.grill) <= LEARNED_ENDGAME_TILES else 0


class TwoTurns(OneReply):
    """That evaluator, and two turns further with at most ``face_up`` tiles up."""

    def __init__(self, network: WinNetwork, face_up: int) -> None:
        super().__init__(network)
        self.face_up = face_up

    def lookahead(self, state: GameState) -> int:
        return 2 if len(state.grill) <= self.face_up else super().lookahead(state)


def review_drifts(planner: LearnedPlanner, game: int, seed: int, players: int):
    """Each seat's drift over one game, and each turn's change of the mover's chance."""
    drift, changes = np.zeros(players), []
    ended: TurnView | None = None  # the view of the turn before
    for state in turn_starts_of(game, seed, players):
        start = state.copy()
        view = TurnView(start, planner)
        if ended is not None:
            change = np.array(view.chances(start)) - np.array(ended.after_turn(start))
            drift += change
            changes.append(change_at(start, change))
        ended = view
    return drift.tolist(), changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, choices=range(2, 8), default=2)
    parser.add_argument(
        "--two-turns-at", type=int, default=0, help="also: two turns further with this many up"
    )
    parser.add_argument("--network", help="another network's weights (.npz) instead")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be positive")
    if not 0 <= args.two_turns_at <= LEARNED_ENDGAME_TILES:
        parser.error(f"--two-turns-at: 0 (not measured) to {LEARNED_ENDGAME_TILES}")
    network = candidate_network(parser, args.network, args.players) or shipped_network(args.players)
    assert network is not None, "every table size of the rules has a network"
    evaluators = {
        "one turn at every turn": lambda: OneTurn(network),
    }
    if args.players == 2:  # with more players, as shipped
        before = f"6-7 December (a turn further with at most {LEARNED_ENDGAME_TILES} face up)"
        evaluators[before] = lambda: OneReply(network)
    looks = LOOKAHEAD_TWO_PLAYERS if args.players == 2 else LOOKAHEAD_MORE_PLAYERS
    further = ", ".join(f"{turns} with at most {tiles} face up" for tiles, turns in looks)
    evaluators[f"as shipped (turns further {further})"] = lambda: LearnedPlanner(network)
    if args.two_turns_at:
        evaluators[f"two turns further with at most {args.two_turns_at} face up"] = lambda: (
            TwoTurns(network, args.two_turns_at)
        )
    print(f"{args.games} games of expected against simple, {args.players} players (points)")
    for name, make in evaluators.items():
        drifts: list[float] = []
        changes: list[Change] = []
        for game in range(args.games):  # a fresh memory a game, as the review has
            drift, change = review_drifts(make(), game, args.seed, args.players)
            drifts += drift
            changes += change
        print(f"{name}: the review's drift, SD a player-game {100 * statistics.stdev(drifts):.2f}")
        print_sources(changes, "  the evaluator")


if __name__ == "__main__":
    main()
