"""The `pickomino` command, run as a user runs it: a real subprocess."""

import json
import subprocess
import sys

import pytest

from pickomino.i18n import Words
from pickomino.tui.setup import resume_console


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pickomino", *args], capture_output=True, text=True, timeout=60
    )


def test_version_and_help():
    assert "pickomino, version" in run("--version").stdout
    helped = run("--help")
    assert helped.returncode == 0 and "selfplay" in helped.stdout and "show" in helped.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--bots", "simple"), "Invalid value for '--bots': Pickomino is for 2 to 7 players"),
        (("--start", "5"), "Invalid value for '--start': the start player must be a seat"),
    ],
)
def test_selfplay_names_the_option_that_is_wrong(args, said):
    """An audit: "Invalid value: Pickomino is for 2 to 7 players, not 1", naming no option."""
    refused = run("selfplay", *args)
    assert refused.returncode == 2 and said in refused.stderr, refused.stderr


def test_selfplay_saves_a_record_that_show_replays(tmp_path):
    path = tmp_path / "game.json"
    played = run("selfplay", "--bots", "simple,random,simple", "--seed", "4", "--save", str(path))
    assert played.returncode == 0, played.stderr
    assert "rolled" in played.stdout
    record = json.loads(path.read_text())
    assert record["seats"] == ["simple (1)", "random (2)", "simple (3)"]
    shown = run("show", str(path))
    assert shown.returncode == 0 and shown.stdout.startswith("Turn 1 – simple (1)")
    again = run("selfplay", "--bots", "simple,random,simple", "--seed", "4", "--quiet")
    # the log ends with the ranking; --quiet prints only the table, which ends with it
    quiet, full = again.stdout.splitlines(), played.stdout.splitlines()
    table, ranking = quiet[:4], quiet[4:]  # the grill and three stacks; then the ranking
    assert ranking[0] == "Game over." and ranking[1].startswith("1. ") and len(ranking) >= 4
    assert full[-5 - len(ranking) : -5] == ranking and full[-5:-1] == table
    assert full[-1] == f"Record saved to {path}"


def test_game_over_is_said_once(tmp_path):
    """Issue 14, item 18: the log's last line and the final table both said "Game over."."""
    path = tmp_path / "game.json"
    played = run("selfplay", "--seed", "2", "--save", str(path))
    shown = run("show", str(path))
    for output in (played.stdout, shown.stdout, run("selfplay", "--quiet").stdout):
        assert output.count("Game over.") == 1, output


def test_a_selfplay_record_resumes_with_its_bots(tmp_path):
    """Issue 14, item 18: selfplay records the seed and the bots, as play does, so that
    `play --resume` keeps the seats (it turned the bots into people)."""
    path = tmp_path / "game.json"
    assert run("selfplay", "--bots", "simple,hard", "--save", str(path)).returncode == 0
    meta = json.loads(path.read_text())["meta"]
    assert meta["bots"] == ["simple", "hard"] and type(meta["seed"]) is int
    seats = resume_console(path, Words()).session.seats
    assert [seat.bot for seat in seats] == ["simple", "hard"]
    seeded = tmp_path / "seeded.json"
    assert run("selfplay", "--seed", "5", "--quiet", "--save", str(seeded)).returncode == 0
    assert json.loads(seeded.read_text())["meta"] == {"seed": 5, "bots": ["simple", "simple"]}


def test_output_files_are_checked_before_the_work(tmp_path):
    """Issue 14, item 15: a record or plot that cannot be written is refused at once, with
    no traceback, before a game is played or odds computed."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    for args, message in [
        (("--save", str(tmp_path / "none" / "g.json")), f"the folder {tmp_path / 'none'} does"),
        (("--save", str(tmp_path)), f"{tmp_path} is a folder"),
        (("--save", str(blocker / "g.json")), f"{blocker} is not a folder"),
    ]:
        result = run("selfplay", *args)
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and "Invalid value for '--save'" in result.stderr
        assert result.stdout == "" and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == [blocker]  # the check left nothing behind


def test_show_refuses_a_corrupt_record_without_a_traceback(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pickomino-record", "version": 1, "seats": []}')
    shown = run("show", str(path))
    assert shown.returncode == 1
    assert "Error:" in shown.stderr and "Traceback" not in shown.stderr


@pytest.mark.slow  # a subprocess per wrong argument
def test_wrong_arguments_get_a_clear_usage_error():
    for args, message in [
        (("selfplay", "--rules", "house"), "unknown rule preset"),
        (("selfplay", "--bots", "simple"), "R1"),
        (("selfplay", "--bots", "simple,genius"), "unknown bot"),
        (("selfplay", "--bots", "simple,genius"), "random (easy), simple (medium)"),
        (("selfplay", "--bots", " , "), "name at least one bot; the bots (difficulty) are"),
        (("show", "/nonexistent.json"), "does not exist"),
    ]:
        result = run(*args)
        assert result.returncode == 2 and message in result.stderr, (args, result.stderr)


@pytest.mark.slow  # waits for PostgreSQL's connection to be refused, in a subprocess
def test_serve_refuses_a_database_it_cannot_open(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")  # a file where the database's folder would have to be
    for database in (str(blocker / "games.sqlite3"), "postgresql://nobody@127.0.0.1:1/none"):
        result = run("serve", "--database", database, "--port", "1")
        assert result.returncode == 1, result.stderr
        assert "cannot open the database" in result.stderr and "Traceback" not in result.stderr


def test_serve_refuses_bad_options():
    for args, message in [
        (("serve", "--port", "70000"), "--port"),
        (("serve", "--bot-delay", "-1"), "--bot-delay"),
        (("serve", "--message-rate", "0"), "--message-rate"),
        (("serve", "--abandon-after", "-1"), "--abandon-after"),
        (("serve", "--turn-limit", "-1"), "--turn-limit"),
    ]:
        result = run(*args)
        assert result.returncode == 2 and message in result.stderr, (args, result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--request-timeout", "nan", "--port", "0"],
        ["serve", "--bot-delay", "inf", "--port", "0"],
        ["play", "--speed", "nan", "--plain"],
        ["play", "--coach-threshold", "inf", "--plain"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_number_option_refuses_nan_and_infinity(args):
    """click's ranges let ``nan`` through (no comparison holds for it): ``serve
    --request-timeout nan`` started a server that failed every request."""
    done = run(*args)
    assert done.returncode == 2 and args[1] in done.stderr and "not a finite number" in done.stderr
    assert "Traceback" not in done.stderr
