"""The command line used as a clumsy or hostile user uses it (an audit's findings, each run as
a user runs it: a real subprocess): an output that fails, a closed input, a file that is no
file or too big, a name a terminal would obey, more jobs than cores. Each gets a clear error
(no traceback) and loses no game."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pickomino.core import Game
from pickomino.core.record import MOST_NAME
from pickomino.files import MOST_READ
from pickomino.i18n import Words
from pickomino.table.sheet import ScoreSheet

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
ENGLISH = Words("en")


def pickomino(*args: str, cwd: Path, stdout: object = subprocess.PIPE, shell_tail: str = ""):
    """``pickomino ARGS`` in ``cwd`` (``shell_tail``: redirections, through a shell)."""
    command = [sys.executable, "-m", "pickomino", *args]
    if shell_tail:
        line = " ".join(f"'{part}'" for part in command) + " " + shell_tail
        return subprocess.run(line, shell=True, cwd=cwd, capture_output=True, text=True,
                              timeout=120)  # fmt: skip
    return subprocess.run(command, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, timeout=120)  # fmt: skip


def clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr


def test_an_output_that_fails_is_an_error_and_the_game_is_saved_first(tmp_path):
    """An audit: ``selfplay --save`` printed the game before saving it; printing to a full
    disk ended in a traceback, and the game was lost."""
    with open("/dev/full", "w") as full:
        done = pickomino("selfplay", "--seed", "1", "--save", "game.json", cwd=tmp_path,
                         stdout=full)  # fmt: skip
        clean(done)
        assert done.returncode == 1 and ENGLISH("system.ENOSPC") in done.stderr
        assert Game.from_json((tmp_path / "game.json").read_text()).state.is_over
        shown = pickomino("show", "game.json", cwd=tmp_path, stdout=full)
    clean(shown)
    assert shown.returncode == 1 and ENGLISH("system.ENOSPC") in shown.stderr


def test_a_game_in_line_mode_whose_output_fails_is_left_and_saved(tmp_path):
    """An audit: ``play --plain`` printing to a reader that went away (or to a full disk)
    ended with nothing saved, though the game had said it would be saved on leaving."""
    game = subprocess.Popen(
        [sys.executable, "-m", "pickomino", "play", "--plain", "--players", "me,bot:easy",
         "--seed", "3", "--save", "kept.json"],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert game.stdin is not None and game.stdout is not None
    game.stdin.write("r\n")
    game.stdin.flush()
    while "me rolled" not in game.stdout.readline():  # read until the roll is said
        pass
    game.stdout.close()  # the reader goes away
    _, errors = game.communicate("help\n", timeout=60)  # what it says next is lost
    assert "Traceback" not in errors and game.returncode == 1
    assert ENGLISH("plain.output_lost", why=os.strerror(errno.EPIPE)) in errors
    kept = Game.from_json((tmp_path / "kept.json").read_text())
    assert kept.record.moves[0].startswith("dice ")  # the roll, kept


def test_a_closed_standard_input_ends_the_game_at_once(tmp_path):
    """An audit: ``play --plain <&-`` ended in a traceback (no standard input at all)."""
    done = pickomino("play", "--plain", "--players", "me,bot:easy", "--save", "kept.json",
                     cwd=tmp_path, shell_tail="<&-")  # fmt: skip
    clean(done)
    assert done.returncode == 0 and ENGLISH("plain.end_of_input") in done.stdout


@pytest.mark.parametrize("command", [("show",), ("analyse",), ("play", "--plain", "--resume")])
def test_a_pipe_or_a_file_too_big_is_refused_at_once(tmp_path, command):
    """An audit: a record that was a pipe waited for ever; /dev/zero filled the memory (8 GB
    in 10 s); so would a file of gigabytes. Neither is read: refused, with why."""
    os.mkfifo(tmp_path / "pipe.json")
    done = pickomino(*command, "pipe.json", cwd=tmp_path)
    clean(done)
    assert done.returncode != 0 and ENGLISH("save.not_a_file") in done.stderr + done.stdout
    with open(tmp_path / "big.json", "wb") as big:
        big.truncate(MOST_READ + 1)  # sparse: no disk used
    done = pickomino(*command, "big.json", cwd=tmp_path)
    clean(done)
    assert done.returncode != 0 and ENGLISH("system.EFBIG") in done.stderr + done.stdout


@pytest.mark.parametrize(
    ("name", "code"),
    [("a\x1b[31mred\x07", "name_control"), ("b\nnew line", "name_control"),
     ("x" * (MOST_NAME + 1), "name_too_long")],
)  # fmt: skip
def test_a_name_a_terminal_would_obey_or_of_megabytes_is_refused(tmp_path, name, code):
    """An audit: a record's name with an escape sequence retitled and coloured the terminal
    that showed it; one of 50 MB cost gigabytes (the log says it at every turn); both were
    taken from ``--players`` too."""
    record = Game(["Ann", "Bob"]).record.to_dict()
    record["seats"][1] = name
    (tmp_path / "odd.json").write_text(json.dumps(record))
    said = ENGLISH(f"error.{code}", seat=2, most=MOST_NAME)
    done = pickomino("show", "odd.json", cwd=tmp_path)
    clean(done)
    assert done.returncode == 1 and said in done.stderr and "\x1b" not in done.stdout
    played = pickomino("play", "--plain", "--players", f"Ann,{name}", cwd=tmp_path)
    clean(played)
    assert played.returncode == 2 and said in played.stderr


def test_more_jobs_than_cores_run_on_the_cores(tmp_path):
    """An audit: ``--jobs 100000`` started 1,400 processes for two games, and never ended."""
    done = pickomino("tournament", "--bots", "simple,random", "--games", "2", "--jobs", "100000",
                     "--json", cwd=tmp_path)  # fmt: skip
    clean(done)
    assert done.returncode == 0 and json.loads(done.stdout)["games"] == 2


@pytest.mark.parametrize("database", ["mysql://ann@db.example/games", ""])
def test_serve_takes_only_the_databases_it_can_use(tmp_path, database):
    """An audit: ``--database mysql://…`` said to install a package that is not on PyPI (and
    MySQL is not served); ``--database ""`` served the default database without a word."""
    done = pickomino("--lang", "de", "serve", "--database", database, cwd=tmp_path)
    clean(done)
    shown = database or '""'
    assert done.returncode == 2
    assert Words("de")("cli.serve.database_kind", database=shown) in done.stderr


def test_a_file_that_is_no_database_is_said_in_one_line(tmp_path):
    """An audit: SQLAlchemy's statement and a link to its docs (in English) followed the
    reason in a German run."""
    (tmp_path / "garbage.bin").write_bytes(bytes(range(256)) * 12)
    done = pickomino("--lang", "de", "serve", "--port", "0", "--database", "garbage.bin",
                     cwd=tmp_path)  # fmt: skip
    clean(done)
    assert done.returncode == 1 and "Background on this error" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("file is not a database")


def test_a_device_given_as_a_plot_is_refused_as_it_is_named(tmp_path):
    """An audit: ``--plot /dev/stdout`` wrote /dev/stdout.png (the ending added first)."""
    done = pickomino("odds", "--plot", "/dev/stdout", cwd=tmp_path)
    clean(done)
    assert done.returncode == 2 and "/dev/stdout is not a file" in done.stderr
    assert not Path("/dev/stdout.png").exists()


@pytest.mark.parametrize("proxies", ["garbage", "10.0.0.1/8", "127.0.0.1,proxy.example"])
def test_proxies_are_addresses_or_networks(tmp_path, proxies):
    """An audit: ``--forwarded-allow-ips garbage`` was taken (uvicorn trusts a name no
    connection has: nobody), as was ``10.0.0.1/8`` meant for ``10.0.0.0/8``."""
    done = pickomino("serve", "--forwarded-allow-ips", proxies, cwd=tmp_path)
    clean(done)
    assert done.returncode == 2 and "is neither an address nor a network" in done.stderr


@pytest.mark.parametrize(
    "proxies", ["*", " * ", "0.0.0.0/0", "127.0.0.1,::/0", "0.0.0.0/1,128.0.0.0/1", "::/1,8000::/1"]
)
def test_proxies_that_are_every_address_are_refused(tmp_path, proxies):
    """An audit: with ``--forwarded-allow-ips '*'`` uvicorn believes the first address of a
    request's ``X-Forwarded-For``, which the visitor writes (nginx and Caddy append the real
    one after it), and the connection limits trusted every peer: one address created 15
    sheets where 10 pass, and kept 80 connections open where 50 do."""
    done = pickomino("serve", "--forwarded-allow-ips", proxies, cwd=tmp_path)
    clean(done)
    assert done.returncode == 2 and "would trust every address" in done.stderr


@pytest.mark.parametrize("command", [("show",), ("play", "--plain", "--resume")])
def test_a_score_sheet_given_as_a_record_is_named_so(tmp_path, command):
    """An audit: a score sheet given to ``show`` was "not a Pickomino file" (``analyse``
    reads the same file): it is said to be a sheet, and what reads it."""
    (tmp_path / "sheet.json").write_text(json.dumps(ScoreSheet(["Ann", "Bob"]).to_dict()))
    done = pickomino(*command, "sheet.json", cwd=tmp_path)
    clean(done)
    assert done.returncode != 0 and ENGLISH("error.record_is_sheet") in done.stderr
