"""`pickomino play`: the full screen driven by Textual's pilot, line mode through a real
subprocess, and the --players parser."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
from getpass import getuser
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tui_languages import screen_text, until_shown
from textual.dom import DOMNode
from textual.widgets import RichLog, Static

from pickomino.cli import main
from pickomino.core import Bust, Game, Phase, PickominoError, Rules
from pickomino.i18n import Words
from pickomino.i18n.text import describe_event, ranking_lines, render_state, worm_column
from pickomino.table import Seat, SeededDice, Session
from pickomino.tui.app import EndScreen, PickominoApp
from pickomino.tui.console import BustWarning, Console
from pickomino.tui.plain import run_plain
from pickomino.tui.setup import default_players, new_console, parse_players, resume_console

#: Line-mode commands that always move a game on: roll, keep the first face shown (worms
#: first), and stop or take the first claim. Wrong ones are refused and the next is tried.
CYCLE = "r w 5 4 3 2 1 r w 5 4 3 2 1 s 1 ".replace(" ", "\n") * 150
#: A hot-seat game that waits for Bob to choose: steal Ann's 27 or take 26 (R11, R12).
CLAIM_MOVES = ["dice 44455WWW", "keep W", "roll", "dice 44455", "keep 4", "stop"] * 2


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """A new game is saved in the current folder: keep it out of the checkout."""
    monkeypatch.chdir(tmp_path)


ENGLISH = Words("en")


def hot_seat(game: Game) -> Console:
    """A console for a game of people only (every seat a person), with seeded dice."""
    seats = [Seat(name) for name in game.seats]
    return Console(Session(game, seats, SeededDice(1)), ENGLISH)


def bot_seats(console: Console) -> list[int]:
    return [seat for seat, s in enumerate(console.session.seats) if s.bot is not None]


def play(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pickomino", "play", "--plain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


# ------------------------------------------------------------------- --players
def test_players_parse_people_and_bots_by_name_or_difficulty():
    seats = parse_players(" Ann , bot:expert,Bob,bot:random", ENGLISH)
    assert [(s.name, s.bot) for s in seats] == [
        ("Ann", None),
        ("Bot 2 (expert)", "expert"),
        ("Bob", None),
        ("Bot 4 (random)", "random"),
    ]
    console = new_console("Ann,bot:expert,Bob,bot:random", Rules(), seed=1, words=ENGLISH)
    assert bot_seats(console) == [1, 3] and console.session.game.record.meta["bots"][1] == "expert"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann", "2 to 7 players, not 1 (R1)"),
        ("Ann," + ",".join(["bot:easy"] * 7), "2 to 7 players, not 8 (R1)"),
        ("Ann,bot:grandmaster", "unknown bot grandmaster; the bots are random,"),
        ("Ann,,Bob", "player 2 has no name"),
        ("Ann,bot:", "player 2: write bot:LEVEL"),
        ("Ann,Ann", "given twice: Ann"),
        ("9", "player 1 is the number 9, not a name"),  # --players lists seats: no count
        ("", "name at least two players"),  # not the default players
        (" , ", "player 1 has no name"),
    ],
)
def test_players_errors(players, message):
    with pytest.raises(PickominoError) as refused:
        new_console(players, Rules(), seed=1, words=ENGLISH)
    error = refused.value
    said = f"{ENGLISH.error(error)} ({error.rule})" if error.rule else ENGLISH.error(error)
    assert message in said
    result = CliRunner().invoke(main, ["play", "--plain", "--players", players])
    assert result.exit_code == 2 and message in result.output


def test_a_person_is_called_by_the_login_name_so_the_log_reads_right(monkeypatch):
    """Issue 14, item 18: the default seat "You" made "You busts at 12"."""
    monkeypatch.setenv("LOGNAME", "ann")
    assert default_players(ENGLISH) == "ann,bot:hard,bot:hard"
    game = Game(new_console(default_players(ENGLISH), Rules(), seed=1, words=ENGLISH).names)
    game.roll("11111222")
    game.play("keep 1")
    bust = game.play("stop")[0]
    said = describe_event(bust, game.seats, ENGLISH)
    assert said == "ann busts at 5: no worm among the kept dice (R10)"
    for login in ("bot:hard", "7", "Ann,Bob", "tab\there"):  # no name for a seat
        monkeypatch.setenv("LOGNAME", login)
        assert default_players(ENGLISH) == "Player,bot:hard,bot:hard"


def test_resume_refuses_options_that_would_change_the_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(Game(["Ann", "Bob"]).to_json())
    result = CliRunner().invoke(main, ["play", "--resume", str(path), "--seed", "3"])
    assert result.exit_code == 2 and "--seed cannot be changed in a resumed game" in result.output


# ------------------------------------------------------------------- line mode
def test_plain_mode_plays_a_whole_game_and_refuses_a_bad_command():
    played = play("--players", "Ann,bot:hard", "--seed", "5", stdin="dance\nhint\n" + CYCLE)
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "Ann> dance is not a move: write keep 1–5" in out and "Try again" in out
    # the hint before the roll: the first player's win chance, then the turn's odds
    hinted = re.search(r"\[r\] roll  win (\d+\.\d)%  tile 76\.8%  worms \+1\.64  bust 23\.2%", out)
    assert hinted is not None and 50 < float(hinted[1]) < 55
    assert "Ann> " in out and "Bot 2 (hard) rolled" in out
    lines = out.splitlines()
    over = [number for number, line in enumerate(lines) if "Game over." in line]
    assert len(over) == 1 and lines[over[0]] == "  Game over."  # said once, in the log
    ranking = lines[over[0] + 1 : over[0] + 3]  # then one line a player, best first
    assert ranking[0].startswith("  1. ") and ranking[1].startswith("  ")
    assert {"Ann", "Bot 2 (hard)"} == {line.split(". ", 1)[1].split(":")[0] for line in ranking}
    assert lines[-5].startswith("Grill ") and lines[-2] == ENGLISH("plain.analysis_offer")
    assert lines[-1] == "> Game saved to pickomino-game.json"  # 'r' is no 'analyse': left
    assert Game.from_json(Path("pickomino-game.json").read_text()).state.is_over


def test_the_plain_table_says_what_the_turn_waits_for():
    """Before the first roll the turn line asks for the dice; once they are rolled it
    names the turn only (the roll is the next line), and then the dice kept so far."""
    game = Game(["Ann", "Bob"])
    table = render_state(game.state, game.seats, ENGLISH).splitlines()
    assert table[-1] == "Turn 1: Ann – roll 8 dice"
    game.push("dice 1233WWW5")
    table = render_state(game.state, game.seats, ENGLISH).splitlines()
    assert table[-2:] == ["Turn 1: Ann", "Rolled 1 2 3 3 5 W W W"]
    game.push("keep W")
    table = render_state(game.state, game.seats, ENGLISH).splitlines()
    assert table[-1] == "Turn 1: Ann kept W W W = 15, 5 dice left"


def test_plain_save_on_end_of_input_then_resume_to_the_end(tmp_path):
    path = tmp_path / "saved.json"
    first = play("--players", "Ann,bot:medium", "--seed", "9", "--save", str(path), stdin="r\nw\n")
    assert first.returncode == 0 and "End of input" in first.stdout
    assert f"This game is saved to {path} when you leave." in first.stdout
    assert first.stdout.endswith(
        f"Game saved to {path}; go on with: pickomino play --resume {path}\n"
    )
    record = json.loads(path.read_text())
    assert record["meta"] == {"seed": 9, "bots": [None, "medium"]}
    assert record["moves"][0].startswith("dice ")
    saved = Game.from_json(path.read_text())

    copies = [tmp_path / "a.json", tmp_path / "b.json"]
    resumed = []
    for copy in copies:
        copy.write_text(path.read_text())
        resumed.append(play("--resume", str(copy), stdin=CYCLE))
    assert resumed[0].returncode == 0, resumed[0].stderr
    # the seed and the moves decide the rest
    assert resumed[0].stdout.replace("a.json", "b.json") == resumed[1].stdout
    assert resumed[0].stdout.startswith("Turn 1 – Ann\n  Ann rolled")
    assert resumed[0].stdout.endswith(f"Game saved to {copies[0]}\n")
    finished = Game.from_json(copies[0].read_text())  # saved back to the --resume file
    assert finished.state.is_over and finished.record.moves[: len(saved.record.moves)] == (
        saved.record.moves
    )


def test_plain_quitting_a_resumed_game_saves_the_moves_to_the_resume_file(tmp_path):
    """Issue 14, item 16: the help says the game is saved on leaving, to the --resume file."""
    path = tmp_path / "r.json"
    game = Game(["Ann", "Bob"])
    game.push("dice 1234555W")
    path.write_text(game.to_json())
    quit_ = play("--resume", str(path), stdin="5\nquit\n")
    assert quit_.returncode == 0, quit_.stderr
    assert Game.from_json(path.read_text()).record.moves == ["dice 1234555W", "keep 5"]
    assert f"Game saved to {path}; go on with: pickomino play --resume {path}" in quit_.stdout
    ended = play("--resume", str(path), stdin="r\n")  # the end of input leaves too
    assert Game.from_json(path.read_text()).record.moves[2:3] == ["roll"]
    assert ended.stdout.splitlines()[-1].startswith(f"Game saved to {path}")


def test_plain_a_new_game_is_saved_without_overwriting_an_earlier_one(tmp_path):
    first = play("--players", "Ann,Bob", stdin="r\nquit\n")
    second = play("--players", "Cid,Dan", stdin="r\n")
    assert "Game saved to pickomino-game.json;" in first.stdout.splitlines()[-1]
    assert "Game saved to pickomino-game-2.json;" in second.stdout.splitlines()[-1]
    assert Game.from_json((tmp_path / "pickomino-game.json").read_text()).seats == ["Ann", "Bob"]
    assert Game.from_json((tmp_path / "pickomino-game-2.json").read_text()).seats[0] == "Cid"
    nothing = play("--players", "Eve,Fay", stdin="quit\n")
    assert nothing.stdout.endswith("> Nothing was played: no game saved.\n")
    assert not (tmp_path / "pickomino-game-3.json").exists()


def test_play_refuses_at_start_a_save_file_it_could_not_write(tmp_path):
    """Checked before the game, not when it ends (when the game would be lost)."""
    for args, message in [
        (("--save", str(tmp_path / "none" / "g.json")), f"the folder {tmp_path / 'none'}"),
        (("--save", str(tmp_path)), f"{tmp_path} is a folder"),
    ]:
        result = play(*args, stdin="r\n")
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
    (tmp_path / "pickomino-game.json").mkdir()  # where a new game would go by default...
    (tmp_path / "pickomino-game-2.json").write_text("")  # ... and the next name is taken
    busy = play("--players", "Ann,Bob", stdin="r\n")
    assert busy.returncode == 0 and "saved to pickomino-game-3.json" in busy.stdout


def test_plain_warns_before_a_stop_that_busts(tmp_path):
    """Issue 14, item 19: a stop that busts for want of a worm (or a total reaching no
    tile) is played only when asked twice in a row; a move in between asks again."""
    path = tmp_path / "r.json"
    game = Game(["Ann", "Bob"])
    game.push("dice 1234555W")
    path.write_text(game.to_json())
    warning = "stopping now busts: no worm among the kept dice. Stop again to bust anyway (R10)"
    played = play("--resume", str(path), stdin="5\nstop\nstop\n")
    assert played.stdout.count(warning) == 1
    assert "Ann busts at 15: no worm among the kept dice (R10)" in played.stdout
    assert Game.from_json(path.read_text()).record.moves[1:] == ["keep 5", "stop"]


def test_the_bust_warning_names_the_engine_s_reason():
    game = Game(["Ann", "Bob"])
    for move in ["dice 111WW234", "keep W", "roll", "dice 111234"]:
        game.push(move)
    console = hot_seat(game)
    assert console.stop_busts() is None  # no stop to make while choosing dice
    console.decide("1")  # W W 1 1 1 = 13: no tile (R13)
    with pytest.raises(BustWarning) as warned:
        console.decide("s")
    assert warned.value.rule == "R13" and console.explain(warned.value) == (
        "stopping now busts: the total reaches no tile that can be claimed. "
        "Stop again to bust anyway (R13)"
    )
    for move in ["roll", "dice 223"]:  # a move in between: the next such stop is warned of
        game.push(move)
    console.decide("2")  # 17
    with pytest.raises(BustWarning):
        console.decide("stop")
    assert console.decide("stop")[0] == Bust(0, "too_low", 17)
    winner = Game(["Ann", "Bob"])
    for move in ["dice 555WWW12", "keep W", "roll", "dice 55512"]:
        winner.push(move)
    console = hot_seat(winner)
    console.decide("5")
    assert console.stop_busts() is None  # 30 takes 30: no warning
    assert console.decide("s")[0].tile == 30


def test_plain_save_command_writes_where_asked(tmp_path):
    path = tmp_path / "here.json"
    played = play("--seed", "2", stdin=f"r\nsave {path}\nquit\n")
    assert played.returncode == 0 and f"Saved to {path}" in played.stdout
    assert Game.from_json(path.read_text()).seats == [getuser(), "Bot 2 (hard)", "Bot 3 (hard)"]


def test_plain_a_quit_whose_save_fails_stays_in_the_game_until_saved_or_quit_again(tmp_path):
    """An audit: a full disk at ``quit`` lost the game. The save's failure is said and the
    game goes on: ``save`` elsewhere, then ``quit`` leaves with the game kept (exit 0); a
    second ``quit`` without it leaves unsaved (exit 1); a move since, and ``quit`` tries to
    save again (a reviewer: it left at once, the move lost, saying nothing)."""
    scratch = new_console("Ann,Bob", Rules(), 3, Words("en"))
    scratch.decide("r")
    keep = scratch.options()[0][0]  # a move after the roll
    for typed, moves, code in [
        ("r\nquit\nsave {other}\nquit\n", 1, 0),
        ("r\nquit\nquit\n", None, 1),
        (f"r\nquit\nsave {{other}}\n{keep}\nquit\nquit\n", 1, 1),
    ]:
        blocked = tmp_path / "blocked.json"
        blocked.mkdir()  # where the game was to be saved is a folder by now
        other = tmp_path / "other.json"
        console = new_console("Ann,Bob", Rules(), 3, Words("en"))
        out = io.StringIO()
        done = run_plain(console, blocked, io.StringIO(typed.format(other=other)), out)
        said = out.getvalue()
        assert done == code and f"cannot save to {blocked}: Is a directory" in said
        assert said.count("type save FILE to save it elsewhere, or quit again") == (
            2 if f"\n{keep}\n" in typed else 1
        )
        assert other.exists() is (moves is not None)
        if moves is not None:
            assert len(Game.from_json(other.read_text()).record.moves) == moves  # Ann's roll
            other.unlink()
        blocked.rmdir()


def test_a_corrupt_or_missing_record_is_a_clear_error(tmp_path):
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "pickomino-record", "version": 1, "seats": [')
    none = tmp_path / "none.json"
    for path, said in ((corrupt, f"{corrupt}: the file is not valid JSON"), (none, "cannot read")):
        result = play("--resume", str(path))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith(f"Error: {said}")
        assert result.stderr.count(str(path)) == 1  # an audit: the path was said twice


# ---------------------------------------------------------------- full screen
def _human_key(console: Console) -> str:
    """A key for one of the legal choices: worms first, then the highest face; stop once a
    worm is kept; the first claim."""
    keys = [key for key, _ in console.options()]
    state = console.state
    if state.phase is Phase.KEEP:
        return "w" if "w" in keys else max(keys)
    if state.phase is Phase.ROLL_OR_STOP:
        return "s" if state.has_worm() else "r"
    return keys[0]


def _text(node: DOMNode, selector: str) -> str:
    return str(node.query_one(selector, Static).content)


def _check_views(app: PickominoApp) -> None:
    """The grill and stack views show what the engine's state holds."""
    state, names = app.game_console.state, app.game_console.names
    grill = _text(app, "#grill")
    assert all(f" {tile} " in grill for tile in state.grill)
    assert not any(f" {tile} " in grill for tile in state.face_down)
    assert grill.count("▒▒") == 2 * len(state.face_down)
    rows = _text(app, "#stacks").splitlines()
    worms = worm_column(state.scores(), app.game_console.words)
    for seat, row in enumerate(rows):
        assert names[seat] in row and f"  {worms[seat]}  " in row
        assert row.rstrip().endswith(f" {state.top(seat)}" if state.stacks[seat] else "-")


@pytest.mark.long
@pytest.mark.slow  # a whole game against a hard bot in the full-screen app
def test_app_plays_a_whole_game_with_hint_and_save(tmp_path):
    save = tmp_path / "game.json"
    console = new_console("Ann,bot:hard", Rules(), seed=7, words=ENGLISH)
    app = PickominoApp(console, speed=0, save_to=save)

    async def drive() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("s")  # refused by the engine: the dice must be rolled first
            assert console.moves == 0
            await pilot.press("h")
            assert "[r] roll" in _text(app, "#hint")
            presses = 0
            while not isinstance(app.screen, EndScreen):
                if console.waiting_name() is None:
                    await pilot.pause()
                    continue
                _check_views(app)
                await pilot.press(_human_key(console))
                presses += 1
                if presses == 3:
                    await pilot.press("h")
                    hint = _text(app, "#hint")
                    assert "tile" in hint and "worms" in hint and "bust" in hint
                    await pilot.press("ctrl+s")
                    assert Game.from_json(save.read_text()).state == console.state
                    assert bot_seats(resume_console(save, ENGLISH)) == [1]
            _check_views(app)
            ranking = ranking_lines(console.state.ranking(), console.names, ENGLISH)
            assert _text(app.screen, "#ranking") == "\n".join(ranking)
            log = [line.text.strip() for line in app.query_one("#log", RichLog).lines]
            assert log[-len(ranking) - 1 :] == ["Game over.", *ranking]  # the log ends so
            await pilot.press("q")
        assert console.state.is_over and app.return_code == 0
        assert Game.from_json(save.read_text()).state == console.state  # saved on leaving

    asyncio.run(drive())


def test_app_claim_by_button_in_a_resumed_hot_seat_game(tmp_path):
    path = tmp_path / "claim.json"
    game = Game(["Ann", "Bob"])
    for move in CLAIM_MOVES:
        game.push(move)
    path.write_text(game.to_json())
    console = resume_console(path, ENGLISH)
    app = PickominoApp(console, speed=0, save_to=path)

    async def drive() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            assert console.state.phase is Phase.CLAIM and not bot_seats(console)
            await until_shown(pilot, "#choices Button", laid_out=True)
            buttons = {str(b.label): b for b in app.query("#choices Button")}
            assert set(buttons) == {"[1] take 26", "[2] steal 27"}
            await pilot.click(buttons["[2] steal 27"])
            assert console.state.stacks == [[], [27]] and console.waiting_name() == "Ann"

    asyncio.run(drive())


def test_app_saves_a_resumed_game_to_its_file_on_ctrl_q(tmp_path):
    """Issue 14, item 16: quitting a resumed game kept the file as it was."""
    path = tmp_path / "r.json"
    game = Game(["Ann", "Bob"])
    game.push("dice 1234555W")
    path.write_text(game.to_json())
    app = PickominoApp(resume_console(path, ENGLISH), speed=0, save_to=path)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, "FooterKey")  # the footer is laid out after a refresh
            footer = [key.description for key in app.query("FooterKey")]
            assert footer == ["Hint", "Save", "Quit"]  # ctrl+q is named, as the help says
            await pilot.press("5")
            await pilot.press("ctrl+q")
        assert app.return_code == 0 and app.farewell.startswith(f"Game saved to {path}; go on")

    asyncio.run(drive())
    assert Game.from_json(path.read_text()).record.moves == ["dice 1234555W", "keep 5"]


def test_app_whose_save_fails_at_quit_stays_then_leaves_at_the_second(tmp_path):
    """A reviewer: the full-screen game, the terminal's default, still lost the game when its
    save failed at ctrl+q. It stays, saying so; ctrl+q again (no move since) tries once more
    and leaves, saved or not."""
    blocked = tmp_path / "blocked.json"
    blocked.mkdir()  # where the game is to be saved is a folder
    game = Game(["Ann", "Bob"])
    game.push("dice 1234555W")
    app = PickominoApp(resume_console_of(game, tmp_path), speed=0, save_to=blocked)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, "FooterKey")
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.is_running and app.return_code is None
            told = [str(notice.message) for notice in app._notifications]
            assert any("The game is not saved: quit again" in text for text in told), told
            blocked.rmdir()  # room made: the second quit saves
            await pilot.press("ctrl+q")
        assert app.return_code == 0 and app.farewell.startswith(f"Game saved to {blocked}")

    asyncio.run(drive())
    assert Game.from_json(blocked.read_text()).record.moves == ["dice 1234555W"]


def resume_console_of(game: Game, folder: Path) -> Console:
    """The console of ``game``, as ``play --resume`` makes it."""
    path = folder / "resumed.json"
    path.write_text(game.to_json())
    return resume_console(path, ENGLISH)


SEVEN = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]


def _hot_seat_app(tmp_path, names: list[str], moves: list[str]) -> PickominoApp:
    game = Game(names)
    for move in moves:
        game.push(move)
    return PickominoApp(hot_seat(game), speed=0, save_to=tmp_path / "g.json")


@pytest.mark.parametrize("names", [["Ann", "Bob"], SEVEN])
def test_app_fits_80_by_24_with_six_keeps_and_the_hint(tmp_path, names):
    """Issue 14, item 19: at 80x24 the sixth button read '[w] keep' and the hint added a
    scrollbar, wrapped the grill and pushed the log off the screen."""
    app = _hot_seat_app(tmp_path, names, ["dice 12345WWW"])  # six faces to keep

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, "#choices Button", laid_out=True)
            await until_shown(pilot, "FooterKey")
            screen = app.screen.region
            footer = app.query_one("Footer").region
            buttons = list(app.query("#choices Button"))
            assert len(buttons) == 6
            for button in buttons:
                label = str(button.label)
                assert screen.contains_region(button.region), label
                assert button.region.bottom <= footer.y, label
                assert button.region.width >= len(label) + 2, label  # the label and its padding
            await pilot.press("h")
            hint = app.query_one("#hint", Static)
            rows = _text(app, "#hint").splitlines()
            assert len(rows) == 6 and rows[0].startswith("[w] keep W")
            assert hint.region.height >= len(rows) + 2  # every row inside its border
            assert hint.region.bottom <= footer.y and app.screen.max_scroll_y == 0
            assert app.query_one("#grill").region.height == 2  # not wrapped
            assert not app.query_one("#log").display  # the hint stands in the log's place
            await pilot.press("h")
            assert app.query_one("#log").display and not hint.display

    asyncio.run(drive())


def test_app_claims_wrap_into_rows_that_fit(tmp_path):
    """Many claims (any lower tile may be taken) wrap onto more rows instead of running
    off the screen."""
    game = Game(["Ann", "Bob"], Rules.parse("official,lower_tile=any"))
    for move in ["dice 5WWWWWWW", "keep W", "roll", "dice 5", "keep 5"]:
        game.push(move)  # 40, no die left: any tile may be taken
    app = PickominoApp(hot_seat(game), speed=0, save_to=tmp_path / "g.json")

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, "#choices Button", laid_out=True)
            buttons = list(app.query("#choices Button"))
            assert len(buttons) == 16 and len({b.region.y for b in buttons}) > 1
            assert all(app.screen.region.contains_region(b.region) for b in buttons)
            # An audit: claims 10-16 were labelled [10]-[16], keys no press can give ("1"
            # then "6" took the first claim): each has one key, named on its button.
            labels = [str(b.label) for b in buttons]
            assert labels[9] == "[a] take 30" and labels[15] == "[g] take 36"
            await pilot.press("g")
            assert app.game_console.session.game.record.moves[-1] == "take 36"

    asyncio.run(drive())


def test_line_mode_takes_a_claim_by_its_key_or_its_number(tmp_path):
    """The full screen's keys work typed too, and so do the numbers typed before."""
    for typed, taken in (("a", "take 30"), ("16", "take 36")):
        game = Game(["Ann", "Bob"], Rules.parse("official,lower_tile=any"))
        for move in ["dice 5WWWWWWW", "keep W", "roll", "dice 5", "keep 5"]:
            game.push(move)
        console = hot_seat(game)
        console.decide(typed)
        assert console.session.game.record.moves[-1] == taken


def test_app_warns_before_a_stop_that_busts_and_stops_on_a_second_press(tmp_path):
    """Issue 14, item 19: like the web page, a stop with no worm kept is confirmed first."""
    app = _hot_seat_app(tmp_path, ["Ann", "Bob"], ["dice 1234555W", "keep 5"])

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            record = app.game_console.session.game.record
            moves = list(record.moves)
            await pilot.press("s")
            assert record.moves == moves  # warned, nothing played
            await pilot.press("s")
            assert record.moves == [*moves, "stop"]
            assert app.game_console.state.current == 1  # Ann's turn ended in a bust

    asyncio.run(drive())


def test_app_shows_the_bust_caution_on_screen_until_the_stop_is_confirmed(tmp_path):
    """Issue 24, item 16: the caution lived only in a toast, which under load was sometimes
    never drawn, and the next ``s`` busted. It stands in the turn line, and the stop button
    says what pressing it again does, until the stop is confirmed or another move made."""
    app = _hot_seat_app(tmp_path, ["Ann", "Bob"], ["dice 1234555W", "keep 5"])
    caution = "stopping now busts: no worm among the kept dice. Stop again to bust anyway (R10)"

    async def drive() -> None:
        async with app.run_test(size=(110, 42)) as pilot:
            record = app.game_console.session.game.record
            moves = list(record.moves)
            await pilot.press("s")
            await pilot.pause()  # the buttons are laid out again
            assert record.moves == moves  # warned, nothing played
            assert caution in _text(app, "#status")
            labels = [str(button.label) for button in app.query("#choices Button")]
            assert labels == ["[r] roll", "[s] stop and bust?"]
            on_screen = " ".join(screen_text(app).split())
            assert caution in on_screen and "[s] stop and bust?" in on_screen
            await pilot.press("s")  # the caution's second press busts, as documented
            assert record.moves == [*moves, "stop"] and app.game_console.state.current == 1
            assert caution not in _text(app, "#status")

    asyncio.run(drive())


def test_app_another_move_takes_the_bust_caution_away(tmp_path):
    """A caution is about the move it was given for: after another move the turn line and
    the buttons are the usual ones, and a later stop that busts is cautioned again."""
    app = _hot_seat_app(tmp_path, ["Ann", "Bob"], ["dice 1234555W", "keep 5"])

    async def drive() -> None:
        async with app.run_test(size=(110, 42)) as pilot:
            await pilot.press("s")
            assert "stopping now busts" in _text(app, "#status")
            await pilot.press("r")
            await pilot.pause()
            assert _text(app, "#status") == app.game_console.status()
            assert "stop and bust?" not in screen_text(app)

    asyncio.run(drive())


def test_app_bots_step_on_a_timer(tmp_path):
    console = new_console("Ann,bot:easy", Rules(), seed=1, words=ENGLISH)
    app = PickominoApp(console, speed=5, save_to=tmp_path / "g.json")
    session = console.session

    async def drive() -> None:
        async with app.run_test() as pilot:
            await pilot.press("r", "1", "s", "s")  # Ann's turn ends with a bust (no worm)
            moves = list(session.game.record.moves)
            assert session.is_bot_turn() and "is playing" in _text(app, "#status")
            await pilot.press("r")  # not Ann's turn: refused, and the bot waits for its timer
            assert session.game.record.moves == moves

    asyncio.run(drive())


def _output_until(process: subprocess.Popen, marker: bytes, times: int) -> bytes:
    """What the process printed until ``marker`` has appeared ``times`` times (a prompt ends
    without a line break, so bytes are read as they come)."""
    seen = b""
    while seen.count(marker) < times:
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
    return seen


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_plain_a_killed_game_or_closed_terminal_saves_the_game(tmp_path, signal_name):
    """``kill`` (SIGTERM) or a closed terminal (SIGHUP) while a person is to move: the game is
    saved as on ctrl+c, with every move played (before, the process died with it)."""
    save = tmp_path / "game.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "pickomino", "play", "--plain", "--players", "Ann,Bob",
         "--seed", "1", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    _output_until(process, b"Ann> ", 1)
    process.stdin.write(b"r\n")
    process.stdin.flush()
    _output_until(process, b"Ann> ", 1)  # the roll's table, asked again
    process.send_signal(getattr(signal, signal_name))
    process.wait(timeout=60)  # input still open: no end of input to leave by
    rest, errors = process.stdout.read(), process.stderr.read()
    process.stdin.close()
    assert process.returncode == 0, errors.decode()
    assert b"Interrupted: leaving the game." in rest and str(save).encode() in rest
    moves = Game.from_json(save.read_text()).record.moves
    assert len(moves) == 1 and moves[0].startswith("dice ")


def test_app_a_killed_game_is_saved_as_on_ctrl_q(tmp_path):
    """SIGTERM while the full screen is up: saved and left as by ctrl+q (a handler of the
    test's own catches the signal if the app did not)."""
    path = tmp_path / "r.json"
    game = Game(["Ann", "Bob"])
    game.push("dice 1234555W")
    path.write_text(game.to_json())
    app = PickominoApp(resume_console(path, ENGLISH), speed=0, save_to=path)
    caught: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda number, frame: caught.append(number))

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("5")
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(50):
                if app.return_code is not None:
                    break
                await pilot.pause()

    try:
        asyncio.run(drive())
    finally:
        signal.signal(signal.SIGTERM, before)
    assert caught == [] and app.return_code == 0
    assert Game.from_json(path.read_text()).record.moves == ["dice 1234555W", "keep 5"]
