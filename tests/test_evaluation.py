"""The win-value network (issue 27): what it reads of a position, every seat's chance, a
turn's tables from them, the bot that plays by them, and the training script."""

from __future__ import annotations

import csv
import importlib.util
import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pickomino.bots import make_bot
from pickomino.bots.base import BOTS
from pickomino.core import GameState, Phase
from pickomino.evaluation import WinNetwork, shipped_network, turn_tables, win_chances
from pickomino.evaluation.exact import Endgame, cut_stacks
from pickomino.evaluation.features import features
from pickomino.evaluation.network import weights_file
from pickomino.solver import solve
from pickomino.table import SeededDice
from pickomino.table.loop import turn_starts

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "train_win_values.py"
NETWORK = shipped_network(2)
#: A folder no one may write in, root neither (Linux's sysfs): a read-only place.
READ_ONLY = Path("/sys")
needs_read_only = pytest.mark.skipif(not READ_ONLY.is_dir(), reason="no /sys to write in")


def positions(games: int, seed: int = 5, players: int = 2) -> list[GameState]:
    """Positions at the turns' starts of games of ``expected`` against ``simple`` (and
    ``expected`` again in the other seats)."""
    dice = SeededDice(seed)
    names = ["expected", "simple", *["expected"] * (players - 2)]
    return [
        state.copy()
        for game in range(games)
        for state in turn_starts(GameState(players), [make_bot(name, game) for name in names], dice)
    ]


def test_a_position_and_its_mirror_read_the_same_and_have_mirrored_chances():
    """Ann to move with Bob's tiles is Bob to move with Ann's: the same numbers from the
    mover's side, and the same chances with the seats swapped."""
    ann_moves = GameState.from_position([[22, 30], [25]], face_down=[36], current=0)
    bob_moves = GameState.from_position([[25], [22, 30]], face_down=[36], current=1)
    assert np.array_equal(features(ann_moves), features(bob_moves))
    ann, bob = win_chances([ann_moves, bob_moves], NETWORK)
    assert ann == pytest.approx(bob[::-1]) and ann.sum() == pytest.approx(1.0)


def test_a_finished_game_is_valued_by_its_result():
    """Ann takes the last tile on the grill: 4 + 1 worms against Bob's 4, she has won."""
    state = GameState.from_position([[36], [35]], face_down=list(range(22, 35)))
    [(_, finished)] = state.endings(21)
    assert finished.is_over
    assert win_chances([finished], NETWORK)[0].tolist() == [1.0, 0.0]


def test_each_total_of_a_turn_is_worth_the_chance_after_its_best_claim():
    """The mover's table, total by total, against the engine's endings valued one by one."""
    state = GameState.from_position([[26, 33], [27]], face_down=[36, 35])
    mover_table = turn_tables(state, NETWORK)[state.current]
    for total in (0, 21, 27, 30, 40):
        endings = state.endings(total) if total else state.endings(0, worm=False)
        best = max(win_chances([end for _, end in endings], NETWORK)[:, state.current])
        assert mover_table.end[total] == pytest.approx(best) or total == 0
    bust = win_chances([state.endings(0, worm=False)[0][1]], NETWORK)[0, state.current]
    assert mover_table.bust == pytest.approx(bust)


def test_weights_are_saved_and_read_back(tmp_path):
    path = tmp_path / "net.npz"
    NETWORK.save(path)
    again = WinNetwork.load(path)
    x = np.stack([features(s) for s in positions(1)])
    assert np.array_equal(again.chances(x), NETWORK.chances(x)) and again.players == 2


@pytest.mark.parametrize("made", ["empty", "cut short", "one array", "folder", "missing"])
def test_weights_that_cannot_be_read_are_one_value_error_naming_the_file(tmp_path, made):
    """``WinNetwork.read``, a command line's file: whatever NumPy raises on it (EOFError,
    BadZipFile, TypeError, OSError ...) comes as the ``ValueError`` the scripts show."""
    path = tmp_path / "net.npz"
    NETWORK.save(path)
    whole = path.read_bytes()
    if made == "empty":
        path.write_bytes(b"")
    elif made == "cut short":
        path.write_bytes(whole[: len(whole) // 2])
    elif made == "one array":  # a .npy, not a .npz
        with path.open("wb") as file:
            np.save(file, np.zeros(3))
    elif made == "folder":
        path.unlink()
        path.mkdir()
    else:
        path.unlink()
    with pytest.raises(ValueError, match="not a network's weights") as raised:
        WinNetwork.read(path)
    assert str(raised.value).startswith(f"{path}: ")


@pytest.mark.parametrize(
    ("players", "limit"), [(2, 0.02), (3, 0.03), (4, 0.03), (5, 0.03), (6, 0.03), (7, 0.03)]
)
def test_the_shipped_network_agrees_with_its_own_one_turn_search(players, limit):
    """Trained until it agrees with itself: on positions of games it never saw, its value
    and the exact solver's over its own values one turn ahead differ by under 2 points on
    average with two players, 3 with three to seven (the strategist's win model: about 1.3
    with two, see docs/evaluator.md; the three- to seven-player networks ended their training at
    1.6, 1.3, 1.0, 0.55 and 0.58)."""
    network = shipped_network(players)
    assert network is not None and network.players == players
    found = positions(6 if players == 2 else 3, players=players)
    values = win_chances(found, network)
    residuals = [
        abs(solve(turn_tables(state, network)[state.current]).start_value - row[state.current])
        for state, row in zip(found, values, strict=True)
    ]
    assert len(residuals) > 100 and np.mean(residuals) < limit


def test_three_players_chances_turn_with_the_seats():
    """The same position with every seat moved one place on (tiles and turn alike) gives
    the same chances, moved one place on, summing to 1."""
    stacks = [[22, 30], [25], [28, 24]]
    here = GameState.from_position(stacks, face_down=[36], current=1)
    moved = GameState.from_position([stacks[2], *stacks[:2]], face_down=[36], current=2)
    a, b = win_chances([here, moved], shipped_network(3))
    assert np.roll(a, 1) == pytest.approx(b) and a.sum() == pytest.approx(1.0)


def test_the_valued_bot_takes_the_tile_that_wins_rather_than_the_steal_worth_more():
    """Ann (33) at 30, Bob holding 21 and 30, only the 26 on the grill: stealing the 30
    swings more worms, but taking the 26 ends the game with Ann ahead (6 worms to 4)."""
    others = [tile for tile in range(21, 37) if tile not in (33, 21, 30, 26)]
    state = GameState.from_position([[33], [21, 30]], face_down=others, kept="WW")
    for action in ("roll", "dice 555544", "keep 5", "stop"):
        state.apply_roll(action[5:]) if action.startswith("dice") else state.apply(action)
    assert state.phase is Phase.CLAIM and len(state.legal_actions()) == 2
    assert make_bot("valued").choose(state).name == "take 26"
    assert make_bot("expected").choose(state).name == "steal 30"  # the worm count's choice


def test_training_writes_weights_and_its_curve(tmp_path):
    out, curve = tmp_path / "net.npz", tmp_path / "curve.csv"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "4", "--sweeps", "2", "--jobs", "1",
         "--hidden", "8", "--endgames", "5", "--out", str(out), "--curve", str(curve)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    network = WinNetwork.load(out)
    assert network.players == 2 and [w.shape[1] for w, _ in network.layers] == [8, 2]
    rows = list(csv.DictReader(curve.open()))
    assert [row["sweep"] for row in rows] == ["1", "2"]


def train(tmp_path: Path, name: str, *options: str) -> subprocess.CompletedProcess[str]:
    """A tiny training (4 games, 3 sweeps, 8 hidden units) writing ``name``.npz and .csv."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "4", "--sweeps", "3", "--jobs", "1",
         "--hidden", "8", "--endgames", "5", "--out", str(tmp_path / f"{name}.npz"),
         "--curve", str(tmp_path / f"{name}.csv"), *options],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_training_stopped_and_gone_on_with_ends_as_one_never_stopped(tmp_path):
    """``--checkpoint``: a run stopped after its first sweep (``--until 1``, as a run killed
    then would be) goes on from it with the same command, and ends with the same weights and
    curve as a run never stopped; a checkpoint of other settings is refused before any work."""
    whole = train(tmp_path, "whole")
    folder = str(tmp_path / "checkpoint")
    first = train(tmp_path, "parts", "--checkpoint", folder, "--until", "1")
    assert first.returncode == 0 and "sweep 2" not in first.stdout
    assert len(list(csv.DictReader((tmp_path / "parts.csv").open()))) == 1
    rest = train(tmp_path, "parts", "--checkpoint", folder)
    assert rest.returncode == 0 and "going on after sweep 1" in rest.stdout
    assert "sweep 1:" not in rest.stdout and "sweep 3:" in rest.stdout
    assert whole.returncode == 0
    ours, theirs = (np.load(tmp_path / f"{name}.npz") for name in ("whole", "parts"))
    assert ours.files == theirs.files and all(
        np.array_equal(ours[k], theirs[k]) for k in ours.files
    )
    curves = [list(csv.reader((tmp_path / f"{name}.csv").open())) for name in ("whole", "parts")]
    assert [row[:4] for row in curves[0]] == [row[:4] for row in curves[1]]
    other = train(tmp_path, "other", "--checkpoint", folder, "--sweeps", "4")
    assert other.returncode == 2 and "was made with --sweeps 3" in other.stderr
    assert "positions to fit" not in other.stdout  # refused before the positions


def test_a_training_fits_small_endgames_exact_values_and_follows_its_held_out_ones(tmp_path):
    """``--exact``: small endgames from games after those giving positions, every position
    they reach valued exactly, are fitted with the positions; a tenth of the endgames held
    out, whose error the curve follows (its last column, empty without ``--exact``)."""
    done = train(tmp_path, "exact", "--exact", "10", "--exact-face-up", "1")
    assert done.returncode == 0, done.stderr
    assert "exact endgame positions to fit" in done.stdout
    assert "held-out exact endgames" in done.stdout
    errors = [float(row["exact_error"]) for row in csv.DictReader((tmp_path / "exact.csv").open())]
    assert len(errors) == 3 and all(0 < error < 1 for error in errors)
    assert train(tmp_path, "plain").returncode == 0
    assert [row["exact_error"] for row in csv.DictReader((tmp_path / "plain.csv").open())] == [
        ""
    ] * 3


def test_a_share_of_exact_positions_is_drawn_anew_each_sweep_and_the_same_when_gone_on(tmp_path):
    """``--exact-share``: each sweep fits a draw without repeats of the exact positions, as
    many as make that share of the rows fitted, another draw each sweep; the draw depends on
    the seed and sweep alone (a run gone on from its checkpoint draws as one never stopped);
    without a share every exact position is fitted; a share without ``--exact``, or outside
    0 to 1, is refused before any work."""
    drawn = training_script().exact_drawn
    first, second = drawn(1000, 3000, 0.1, 1, 1), drawn(1000, 3000, 0.1, 1, 2)
    for sample in (first, second):
        assert len(sample) == len(set(sample.tolist())) == round(3000 / 9)
        assert sample.min() >= 0 and sample.max() < 1000
        assert len(sample) / (3000 + len(sample)) == pytest.approx(0.1, abs=1e-3)
    assert set(first.tolist()) != set(second.tolist())
    assert np.array_equal(first, drawn(1000, 3000, 0.1, 1, 1))
    assert not np.array_equal(first, drawn(1000, 3000, 0.1, 2, 1))
    assert np.array_equal(drawn(1000, 3000, 0.9, 1, 1), np.arange(1000))  # fewer than wanted
    assert np.array_equal(drawn(1000, 3000, None, 1, 1), np.arange(1000))
    done = train(tmp_path, "share", "--exact", "10", "--exact-face-up", "1", "--exact-share", "0.2")
    assert done.returncode == 0, done.stderr
    positions, exact, each = (
        int(re.search(pattern, done.stdout, re.MULTILINE)[1])
        for pattern in (r"^(\d+) positions to fit", r"^(\d+) exact endgame", r"fits (\d+) of them")
    )
    assert each == min(exact, round(positions / 4))
    for options in (["--exact-share", "0.2"], ["--exact", "10", "--exact-share", "1"]):
        refused = train(tmp_path, "refused", *options)
        assert refused.returncode == 2 and "--exact-share needs --exact" in refused.stderr
        assert "positions to fit" not in refused.stdout


def test_an_exact_endgame_is_every_position_it_reaches_with_its_exact_chances():
    """The exact endgame of a game the positions never play: the first turn start with at
    most ``face_up`` tiles face up, each stack cut to its top tile; its rows are features and
    chances in turn order from the mover, as :class:`Endgame` values each position."""
    script = training_script()
    x, y = script.exact_endgame((4, 1, 2))
    rng = random.Random(1 * 1_000_003 + 4)  # the game's own draw, as positions() makes it
    bots = [make_bot(rng.choice(script.PLAYERS), rng.randrange(1 << 30)) for _ in range(2)]
    start = next(
        cut_stacks(state, 1)
        for state in turn_starts(GameState(2), bots, SeededDice(rng=rng))
        if len(state.grill) <= 2
    )
    endgame = Endgame(start)
    live = [state for state in endgame.states if not state.is_over]
    assert x.shape == (len(live), len(features(start))) and np.array_equal(x[0], features(start))
    for row, chances, state in zip(x, y, live, strict=True):
        assert np.array_equal(row, features(state))
        assert chances[0] == endgame.chances(state)[state.current]
        assert chances.sum() == pytest.approx(1.0)


def test_a_training_begins_from_given_weights_of_its_own_shape(tmp_path):
    """``--start``: the training begins from these weights, not from the win model (a sweep at
    a vanishing rate leaves them as they were); weights of another shape are refused before
    any work, as is ``--exact`` with more than two players."""
    start = tmp_path / "start.npz"
    assert train(tmp_path, "start", "--sweeps", "1").returncode == 0
    done = train(tmp_path, "again", "--start", str(start), "--sweeps", "1", "--rate", "1e-12",
                 "--final-rate", "1e-12")  # fmt: skip
    assert done.returncode == 0, done.stderr
    before, after = WinNetwork.load(start), WinNetwork.load(tmp_path / "again.npz")
    for (w0, b0), (w1, b1) in zip(before.layers, after.layers, strict=True):
        assert w1 == pytest.approx(w0, abs=1e-6) and b1 == pytest.approx(b0, abs=1e-6)
    wrong = train(tmp_path, "wrong", "--start", str(weights_file(2)))
    assert wrong.returncode == 2 and "has layers of [60, 128, 128, 2]" in wrong.stderr
    assert "positions to fit" not in wrong.stdout
    for options, message in [
        (["--exact", "2", "--players", "3"], "--exact needs two players"),
        (["--exact-face-up", "0"], "--exact-face-up must be 1 to 16"),
        (["--start", str(tmp_path / "none.npz")], "not a network's weights"),
    ]:
        refused = train(tmp_path, "refused", *options)
        assert refused.returncode == 2 and message in refused.stderr, options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--start", os.devnull], f"--start {os.devnull}: not a network's weights"),
        (["--out", "{tmp}/folder"], "--out: {tmp}/folder is a folder"),
        (["--curve", "{tmp}/folder"], "--curve: {tmp}/folder is a folder"),
        pytest.param(["--out", "/sys/net.npz"], "--out: /sys/net.npz cannot be written",
                     marks=needs_read_only),
        pytest.param(["--curve", "/sys/net.csv"], "--curve: /sys/net.csv cannot be written",
                     marks=needs_read_only),
        pytest.param(["--checkpoint", "/sys/run"], "--checkpoint: /sys/run cannot be made",
                     marks=needs_read_only),
        pytest.param(["--checkpoint", "/sys"], "--checkpoint: /sys/training.part cannot be",
                     marks=needs_read_only),
        (["--checkpoint", "{tmp}/file"], "--checkpoint: {tmp}/file is a file, not a folder"),
        (["--games", "-1"], "--games must be at least 2"),
        (["--games", "1"], "--games must be at least 2"),
        (["--sweeps", "0"], "--sweeps, --epochs, --jobs and --until must be positive"),
        (["--sweeps", "-2"], "--sweeps, --epochs, --jobs and --until must be positive"),
        (["--jobs", "0"], "--sweeps, --epochs, --jobs and --until must be positive"),
        (["--epochs", "0"], "--sweeps, --epochs, --jobs and --until must be positive"),
        (["--hidden", "abc"], "--hidden must be positive sizes by comma (128,128), not 'abc'"),
        (["--hidden", "8,,8"], "--hidden must be positive sizes by comma"),
        (["--hidden", "0"], "--hidden must be positive sizes by comma"),
        (["--rate", "nan"], "--rate and --final-rate must be finite and not negative"),
        (["--final-rate", "inf"], "--rate and --final-rate must be finite and not negative"),
        (["--rate=-1e-3"], "--rate and --final-rate must be finite and not negative"),
        (["--players", "8"], "--players must be 2 to 7"),
        (["--until", "0", "--checkpoint", "{tmp}/run"], "--until must be positive"),
        (["--endgames=-1"], "--endgames must be 0 or more"),
    ],
)  # fmt: skip
def test_the_training_refuses_what_it_cannot_use_before_any_work(tmp_path, options, message):
    """One line on stderr, exit 2, nothing trained nor written: an output path is tried for
    real (a folder, a read-only place) before the positions are made, not after training."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    done = train(tmp_path, "refused", *(option.format(tmp=tmp_path) for option in options))
    assert done.returncode == 2 and message.format(tmp=tmp_path) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "positions to fit" not in done.stdout
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file", "folder"]


def test_going_on_needs_a_checkpoint(tmp_path):
    done = train(tmp_path, "net", "--until", "1")
    assert done.returncode == 2 and "--until needs --checkpoint" in done.stderr


@pytest.mark.parametrize("damping", ["0", "1.5", "-0.5", "nan", "inf"])
def test_a_damping_outside_0_to_1_is_refused_before_any_work(tmp_path, damping):
    done = train(tmp_path, "net", "--damping", damping)
    assert done.returncode == 2 and "--damping must be above 0 and at most 1" in done.stderr
    assert "positions to fit" not in done.stdout


def test_a_damped_training_ends_with_a_network_and_its_whole_curve(tmp_path):
    """The user's route: ``--damping 0.5`` by the command line, for three players."""
    done = train(tmp_path, "damped", "--damping", "0.5", "--players", "3")
    assert done.returncode == 0, done.stderr
    assert WinNetwork.load(tmp_path / "damped.npz").players == 3
    assert len(list(csv.DictReader((tmp_path / "damped.csv").open()))) == 3


def test_a_damped_sweep_moves_the_values_part_of_the_way_to_their_search():
    """``--damping d``: the targets lie ``d`` of the way from the network's chances to its
    one-turn search's, still chances (each row sums to 1); at 1 they are the search's."""
    script, network = training_script(), shipped_network(3)
    positions = script.Positions(script.positions(range(1), 3, 3))
    searched, now = positions.targets(network), network.chances(positions.x)
    assert script.damped(network, positions.x, searched, 1.0) is searched
    targets = script.damped(network, positions.x, searched, 0.25)
    assert targets - now == pytest.approx(0.25 * (searched - now), abs=1e-12)
    assert targets.sum(axis=1) == pytest.approx(1.0) and not np.allclose(targets, searched)


def test_a_checkpoint_from_before_the_damping_goes_on_as_undamped(tmp_path):
    """Checkpoints made before ``--damping`` existed keep no damping setting: they were
    undamped runs, so they go on with the default and are refused with another."""
    script = training_script()
    settings = {key: 1 for key in script.TRAINING_SETTINGS}
    old = {key: value for key, value in settings.items() if key != "damping"}
    script.Checkpoint(tmp_path, old).save("training", "the trainer")
    undamped = script.Checkpoint(tmp_path, {**settings, "damping": 1.0})
    assert undamped.load("training", script.TRAINING_SETTINGS) == "the trainer"
    with pytest.raises(ValueError, match="was made with --damping 1.0"):
        script.Checkpoint(tmp_path, {**settings, "damping": 0.5}).load(
            "training", script.TRAINING_SETTINGS
        )


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps(({"games": 4}, None))])
def test_a_checkpoint_that_is_not_ours_is_refused_before_any_work(tmp_path, content):
    """An empty or foreign file, or a pickle of something else, where the trainer is kept."""
    (tmp_path / "checkpoint").mkdir()
    (tmp_path / "checkpoint" / "training.pickle").write_bytes(content)
    done = train(tmp_path, "net", "--checkpoint", str(tmp_path / "checkpoint"))
    assert done.returncode == 2 and "is not a checkpoint of this script" in done.stderr
    assert "positions to fit" not in done.stdout


def load_script(path: Path):
    """A script or benchmark (not a package module) imported from its file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def training_script():
    return load_script(SCRIPT)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_training_targets_are_the_evaluators_one_turn_search(players):
    """The training works a sweep's targets on whole arrays (every ending of every position
    at once); each must be what the evaluator's own route gives, position by position: the
    exact turn solver over ``turn_tables``, the mover's value and every seat's under its
    policy, in turn order from the mover. Cut endgames (finished endings among them) too."""
    script, network = training_script(), shipped_network(players)
    states = script.positions(range(2), players, 3, endgames=5)
    positions = script.Positions(states)
    targets = positions.targets(network)
    for state, target in zip(states, targets, strict=True):
        tables = turn_tables(state, network)
        best = solve(tables[state.current])
        by_seat = [best.evaluate(table) for table in tables]
        by_seat[state.current] = best.start_value
        assert target == pytest.approx(np.roll(by_seat, -state.current), abs=1e-12)
    assert len(states) > 40 and len(positions.finished) > 0  # endings that end the game


def test_training_adds_each_late_turn_start_cut_to_an_endgame_that_can_be_valued_exactly():
    """``--endgames 5``: every turn start with at most 5 tiles face up comes again with each
    stack cut to its top 1 or 2 tiles (the rest face down), as the exact endgames are."""
    script = training_script()
    plain, more = script.positions(range(4), 2, 1), script.positions(range(4), 2, 1, endgames=5)
    cut = [state for state in more if all(len(stack) <= 2 for stack in state.stacks)]
    late = [state for state in more if len(state.grill) <= 5]
    assert len(more) > len(plain) and len(cut) > 10
    for state in late:
        tiles = [*state.grill, *state.face_down, *(t for stack in state.stacks for t in stack)]
        assert sorted(tiles) == list(range(21, 37))  # every tile still somewhere
    made = cut_stacks(GameState.from_position([[21, 25, 30], [22]], face_down=[36]), 1)
    assert made.stacks == [[30], [22]] and sorted(made.face_down) == [21, 25, 36]


@pytest.mark.parametrize(
    ("script", "option"),
    [(SCRIPT, "--out"), (SCRIPT.parents[1] / "benchmarks" / "endgame_error.py", "--table")],
)
def test_a_script_refuses_an_output_folder_that_does_not_exist_before_any_work(
    tmp_path, script, option
):
    """The training script's weights, the endgame benchmark's table: refused at once."""
    done = subprocess.run(
        [sys.executable, str(script), option, str(tmp_path / "no" / "out")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "is not a folder" in done.stderr


DRIFT_SCRIPT = SCRIPT.parents[1] / "benchmarks" / "win_values_drift.py"


@pytest.mark.parametrize("players", [2, 3])
def test_the_drift_benchmark_prints_both_value_functions(players):
    done = subprocess.run(
        [sys.executable, str(DRIFT_SCRIPT), "--games", "1", "--players", str(players)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    rows = [
        line for line in done.stdout.splitlines() if line.startswith("| ") and "|---" not in line
    ]
    assert [row.split("|")[1].strip() for row in rows] == ["value function", "win model", "network"]
    assert f"{players} players" in done.stdout
    split = [line for line in done.stdout.splitlines() if " face up: " in line]
    shares = [int(line.split(", ")[-1].split("%")[0]) for line in split]
    assert split and 98 <= sum(shares) <= 102  # every turn in one group (rounded shares)
    assert "the mover's change, mean: " in done.stdout
    (leads,) = [line for line in done.stdout.splitlines() if "by the mover's lead" in line]
    lead_shares = [int(group.split("%")[0].split()[-1]) for group in leads.split(";")]
    assert 98 <= sum(lead_shares) <= 102  # every turn in one group by the mover's lead


def test_a_turn_s_change_knows_the_mover_s_lead_over_the_best_other_seat():
    """Tile 21 has one worm, 25 two, 30 three, 36 four (R3): the mover (seat 1) holds 30, the
    best other seat 36 + 25: the mover is three worms behind it."""
    drift = load_script(DRIFT_SCRIPT)
    state = GameState.from_position([[21], [30], [25, 36]], face_down=[], current=1)
    change = drift.change_at(state, np.array([0.1, -0.2, 0.1]))
    assert change == drift.Change(-0.2, len(state.grill), 3 - 6)


def test_the_drift_benchmark_refuses_a_table_size_outside_the_rules():
    """Every table size of the rules (2 to 7) has a network; 8 is refused before any game."""
    done = subprocess.run(
        [sys.executable, str(DRIFT_SCRIPT), "--players", "8"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "invalid choice: 8" in done.stderr


REVIEW_DRIFT = SCRIPT.parents[1] / "benchmarks" / "review_drift.py"
NETWORK_3P = Path(__file__).parents[1] / "src/pickomino/evaluation/win_values_3p.npz"


@pytest.mark.parametrize("players", [2, 3])
def test_the_review_drift_benchmark_splits_each_evaluator_s_drift(players):
    """The shipped evaluator, its one-turn form and (with two players) its form of 6-7
    December on the same game (two turns further only when asked), each split by the tiles
    face up; with three players too."""
    done = subprocess.run(
        [sys.executable, str(REVIEW_DRIFT), "--games", "1", "--players", str(players),
         "--two-turns-at", "2"],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    heads = [line.split(":")[0] for line in done.stdout.splitlines() if "drift, SD" in line]
    shipped = "3 with at most 3 face up, 2 with at most 5 face up"
    assert heads == [
        "one turn at every turn",
        *(["6-7 December (a turn further with at most 3 face up)"] if players == 2 else []),
        f"as shipped (turns further {shipped if players == 2 else '1 with at most 3 face up'})",
        "two turns further with at most 2 face up",
    ]
    lead = "by the mover's lead (share of the turns, mean change): "
    assert done.stdout.count("the mover's change, mean: ") == done.stdout.count(lead) == len(heads)


def test_the_review_drift_benchmark_measures_another_network_when_given_one(tmp_path):
    """``--network``: the evaluator over those weights (here the shipped ones, nudged), not
    over the shipped network: the drifts differ on the same game."""
    network = shipped_network(2)
    (weight, bias), *rest = network.layers
    nudged = tmp_path / "nudged.npz"
    WinNetwork([(weight * 1.2, bias), *rest], 2).save(nudged)

    def drifts(*arguments: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, str(REVIEW_DRIFT), "--games", "1", *arguments],
            check=True, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        return [line for line in done.stdout.splitlines() if "drift, SD" in line]

    shipped, other = drifts(), drifts("--network", str(nudged))
    assert len(shipped) == len(other) == 3 and shipped != other


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--games", "0"], "--games must be positive"),
        (["--two-turns-at", "4"], "0 (not measured)"),
        (["--network", "no-such.npz"], "not a network's weights"),
        (["--network", str(NETWORK_3P)], "is for 3 players, not 2"),
    ],
)
def test_the_review_drift_benchmark_refuses_bad_arguments(arguments, message):
    done = subprocess.run(
        [sys.executable, str(REVIEW_DRIFT), *arguments], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and message in done.stderr


def test_every_seat_drifts_and_the_drifts_of_a_table_cancel_out():
    """With three players each seat's value changes as it is looked at a turn further, the
    others' too (not mirrored from the mover's, as with two); the chances of a table sum to 1
    before and after, so a game's drifts sum to 0 over its seats."""
    drift = load_script(DRIFT_SCRIPT)
    seats, changes = drift.game_drifts(0, 3, {"network": drift.network_values}, 3)["network"]
    assert len(seats) == 3 and sum(seats) == pytest.approx(0.0, abs=1e-9)
    assert sum(abs(seat) for seat in seats) > 0 and len(changes) > 20


def match_rows(script: str, bot: str, *arguments: str) -> list[list[str]]:
    """A match benchmark's table rows for ``bot`` (``benchmarks/matches.py``), as cells."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT.parents[1] / "benchmarks" / script), *arguments],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    rows = [line for line in done.stdout.splitlines() if line.startswith(f"| `{bot}`")]
    return [[cell.strip() for cell in row.split("|")[1:3]] for row in rows]


def test_the_deeper_search_benchmark_plays_and_reports_each_match():
    rows = match_rows(
        "deeper_search.py", "deeper", "--games", "2", "--against", "expected,valued", "--jobs", "1"
    )
    assert rows == [["`deeper` vs `expected`", "2"], ["`deeper` vs `valued`", "2"]]


def test_the_deeper_bot_looks_further_only_at_the_end_when_asked(monkeypatch):
    """``--endgame-tiles 3``: a turn further with at most 3 tiles face up, one turn (as
    `valued`) before; by default at every turn; ``--endgame-turns`` turns further there.
    Loading the script registers `deeper`: the registry is put back as it was, or the other
    tests' list of product bots grows."""
    monkeypatch.syspath_prepend(str(SCRIPT.parents[1] / "benchmarks"))  # its `matches`
    monkeypatch.setitem(BOTS, "deeper", None)  # undone at the end: `deeper` removed again
    deeper = load_script(SCRIPT.parents[1] / "benchmarks" / "deeper_search.py")
    bot, opening = deeper.DeeperBot(1), GameState(2)
    end = GameState.from_position([[21], [22]], face_down=[t for t in range(23, 37) if t > 25])
    planner = bot.planner(opening)
    assert len(end.grill) == 3 and planner.lookahead(opening) == planner.lookahead(end) == 1
    monkeypatch.setenv(deeper.ENDGAME_TILES, "3")
    assert planner.lookahead(opening) == 0 and planner.lookahead(end) == 1
    monkeypatch.setenv(deeper.ENDGAME_TURNS, "3")  # ``--endgame-turns 3``: as `valued` plays
    assert planner.lookahead(opening) == 0 and planner.lookahead(end) == 3


def test_the_network_match_benchmark_plays_a_candidate_against_each_bot(tmp_path):
    """The shipped weights as the candidate: played in worker processes (``--jobs 2``)."""
    candidate = tmp_path / "candidate.npz"
    shipped_network(2).save(candidate)
    rows = match_rows(
        "network_match.py", "candidate", str(candidate), "--games", "2", "--jobs", "2"
    )
    assert rows == [["`candidate` vs `valued`", "2"], ["`candidate` vs `expected`", "2"]]


def test_a_candidate_for_three_players_plays_at_tables_of_three(tmp_path):
    """The table's size is the network's: the candidate against two copies of each bot."""
    candidate = tmp_path / "candidate.npz"
    shipped_network(3).save(candidate)
    rows = match_rows(
        "network_match.py", "candidate", str(candidate), "--games", "2", "--against", "valued"
    )
    assert rows == [["`candidate` vs 2× `valued`", "2"]]


@pytest.mark.parametrize(
    ("script", "arguments", "message"),
    [
        ("network_match.py", ["no-such.npz"], "not a network's weights"),
        ("network_match.py", [os.devnull], f"{os.devnull}: not a network's weights"),
        ("network_match.py", [str(NETWORK_3P), "--games", "0"], "must be positive"),
        ("network_match.py", [str(NETWORK_3P), "--against", "nobody"], "no bot named nobody"),
        ("endgame_error.py", ["--endgames", "0"], "must be positive"),
        ("endgame_error.py", ["--keep", "-1"], "--keep at least 0"),
        ("endgame_error.py", ["--face-up", "17"], "--face-up 1 to 16"),
        ("endgame_error.py", ["--network", "no-such.npz"], "not a network's weights"),
        ("endgame_error.py", ["--network", os.devnull], "not a network's weights"),
        ("endgame_error.py", ["--endgames", "1", "--table", str(SCRIPT.parent)], "is a folder"),
        pytest.param(
            "endgame_error.py",
            ["--endgames", "1", "--table", "/sys/table.csv"],
            "--table: /sys/table.csv cannot be written",
            marks=needs_read_only,
        ),
        ("endgame_error.py", ["--network", str(NETWORK_3P)], "is for 3 players, not 2"),
        ("deeper_search.py", ["--games", "0"], "must be positive"),
        ("deeper_search.py", ["--against", "nobody,expected"], "no bot named nobody"),
        ("deeper_search.py", ["--endgame-tiles", "0"], "--endgame-tiles: 1 to 16"),
        ("deeper_search.py", ["--endgame-turns", "4"], "--endgame-turns: 1 to 3"),
    ],
)
def test_the_evaluation_benchmarks_refuse_bad_arguments_before_any_work(script, arguments, message):
    done = subprocess.run(
        [sys.executable, str(SCRIPT.parents[1] / "benchmarks" / script), *arguments],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and message in done.stderr
