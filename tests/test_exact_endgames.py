"""Exact two-player endgame values (issue 27, part 2): the reference the learned win values
are measured against, checked by routes that do not share its fixed point — a closed form,
the seats swapped, and the engine itself playing the exact policy — and the benchmark that
measures the network against it."""

from __future__ import annotations

import csv
import functools
import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pickomino.core import GameState, Phase
from pickomino.core.dice import sample_roll
from pickomino.core.rules import TILES
from pickomino.evaluation import WinNetwork, shipped_network, win_chances
from pickomino.evaluation.exact import Endgame
from pickomino.evaluation.values import result, tables_of
from pickomino.solver import TurnValues, solve
from pickomino.solver.advice import best_action
from pickomino.solver.endings import turn_endings
from pickomino.solver.solve import TurnSolution

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "endgame_error.py"
FIT = BENCHMARK.with_name("endgame_fit.py")


def position(grill: list[int], stacks: list[list[int]], current: int = 0) -> GameState:
    """A two-player turn start with only ``grill`` face up and ``stacks`` held."""
    held = {tile for stack in stacks for tile in stack}
    face_down = [tile for tile in TILES if tile not in grill and tile not in held]
    return GameState.from_position(stacks, face_down=face_down, current=current)


def best_turn(endgame: Endgame, state: GameState) -> TurnSolution:
    """The mover's best turn at ``state`` over the endgame's values of its endings, solved
    here (not by the class's own step)."""
    endings = turn_endings(state)
    chances = [np.array([endgame.chances(e) for e in group]) for group in endings.positions]
    return solve(tables_of(chances, endings.group_of, state.current)[state.current])


@pytest.mark.parametrize("tile", [21, 27, 30, 36])
def test_the_last_tile_with_empty_stacks_has_its_closed_form(tile):
    """R16: a bust with nothing to return passes the turn and changes nothing, so a player
    who claims the last tile with chance q on each turn wins with V = q + (1 - q)(1 - V),
    V = 1 / (2 - q) (R11: any total of at least the tile claims it)."""
    state = position([tile], [[], []])
    q = solve(TurnValues.at_least(tile)).start_value
    chances = Endgame(state).chances(state)
    assert chances == pytest.approx([1 / (2 - q), 1 - 1 / (2 - q)], abs=1e-8)


def test_swapping_the_seats_swaps_the_chances():
    ann_first = position([31], [[24], [29]], current=0)
    bob_first = position([31], [[29], [24]], current=1)
    assert Endgame(ann_first).chances(ann_first) == pytest.approx(
        Endgame(bob_first).chances(bob_first)[::-1], abs=1e-8
    )


def test_every_value_agrees_with_its_own_backup():
    """Policy iteration stops only at a fixed point: each live position's best turn over the
    values gives back its value (checked here with the solver, not the class's own step)."""
    endgame = Endgame(position([25, 33], [[22], [28]]))
    assert endgame.residual <= 1e-8 and endgame.rounds < Endgame.MAX_ROUNDS
    for state in endgame.states:
        if state.is_over:
            assert endgame.chances(state)[0] == result(state)[0]
            continue
        best = best_turn(endgame, state).start_value
        assert endgame.chances(state)[state.current] == pytest.approx(best, abs=1e-8)


@pytest.mark.slow
def test_the_engine_playing_the_exact_policy_wins_as_often_as_the_values_say():
    """Monte-Carlo of the real engine (its dice, its rules) with both players choosing by the
    exact values: seat 0's results average to its exact chance (4 standard errors)."""
    start = position([25, 30], [[22], [27]])
    endgame = Endgame(start)
    rng = random.Random(7)
    games, total = 1500, 0.0
    for _ in range(games):
        state, solution, turn = start.copy(), None, None
        while not state.is_over:
            if state.is_chance():
                state.apply_roll(sample_roll(state.dice_left, rng))
                continue
            mover = state.current
            if state.phase is Phase.CLAIM:
                endings = dict(state.endings(state.total))
                action = max(
                    state.legal_actions(), key=lambda a: endgame.chances(endings[a])[mover]
                )
            else:
                if turn != state.turn:
                    solution, turn = best_turn(endgame, state), state.turn
                action = best_action(state, solution)
            state.apply(action)
        total += result(state)[0]
    exact = endgame.chances(start)[0]
    error = 4 * np.sqrt(exact * (1 - exact) / games)
    assert abs(total / games - exact) < error


def test_what_an_endgame_cannot_value_is_refused():
    with pytest.raises(ValueError, match="two players"):
        Endgame(GameState(3))
    rolled = position([25, 30], [[22], [27]])
    rolled.apply_roll("11234WWW")
    with pytest.raises(ValueError, match="turn's start"):
        Endgame(rolled)
    with pytest.raises(ValueError, match="more than 50 positions"):
        Endgame(position([25, 30], [[22], [27]]), limit=50)
    endgame = Endgame(position([30], [[], []]))
    with pytest.raises(ValueError, match="never reaches"):
        endgame.chances(position([31], [[], []]))


def test_the_endgame_benchmark_measures_every_value_function(tmp_path):
    table = tmp_path / "exact.csv"
    errors, spreads = endgame_tables("1", "--table", str(table))
    assert list(errors) == ["network", "win model", "network + turn", "evaluator"]
    assert list(spreads) == ["network"] and all(float(cell) >= 0 for cell in spreads["network"])
    (grill, mover, other, chance), *more = list(csv.reader(table.open()))[1:]
    assert not more and mover == other == "" and len(grill.split()) == 1
    state = position([int(grill)], [[], []])
    assert float(chance) == pytest.approx(Endgame(state).chances(state)[0], abs=1e-6)


def endgame_tables(face_up: str, *arguments: str) -> list[dict[str, list[str]]]:
    """The endgame benchmark's tables on one small endgame (each value function's errors,
    then each network's error spread): each row's cells by the row's name."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--endgames", "1", "--face-up", face_up, "--keep", "0",
         "--jobs", "1", *arguments],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    tables = []
    for block in done.stdout.split("\n\n"):
        rows = [line.split("|")[1:-1] for line in block.splitlines() if line[:2] == "| "]
        tables.append({row[0].strip(): [cell.strip() for cell in row[1:]] for row in rows[1:]})
    return tables


def test_the_endgame_benchmark_measures_a_candidate_network_beside_the_shipped_one(tmp_path):
    """``--network``: the same three rows for the candidate, and its error's spread, on the
    same exact endgames: equal to the shipped network's when it is the shipped network, apart
    when it is another."""
    network = shipped_network(2)
    same, nudged = tmp_path / "same.npz", tmp_path / "nudged.npz"
    network.save(same)
    (weight, bias), *rest = network.layers
    WinNetwork([(weight * 1.2, bias), *rest], 2).save(nudged)
    (alike, alike_spread), (apart, apart_spread) = (
        endgame_tables("2", "--network", str(path)) for path in (same, nudged)
    )
    names = ["network", "network + turn", "evaluator"]
    candidates = [f"candidate: {name}" for name in names]
    assert list(alike) == ["network", "win model", "network + turn", "evaluator", *candidates]
    assert all(alike[name] == alike[f"candidate: {name}"] for name in names)
    assert all(apart[name] != apart[f"candidate: {name}"] for name in names)
    assert all(apart[name] == alike[name] for name in ["win model", *names])
    assert list(alike_spread) == list(apart_spread) == ["network", "candidate: network"]
    assert alike_spread["network"] == alike_spread["candidate: network"]
    assert apart_spread["network"] == alike_spread["network"]
    assert apart_spread["candidate: network"] != apart_spread["network"]


def test_the_fit_benchmark_learns_endgames_and_reports_the_held_out_ones():
    """A tiny run: two one-tile endgames, one learned for an epoch, one held out."""
    done = subprocess.run(
        [sys.executable, str(FIT), "--endgames", "2", "--held-out", "1", "--face-up", "1",
         "--epochs", "1", "--jobs", "1"],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    rows = [line.split("|")[1].strip() for line in done.stdout.splitlines() if line[:2] == "| "]
    assert rows[1:] == [
        "shipped, as it is", "from shipped weights, 1 epochs", "from random weights, 1 epochs"
    ]  # fmt: skip
    assert done.stdout.startswith("1 endgames learned")


def test_the_fit_benchmark_refuses_holding_out_every_endgame():
    done = subprocess.run(
        [sys.executable, str(FIT), "--endgames", "2", "--held-out", "2"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "--held-out 1 to one less" in done.stderr


def test_where_the_search_ends_a_turn_gives_back_its_value_and_bounds_the_spread(monkeypatch):
    """The endgame benchmark's spread rests on where the search over the network ends each
    turn: those chances sum to 1 and, weighted by the network's chance after each claim
    taken, give the search's own value by another route (the drift benchmark's
    ``looked_further``); the error's spread lies between 0 and its largest size there."""
    monkeypatch.syspath_prepend(str(BENCHMARK.parent))  # its `win_values_drift`
    spec = importlib.util.spec_from_file_location("endgame_error", BENCHMARK)
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    network = shipped_network(2)
    endgame = Endgame(position([25, 30], [[22], [27]]))
    live = [state for state in endgame.states if not state.is_over]
    values = functools.partial(win_chances, network=network)
    for state in live[:40]:
        lands, by_network, truth = benchmark.turn_ends(state, network, endgame)
        assert lands.sum() == pytest.approx(1.0) and (lands >= 0).all()
        further = benchmark.looked_further(state, values)[state.current]
        assert lands @ by_network == pytest.approx(further, abs=1e-9)
        spread = benchmark.error_spread(state, network, endgame)
        assert 0 <= spread <= np.abs(by_network - truth)[lands > 0].max() + 1e-12
    assert any(benchmark.error_spread(state, network, endgame) > 1e-4 for state in live[:40])
