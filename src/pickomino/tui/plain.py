"""Line mode: the game over standard input and output, for scripts, pipes and screen readers.

Before each decision of a person the table is printed (``render_state``), then one command
is read per line. A command the game cannot take prints why and is asked again; the end of
input, ctrl+c, ``kill``, a closed terminal or an output that fails (a reader gone, a full
disk: said on standard error) quits cleanly. Bots play at once. At the end of
a game, ``analyse`` prints its analysis (:meth:`Console.analysis`). However the game is
left, it is saved (:meth:`Console.leave`).
Commands are the same keys in every language (``1``–``5``, ``w``, ``r``, ``s``, ``hint``,
``save``, ``help``, ``quit``); the words around them are the player's.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from pickomino.core import PickominoError
from pickomino.i18n.text import render_state
from pickomino.tui.console import LEAVING_SIGNALS, Caution, Console

#: What asks for the analysis at the end of a game (in every language, like the commands).
ANALYSE = ("analyse", "analyze", "analysis", "a")


def run_plain(console: Console, save_to: Path, stdin: TextIO, stdout: TextIO) -> int:
    """Play until the game ends, ``quit`` or the end of input, then save the game to
    ``save_to`` (where ``save`` also writes unless given a path). Returns the exit code:
    1 if the game could not be saved on leaving."""

    def say(*lines: str) -> None:
        for line in lines:
            print(line, file=stdout, flush=True)

    left = None  # how ``quit`` left, having saved already (or tried, and quit again)
    lost: OSError | None = None  # the output, gone (a reader that closed the pipe, a full disk)
    with _signals_interrupt():
        try:
            say(*console.opening(), console.save_note(save_to))
            left = _play(console, save_to, stdin, stdout, say)
            if console.state.is_over:  # the log has just said so: the table, not repeated
                say(render_state(console.state, console.names, console.words, ranking=False))
                _offer_analysis(console, stdin, stdout, say)
        except KeyboardInterrupt:  # ctrl+c, kill or a closed terminal, even during a move
            with contextlib.suppress(OSError):
                say("", console.words("plain.interrupted"))
        except OSError as error:  # the game is left, and saved, all the same
            lost = error
    if left is None:
        left = console.leave(save_to)
        if lost is None:
            try:
                say(left[1])
            except OSError as error:
                lost = error
    if lost is not None:  # said where it can still be read
        why = console.words("plain.output_lost", why=console.words.reason(lost))
        with contextlib.suppress(OSError):
            print(why, left[1], sep="\n", file=sys.stderr)
    return 0 if left[0] and lost is None else 1


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """While playing, :data:`LEAVING_SIGNALS` interrupt as ctrl+c does (so the game is saved);
    only the main thread may set handlers (a test may run this elsewhere: then as before)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {
        number: signal.signal(number, signal.default_int_handler) for number in LEAVING_SIGNALS
    }
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _offer_analysis(
    console: Console, stdin: TextIO, stdout: TextIO, say: Callable[..., None]
) -> None:
    """At the end of a game: its analysis for ``analyse`` (it takes a moment); any other
    answer, or none, leaves."""
    say(console.words("plain.analysis_offer"))
    print("> ", end="", file=stdout, flush=True)
    try:
        answer = stdin.readline()
    except KeyboardInterrupt:
        answer = ""
    if answer.strip().lower() in ANALYSE:
        say("", *console.analysis(), "")
    elif not answer:
        say("")


def _play(
    console: Console, save_to: Path, stdin: TextIO, stdout: TextIO, say: Callable[..., None]
) -> tuple[bool, str] | None:
    """The game until it ends or the input does (``None``: saving is the caller's), or
    ``quit``: then saved, and whether that went well. A save that fails keeps the player in
    the game (to ``save`` it elsewhere) until they quit again (an audit: a full disk lost
    the game at ``quit``)."""
    words = console.words
    shown = -1  # the table is printed again only once a move has changed it
    failed: tuple[bool, str] | None = None  # the save that failed at the last ``quit``,
    failed_at = -1  # and the number of moves then: a move since, and ``quit`` saves again
    while not console.state.is_over:
        if console.session.is_bot_turn():
            say(*console.narrate(console.bot_step()))
            continue
        if shown != console.moves:
            shown = console.moves
            say(render_state(console.state, console.names, words))
            choices = [f"{key} = {words.action(name)}" for key, name in console.options()]
            say(words("plain.choices", options=", ".join(choices)))
        print(f"{console.waiting_name()}> ", end="", file=stdout, flush=True)
        line = stdin.readline()  # ctrl+c here leaves as at any other moment: run_plain
        if not line:
            say("", words("plain.end_of_input"))
            return None
        verb, _, rest = line.strip().partition(" ")
        if not verb:
            continue
        if verb.lower() in ("quit", "q"):
            if failed is not None and failed_at == console.moves:  # quit again, no move since
                return failed  # unsaved, unless saved elsewhere since
            left = console.leave(save_to)
            say(left[1])
            if left[0]:
                return left
            failed, failed_at = left, console.moves
            say(words("plain.save_failed_stay"))
            continue
        if verb.lower() in ("help", "?"):
            say(words("plain.help"))
        elif verb.lower() == "hint":
            say(*console.hint())
        elif verb.lower() == "save":
            saved, line = console.try_save(Path(rest.strip()) if rest.strip() else save_to)
            say(line)
            if saved and failed is not None:  # saved elsewhere: quitting now loses nothing
                failed = (True, "")
        else:
            try:
                say(*console.narrate(console.decide(line)))
            except Caution as warning:  # no mistake: the same move again confirms
                say(console.explain(warning))
            except PickominoError as error:
                say(console.explain(error), words("plain.again"))
    return None  # the game is over
