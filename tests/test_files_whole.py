"""Files written whole or not at all (``pickomino.files``): a save, record, annotated record
or chart whose writing fails (here a file-size limit, as a full disk) is a clear error and
leaves the file it was to replace as it was; before, the old file was cut short and lost."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pickomino.core import Game
from pickomino.files import replacing, write_whole


def test_a_file_replaced_keeps_its_permissions_and_nothing_else_is_left(tmp_path):
    path = tmp_path / "game.json"
    write_whole(path, "first")
    path.chmod(0o640)
    write_whole(path, "second")
    assert path.read_text() == "second" and stat.S_IMODE(path.stat().st_mode) == 0o640
    with pytest.raises(OSError, match="disk full"), replacing(path) as part:
        part.write_text("cut short")
        assert part.parent == tmp_path and part.suffix == ".json"
        raise OSError("disk full")
    assert path.read_text() == "second" and list(tmp_path.iterdir()) == [path]


def pickomino(*args: str, cwd: Path, limit: int | None = None, stdin: str = ""):
    """``pickomino ARGS`` in ``cwd``, with files it writes limited to ``limit`` bytes."""

    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "pickomino", *args], cwd=cwd, input=stdin, capture_output=True,
        text=True, timeout=120, preexec_fn=limited,
    )  # fmt: skip


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A whole game's record made by ``selfplay`` (a few KB)."""
    made = pickomino("selfplay", "--seed", "1", "--quiet", "--save", "old.json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return tmp_path / "old.json"


def refused_cleanly(done: subprocess.CompletedProcess[str], path: Path) -> None:
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert path.name in done.stderr and "File too large" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["selfplay", "--seed", "2", "--quiet", "--save", "{path}"],
        ["analyse", "{record}", "--annotate", "{path}"],
        ["odds", "--plot", "{path}"],
    ],
    ids=["selfplay --save", "analyse --annotate", "odds --plot"],
)
def test_a_write_that_fails_leaves_the_earlier_file_as_it_was(tmp_path, record, command):
    earlier = tmp_path / ("earlier.png" if "--plot" in command else "earlier.json")
    if "--plot" in command:  # a real chart, larger than the limit
        assert pickomino("odds", "--plot", earlier.name, cwd=tmp_path).returncode == 0
    else:
        earlier.write_bytes(record.read_bytes())
    before = earlier.read_bytes()
    args = [part.format(path=earlier.name, record=record.name) for part in command]
    done = pickomino(*args, cwd=tmp_path, limit=2048)
    refused_cleanly(done, earlier)
    assert earlier.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["old.json", earlier.name])


def test_a_game_whose_save_fails_keeps_the_save_it_was_resumed_from(tmp_path, record):
    """``play --resume`` then a roll, and leaving: the save fails; the file resumed from still
    holds the game (before, it was emptied: both games lost)."""
    data = json.loads(record.read_text())
    data["moves"] = data["moves"][:30]  # a game under way
    record.write_text(json.dumps(data))
    before = record.read_bytes()
    done = pickomino("play", "--plain", "--resume", record.name, cwd=tmp_path, limit=512,
                     stdin="r\nquit\n")  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "File too large" in done.stdout
    assert record.read_bytes() == before
    Game.from_json(before)  # still a game that loads


def test_a_name_too_long_to_write_is_refused_before_the_game(tmp_path):
    done = pickomino("selfplay", "--save", "a" * 300 + ".json", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--save" in done.stderr and "File name too long" in done.stderr


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    """An audit: a save named by a link put a plain file in the link's place, and the file it
    named kept the old game."""
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old")
    link.symlink_to(real)
    write_whole(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_a_pipe_or_a_device_is_refused_before_the_work(tmp_path):
    """An audit: ``--save`` naming a device replaced it by a file (as root, /dev/full became
    one), and naming a pipe waited for ever on the check. Neither is a file: refused at once,
    and left as it was."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for target in (pipe, Path("/dev/null")):
        done = pickomino("selfplay", "--quiet", "--save", str(target), cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{target} is not a file (a device, a pipe or a socket)" in done.stderr
    assert stat.S_ISFIFO(pipe.stat().st_mode) and stat.S_ISCHR(Path("/dev/null").stat().st_mode)


def test_the_games_own_save_refuses_a_device_and_a_name_it_cannot_take(tmp_path):
    """An audit: ``save /dev/full`` typed in a game replaced the device by the record, and a
    NUL in the name ended the game with a traceback. Both are said, and the game goes on."""
    typed = "save /dev/null\nsave a\0b.json\nroll\nquit\n"
    done = pickomino("play", "--players", "a,b", "--plain", "--save", "keep.json", cwd=tmp_path,
                     stdin=typed)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr + done.stdout
    assert "cannot save to /dev/null: not a file" in done.stdout
    assert "embedded null byte" in done.stdout and "a rolled" in done.stdout
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode) and (tmp_path / "keep.json").exists()


def test_the_games_own_save_says_not_a_file_in_the_players_language(tmp_path):
    """The reason is the catalogue's, not English in a German line."""
    done = pickomino("--lang", "de", "play", "--players", "a,b", "--plain", "--save",
                     "keep.json", cwd=tmp_path, stdin="save /dev/null\nquit\n")  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr + done.stdout
    assert "/dev/null nicht möglich: keine Datei (ein Gerät, eine Pipe oder ein Socket)" in (
        done.stdout
    )
