"""The terminal game and issue 17: the end screen's analysis (80x24, scrolled), the analysis
at the end of line mode, and the coach that warns a learner before a costly move."""

from __future__ import annotations

import asyncio
from functools import cache

import pytest
from click.testing import CliRunner
from test_tui_languages import screen_text
from textual.widgets import Button, Static

from pickomino.analysis import Coach, review
from pickomino.bots import make_bot
from pickomino.cli import main
from pickomino.core import Game
from pickomino.i18n import Words
from pickomino.i18n.review import coach_sentence, review_lines
from pickomino.table import Seat, SeededDice, Session, advance
from pickomino.tui.app import AnalysisScreen, EndScreen, PickominoApp
from pickomino.tui.console import BustWarning, CoachWarning, Console

ENGLISH = Words("en")
#: Ann takes the 36 and Bob busts; Ann has kept a 5 and no worm: stopping now busts and
#: gives the 36 back (16 points of win chance: a blunder).
AT_STAKE = ["dice 5555WWWW", "keep W", "roll", "dice 5555", "keep 5", "dice 11111111",
            "keep 1", "dice 12345555", "keep 5"]  # fmt: skip


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@cache
def finished_record() -> str:
    game = Game(["Ann", "Bob"])
    advance(game, [make_bot("simple"), make_bot("random", 2)], SeededDice(2))
    return game.to_json()


def console_for(moves_or_record: list[str] | str, words: Words = ENGLISH) -> Console:
    """People in both seats (Ann, Bob), at the end of these moves or of this record."""
    if isinstance(moves_or_record, str):
        game = Game.from_json(moves_or_record)
    else:
        game = Game(["Ann", "Bob"])
        for move in moves_or_record:
            game.push(move)
    seats = [Seat(name) for name in game.seats]
    return Console(Session(game, seats, SeededDice(1)), words)


# ------------------------------------------------------------------------- coach
def test_the_coach_warns_a_learner_once_and_the_same_move_again_plays_it():
    console = console_for(AT_STAKE)
    console.start_coaching([0], Coach())
    moves = list(console.session.game.record.moves)
    with pytest.raises(CoachWarning) as warned:
        console.decide("s")
    advice = warned.value.advice
    assert (advice.action, advice.best, advice.bust) == ("stop", "roll", "no_worm")
    assert advice.cost >= 0.10  # a blunder
    assert console.explain(warned.value) == coach_sentence(advice, ENGLISH)
    assert console.explain(warned.value).startswith("Coach: “stop” busts now (no worm among")
    assert console.session.game.record.moves == moves  # the coach never plays
    console.decide("s")  # asked again: played
    assert console.session.game.record.moves == [*moves, "stop"]


def test_the_coach_says_nothing_before_a_good_move_or_to_someone_not_coached():
    console = console_for(AT_STAKE)
    console.start_coaching([1], Coach())  # Bob is coached, Ann is not
    with pytest.raises(BustWarning):  # the bust warning is everyone's
        console.decide("s")
    console = console_for(AT_STAKE)
    console.start_coaching([0], Coach())
    console.decide("r")  # the best move goes through at once
    assert console.session.game.record.moves[-2] == "roll"


def test_a_move_in_between_makes_the_coach_ask_again():
    console = console_for(AT_STAKE[:-1])  # Ann to keep: 1 2 3 4 5 5 5 5
    console.start_coaching([0], Coach(threshold=0.0001))
    with pytest.raises(CoachWarning):
        console.decide("1")  # keeping the 1 gives chance away
    console.decide("5")  # another move is judged on its own (the best: played)
    with pytest.raises(CoachWarning):
        console.decide("s")


def test_the_full_screen_coach_speaks_in_the_turn_line_and_the_same_key_again_plays(tmp_path):
    """Issue 24, item 16: the coach's word stands in the turn line (a toast could go
    unseen), and the button says what the same key again does."""
    console = console_for(AT_STAKE)
    console.start_coaching([0], Coach())
    app = PickominoApp(console, speed=0, save_to=tmp_path / "g.json")
    moves = list(console.session.game.record.moves)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            await pilot.pause()  # the buttons are laid out again
            assert console.session.game.record.moves == moves
            sentence = console.explain(CoachWarning(Coach().advise(console.state, "stop")))
            assert sentence.startswith("Coach: “stop” busts now")
            assert sentence in str(app.query_one("#status", Static).content)
            on_screen = " ".join(screen_text(app).split())
            assert sentence in on_screen and "[s] stop and bust?" in on_screen
            await pilot.press("s")
            assert console.session.game.record.moves == [*moves, "stop"]

    asyncio.run(drive())


def test_a_cautioned_move_other_than_a_busting_stop_is_offered_anyway():
    console = console_for(AT_STAKE[:-1])  # Ann to keep: 1 2 3 4 5 5 5 5
    console.start_coaching([0], Coach(threshold=0.0001))
    assert ("1", "keep 1", "[1] keep 1") in console.labelled_options()
    with pytest.raises(CoachWarning):
        console.decide("1")  # keeping the 1 gives chance away
    assert ("1", "keep 1", "[1] keep 1 anyway?") in console.labelled_options()
    assert ("5", "keep 5", "[5] keep 5") in console.labelled_options()


def test_play_coaches_the_people_it_names(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(console_for(AT_STAKE).session.game.to_json())
    result = CliRunner().invoke(
        main, ["play", "--plain", "--resume", str(path), "--coach", "ann"], input="s\ns\n"
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("Coach: “stop” busts now") == 1
    assert "Ann busts at 20: no worm among the kept dice (R10)" in result.output
    refused = CliRunner().invoke(main, ["play", "--plain", "--resume", str(path), "--coach", "Cy"])
    assert refused.exit_code == 2 and "nobody called Cy plays at this table" in refused.output
    empty = CliRunner().invoke(main, ["play", "--plain", "--resume", str(path), "--coach", ""])
    assert empty.exit_code == 2 and 'nobody called "" plays' in empty.output  # an audit
    low = CliRunner().invoke(main, ["play", "--plain", "--coach-threshold", "-1"])
    assert low.exit_code == 2 and "--coach-threshold" in low.output


# ---------------------------------------------------------------------- analysis
@pytest.mark.parametrize("answer", ["analyse", "A"])
def test_line_mode_prints_the_analysis_when_asked_at_the_end(tmp_path, answer):
    path = tmp_path / "over.json"
    path.write_text(finished_record())
    result = CliRunner().invoke(
        main, ["play", "--plain", "--resume", str(path)], input=f"{answer}\n"
    )
    assert result.exit_code == 0, result.output
    game = Game.from_json(finished_record())
    analysis = review_lines(review(game.record), ENGLISH)
    lines = result.output.splitlines()
    offer = lines.index(ENGLISH("plain.analysis_offer"))
    assert lines[offer + 1 :] == ["> ", *analysis, "", f"Game saved to {path}"]


@pytest.mark.parametrize("answer", ["", "quit\n", "r\n"])
def test_line_mode_leaves_without_the_analysis_unless_asked(tmp_path, answer):
    path = tmp_path / "over.json"
    path.write_text(finished_record())
    result = CliRunner().invoke(main, ["play", "--plain", "--resume", str(path)], input=answer)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    offer = lines.index(ENGLISH("plain.analysis_offer"))
    assert ENGLISH("analysis.intro") not in lines
    assert "".join(lines[offer + 1 :]) == f"> Game saved to {path}"


def test_the_end_screen_opens_the_analysis_which_fits_80_by_24_and_scrolls(tmp_path):
    console = console_for(finished_record())
    app = PickominoApp(console, speed=0, save_to=tmp_path / "g.json")

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            labels = [str(b.label) for b in app.screen.query(Button)]
            assert labels == ["Quit (q)", "Analysis (a)", "Back to the table (esc)"]
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            scroll, text = screen.query_one("#analysis"), screen.query_one(Static)
            for _ in range(200):  # the review is made in a thread
                if str(text.content) != ENGLISH("analysis.working"):
                    break
                await pilot.pause(0.05)
            assert str(text.content) == "\n".join(console.analysis())
            assert scroll.border_title == "Analysis (esc: back)"
            assert screen.region.contains_region(scroll.region)
            assert scroll.max_scroll_y > 0 and scroll.scroll_y == 0
            await pilot.press("pagedown")
            await pilot.pause()
            assert scroll.scroll_y > 0
            await pilot.press("escape")
            assert isinstance(app.screen, EndScreen)

    asyncio.run(drive())
