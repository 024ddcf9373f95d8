"""A game is its record: rules, seats, start player and every move, in a versioned JSON form.

JSON form, version 1 (every key required unless marked optional)::

    {
      "format": "pickomino-record",
      "version": 1,
      "rules": {"flip_returned_highest": false, "exact_match_mandatory": false,
                "lower_tile": "nearest"},
      "seats": ["Ann", "Bob"],
      "start_player": 0,
      "moves": ["dice 12333WW5", "keep W", "roll", "dice 144555", "keep 5", "stop"],
      "meta": {"any": "JSON object, optional, kept as is"}
    }

``moves`` alternates roll outcomes (``dice`` and the faces shown, in any order) and
decisions (action names, see :mod:`pickomino.core.actions`), exactly in the order they
happened. Loading a record replays every move through the engine, so a record that
breaks a rule is refused.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pickomino.core.errors import BadInput, RecordError
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

FORMAT = "pickomino-record"
#: The score keeper's files (:mod:`pickomino.table.sheet`), told apart from records: the two
#: are easily mixed up, and a sheet is analysed, not replayed.
SHEET_FORMAT = "pickomino-sheet"
VERSION = 1
DICE_PREFIX = "dice "


#: The longest name a seat may have: the web's forms take 24 characters; a record made to
#: hold one of megabytes (an audit) cost gigabytes as the log said it at every turn.
MOST_NAME = 100


def name_problem(name: str, seat: int, in_terminal: bool = False) -> BadInput | None:
    """What is wrong with player ``seat``'s ``name``, or ``None``: ``name_not_text``, a lone
    surrogate (bytes a terminal could not read, kept as such by Python; JSON's
    ``"\\ud800"``), which no file or page can hold; ``name_too_long``; and ``in_terminal``
    (a name typed on the command line, or a file's shown in a terminal) ``name_control``, a
    control character (a line break, an escape sequence the terminal would obey: a record's
    name could retitle or clear the screen that shows it). A stored game keeps such a name:
    the web app takes none, but a game of an older version may hold one, and still loads."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return BadInput("name_not_text", seat=seat)
    if len(name) > MOST_NAME:
        return BadInput("name_too_long", seat=seat, most=MOST_NAME)
    if in_terminal and any(unicodedata.category(char) == "Cc" for char in name):
        return BadInput("name_control", seat=seat)
    return None


def check_names_for_terminal(names: list[str]) -> None:
    """Refuses (:class:`RecordError`) a file's names that a terminal showing them would obey
    or choke on (see :func:`name_problem`)."""
    for number, name in enumerate(names, start=1):
        if problem := name_problem(name, number, in_terminal=True):
            raise RecordError(problem.code, **problem.params)


@dataclass
class GameRecord:
    """Everything needed to reproduce a game exactly."""

    seats: list[str]
    rules: Rules = field(default_factory=Rules)
    start_player: int = 0
    moves: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "start_player": self.start_player,
            "moves": list(self.moves),
        }
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Check the shape of a record (not yet its moves; see ``Game.from_record``)."""
        if not isinstance(data, dict):
            raise RecordError("record_not_object")
        if data.get("format") != FORMAT:
            if isinstance(data, dict) and data.get("format") == SHEET_FORMAT:
                raise RecordError("record_is_sheet")
            raise RecordError("record_format", format=FORMAT)
        version = data.get("version")
        if version != VERSION:
            raise RecordError("record_version", given=json.dumps(version)[:20], version=VERSION)
        required = {"format", "version", "rules", "seats", "start_player", "moves"}
        missing = required - set(data)
        if missing:
            raise RecordError("record_missing", keys=sorted(missing))
        unknown = set(data) - required - {"meta"}
        if unknown:
            raise RecordError("record_unknown", keys=sorted(map(str, unknown))[:10])
        try:
            rules = Rules.from_dict(data["rules"])
        except BadInput as error:
            raise RecordError("record_rules", why=error) from None
        except TypeError:
            raise RecordError("record_rules", why=BadInput("rules_not_object")) from None
        seats = data["seats"]
        if (
            not isinstance(seats, list)
            or not all(isinstance(name, str) and name.strip() for name in seats)
            or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS
        ):
            raise RecordError("record_seats", "R1", low=MIN_PLAYERS, high=MAX_PLAYERS)
        for number, name in enumerate(seats, start=1):
            if problem := name_problem(name, number):
                raise RecordError(problem.code, **problem.params)
        start = data["start_player"]
        if type(start) is not int or not 0 <= start < len(seats):
            raise RecordError("record_start", high=len(seats) - 1)
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("record_moves")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record_meta")
        return cls(seats=list(seats), rules=rules, start_player=start, moves=list(moves), meta=meta)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep or long a number
            raise RecordError("record_not_json") from None
        return cls.from_dict(data)
