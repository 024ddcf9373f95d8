"""How far the learned win values are from the exact ones, on small two-player endgames.

Each endgame comes from a game of ``expected`` against ``expected`` (its own seed): the first
turn's start with at most ``--face-up`` tiles on the grill, each stack then cut to its top
``--keep`` tiles (the tiles under them turned face down), so that every position the endgame
can reach is few enough to value exactly (:class:`pickomino.evaluation.exact.Endgame`; the
full stacks of a real endgame reach too many: ``docs/evaluator.md``, "Exact endgames"). Against
the exact chances it prints the error, in points of win chance, of

- the shipped network, as it values a position (``network``);
- the network one turn further: the exact turn solver over the network's values of the
  turn's endings (``network + turn``);
- the evaluator (:class:`~pickomino.bots.planners.LearnedPlanner`), as the review, the Hint
  and the ``expert`` bot value a position: at these endgames (at most three tiles face up)
  the turn solved with each ending valued after the other player's best reply, solved over
  the network (``evaluator``);
- the strategist's win model, the baseline (``win model``);

at the endgames' starts and at every position they reach.

Then, for the network (and the candidate), **its error's spread over where a turn ends**: at
each position, the standard deviation of the network's error (its chance minus the exact one)
over the positions its own turn can end in (each with its chance, the turn played as the
search over the network plays it), its root mean square over the positions. That spread is
what a drift per player-game grows from, not the residual: along a game, with V the network
and e = V − exact, a seat's drift Σ (E[V after the turn] − V before it) is exactly
−e(start) + Σ (E[e after] − e after) + Σ (E[exact after] − exact before); the middle sum's
terms are each turn's surprise in the error (uncorrelated from turn to turn, so their
variances, the spread's squares, add up over a game's turns), the last is what the play
itself gives away by the exact values. An error that is the same wherever a turn ends adds
no drift however large it is; one that differs between a turn's endings adds it even where
the network agrees with its own search on average. ``--table PATH`` writes each
endgame's start and exact chance as CSV (``docs/exact_endgames.csv``). ``--network
WEIGHTS.npz`` measures another network (a training's candidate) the same three ways, beside
the shipped one, on the same exact endgames.

Run: ``.venv/bin/python benchmarks/endgame_error.py [--endgames 30] [--seed 1] [--jobs 2]
[--network WEIGHTS.npz]`` (10-30 s an endgame on one core).
"""

from __future__ import annotations

import argparse
import csv
import functools
import random
import statistics
import sys
from pathlib import Path

import numpy as np
from win_values_drift import Values, candidate_network, looked_further, model_values

from pickomino.bots import make_bot
from pickomino.bots.planners import LearnedPlanner
from pickomino.core import GameState
from pickomino.core.dice import sample_roll
from pickomino.evaluation import WinNetwork, shipped_network, win_chances
from pickomino.evaluation.exact import Endgame, cut_stacks
from pickomino.evaluation.values import tables_of
from pickomino.files import unwritable
from pickomino.sim.tournament import parallel_map
from pickomino.solver import solve
from pickomino.solver.endings import turn_endings
from pickomino.solver.solve import TurnSolution

#: The names of a network's rows: as it is, a turn further, and the evaluator over it.
NETWORK_ROWS = ("network", "network + turn", "evaluator")


def endgame_of(game: int, seed: int, face_up: int, keep: int) -> GameState | None:
    """Game ``game``'s first turn start with at most ``face_up`` tiles face up, its stacks cut
    to their top ``keep`` tiles (None if the game ends before)."""
    rng = random.Random(seed * 10_007 + game)
    bots = [make_bot("expected", 2 * game), make_bot("expected", 2 * game + 1)]
    state = GameState(2)
    while not state.is_over:
        if state.is_chance() and not any(state.kept) and len(state.grill) <= face_up:
            return cut_stacks(state, keep)
        if state.is_chance():
            state.apply_roll(sample_roll(state.dice_left, rng))
        else:
            state.apply(bots[state.current].choose(state))
    return None


@functools.cache
def network_at(path: str | None) -> WinNetwork:
    """The shipped two-player network, or the one at ``path`` (loaded once a process)."""
    network = shipped_network(2) if path is None else WinNetwork.load(path)
    assert network is not None, "a two-player network is shipped"
    return network


def mover_errors(live: list[GameState], values: Values, truth: np.ndarray) -> np.ndarray:
    rows = values(live)
    return np.abs(rows[np.arange(len(live)), [s.current for s in live]] - truth)


def network_errors(live: list[GameState], network: WinNetwork, truth: np.ndarray) -> list:
    """A network's errors as it is, a turn further, and as the evaluator over it."""
    values = functools.partial(win_chances, network=network)
    further = np.array([looked_further(state, values)[state.current] for state in live])
    planner = LearnedPlanner(network)  # its memory shared by the endgame's positions
    searched = [solve(planner.turn_values(s, planner.lookahead(s))).start_value for s in live]
    return [
        mover_errors(live, values, truth),
        *(np.abs(np.array(v) - truth) for v in (further, searched)),
    ]


def turn_ends(
    state: GameState, network: WinNetwork, exact: Endgame
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the turn of ``state`` ends, played as the search over ``network`` plays it: each
    claim group's chance (the bust's first), and the mover's chance after the claim it takes
    there, by the network and exactly."""
    endings = turn_endings(state)
    mover = state.current
    chances = [win_chances(group, network) for group in endings.positions]
    totals, bust = TurnSolution(tables_of(chances, endings.group_of, mover)[mover]).fresh_ending
    lands = np.zeros(len(chances))
    np.add.at(lands, np.asarray(endings.group_of) + 1, totals)
    lands[0] += bust
    taken = [int(block[:, mover].argmax()) for block in chances]  # the claim of each group
    by_network = [block[k, mover] for block, k in zip(chances, taken, strict=True)]
    truth = [
        exact.chances(group[k])[mover] for group, k in zip(endings.positions, taken, strict=True)
    ]
    return lands, np.array(by_network), np.array(truth)


def error_spread(state: GameState, network: WinNetwork, exact: Endgame) -> float:
    """The standard deviation of ``network``'s error (its chance for the mover against the
    exact one) over where the turn of ``state`` ends (:func:`turn_ends`; module docstring)."""
    lands, by_network, truth = turn_ends(state, network, exact)
    errors = by_network - truth
    mean = float(lands @ errors)
    return float(np.sqrt(max(0.0, lands @ np.square(errors) - mean**2)))


def errors_of(job: tuple[int, int, int, int, str | None]) -> dict | None:
    """One endgame: its exact chances and each value function's errors (mover's view)."""
    game, seed, face_up, keep, candidate = job
    start = endgame_of(game, seed, face_up, keep)
    if start is None:
        return None
    exact = Endgame(start)
    live = [state for state in exact.states if not state.is_over]
    truth = np.array([exact.chances(state)[state.current] for state in live])
    network, further, evaluator = network_errors(live, network_at(None), truth)
    errors = {"network": network, "win model": mover_errors(live, model_values, truth)}
    errors |= {"network + turn": further, "evaluator": evaluator}
    spreads = {"network": np.array([error_spread(s, network_at(None), exact) for s in live])}
    if candidate is not None:
        found = network_errors(live, network_at(candidate), truth)
        errors |= {
            f"candidate: {name}": error for name, error in zip(NETWORK_ROWS, found, strict=True)
        }
        spreads["candidate: network"] = np.array(
            [error_spread(s, network_at(candidate), exact) for s in live]
        )
    return {
        "start": start,
        "chance": float(truth[0]),
        "positions": exact.positions,
        "errors": errors,
        "spreads": spreads,
    }


def points(values: list[float]) -> str:
    return f"{100 * statistics.mean(values):.2f}"


def root_mean_square(values: list[float]) -> str:
    return f"{100 * np.sqrt(np.mean(np.square(values))):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endgames", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--face-up", type=int, default=3)
    parser.add_argument("--keep", type=int, default=1, help="tiles kept on each stack")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--table", type=Path, help="write each endgame's exact chance (CSV)")
    parser.add_argument("--network", help="also another two-player network's weights (.npz)")
    args = parser.parse_args()
    candidate_network(parser, args.network, 2)  # refused before any work
    if args.endgames < 1 or args.jobs < 1 or args.keep < 0 or not 1 <= args.face_up <= 16:
        parser.error("--endgames and --jobs must be positive, --keep at least 0, --face-up 1 to 16")
    why = unwritable(args.table) if args.table else None
    if why:
        parser.error(f"--table: {why}")
    jobs = [
        (game, args.seed, args.face_up, args.keep, args.network) for game in range(args.endgames)
    ]
    found = [done for done in parallel_map(errors_of, jobs, args.jobs) if done is not None]
    if not found:
        sys.exit("no game reached such an endgame")
    names = list(found[0]["errors"])
    starts = {name: [float(d["errors"][name][0]) for d in found] for name in names}
    every = {name: [float(e) for d in found for e in d["errors"][name]] for name in names}
    positions = sum(d["positions"] for d in found)
    print(
        f"{len(found)} endgames (at most {args.face_up} tiles face up, {args.keep} on each "
        f"stack), {positions:,} positions; mean absolute error, points of win chance"
    )
    print("| value function | at the endgames' starts | max | at every position reached |")
    print("|---|---|---|---|")
    for name in names:
        print(
            f"| {name} | {points(starts[name])} | {100 * max(starts[name]):.1f} "
            f"| {points(every[name])} |"
        )
    print()
    print("| network | its error's spread where a turn ends (RMS): at the starts | everywhere |")
    print("|---|---|---|")
    for name in found[0]["spreads"]:
        at_starts = [float(d["spreads"][name][0]) for d in found]
        everywhere = [float(v) for d in found for v in d["spreads"][name]]
        print(f"| {name} | {root_mean_square(at_starts)} | {root_mean_square(everywhere)} |")
    if args.table:
        with args.table.open("w", newline="") as out:
            table = csv.writer(out)
            table.writerow(["grill", "mover's stack", "other's stack", "mover's exact chance"])
            for d in found:
                state = d["start"]
                mover, other = state.stacks[state.current], state.stacks[1 - state.current]
                row = [" ".join(map(str, tiles)) for tiles in (state.grill, mover, other)]
                table.writerow([*row, f"{d['chance']:.6f}"])


if __name__ == "__main__":
    main()
