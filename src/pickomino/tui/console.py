"""The terminal's side of a game, shared by both modes (line mode and full screen): keys
and typed commands turned into moves, what happened turned into log lines in the player's
language, the hint, the warning before a stop that busts, the coach, the game's analysis,
and saving on the way out.

The rules stay in the engine and the turn-taking in :class:`pickomino.table.Session`: a
key is mapped to an action name, and the session plays it or says why not.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable
from pathlib import Path
from shlex import quote

from pickomino.analysis import Advice, Coach, review
from pickomino.analysis.hint import Hints
from pickomino.core import Action, Bust, Event, IllegalAction, Phase, PickominoError
from pickomino.core.actions import STOP
from pickomino.core.events import BUST_RULES, BustReason
from pickomino.files import NotAFileError
from pickomino.i18n import Words
from pickomino.i18n.review import coach_sentence, review_lines
from pickomino.i18n.text import event_lines, log_lines, refusal
from pickomino.table import Session

#: Keys that stand for a face to keep; in a tile choice the digits number the claims.
FACE_KEYS = ("1", "2", "3", "4", "5", "w")
#: The keys of the claims, in order: one key each, as the full screen takes one key press (a
#: claim is one tile: sixteen at most); typed, a claim's number is taken too.
CLAIM_KEYS = "123456789abcdefg"
KEYS = {"r": "roll", "s": "stop"}
#: Asked to end (``kill``, a shutdown) or the terminal closed: both modes save and leave,
#: as on ctrl+c; by default the process would die with the game unsaved.
LEAVING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Caution(PickominoError):
    """A move refused once, with a word of warning: the same move again plays it."""


class BustWarning(Caution):
    """A stop that would bust for certain, refused once: stopping again confirms it."""


class CoachWarning(Caution):
    """A coached person's move that gives away at least the coach's threshold of win
    chance, refused once with the coach's advice: the same move again plays it."""

    def __init__(self, advice: Advice) -> None:
        super().__init__("coach", None, **advice.to_dict())
        self.advice = advice


class Console:
    """A :class:`~pickomino.table.Session` as the terminal shows and drives it."""

    def __init__(self, session: Session, words: Words) -> None:
        self.session, self.words = session, words
        turns = session.game.turns()
        self._announced = turns[-1].number if turns else 0
        #: (moves made, action, caution) when a move was last cautioned against: the same
        #: again plays
        self._warned: tuple[int, str, Caution] | None = None
        self._coach: Coach | None = None
        self._coached: frozenset[int] = frozenset()
        self.hints = Hints()
        self._analysis: tuple[int, list[str]] | None = None  # (moves, lines), once asked

    @property
    def state(self):
        return self.session.state

    @property
    def names(self) -> list[str]:
        return self.session.names

    @property
    def moves(self) -> int:
        return len(self.session.game.record.moves)

    def waiting_name(self) -> str | None:
        seat = self.session.waiting_person()
        return None if seat is None else self.names[seat]

    # ------------------------------------------------------------------ moves
    def decide(self, command: str) -> list[Event]:
        """A key or typed command (``1``–``5``/``w``, ``r``, ``s``, a claim's key or number, or an
        action name); raises :class:`~pickomino.core.PickominoError` and changes nothing
        when it cannot be played now (:class:`BustWarning` the first time a stop busts)."""
        name = self.action_name(command)
        self._caution(name)
        return self.session.decide(name)

    def bot_step(self) -> list[Event]:
        return self.session.step()

    def action_name(self, command: str) -> str:
        words = " ".join(command.lower().split())
        if words in KEYS:
            return KEYS[words]
        if self.state.phase is Phase.CLAIM and (words.isdigit() or words in set(CLAIM_KEYS)):
            claims = self.state.legal_actions()
            number = int(words) if words.isdigit() else CLAIM_KEYS.index(words) + 1
            if not 1 <= number <= len(claims):
                raise IllegalAction("R12", "no_such_claim", number=words[:4], count=len(claims))
            return claims[number - 1].name
        if words in FACE_KEYS:
            return f"keep {words}"
        return words

    def _caution(self, name: str) -> None:
        """Refuse a move once with a word of warning: a coached person's move that gives away
        at least the coach's threshold (:class:`CoachWarning`), or any person's stop that
        busts for certain (no worm kept, R10, or a total that reaches no tile, R13;
        :class:`BustWarning`): a slip of the key should not cost a turn. The same move
        again, with no move in between, is played."""
        pending = self.caution()
        if pending and pending[0] == name:
            return
        warning: Caution | None = None
        if self._coach and self.session.waiting_person() in self._coached:
            advice = self._coach.advise(self.state, name)
            warning = CoachWarning(advice) if advice else None
        reason = self.stop_busts() if name == "stop" else None
        if warning is None and reason:
            warning = BustWarning("stop_busts", BUST_RULES[reason], reason=reason)
        if warning:
            self._warned = (self.moves, name, warning)
            raise warning

    def caution(self) -> tuple[str, Caution] | None:
        """The move last cautioned against and its caution, while no move has been made
        since (pressing it again plays it): the full screen keeps it where the player looks."""
        if self._warned is None or self._warned[0] != self.moves:
            return None
        return self._warned[1], self._warned[2]

    def start_coaching(self, seats: Iterable[int], coach: Coach) -> None:
        """Let ``coach`` look at the moves of the people in ``seats`` before they are made."""
        self._coach, self._coached = coach, frozenset(seats)

    def stop_busts(self) -> BustReason | None:
        """The bust reason stopping now would give (the engine's, tried on a copy), or None
        when stopping is no choice now or would win a tile."""
        if STOP not in self.state.legal_actions():
            return None
        events = self.state.copy().apply(STOP)
        return next((e.reason for e in events if isinstance(e, Bust)), None)

    def options(self) -> list[tuple[str, str]]:
        """``(key, action name)`` for every choice the waiting person has now."""
        actions = self.session.actions()
        if self.state.phase is Phase.CLAIM:
            return list(zip(CLAIM_KEYS, actions, strict=False))
        return [(_key(name), name) for name in actions]

    def labelled_options(self) -> list[tuple[str, str, str]]:
        """``(key, action name, "[key] words")`` for buttons and the line-mode prompt."""
        return [(key, name, f"[{key}] {self.choice_words(name)}") for key, name in self.options()]

    def choice_words(self, name: str) -> str:
        """An action in words; the move just cautioned against says what choosing it again
        does: ``"stop and bust?"``, ``"roll anyway?"``."""
        pending = self.caution()
        if pending is None or pending[0] != name:
            return self.words.action(name)
        if name == STOP.name and self.stop_busts():
            return self.words("choice.stop_and_bust")
        return self.words("choice.anyway", action=self.words.action(name))

    # ------------------------------------------------------------------ words
    def explain(self, error: PickominoError) -> str:
        """A refusal in words, with its rule: ``'the roll shows no 3 (R6)'``; the coach's
        advice in its words."""
        if isinstance(error, CoachWarning):
            return coach_sentence(error.advice, self.words)
        return refusal(error, self.words)

    def analysis(self) -> list[str]:
        """The game's review in words (made once for the moves so far: it takes a while)."""
        if self._analysis is None or self._analysis[0] != self.moves:
            lines = review_lines(review(self.session.game.record), self.words)
            self._analysis = (self.moves, lines)
        return self._analysis[1]

    def narrate(self, events: list[Event]) -> list[str]:
        """Log lines for some events, with a heading when a new turn has begun."""
        lines = [
            "  " + line for event in events for line in event_lines(event, self.names, self.words)
        ]
        state = self.state
        if not state.is_over and state.turn != self._announced:
            self._announced = state.turn
            lines.append(
                self.words("turn.heading", turn=state.turn, name=self.names[state.current])
            )
        return lines

    def opening(self) -> list[str]:
        """The log so far (a resumed game's history) and the turn being played."""
        history = log_lines(self.session.game.history, self.names, self.words)
        return [*history, *self.narrate([])]

    def hint(self) -> list[str]:
        """The waiting person's choices, best first by win chance, with the turn's odds
        (:mod:`pickomino.analysis.hint`)."""
        if self.session.waiting_person() is None:
            return [self.words("hint.none")]
        labels = {name: label for _key, name, label in self.labelled_options()}
        rows = self.hints.rows(self.state)
        width = max(len(labels.get(row.action, row.action)) for row in rows)
        w = self.words
        return [
            f"{labels.get(row.action, row.action):<{width}}  "
            + w(
                "hint.row",
                win=w.percent(row.win, 1),
                tile=w.percent(row.tile, 1),
                worms=w.signed(row.worms),
                bust=w.percent(row.bust, 1),
            )
            for row in rows
        ]

    def status(self) -> str:
        """One line: whose turn, and what the game waits for."""
        state, w = self.state, self.words
        if state.is_over:
            return w("event.game_over")
        name = self.waiting_name()
        if name is None:
            return w("status.bot", turn=state.turn, name=self.names[state.current])
        if state.is_chance():
            return w(
                "status.roll", turn=state.turn, name=name, dice=w("dice", count=state.dice_left)
            )
        return w("status.choose", turn=state.turn, name=name)

    # ------------------------------------------------------------------ files
    def _why(self, error: OSError | ValueError) -> str:
        """Why a save failed, in the player's words (a name the system cannot take is a
        ValueError)."""
        if isinstance(error, NotAFileError):
            return self.words("save.not_a_file")
        return self.words.reason(error)

    def save(self, path: Path) -> str:
        """Save now; the line saying where (or why not)."""
        return self.try_save(path)[1]

    def try_save(self, path: Path) -> tuple[bool, str]:
        """Save now: whether that went well, and the line saying where (or why not)."""
        try:
            return True, self.words("save.saved", path=str(self.session.save(path)))
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name, say
            return False, self.words("save.failed", path=str(path), why=self._why(error))

    def leave(self, path: Path) -> tuple[bool, str]:
        """Save the game on leaving (however one leaves: quit, end of input, the end of the
        game); whether that went well, and a line saying where it went or why not."""
        w = self.words
        if not self.moves:
            return True, w("save.nothing")
        try:
            self.session.save(path)
        except (OSError, ValueError) as error:
            return False, w("save.failed", path=str(path), why=self._why(error))
        if self.state.is_over:
            return True, w("save.done", path=str(path))
        command = f"pickomino play --resume {quote(str(path))}"
        return True, w("save.resume", path=str(path), command=command)

    def save_note(self, path: Path) -> str:
        """What both modes say when a game starts: where it will be saved."""
        return self.words("save.note", path=str(path))


def _key(name: str) -> str:
    """The key of a keep, roll or stop: its face, ``r`` or ``s``."""
    action = Action.parse(name)
    if action.kind == "keep":
        return FACE_KEYS[action.face]
    return name[0]
