"""The score sheet of a game played with the real box at a table.

Each turn is entered as its result only: ``take N`` (a tile from the grill), ``steal N``
(an opponent's top tile) or ``bust``. The engine applies it (a bust returns the top tile
and turns the highest grill tile face down, R15–R17), refuses what the rules cannot give,
and ends the game when the grill has no face-up tile. Entries can be undone and redone
any number of times.

>>> sheet = ScoreSheet(["Ann", "Bob"])
>>> sheet.enter("take 25"); sheet.enter("steal 25"); sheet.enter("bust")
>>> sheet.state.stacks, sheet.state.face_down
([[], [25]], ())
>>> sheet.enter("steal 26")
Traceback (most recent call last):
...
pickomino.core.errors.IllegalAction: R14: 26 is not on top of another player's stack (tops: none)
>>> sheet.undo(); sheet.undo(); sheet.redo(); sheet.state.stacks
[[], [25]]
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from pickomino.core import BadInput, GameState, IllegalAction, PickominoError, RecordError, Rules
from pickomino.core.events import Event, log_entries
from pickomino.core.record import SHEET_FORMAT, name_problem
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS

FORMAT = SHEET_FORMAT
VERSION = 1
BUST = "bust"


#: The most turns a sheet takes: real games take tens, the longest a few hundred; a sheet made
#: to grow for ever (a tile stolen back and forth) would cost every request on it more.
MOST_ENTRIES = 1000


@dataclass
class ScoreSheet:
    """Players, rules, who started, the entries so far and the undone ones (for redo)."""

    names: list[str]
    rules: Rules = field(default_factory=Rules)
    start_player: int = 0
    entries: list[str] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)  #: most recently undone last

    def __post_init__(self) -> None:
        self.state = GameState(len(self.names), self.rules, self.start_player)
        self.turns: list[tuple[int, list[Event]]] = []  #: (seat, events) per entry
        for entry in self.entries:
            self._apply(entry)

    def revision(self) -> str:
        """What the sheet is now, in 16 hex digits: its entries and the undone ones. A page
        sends the one it shows with a change, so a page out of date is refused even when the
        sheet has as many entries as it shows (another phone undid one and entered another)."""
        sheet = json.dumps([self.entries, self.undone]).encode()
        return hashlib.blake2b(sheet, digest_size=8).hexdigest()

    # ------------------------------------------------------------------ entries
    def options(self) -> list[dict[str, object]]:
        """Every result the current player's turn can have had, as data for buttons:
        ``{"entry": "steal 27", "kind": "steal", "tile": 27, "victim": 1}`` (the face
        words them)."""
        if self.state.is_over:
            return []
        victims = {
            stack[-1]: seat
            for seat, stack in enumerate(self.state.stacks)
            if stack and seat != self.state.current
        }
        options: list[dict[str, object]] = []
        for action in self.state.reportable():
            option: dict[str, object] = {
                "entry": action.name,
                "kind": action.kind,
                "tile": action.tile,
            }
            if action.kind == "steal":
                option["victim"] = victims[action.tile]
            options.append(option)
        options.append({"entry": BUST, "kind": BUST, "tile": None})
        return options

    def enter(self, entry: str) -> None:
        """Apply one turn's result; an impossible one raises :class:`IllegalAction` saying
        why, and nothing changes. A new entry forgets what was undone."""
        if len(self.entries) >= MOST_ENTRIES:
            raise IllegalAction(None, "sheet_full", most=MOST_ENTRIES)
        self._apply(entry)
        self.entries.append(entry)
        self.undone.clear()

    def _apply(self, entry: str) -> None:
        words = " ".join(entry.lower().split())
        if self.state.is_over:
            raise IllegalAction("R18", "sheet_over")
        seat = self.state.current
        try:
            events = self.state.report_turn(None if words == BUST else words)
        except BadInput:  # not an action name at all
            raise IllegalAction("R11", "not_a_result", action=entry[:20]) from None
        self.turns.append((seat, events))

    def undo(self) -> None:
        if not self.entries:
            raise IllegalAction(None, "nothing_to_undo")
        self.undone.append(self.entries.pop())
        self._replay()

    def redo(self) -> None:
        if not self.undone:
            raise IllegalAction(None, "nothing_to_redo")
        self._apply(self.undone[-1])
        self.entries.append(self.undone.pop())

    def _replay(self) -> None:
        replayed = ScoreSheet(self.names, self.rules, self.start_player, self.entries)
        self.state, self.turns = replayed.state, replayed.turns

    # -------------------------------------------------------------------- views
    def history(self) -> list[tuple[int, int, str, list[Event]]]:
        """``(turn, seat, entry, events)`` per entry, as a game's history is."""
        numbered = enumerate(zip(self.turns, self.entries, strict=True), start=1)
        return [(number, seat, entry, events) for number, ((seat, events), entry) in numbered]

    def log_entries(self) -> list[dict[str, object]]:
        """The game as data, for a face to word (see :func:`pickomino.core.log_entries`)."""
        return log_entries(self.history())

    # --------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "names": list(self.names),
            "rules": self.rules.to_dict(),
            "start_player": self.start_player,
            "entries": list(self.entries),
            "undone": list(self.undone),
        }

    @classmethod
    def from_dict(cls, data: Any) -> ScoreSheet:
        """A stored sheet; a damaged one raises :class:`RecordError` saying what is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("record_format", format=FORMAT)
        if data.get("version") != VERSION:
            raise RecordError(
                "record_version", given=json.dumps(data.get("version"))[:20], version=VERSION
            )
        names = data.get("names")
        if (
            not isinstance(names, list)
            or not all(isinstance(n, str) and n.strip() for n in names)
            or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS
        ):
            raise RecordError("record_seats", "R1", low=MIN_PLAYERS, high=MAX_PLAYERS)
        for number, name in enumerate(names, start=1):
            if problem := name_problem(name, number):
                raise RecordError(problem.code, **problem.params)
        lists: dict[str, list[str]] = {}
        for key in ("entries", "undone"):
            value = data.get(key, [] if key == "undone" else None)
            if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
                raise RecordError("sheet_list", field=key)
            lists[key] = list(value)
        if len(lists["entries"]) + len(lists["undone"]) > MOST_ENTRIES:
            raise RecordError("sheet_too_long", most=MOST_ENTRIES)
        start = data.get("start_player")
        if type(start) is not int or not 0 <= start < len(names):
            raise RecordError("record_start", high=len(names) - 1)
        try:
            rules = Rules.from_dict(data.get("rules"))
            if lists["undone"]:  # what can be redone must replay too, last undone first
                cls(list(names), rules, start, lists["entries"] + lists["undone"][::-1])
            return cls(list(names), rules, start, lists["entries"], lists["undone"])
        except PickominoError as error:
            raise RecordError("sheet_refused", error.rule, why=error) from None
        except TypeError:
            raise RecordError("record_rules", why=BadInput("rules_not_object")) from None
