"""What happened, for faces to show: every state change returns a list of these events.
Faces put them into words (:mod:`pickomino.i18n`); :func:`event_dict` is their plain-data
form, the one that travels to browsers.

Events are plain slotted dataclasses, not frozen ones: they are created on every step of
every simulated game, and freezing costs about three times as much. Treat them as values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Literal

from pickomino.core.dice import Counts, format_dice
from pickomino.core.rules import FACE_SYMBOLS

BustReason = Literal["no_new_face", "no_worm", "too_low", "reported"]
#: The rule behind each bust reason (``reported``: a failed turn played with real dice).
BUST_RULES: dict[BustReason, str] = {
    "no_new_face": "R7",
    "no_worm": "R10",
    "too_low": "R13",
    "reported": "R15",
}


@dataclass(slots=True)
class Rolled:
    seat: int
    dice: Counts


@dataclass(slots=True)
class Kept:
    seat: int
    face: int
    count: int
    total: int


@dataclass(slots=True)
class TileTaken:
    """A tile won from the grill."""

    seat: int
    tile: int
    total: int


@dataclass(slots=True)
class TileStolen:
    """A tile won from the top of ``victim``'s stack."""

    seat: int
    tile: int
    victim: int
    total: int


@dataclass(slots=True)
class Bust:
    seat: int
    reason: BustReason
    total: int


@dataclass(slots=True)
class TileReturned:
    """After a bust, the top tile of ``seat``'s stack went back to the grill (R15)."""

    seat: int
    tile: int


@dataclass(slots=True)
class TileTurned:
    """A grill tile turned face down, out of the game for good (R16)."""

    tile: int


@dataclass(slots=True)
class Standing:
    """One line of the final ranking; ``rank`` 1 is a winner (R19, R20)."""

    seat: int
    rank: int
    worms: int
    highest_tile: int | None


@dataclass(slots=True)
class GameOver:
    ranking: tuple[Standing, ...]


Event = Rolled | Kept | TileTaken | TileStolen | Bust | TileReturned | TileTurned | GameOver

#: Each event's type as data and words know it.
EVENT_TYPES: dict[type, str] = {
    Rolled: "rolled",
    Kept: "kept",
    TileTaken: "took",
    TileStolen: "stole",
    Bust: "bust",
    TileReturned: "returned",
    TileTurned: "turned",
    GameOver: "game_over",
}

TieBreak = Literal["shared", "tile"]


def tie_break(ranking: tuple[Standing, ...]) -> TieBreak | None:
    """How the winner was decided when worms alone did not (R20): ``"tile"`` (the highest
    tile), ``"shared"`` (tied players with no tiles share the win), else ``None``."""
    winners = [s for s in ranking if s.rank == 1]
    if len(winners) > 1:
        return "shared"
    tied = [s for s in ranking if s.worms == winners[0].worms]
    return "tile" if len(tied) > 1 else None


def event_dict(event: Event) -> dict[str, object]:
    """An event as plain data: ``{"type": "kept", "seat": 0, "face": "W", …}``. Dice are
    written as in records (``"44W"``), faces by their symbol.

    >>> event_dict(Kept(seat=0, face=5, count=3, total=15))
    {'type': 'kept', 'seat': 0, 'face': 'W', 'count': 3, 'total': 15}
    """
    data: dict[str, object] = {"type": EVENT_TYPES[type(event)]}
    for field in fields(event):
        value = getattr(event, field.name)
        if field.name == "dice":
            value = format_dice(value)
        elif field.name == "face":
            value = FACE_SYMBOLS[value]
        elif field.name == "ranking":
            value = [standing_dict(standing) for standing in value]
            data["tie_break"] = tie_break(event.ranking)  # type: ignore[union-attr]
        data[field.name] = value
    return data


def standing_dict(standing: Standing) -> dict[str, object]:
    return {f.name: getattr(standing, f.name) for f in fields(standing)}


def log_entries(
    history: Iterable[tuple[int, int, object, Sequence[Event]]], last_turn: int | None = None
) -> list[dict[str, object]]:
    """A game's log as data, from its history of ``(turn, seat, move, events)``: a
    ``{"type": "turn", "turn": n, "seat": s}`` heading before each turn's events (in their
    :func:`event_dict` form). ``last_turn``: the turn already headed by earlier entries, so
    a continued log heads only new turns. What the web app sends, for the page to word.

    >>> log_entries([(1, 0, "stop", [TileTurned(36)])])
    [{'type': 'turn', 'turn': 1, 'seat': 0}, {'type': 'turned', 'tile': 36}]
    """
    entries: list[dict[str, object]] = []
    for turn, seat, _move, events in history:
        if turn != last_turn:
            entries.append({"type": "turn", "turn": turn, "seat": seat})
            last_turn = turn
        entries.extend(event_dict(event) for event in events)
    return entries
