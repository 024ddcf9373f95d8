"""The full-screen game (Textual): the table redrawn after every step, a key and a button for
every choice, bots stepping at a readable pace on a timer, hints, save, and an end screen.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, RichLog, Static

from pickomino.core import PickominoError
from pickomino.i18n.text import ranking_lines
from pickomino.tui.console import CLAIM_KEYS, LEAVING_SIGNALS, Caution, Console
from pickomino.tui.widgets import button_rows, dice_text, grill_text, stacks_text

#: Keys passed to the session as commands: faces to keep, claim numbers, roll and stop.
CHOICE_KEYS = "".join(dict.fromkeys(CLAIM_KEYS + "wrs"))  # 1–5 and w keep a face too
QUIT_KEY = "ctrl+q"
CAUTION_STYLE = "bold yellow"


class AnalysisScreen(Screen[None]):
    """The game's review (:meth:`Console.analysis`), made in a thread while the screen says
    so, then scrolled with the arrow and page keys; esc goes back (named in the title)."""

    BINDINGS = [Binding("escape", "dismiss", show=False), Binding("q", "app.quit", show=False)]
    DEFAULT_CSS = """
    #analysis { border: round $primary; height: 1fr; }
    """

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.game_console = console

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="analysis") as scroll:
            scroll.border_title = self.game_console.words("analysis.title")
            yield Static(self.game_console.words("analysis.working"), markup=False)

    def on_mount(self) -> None:
        self.query_one("#analysis").focus()
        self.run_worker(self._analyse, thread=True, exclusive=True)

    def _analyse(self) -> None:
        text = "\n".join(self.game_console.analysis())
        self.app.call_from_thread(self.query_one("#analysis Static", Static).update, text)


class EndScreen(ModalScreen[None]):
    """The final table and ranking, with the tie-break (R20) in words, and the way to the
    game's analysis. Its keys are named on its buttons (so the footer needs no words)."""

    BINDINGS = [
        Binding("q", "app.quit", show=False),
        Binding("a", "analysis", show=False),
        Binding("escape", "dismiss", show=False),
    ]

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    #end { width: 90%; height: auto; border: double $accent; padding: 1 2; background: $panel; }
    #end Button { margin-top: 1; }
    """

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.game_console = console

    def compose(self) -> ComposeResult:
        console = self.game_console
        state, names, words = console.state, console.names, console.words
        ranking = "\n".join(ranking_lines(state.ranking(), names, words))
        with Vertical(id="end"):
            yield Static(Text(words("event.game_over"), "bold"))
            yield Static(stacks_text(state, names, words))
            yield Static(ranking, id="ranking", markup=False)
            with Horizontal():
                yield Button(words("end.quit"), name="quit", variant="primary")
                yield Button(words("end.analysis"), name="analysis")
                yield Button(words("end.back"), name="back")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name == "quit":
            await self.app.action_quit()
        elif event.button.name == "analysis":
            self.action_analysis()
        else:
            self.dismiss()

    def action_analysis(self) -> None:
        self.app.push_screen(AnalysisScreen(self.game_console))


class PickominoApp(App[None], inherit_bindings=False):
    """One game of people and bots at one keyboard."""

    TITLE = "Pickomino"
    ENABLE_COMMAND_PALETTE = False  # its texts are English only
    # Sized for 80x24 with seven players: grill 2 rows, stacks 7, dice 3, status 1, choices
    # 1, footer 1, one blank row; the other 8 hold the log, or the hint in its place.
    CSS = """
    #grill { text-wrap: nowrap; text-overflow: clip; }
    #stacks { margin: 1 0 0 0; }
    #status { text-style: bold; }
    #choices { height: auto; }
    .choice-row { height: auto; }
    .choice-row Button { width: auto; min-width: 0; margin: 0 1 0 0; }
    #log, #hint { height: 1fr; border: round $primary; }
    #hint { display: none; overflow-y: auto; }
    """
    # Textual's own ctrl+q and ctrl+c are not inherited: its ctrl+q, bound first, would hide
    # ours (in the player's words) from the footer, and its ctrl+c speaks English.
    BINDINGS = [
        *(Binding(key, f"choose('{key}')", show=False) for key in CHOICE_KEYS),
        Binding("ctrl+c", "help_quit", show=False, system=True),
    ]

    def __init__(self, console: Console, speed: float, save_to: Path) -> None:
        super().__init__()
        # not ``self.console``: that is Textual's own (the Rich console it draws with)
        self.game_console, self.speed, self.save_to = console, speed, save_to
        words = console.words
        self.bind("h", "hint", description=words("key.hint"))
        self.bind("ctrl+s", "save", description=words("key.save"))
        self.bind(QUIT_KEY, "quit", description=words("key.quit"))  # not q: next to w (worms)
        self._bot_due = False  # a bot step is scheduled
        self.farewell = ""
        self._unsaved_at = -1  #: the moves when a quit's save failed (see action_quit)

    def compose(self) -> ComposeResult:
        yield Static(id="grill")
        yield Static(id="stacks")
        yield Static(id="dice")
        yield Static(id="status", markup=False)
        yield Vertical(id="choices")
        yield RichLog(id="log", wrap=True)
        yield Static(id="hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        words = self.game_console.words
        self.query_one("#log", RichLog).border_title = words("log.title")
        self.query_one("#hint", Static).border_title = words("hint.title")
        self._show(self.game_console.opening())
        self.notify(self.game_console.save_note(self.save_to), markup=False)
        loop = asyncio.get_running_loop()
        for number in LEAVING_SIGNALS:  # saved and left as by ctrl+q, between two messages
            loop.add_signal_handler(number, self.call_next, self.action_quit)

    def on_unmount(self) -> None:
        loop = asyncio.get_running_loop()
        for number in LEAVING_SIGNALS:
            loop.remove_signal_handler(number)

    def action_help_quit(self) -> None:
        """ctrl+c, out of habit: say how to leave (Textual's own words are English)."""
        self.notify(self.game_console.words("key.how_to_quit", shortcut=QUIT_KEY), markup=False)

    async def action_quit(self) -> None:
        """Every way out (ctrl+q, q or Quit on the end screen) saves the game first; the line
        saying where it went (``farewell``) is for the terminal once the screen is given back.
        A save that fails keeps the game on screen, saying so; quitting again (with no move
        since) tries once more and leaves, saved or not (an audit: a full disk lost it)."""
        console = self.game_console
        saved, self.farewell = console.leave(self.save_to)
        if saved or self._unsaved_at == console.moves:
            self.exit(return_code=0 if saved else 1)
            return
        self._unsaved_at = console.moves
        stay = console.words("key.save_failed_stay")
        self.notify(f"{self.farewell}\n{stay}", severity="error", timeout=30, markup=False)

    # ---------------------------------------------------------------- actions
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name:
            self.action_choose(event.button.name)

    def action_hint(self) -> None:
        """The solver's ranking in the log's place (it fits there at 80x24); h again, or the
        next move, brings the log back."""
        hint = self.query_one("#hint", Static)
        if not hint.display:
            hint.update("\n".join(self.game_console.hint()))
        self._show_hint(not hint.display)

    def _show_hint(self, shown: bool) -> None:
        self.query_one("#hint", Static).display = shown
        self.query_one("#log", RichLog).display = not shown

    def action_save(self) -> None:
        self.notify(self.game_console.save(self.save_to), markup=False)

    def action_choose(self, command: str) -> None:
        """A key or a button: the session maps it to a move, the engine accepts or refuses."""
        try:
            events = self.game_console.decide(command)
        except Caution:  # no mistake: a question, asked in the turn line and on its button
            self._redraw()
            return
        except PickominoError as error:
            self.notify(self.game_console.explain(error), severity="warning", markup=False)
            return
        self._show(self.game_console.narrate(events))

    def _bot_step(self) -> None:
        """One step of a bot's turn; at speed 0 the bots play on until a person is asked."""
        self._bot_due = False
        console = self.game_console
        lines = console.narrate(console.bot_step())
        while not self.speed and console.session.is_bot_turn():
            lines += console.narrate(console.bot_step())
        self._show(lines)

    # ------------------------------------------------------------------- view
    def _show(self, lines: list[str]) -> None:
        """Log what happened, redraw the table, then let a bot go on or show the end."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)
        self._redraw()
        if self.game_console.state.is_over:
            self.push_screen(EndScreen(self.game_console))
        elif self.game_console.session.is_bot_turn() and not self._bot_due:
            self._bot_due = True
            if self.speed:  # a timer, never a sleep: the screen stays live between steps
                self.set_timer(self.speed, self._bot_step)
            else:
                self.call_later(self._bot_step)

    def _status_text(self) -> Text:
        """The turn line, and under it the caution against the move just chosen, if any: a
        caution in a toast could go unseen (or undrawn) before the same key played it."""
        console = self.game_console
        text = Text(console.status())
        pending = console.caution()
        if pending:
            text.append("\n" + console.explain(pending[1]), CAUTION_STYLE)
        return text

    def _redraw(self) -> None:
        console = self.game_console
        state, words = console.state, console.words
        self.query_one("#grill", Static).update(grill_text(state))
        self.query_one("#stacks", Static).update(stacks_text(state, console.names, words))
        self.query_one("#dice", Static).update(dice_text(state, words))
        self.query_one("#status", Static).update(self._status_text())
        self._show_hint(False)
        choices = self.query_one("#choices", Vertical)
        choices.remove_children()
        labels = {label: name for _key, name, label in console.labelled_options()}
        choices.mount_all(
            Horizontal(
                *(Button(Content(label), name=labels[label], compact=True) for label in row),
                classes="choice-row",
            )
            for row in button_rows(list(labels), self.size.width - 2)  # room for a scrollbar
        )
