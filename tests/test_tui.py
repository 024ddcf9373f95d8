"""`pickomino play`: the full screen driven by Textual's pilot, line mode through a real
subprocess, and the --players parser."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from pickomino.core.render import describe_ranking
from textual.dom import DOMNode
from textual.widgets import RichLog, Static

from pickomino.cli import main
from pickomino.core import Game, Phase, Rules
from pickomino.tui.app import EndScreen, PickominoApp
from pickomino.tui.session import Session
from pickomino.tui.setup import new_session, parse_players, resume_session

#: Line-mode commands that always move a game on: roll, keep the first face shown (worms
#: first), and stop or take the first claim. Wrong ones are refused and the next is tried.
CYCLE = "r w 5 4 3 2 1 r w 5 4 3 2 1 s 1 ".replace(" ", "\n") * 150
#: A hot-seat game that waits for Bob to choose: steal Ann's 27 or take 26 (R11, R12).
CLAIM_MOVES = ["dice 44455WWW", "keep W", "roll", "dice 44455", "keep 4", "stop"] * 2


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
    seats = parse_players(" Ann , bot:expert,Bob,bot:random")
    assert [(s.name, s.bot) for s in seats] == [
        ("Ann", None),
        ("Bot 2 (expert)", "expert"),
        ("Bob", None),
        ("Bot 4 (random)", "random"),
    ]
    session = new_session("Ann,bot:expert,Bob,bot:random", Rules(), seed=1)
    assert sorted(session.bots) == [1, 3] and session.game.record.meta["bots"][1] == "expert"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann", "2 to 7 players, not 1 (R1)"),
        ("Ann," + ",".join(["bot:easy"] * 7), "2 to 7 players, not 8 (R1)"),
        ("Ann,bot:grandmaster", "unknown bot 'grandmaster'"),
        ("Ann,,Bob", "seat 2 has no name"),
        ("Ann,bot:", "write bot:NAME"),
        ("Ann,Ann", "given twice: Ann"),
    ],
)
def test_players_errors(players, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        new_session(players, Rules(), seed=1)
    result = CliRunner().invoke(main, ["play", "--plain", "--players", players])
    assert result.exit_code == 2 and message in result.output


def test_resume_refuses_options_that_would_change_the_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(Game(["Ann", "Bob"]).to_json())
    result = CliRunner().invoke(main, ["play", "--resume", str(path), "--seed", "3"])
    assert result.exit_code == 2 and "--seed cannot change a resumed game" in result.output


# ------------------------------------------------------------------- line mode
def test_plain_mode_plays_a_whole_game_and_refuses_a_bad_command():
    played = play("--players", "Ann,bot:hard", "--seed", "5", stdin="dance\nhint\n" + CYCLE)
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "Error: 'dance' is not an action" in out and "Try again" in out
    assert "[r] roll      tile  76.8%" in out  # the hint before the first roll
    assert "Ann> " in out and "Bot 2 (hard) rolled" in out
    last = out.splitlines()[-1]
    assert last.startswith("Game over. 1. ") and "Ann" in last and "Bot 2 (hard)" in last


def test_plain_save_on_end_of_input_then_resume_to_the_end(tmp_path):
    path = tmp_path / "saved.json"
    first = play("--players", "Ann,bot:medium", "--seed", "9", "--save", str(path), stdin="r\nw\n")
    assert first.returncode == 0 and "End of input" in first.stdout
    assert f"Game saved to {path}" in first.stdout
    record = json.loads(path.read_text())
    assert record["meta"] == {"seed": 9, "bots": [None, "medium"]}
    assert record["moves"][0].startswith("dice ")
    saved = Game.from_json(path.read_text())

    resumed = [play("--resume", str(path), stdin=CYCLE) for _ in range(2)]
    assert resumed[0].returncode == 0, resumed[0].stderr
    assert resumed[0].stdout == resumed[1].stdout  # the seed and the moves decide the rest
    assert resumed[0].stdout.startswith("Turn 1 - Ann\n  Ann rolled")
    assert resumed[0].stdout.splitlines()[-1].startswith("Game over. 1. ")
    assert Game.from_json(path.read_text()).record.moves == saved.record.moves  # not re-saved


def test_plain_save_command_writes_where_asked(tmp_path):
    path = tmp_path / "here.json"
    played = play("--seed", "2", stdin=f"r\nsave {path}\nquit\n")
    assert played.returncode == 0 and f"Saved to {path}" in played.stdout
    assert Game.from_json(path.read_text()).seats == ["You", "Bot 2 (hard)", "Bot 3 (hard)"]


def test_a_corrupt_or_missing_record_is_a_clear_error(tmp_path):
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "pickomino-record", "version": 1, "seats": [')
    for path, message in ((corrupt, "not valid JSON"), (tmp_path / "none.json", "cannot read")):
        result = play("--resume", str(path))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith(f"Error: {path}:") and message in result.stderr


# ---------------------------------------------------------------- full screen
def _human_key(session: Session) -> str:
    """A key for one of the legal choices: worms first, then the highest face; stop once a
    worm is kept; the first claim."""
    keys = [key for key, _ in session.options()]
    state = session.state
    if state.phase is Phase.KEEP:
        return "w" if "w" in keys else max(keys)
    if state.phase is Phase.ROLL_OR_STOP:
        return "s" if state.has_worm() else "r"
    return keys[0]


def _text(node: DOMNode, selector: str) -> str:
    return str(node.query_one(selector, Static).content)


def _check_views(app: PickominoApp) -> None:
    """The grill and stack views show what the engine's state holds."""
    state, names = app.session.state, app.session.names
    grill = _text(app, "#grill")
    assert all(f" {tile} " in grill for tile in state.grill)
    assert not any(f" {tile} " in grill for tile in state.face_down)
    assert grill.count("▒▒") == 2 * len(state.face_down)
    rows = _text(app, "#stacks").splitlines()
    for seat, row in enumerate(rows):
        assert names[seat] in row and f"{state.worms(seat):>2} worms" in row
        assert row.rstrip().endswith(f" {state.top(seat)}" if state.stacks[seat] else "-")


def test_app_plays_a_whole_game_with_hint_and_save(tmp_path):
    save = tmp_path / "game.json"
    session = new_session("Ann,bot:hard", Rules(), seed=7)
    app = PickominoApp(session, speed=0, save_to=save)

    async def drive() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("s")  # refused by the engine: the dice must be rolled first
            assert session.game.record.moves == []
            await pilot.press("h")
            assert "[r] roll" in _text(app, "#hint")
            presses = 0
            while not isinstance(app.screen, EndScreen):
                if session.waiting_person() is None:
                    await pilot.pause()
                    continue
                _check_views(app)
                await pilot.press(_human_key(session))
                presses += 1
                if presses == 3:
                    await pilot.press("h")
                    hint = _text(app, "#hint")
                    assert "tile" in hint and "worms" in hint and "bust" in hint
                    await pilot.press("ctrl+s")
                    assert Game.from_json(save.read_text()).state == session.state
                    assert resume_session(save).bots.keys() == {1}
            _check_views(app)
            ranking = describe_ranking(session.state.ranking(), session.names)
            assert _text(app.screen, "#ranking") == ranking
            assert app.query_one("#log", RichLog).lines[-1].text.strip().startswith("Game over.")
            await pilot.press("q")
        assert session.state.is_over and app.return_code == 0

    asyncio.run(drive())


def test_app_claim_by_button_in_a_resumed_hot_seat_game(tmp_path):
    path = tmp_path / "claim.json"
    game = Game(["Ann", "Bob"])
    for move in CLAIM_MOVES:
        game.push(move)
    path.write_text(game.to_json())
    session = resume_session(path)
    app = PickominoApp(session, speed=0, save_to=path)

    async def drive() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            assert session.state.phase is Phase.CLAIM and not session.bots
            buttons = {str(b.label): b for b in app.query("#choices Button")}
            assert set(buttons) == {"[1] take 26", "[2] steal 27"}
            await pilot.click(buttons["[2] steal 27"])
            assert session.state.stacks == [[], [27]] and session.waiting_person() == "Ann"

    asyncio.run(drive())


def test_app_bots_step_on_a_timer(tmp_path):
    session = new_session("Ann,bot:easy", Rules(), seed=1)
    app = PickominoApp(session, speed=5, save_to=tmp_path / "g.json")

    async def drive() -> None:
        async with app.run_test() as pilot:
            await pilot.press("r", "1", "s")  # Ann's turn ends with a bust (no worm)
            moves = list(session.game.record.moves)
            assert session.is_bot_turn() and "is playing" in _text(app, "#status")
            await pilot.press("r")  # not Ann's turn: refused, and the bot waits for its timer
            assert session.game.record.moves == moves

    asyncio.run(drive())
