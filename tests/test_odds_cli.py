"""`pickomino odds` and `pickomino advise`: a few run as a user runs them, in a real
subprocess (:func:`run_as_user`); the rest in this process through click's runner
(:func:`run`), seen as the subprocess would show them (exit status, standard output and error,
a traceback written out if the command raised), without starting Python 30 times.

Numbers are checked against the engine expectimax and the hand-worked cases of
test_solver.py, never against the solver's own output.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import traceback
from functools import cache

import pytest
from click.testing import CliRunner
from test_solver import (
    CLOSE,
    EXACT,
    TIE_CASE,
    WORM_CASES,
    engine_values,
    policy_distribution,
    table_terminal,
    worm_swing,
)

from pickomino.cli import main
from pickomino.core import TILES, GameState, TileTaken
from pickomino.core.position import parse_tiles
from pickomino.solver import TurnValues

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TARGETS = [str(tile) for tile in TILES]  # "21" .. "36"
CHOICE_KEYS = {"action", "win", "tile", "expected_worms", "bust"}


def run_as_user(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pickomino", *args], capture_output=True, text=True, timeout=120
    )


def run(*args: str) -> subprocess.CompletedProcess:
    command = ["pickomino", *args]
    result = CliRunner().invoke(main, command[1:], prog_name=command[0])
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))  # as Python prints it
    return subprocess.CompletedProcess(command, result.exit_code, result.stdout, stderr)


@cache
def run_json(*args: str) -> dict:
    """The JSON a command prints (each distinct command is run once per test session)."""
    result = run(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def fresh_turn_value(table: TurnValues, terminal=None) -> float:
    """Best expected value of a fresh turn, by the expectimax over the engine."""
    value, _ = engine_values(GameState(2), terminal or table_terminal(table))
    return value


def expected_worms_by_engine(stake: float) -> float:
    """A fresh turn, every tile on the grill: the worms won, read from the tile events, and
    ``-stake`` for a turn that wins no tile."""

    def worms(events) -> float:
        won = any(isinstance(event, TileTaken) for event in events)
        return worm_swing(events) if won else -stake

    return fresh_turn_value(TurnValues.stake(stake), worms)


# ------------------------------------------------------------------------- odds
def test_odds_json_schema_and_shape():
    odds = run_json("odds")
    assert set(odds) == {"at_least", "exactly", "expected_worms", "bust"}
    at_least, exactly = odds["at_least"], odds["exactly"]
    assert list(at_least) == TARGETS and list(exactly) == TARGETS
    for target in TARGETS:
        assert 0 <= exactly[target] <= at_least[target] <= 1
    values = [at_least[target] for target in TARGETS]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert 0 <= odds["bust"] <= 1 and odds["expected_worms"] > 0


@pytest.mark.slow  # engine expectimax searches; the quick run keeps test_solver.py's one
@pytest.mark.parametrize(
    ("key", "target", "table"),
    [
        ("at_least", "21", TurnValues.at_least(21)),
        ("at_least", "30", TurnValues.at_least(30)),
        ("exactly", "25", TurnValues.exactly(25)),
    ],
)
def test_odds_match_the_engine_expectimax(key, target, table):
    assert run_json("odds")[key][target] == pytest.approx(fresh_turn_value(table), abs=CLOSE)


@pytest.mark.slow
def test_every_odd_matches_the_engine_expectimax():
    odds = run_json("odds")
    for target in TARGETS:
        for key, table in (("at_least", TurnValues.at_least), ("exactly", TurnValues.exactly)):
            found = odds[key][target]
            assert found == pytest.approx(fresh_turn_value(table(int(target))), abs=CLOSE), (
                key,
                target,
            )


@pytest.mark.slow  # the engine plays out every turn under the policy, twice
@pytest.mark.parametrize("stake", ["0", "2"])
def test_expected_worms_and_bust_match_the_engine(stake):
    odds = run_json("odds", "--stake", stake) if stake != "0" else run_json("odds")
    assert odds["expected_worms"] == pytest.approx(
        expected_worms_by_engine(float(stake)), abs=CLOSE
    )
    # The bust reported is that of the policy behind expected_worms, played on the engine.
    ends = policy_distribution(GameState(2), TurnValues.stake(float(stake)))
    tiles = sum(p for end, p in ends.items() if isinstance(end, int) and end >= min(TILES))
    assert odds["bust"] == pytest.approx(1 - tiles, abs=CLOSE)


def test_a_stake_lowers_expected_worms():
    free, staked = run_json("odds"), run_json("odds", "--stake", "2")
    assert staked["expected_worms"] < free["expected_worms"]
    assert staked["at_least"] == free["at_least"]  # the targets do not depend on the stake


@pytest.mark.slow  # draws with matplotlib in a subprocess
def test_odds_table_and_plot(tmp_path):
    path = tmp_path / "odds.png"
    result = run_as_user("odds", "--plot", str(path))
    assert result.returncode == 0, result.stderr
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > len(PNG_SIGNATURE)
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[1:17]] == TARGETS
    assert f"Plot written to {path}" in result.stdout


def test_odds_plot_path_is_checked_before_the_odds_are_computed(tmp_path):
    """Issue 14, item 15: no traceback after the work; a name is written as said."""
    for plot, message in [
        (tmp_path / "none" / "x.png", f"the folder {tmp_path / 'none'} does not exist"),
        (tmp_path, f"{tmp_path} is a folder"),
        (tmp_path / "out.txt", "cannot write a .txt file; give a name ending in .png, "),
        (tmp_path / "out.pgf", "cannot write a .pgf file"),  # an audit: LaTeX missing, after
    ]:
        result = run("odds", "--plot", str(plot))
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
    assert ".svg" in result.stderr and ".pdf" in result.stderr  # what matplotlib can draw
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # draws with matplotlib
def test_odds_plot_without_an_ending_gets_png_and_says_so(tmp_path):
    result = run("odds", "--plot", str(tmp_path / "noext"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["at_least"]  # standard output stays one JSON object
    assert result.stderr == f"Plot written to {tmp_path / 'noext.png'}\n"
    assert [path.name for path in tmp_path.iterdir()] == ["noext.png"]
    assert (tmp_path / "noext.png").read_bytes().startswith(PNG_SIGNATURE)


@pytest.mark.slow  # draws with matplotlib
def test_odds_prints_the_table_even_when_the_plot_fails(tmp_path):
    """A plot that cannot be written whole (here a limit on the size of the files written,
    as a full disk): the odds are still printed."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    plot = tmp_path / "odds.png"
    result = subprocess.run(
        [sys.executable, "-m", "pickomino", "odds", "--plot", str(plot)],
        capture_output=True, text=True, timeout=120, preexec_fn=limited,
    )  # fmt: skip
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"Error: cannot draw the plot to {plot}")
    assert [line.split()[0] for line in result.stdout.splitlines()[1:17]] == TARGETS


def test_odds_refuses_a_negative_stake():
    result = run_as_user("odds", "--stake", "-1")
    assert result.returncode == 2 and "stake" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_stake_of_minus_zero_is_zero():
    """An audit: ``--stake -0`` said "a bust costing -0"."""
    result = run("odds", "--stake", "-0")
    assert result.returncode == 0 and "a bust costing 0:" in result.stdout


# ----------------------------------------------------------------------- advise
def legal_names(me="", opponents=("",), down="", kept="", rolled=None) -> set[str]:
    """The legal choices, from the engine, in the situation the command is given."""
    stacks = [parse_tiles(me), *(parse_tiles(opponent) for opponent in opponents)]
    state = GameState.from_position(stacks, parse_tiles(down)).with_real_dice(kept, rolled)
    return {action.name for action in state.legal_actions()}


def assert_choices_schema(report: dict) -> None:
    for choice in report["choices"]:
        assert set(choice) == CHOICE_KEYS
        assert 0 <= choice["tile"] <= 1 and 0 <= choice["bust"] <= 1
        assert choice["tile"] + choice["bust"] == pytest.approx(1.0, abs=CLOSE)
        assert 0 <= choice["win"] <= 1
    wins = [choice["win"] for choice in report["choices"]]
    assert wins == sorted(wins, reverse=True)  # best first by the chance to win the game
    assert report["best"] == report["choices"][0]["action"]
    most = min(report["choices"], key=lambda c: (-round(c["expected_worms"], 9), c["bust"]))
    assert report["best_worms"] == most["action"]  # on a tie in worms, the safer choice


def test_advise_table_lists_every_legal_choice():
    # Kept W W 4, rolled 1 2 W 4 5: W and 4 were kept already (R6), so 1, 2 and 5 remain.
    assert legal_names(kept="WW4", rolled="12W45") == {"keep 1", "keep 2", "keep 5"}
    result = run_as_user("advise", "--kept", "WW4", "--rolled", "12W45")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = [line.split()[0] + " " + line.split()[1] for line in lines[2:-1]]
    assert sorted(rows) == ["keep 1", "keep 2", "keep 5"]
    assert lines[-1].removeprefix("Best: ") == rows[0]


def test_advise_json_schema_for_a_keep():
    report = run_json("advise", "--kept", "WW4", "--rolled", "12W45")
    assert {"phase", "choices", "best", "best_worms", "kept", "total", "rolled", "grill"} <= set(
        report
    )
    assert report["phase"] == "keep" and report["total"] == 14  # W W 4 = 5 + 5 + 4
    assert {c["action"] for c in report["choices"]} == {"keep 1", "keep 2", "keep 5"}
    assert report["best"] == report["choices"][0]["action"]
    assert report["grill"] == list(TILES)
    assert_choices_schema(report)


@pytest.mark.parametrize(
    "case",
    [*WORM_CASES, TIE_CASE],
    ids=lambda case: case.name,
)
def test_advise_json_matches_hand_worked_cases(case):
    report = run_json("advise", *case.cli_args())
    assert report["phase"] == "roll_or_stop" and report["best_worms"] == case.best.name
    choices = {c["action"]: c for c in report["choices"]}
    assert set(choices) == legal_names(**case.description()) == {"roll", "stop"}
    assert choices["roll"]["expected_worms"] == pytest.approx(float(case.roll), abs=EXACT)
    assert choices["roll"]["tile"] == pytest.approx(float(case.roll_success), abs=EXACT)
    assert choices["stop"]["expected_worms"] == pytest.approx(float(case.stop), abs=EXACT)
    assert choices["stop"]["tile"] == 1 and choices["stop"]["bust"] == 0  # both stops win a tile
    assert_choices_schema(report)


@pytest.mark.slow  # solves a fresh turn of eight dice
def test_advise_before_the_first_roll():
    report = run_json("advise")
    assert report["phase"] == "roll" and report["choices"] == []
    assert report["tile"] + report["bust"] == pytest.approx(1.0, abs=CLOSE)
    assert 0.4 < report["win"] < 0.6  # the game's first turn: about even
    assert report["expected_worms"] == pytest.approx(expected_worms_by_engine(0.0), abs=CLOSE)


def test_advise_reports_a_bust_roll():
    # Kept W W 4; the five dice show only W and 4 again: no face can be kept (R7).
    report = run_json("advise", "--kept", "WW4", "--rolled", "WW444")
    assert report["phase"] == "bust" and report["choices"] == []
    assert report["reason"] == "no_new_face" and report["rule"] == "R7"
    human = run("advise", "--kept", "WW4", "--rolled", "WW444")
    assert human.returncode == 0
    assert "Bust: the roll showed no face that was not kept already (R7)" in human.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--kept", "W6"), "6 is not a die face: the faces are 1, 2, 3, 4, 5 and W (worm) (R2)"),
        (("--rolled", "12W456"), "6 is not a die face"),
        (("--kept", "WWWWWWWWW"), "9 dice"),
        (("--me", "40"), "no tile 40"),
        (("--me", "25", "--opponent", "22 25"), "tile 25 is placed twice"),
        (("--me", "25", "--down", "25"), "tile 25 is placed twice"),
        (("--kept", "WW", "--rolled", "123"), "3 dice rolled, but 6 are left"),
        (("--rolled", "1234W"), "5 dice rolled, but 8 are left"),
    ],
)
def test_advise_refuses_bad_descriptions(args, message):
    result = run("advise", *args)
    assert result.returncode == 2, result.stdout
    assert message in result.stderr and "Error:" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("position", "options"),
    [
        ("25/27,30 - 0 3 keep 44WW 4455 official", ["--me", "25", "--opponent", "27 30",
                                                    "--kept", "44WW", "--rolled", "4455"]),
        ("22/- 36 0 1 roll - - short", ["--me", "22", "--down", "36", "--rules", "short"]),
    ],
)  # fmt: skip
def test_advise_reads_a_whole_position_as_the_options_describe_it(position, options):
    """``--position`` (GameState.to_text's line) advises exactly as the options do."""
    assert run_json("advise", "--position", position) == run_json("advise", *options)


def test_advise_refuses_a_position_beside_the_options_or_one_no_game_reaches():
    both = run("advise", "--position", "-/- - 0 1 roll - - official", "--kept", "WW")
    assert both.returncode == 2 and "--kept" in both.stderr
    unreachable = run("advise", "--position", "-/- - 0 1 roll_or_stop - - official")
    assert unreachable.returncode == 2 and "no game can reach" in unreachable.stderr
    assert "Traceback" not in both.stderr + unreachable.stderr


@pytest.mark.parametrize("stake", ["nan", "inf", "41", "1e50"])
def test_odds_refuses_a_stake_that_is_no_number_of_worms(stake):
    """``nan`` printed "NaN.0" and wrote JSON no parser reads, ``1e50`` a traceback: a stake
    is a finite number of worms, at most every worm of the game (40)."""
    result = run_as_user("odds", "--stake", stake, "--json")
    assert result.returncode == 2 and "--stake" in result.stderr and not result.stdout
    assert "Traceback" not in result.stderr
