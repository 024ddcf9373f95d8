"""The full-screen game (Textual): the table redrawn after every step, a key and a button for
every choice, bots stepping at a readable pace on a timer, hints, save, and an end screen.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, RichLog, Static

from pickomino.core.render import describe_ranking
from pickomino.tui.session import Session, save_note
from pickomino.tui.widgets import button_rows, dice_text, grill_text, stacks_text

#: Keys passed to the session as commands: faces to keep, claim numbers, roll and stop.
CHOICE_KEYS = "123456789wrs"


class EndScreen(ModalScreen[None]):
    """The final table and ranking, with the tie-break (R20) in words."""

    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("escape", "dismiss", "Back")]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    #end { width: 90%; height: auto; border: double $accent; padding: 1 2; background: $panel; }
    #end Button { margin-top: 1; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        state, names = self.session.state, self.session.names
        with Vertical(id="end"):
            yield Static(Text("Game over", "bold"))
            yield Static(stacks_text(state, names))
            yield Static(describe_ranking(state.ranking(), names), id="ranking", markup=False)
            with Horizontal():
                yield Button("Quit (q)", name="quit", variant="primary")
                yield Button("Back to the table (esc)", name="back")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name == "quit":
            await self.app.action_quit()
        else:
            self.dismiss()


class PickominoApp(App[None]):
    """One game of people and bots at one keyboard."""

    TITLE = "Pickomino"
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
    BINDINGS = [
        *(Binding(key, f"choose('{key}')", show=False) for key in CHOICE_KEYS),
        Binding("h", "hint", "Hint"),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+q", "quit", "Quit"),  # not q: it sits next to w (keep a worm)
    ]

    def __init__(self, session: Session, speed: float, save_to: Path) -> None:
        super().__init__()
        self.session, self.speed, self.save_to = session, speed, save_to
        self._bot_due = False  # a bot step is scheduled
        self.farewell = ""

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
        self.query_one("#log", RichLog).border_title = "Log"
        self.query_one("#hint", Static).border_title = "Hint (h: back to the log)"
        self._show(self.session.opening())
        self.notify(save_note(self.save_to), markup=False)

    async def action_quit(self) -> None:
        """Every way out (ctrl+q, q or Quit on the end screen) saves the game first; the line
        saying where it went (``farewell``) is for the terminal once the screen is given back."""
        saved, self.farewell = self.session.leave(self.save_to)
        self.exit(return_code=0 if saved else 1)

    # ---------------------------------------------------------------- actions
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name:
            self.action_choose(event.button.name)

    def action_hint(self) -> None:
        """The solver's ranking in the log's place (it fits there at 80x24); h again, or the
        next move, brings the log back."""
        hint = self.query_one("#hint", Static)
        if not hint.display:
            hint.update("\n".join(self.session.hint()))
        self._show_hint(not hint.display)

    def _show_hint(self, shown: bool) -> None:
        self.query_one("#hint", Static).display = shown
        self.query_one("#log", RichLog).display = not shown

    def action_save(self) -> None:
        try:
            self.notify(f"Saved to {self.session.save(self.save_to)}", markup=False)
        except OSError as error:
            self.notify(
                f"Cannot save to {self.save_to}: {error.strerror}", severity="error", markup=False
            )

    def action_choose(self, command: str) -> None:
        """A key or a button: the session maps it to a move, the engine accepts or refuses."""
        try:
            events = self.session.decide(command)
        except ValueError as error:
            self.notify(str(error), severity="warning", markup=False)
            return
        self._show(self.session.narrate(events))

    def _bot_step(self) -> None:
        """One step of a bot's turn; at speed 0 the bots play on until a person is asked."""
        self._bot_due = False
        lines = self.session.narrate(self.session.bot_step())
        while not self.speed and self.session.is_bot_turn():
            lines += self.session.narrate(self.session.bot_step())
        self._show(lines)

    # ------------------------------------------------------------------- view
    def _show(self, lines: list[str]) -> None:
        """Log what happened, redraw the table, then let a bot go on or show the end."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)
        self._redraw()
        if self.session.state.is_over:
            self.push_screen(EndScreen(self.session))
        elif self.session.is_bot_turn() and not self._bot_due:
            self._bot_due = True
            if self.speed:  # a timer, never a sleep: the screen stays live between steps
                self.set_timer(self.speed, self._bot_step)
            else:
                self.call_later(self._bot_step)

    def _redraw(self) -> None:
        session = self.session
        state = session.state
        self.query_one("#grill", Static).update(grill_text(state))
        self.query_one("#stacks", Static).update(stacks_text(state, session.names))
        self.query_one("#dice", Static).update(dice_text(state.kept, state.total, state.roll))
        self.query_one("#status", Static).update(self._status())
        self._show_hint(False)
        choices = self.query_one("#choices", Vertical)
        choices.remove_children()
        labels = {f"[{key}] {name}": name for key, name in session.options()}
        choices.mount_all(
            Horizontal(
                *(Button(Content(label), name=labels[label], compact=True) for label in row),
                classes="choice-row",
            )
            for row in button_rows(list(labels), self.size.width - 2)  # room for a scrollbar
        )

    def _status(self) -> str:
        session = self.session
        state = session.state
        if state.is_over:
            return "Game over."
        person = session.waiting_person()
        if person is None:
            return f"Turn {state.turn}: {session.names[state.current]} is playing..."
        if state.is_chance():
            return f"Turn {state.turn}: {person}, roll {state.dice_left} dice (r)."
        return f"Turn {state.turn}: {person}, your choice (h for a hint)."
