"""Line mode: the game over standard input and output, for scripts, pipes and screen readers.

Before each decision of a person the table is printed (``render_state``), then one command
is read per line. A command the game cannot take prints an error and is asked again; the
end of input (or ctrl+c) quits cleanly. Bots play at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from pickomino.core.render import render_state
from pickomino.tui.session import Session

HELP = (
    "Commands: 1-5 or w (keep W) to keep a face, r (roll), s (stop), "
    "take N / steal N or the number of a listed claim, hint, save [PATH], quit"
)


def run_plain(session: Session, save_to: Path, stdin: TextIO, stdout: TextIO) -> None:
    """Play until the game ends, ``quit`` or the end of input; ``save`` writes to ``save_to``
    unless given a path."""

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=stdout, flush=True)

    say(*session.opening())
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
            except ValueError as error:
                say(f"Error: {error}", "Try again (or type help).")
    say(render_state(session.state, session.names, ranking=False))  # the log just said it
