"""Line mode: the game over standard input and output, for scripts, pipes and screen readers.

Before each decision of a person the table is printed (``render_state``), then one command
is read per line. A command the game cannot take prints an error and is asked again; the
end of input (or ctrl+c) quits cleanly. Bots play at once. However the game is left, it is
saved (``Session.leave``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from pickomino.core.render import render_state
from pickomino.tui.session import BustWarning, Session, save_note

HELP = (
    "Commands: 1-5 or w (keep W) to keep a face, r (roll), s (stop), "
    "take N / steal N or the number of a listed claim, hint, save [PATH], quit"
)


def run_plain(session: Session, save_to: Path, stdin: TextIO, stdout: TextIO) -> int:
    """Play until the game ends, ``quit`` or the end of input, then save the game to
    ``save_to`` (where ``save`` also writes unless given a path). Returns the exit code:
    1 if the game could not be saved on leaving."""

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=stdout, flush=True)

    say(*session.opening(), save_note(save_to))
    _play(session, save_to, stdin, stdout, say)
    if session.state.is_over:  # the log has just given the ranking: the table without it
        say(render_state(session.state, session.names, ranking=False))
    saved, line = session.leave(save_to)
    say(line)
    return 0 if saved else 1


def _play(
    session: Session, save_to: Path, stdin: TextIO, stdout: TextIO, say: Callable[..., None]
) -> None:
    shown = -1  # the table is printed again only once a move has changed it
    while not session.state.is_over:
        if session.is_bot_turn():
            say(*session.narrate(session.bot_step()))
            continue
        if shown != len(session.game.record.moves):
            shown = len(session.game.record.moves)
            say(render_state(session.state, session.names))
            say("Choices: " + ", ".join(f"{key} = {name}" for key, name in session.options()))
        print(f"{session.waiting_person()}> ", end="", file=stdout, flush=True)
        try:
            line = stdin.readline()
        except KeyboardInterrupt:  # ctrl+c at the prompt leaves like the end of input
            line = ""
        if not line:
            say("", "End of input: leaving the game.")
            return
        verb, _, rest = line.strip().partition(" ")
        if not verb:
            continue
        if verb.lower() in ("quit", "q"):
            return
        if verb.lower() in ("help", "?"):
            say(HELP)
        elif verb.lower() == "hint":
            say(*session.hint())
        elif verb.lower() == "save":
            try:
                say(f"Saved to {session.save(Path(rest.strip()) if rest.strip() else save_to)}")
            except OSError as error:
                say(f"Error: cannot save: {error.strerror}")
        else:
            try:
                say(*session.narrate(session.decide(line)))
            except BustWarning as warning:
                say(str(warning))
            except ValueError as error:
                say(f"Error: {error}", "Try again (or type help).")
