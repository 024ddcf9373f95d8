"""The terminal game in the player's language (issue 15): the full screen in Danish through
Textual's pilot, line mode in Finnish through the command line.

What a face shows is compared with the catalogue's words (``words_in``, see conftest), never
with Danish or Finnish written here; a catalogue not translated yet is pseudo-translated, so
that English the catalogue does not give still shows and fails the test.
"""

from __future__ import annotations

import asyncio
import html
import re

import pytest
from click.testing import CliRunner
from textual.app import App
from textual.widgets import Button, RichLog, Static

from pickomino.analysis import review
from pickomino.bots import make_bot
from pickomino.cli import main
from pickomino.core import Game, GameState, PickominoError, Rules
from pickomino.i18n import catalogue
from pickomino.i18n.review import review_lines
from pickomino.i18n.text import ranking_lines, refusal, render_state, spaced_dice
from pickomino.solver.advice import best_action
from pickomino.table import Seat, SeededDice, Session, apply, next_step
from pickomino.tui.app import QUIT_KEY, EndScreen, PickominoApp
from pickomino.tui.console import Console
from pickomino.tui.setup import new_console

#: Groups of messages a player of the terminal game may see (the rest of the terminal
#: catalogue is the command line's).
TERMINAL_GROUPS = (
    "table", "status", "choice", "hint", "log", "key", "end", "save", "plain", "seat", "analysis",
)  # fmt: skip
GAME_GROUPS = (
    "worms", "dice", "action", "turn", "event", "bust", "ranking", "bot", "error", "analysis",
    "coach",
)  # fmt: skip
SCREEN_LINE = re.compile(r'<text [^>]*clip-path="url\(#[\w-]+-line-(\d+)\)"[^>]*>(.*?)</text>')


def shown_keys() -> list[str]:
    terminal = [key for key in catalogue("en", "terminal") if key.split(".")[0] in TERMINAL_GROUPS]
    game = [key for key in catalogue("en", "game") if key.split(".")[0] in GAME_GROUPS]
    return terminal + game


def english_shown(text: str, words, english_of) -> list[str]:
    """The English texts of the catalogue (that the language words otherwise) in ``text``."""
    english = english_of(shown_keys(), words)
    assert len(english) > 50  # the check has something to look for
    flat = " ".join(text.split())
    return sorted(  # whole words only: Finnish "Grilli" holds no English "Grill"
        fragment for fragment in english if re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", flat)
    )


async def until_shown(pilot, selector: str, polls: int = 500, laid_out: bool = False) -> None:
    """Wait for widgets the app lays out after a screen refresh (a busy machine refreshes late);
    ``laid_out``: until each of them has its place on the screen too (before reading regions)."""
    for _ in range(polls):
        await pilot.pause(0.01)
        shown = pilot.app.query(selector)
        if shown and (not laid_out or all(widget.region.area for widget in shown)):
            return
    raise AssertionError(f"no {selector} shown after {polls} refreshes")


def screen_text(app: App) -> str:
    """What the terminal shows now, line by line (from Textual's screenshot)."""
    rows: dict[int, list[str]] = {}
    for line, text in SCREEN_LINE.findall(app.export_screenshot()):
        rows.setdefault(int(line), []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(rows.items()))


def shown(app: App, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def button_labels(app: App, selector: str = "#choices Button") -> list[str]:
    return [str(button.label) for button in app.screen.query(selector).results(Button)]


def log_lines(app: PickominoApp) -> list[str]:
    return [line.text.rstrip() for line in app.query_one("#log", RichLog).lines]


def noting(app: App) -> list[str]:
    """The messages the app notifies from now on (its toasts)."""
    notes: list[str] = []

    def notify(message: str, **options) -> None:
        notes.append(message)
        App.notify(app, message, **options)

    app.notify = notify  # type: ignore[method-assign]
    return notes


def near_the_end(words) -> Console:
    """Ann (a person) against an easy bot, at the start of Ann's turn with two tiles left
    on the grill: the game ends within a few turns (the bot's among them)."""
    game = Game(["Ann", "Bo"])
    players, dice = [make_bot("simple"), make_bot("easy", 1)], SeededDice(3)
    state = game.state
    while len(state.grill) > 2 or state.current != 0 or not state.is_chance() or any(state.kept):
        assert not state.is_over
        apply(game, next_step(state, players, dice))
    return Console(Session(game, [Seat("Ann"), Seat("Bo", "easy")], SeededDice(1), 1), words)


def best_key(console: Console) -> str:
    """The key of the solver's choice (a game played well ends soon)."""
    if console.state.is_chance():
        return "r"
    best = best_action(console.state).name
    return next(key for key, name in console.options() if name == best)


# ---------------------------------------------------------------- full screen
def test_the_full_screen_game_in_danish(tmp_path, words_in, english_of):
    danish = words_in("da")
    console = new_console("Ann,bot:easy", Rules(), seed=1, words=danish)
    app = PickominoApp(console, speed=0, save_to=tmp_path / "g.json")
    notes = noting(app)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            eight = danish("dice", count=8)
            assert shown(app, "#status") == danish("status.roll", turn=1, name="Ann", dice=eight)
            assert button_labels(app) == [f"[r] {danish.action('roll')}"]
            await until_shown(pilot, "FooterKey")  # laid out after a refresh (a CI run failed)
            footer = [key.description for key in app.query("FooterKey")]
            assert footer == [danish("key.hint"), danish("key.save"), danish("key.quit")]
            await pilot.press("ctrl+c")  # out of habit: told how to leave, in Danish
            assert notes[-1] == danish("key.how_to_quit", shortcut=QUIT_KEY)
            assert app.query_one("#log").border_title == danish("log.title")
            assert log_lines(app) == [danish("turn.heading", turn=1, name="Ann")]

            await pilot.press("r")
            roll = spaced_dice(console.state.roll)
            assert log_lines(app)[-1] == "  " + danish("event.rolled", name="Ann", dice=roll)
            assert shown(app, "#status") == danish("status.choose", turn=1, name="Ann")
            keeps = [f"[{key}] {danish.action(name)}" for key, name in console.options()]
            await pilot.pause()
            assert button_labels(app) == keeps and len(keeps) > 1
            dice = shown(app, "#dice")
            assert danish("table.kept") in dice and danish("table.roll") in dice
            worms = danish("worms", count=0)
            assert all(worms in row for row in shown(app, "#stacks").splitlines())

            await pilot.press("s")  # no stop while a face must be kept: refused (R8)
            with_a_rule = refusal(_refused(console, "s"), danish)
            assert notes[-1] == with_a_rule and with_a_rule.endswith("(R8)")

            await pilot.press("h")
            assert app.query_one("#hint").border_title == danish("hint.title")
            rows = shown(app, "#hint").splitlines()
            for row, odds in zip(rows, console.hints.rows(console.state), strict=True):
                assert row.endswith(
                    danish("hint.row", win=danish.percent(odds.win, 1),
                           tile=danish.percent(odds.tile, 1),
                           worms=danish.signed(odds.worms), bust=danish.percent(odds.bust, 1))
                )  # fmt: skip
            hint_screen = screen_text(app)
            await pilot.press("h")

            await pilot.press(best_key(console))
            kept = console.state.kept_counts()
            assert log_lines(app)[-1].startswith("  " + danish("event.kept", name="Ann",
                dice=spaced_dice(kept), total=console.state.total))  # fmt: skip
            shown_text = "\n".join([hint_screen, screen_text(app), *notes, *log_lines(app)])
        assert english_shown(shown_text, danish, english_of) == []
        assert notes[0] == danish("save.note", path=str(tmp_path / "g.json"))

    asyncio.run(drive())


def _refused(console: Console, key: str) -> PickominoError:
    """The refusal of ``key`` now, from a copy of the game (the console's is unchanged)."""
    game = Game.from_json(console.session.game.to_json())
    copy = Console(Session(game, console.session.seats, SeededDice(0)), console.words)
    try:
        copy.decide(key)
    except PickominoError as error:
        return error
    raise AssertionError(f"{key} was not refused")


@pytest.mark.slow  # plays a whole game to the end screen
def test_the_end_screen_in_danish(tmp_path, words_in, english_of):
    danish = words_in("da")
    console = near_the_end(danish)
    app = PickominoApp(console, speed=0, save_to=tmp_path / "g.json")

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while not isinstance(app.screen, EndScreen):
                if console.waiting_name() is None:  # the bot's turn
                    await pilot.pause()
                else:  # a stop that busts is pressed twice: warned, then played
                    await pilot.press(best_key(console))
            end = app.screen
            state, names = console.state, console.names
            ranking = ranking_lines(state.ranking(), names, danish)
            assert str(end.query(Static).first().content) == danish("event.game_over")
            assert shown(app, "#ranking") == "\n".join(ranking)
            labels = [danish("end.quit"), danish("end.analysis"), danish("end.back")]
            assert button_labels(app, "#end Button") == labels
            worms = [danish("worms", count=count) for count in state.scores()]
            stacks = str(end.query(Static)[1].content).splitlines()
            assert all(w in row for w, row in zip(worms, stacks, strict=True))
            log = log_lines(app)
            assert log[-len(ranking) - 1 :] == [
                "  " + danish("event.game_over"),
                *("  " + line for line in ranking),
            ]
            screen = screen_text(app)
            await pilot.press("a")  # the analysis, in Danish
            analysis = app.screen.query_one("#analysis")
            assert analysis.border_title == danish("analysis.title")
            text = analysis.query_one(Static)
            while str(text.content) == danish("analysis.working"):  # made in a thread
                await pilot.pause(0.05)
            game_review = review(console.session.game.record)
            assert str(text.content) == "\n".join(review_lines(game_review, danish))
            screen += "\n" + str(text.content)
            await pilot.press("q")
        assert app.farewell == danish("save.done", path=str(tmp_path / "g.json"))
        assert english_shown("\n".join([screen, *log]), danish, english_of) == []

    asyncio.run(drive())


# ------------------------------------------------------------------- line mode
def test_line_mode_in_finnish(tmp_path, words_in, english_of):
    finnish = words_in("fi")
    path = tmp_path / "peli.json"
    result = CliRunner().invoke(
        main,
        ["--lang", "fi", "play", "--plain", "--players", "Ann,Bob", "--seed", "3",
         "--save", str(path)],
        input="5\nr\nquit\n",
        env={"LANGUAGE": None},  # set for click's gettext; the runner puts it back
        prog_name="pickomino",
    )  # fmt: skip
    assert result.exit_code == 0, result.output

    mirror = new_console("Ann,Bob", Rules(), seed=3, words=finnish)  # the same game
    opening = mirror.opening()

    def table() -> list[str]:
        choices = [f"{key} = {finnish.action(name)}" for key, name in mirror.options()]
        picture = render_state(mirror.state, mirror.names, finnish).splitlines()
        return [*picture, finnish("plain.choices", options=", ".join(choices))]

    refused = _refused(mirror, "5")
    assert opening == [finnish("turn.heading", turn=1, name="Ann")]
    expected = [
        *opening,
        finnish("save.note", path=str(path)),
        *table(),
        "Ann> " + refusal(refused, finnish),
        finnish("plain.again"),
    ]
    rolled = mirror.narrate(mirror.decide("r"))
    expected += ["Ann> " + rolled[0], *rolled[1:], *table()]
    command = f"pickomino play --resume {path}"
    expected.append("Ann> " + finnish("save.resume", path=str(path), command=command))
    assert result.output.splitlines() == expected
    assert refusal(refused, finnish).endswith("(R6)")
    roll = spaced_dice(mirror.state.roll)
    assert rolled[0] == "  " + finnish("event.rolled", name="Ann", dice=roll)
    assert english_shown(result.output, finnish, english_of) == []
    assert Game.from_json(path.read_text()).state == mirror.state


def test_the_table_picture_is_the_catalogue_s_in_every_language(words_in):
    """The plain table's words (grill, worms, whose turn, the roll) for a position."""
    state = GameState.from_position([[22, 25], [27]], face_down=[36], current=1)
    for code in ("de", "fr", "nl", "fi", "da"):
        words = words_in(code)
        lines = render_state(state, ["Ann", "Bob"], words).splitlines()
        assert lines[0].startswith(words("table.grill") + "  21 .. 23 24 .. 26 .. 28")
        assert lines[0].endswith(" ##")
        worms = [words("worms", count=3), words("worms", count=2)]
        assert worms[0] in lines[1] and lines[2].startswith("> Bob") and worms[1] in lines[2]
        dice = words("dice", count=8)
        assert lines[3] == words("table.turn_start", turn=1, name="Bob", dice=dice)
