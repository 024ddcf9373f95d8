"""Records written before the words moved into catalogues (issue 15) still load, replay and
go on. The files in ``tests/data`` were written by that code: a game over from the web app
(its ``meta`` holds the seed, the bots and the result as an English sentence) and a game of
``play`` left after two moves (seed and bots)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from pickomino.core import Game
from pickomino.i18n import Words
from pickomino.i18n.text import log_lines, ranking_lines
from pickomino.table import Seat
from pickomino.table.records import seats_from_record

DATA = Path(__file__).parent / "data"
WEB_GAME = DATA / "record-web-before-i18n.json"
PLAY_GAME = DATA / "record-play-before-i18n.json"
#: Line-mode commands that always move a game on (see test_tui.CYCLE).
CYCLE = "r w 5 4 3 2 1 r w 5 4 3 2 1 s 1 ".replace(" ", "\n") * 150


def pickomino(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pickomino", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_old_web_record_loads_and_replays_to_the_result_it_stored():
    stored = json.loads(WEB_GAME.read_text())
    assert set(stored["meta"]) == {"seed", "bots", "result"}  # as the web app wrote it
    game = Game.from_json(WEB_GAME.read_text())
    assert game.state.is_over and game.record.moves == stored["moves"]
    assert seats_from_record(game.record) == [Seat("Ann"), Seat("Robo", "hard"), Seat("Cy", "easy")]
    # the English sentence stored then says what the replay says now
    result = stored["meta"]["result"]
    for standing in game.state.ranking():
        name = game.seats[standing.seat]
        assert f"{standing.rank}. {name} {standing.worms} worm" in result
    ranking = ranking_lines(game.state.ranking(), game.seats, Words("en"))
    log = log_lines(game.history, game.seats, Words("en"))
    assert log[-len(ranking) :] == ["  " + line for line in ranking]


def test_an_old_web_record_is_shown_in_any_language_from_its_moves():
    english = pickomino("show", str(WEB_GAME))
    german = pickomino("--lang", "de", "show", str(WEB_GAME))
    assert english.returncode == german.returncode == 0, english.stderr + german.stderr
    game = Game.from_json(WEB_GAME.read_text())
    words = Words("de")
    assert german.stdout.splitlines()[0] == words("turn.heading", turn=1, name="Ann")
    ranking = ranking_lines(game.state.ranking(), game.seats, words)
    assert "\n".join("  " + line for line in ranking) in german.stdout
    assert game.record.meta["result"] not in german.stdout + english.stdout  # not the stored words


def test_an_old_play_record_resumes_with_its_bot_and_plays_to_the_end(tmp_path):
    path = tmp_path / "old.json"
    shutil.copy(PLAY_GAME, path)
    before = Game.from_json(PLAY_GAME.read_text())
    assert seats_from_record(before.record) == [Seat("Ann"), Seat("Bot 2 (medium)", "medium")]
    played = pickomino("play", "--plain", "--resume", str(path), stdin=CYCLE)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("Turn 1 – Ann\n  Ann rolled")
    assert "Bot 2 (medium) rolled" in played.stdout  # the bot still plays its seat
    after = Game.from_json(path.read_text())
    assert after.state.is_over and after.record.moves[:2] == before.record.moves
    assert after.record.meta == before.record.meta  # seed and bots kept


def test_an_old_finished_record_resumed_is_shown_and_saved_back(tmp_path):
    path = tmp_path / "over.json"
    shutil.copy(WEB_GAME, path)
    resumed = pickomino("play", "--plain", "--resume", str(path))
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-1] == f"Game saved to {path}"
    assert Game.from_json(path.read_text()).record.to_dict() == json.loads(WEB_GAME.read_text())
