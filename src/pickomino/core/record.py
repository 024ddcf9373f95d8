"""A game is its record: rules, seats, start player and every move, in a versioned JSON form.

JSON form, version 1 (every key required unless marked optional)::

    {
      "format": "pickomino-record",
      "version": 1,
      "rules": {"flip_returned_highest": false, "exact_match_mandatory": false,
                "lower_tile": "nearest"},
      "seats": ["Ann", "Bob"],
      "start_player": 0,
      "moves": ["dice 12333WW5", "keep W", "roll", "dice 1445W", "keep 4", "stop"],
      "meta": {"any": "JSON object, optional, kept as is"}
    }

``moves`` alternates roll outcomes (``dice`` and the faces shown, in any order) and
decisions (action names, see :mod:`pickomino.core.actions`), exactly in the order they
happened. Loading a record replays every move through the engine, so a record that
breaks a rule is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pickomino.core.errors import RecordError
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

FORMAT = "pickomino-record"
VERSION = 1
DICE_PREFIX = "dice "


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
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Pickomino record: 'format' must be {FORMAT!r}")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(
                f"record version {version!r} is not supported (this program reads {VERSION})"
            )
        required = {"format", "version", "rules", "seats", "start_player", "moves"}
        missing = required - set(data)
        if missing:
            raise RecordError(f"record lacks {', '.join(sorted(missing))}")
        unknown = set(data) - required - {"meta"}
        if unknown:
            raise RecordError(f"record has unknown key(s) {', '.join(sorted(unknown))}")
        try:
            rules = Rules.from_dict(data["rules"])
        except (TypeError, ValueError) as error:
            raise RecordError(f"bad rules: {error}") from None
        seats = data["seats"]
        if (
            not isinstance(seats, list)
            or not all(isinstance(name, str) and name.strip() for name in seats)
            or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS
        ):
            raise RecordError(
                f"'seats' must list {MIN_PLAYERS} to {MAX_PLAYERS} non-empty player names (R1)"
            )
        start = data["start_player"]
        if type(start) is not int or not 0 <= start < len(seats):
            raise RecordError(f"'start_player' must be a seat number from 0 to {len(seats) - 1}")
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("'moves' must be a list of strings")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a JSON object")
        return cls(seats=list(seats), rules=rules, start_player=start, moves=list(moves), meta=meta)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RecordError(f"the record is not valid JSON: {error}") from None
        return cls.from_dict(data)
