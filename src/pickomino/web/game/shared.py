"""What the parts of a room (:class:`.Room`) share: who holds each seat (:class:`SeatHolder`),
and the room as each part sees it (:class:`SharedRoom`), its state and what the other parts
do for it. A part knows its room by this alone, never by the room's module or another
part's, so the parts stand side by side under the room that puts them together.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, Self

from pickomino.core import Game
from pickomino.table import Session
from pickomino.web.db.store import Store, StoredSeat
from pickomino.web.game.seating import Note, Seating
from pickomino.web.game.tablelog import TableLog

#: Sends one message (JSON text) to one client.
Send = Callable[[str], Awaitable[None]]


@dataclass
class SeatHolder:
    """Who holds one seat of a game on the server, as stored: its person (by name) or bot,
    and the secrets that open it (the table's :class:`pickomino.table.Seat` knows only who
    plays it)."""

    name: str
    bot: str | None
    token: str | None  #: the secret that opens the seat: only its person's browser has it
    claimed: bool
    open: bool = False  #: anyone may take it from the lobby (else only its invite link)
    spent: str | None = None  #: the last link's secret that gave the seat: refused as used
    transfer: str | None = None  #: a one-time secret to take the seat on another device

    @property
    def is_person(self) -> bool:
        return self.bot is None

    @classmethod
    def stored(cls, row: StoredSeat) -> SeatHolder:
        return cls(
            row.name, row.bot, row.token, row.claimed, row.open_seat, row.spent, row.transfer
        )


class SharedRoom(Protocol):
    """The room as its parts see it: the state they share (see :class:`.Room`), and each
    part's work that the others ask for, which the room hands to the part that does it."""

    id: str
    store: Store
    session: Session
    seats: list[SeatHolder]
    status: str
    seating: Seating
    seating_changes: int
    table_log: TableLog
    behind: bool
    drives_bots: bool
    away_after: float
    turn_limit: int
    bot_delay: float
    elsewhere: Callable[[], frozenset[int]]
    on_seated: Callable[[], None]

    @property
    def on_idle(self) -> Callable[[Self], None]: ...
    @property
    def on_finish(self) -> Callable[[Self], None]: ...
    @property
    def on_stopped(self) -> Callable[[Self], None]: ...
    @property
    def game(self) -> Game: ...
    @property
    def ended(self) -> bool: ...
    @property
    def seq(self) -> int: ...
    @property
    def rated(self) -> bool: ...
    def settle_status(self) -> None: ...
    def snapshot(self, log_start: int = 0) -> dict[str, object]: ...
    async def refresh(self, moves_only: bool = False) -> None: ...

    # The seat holders' (:mod:`.seat_holders`).
    def profiles(self) -> list[str | None]: ...
    def waiting(self) -> list[str]: ...
    def put(self, seat: int, new: SeatHolder) -> None: ...

    # The audience's (:mod:`.audience`).
    @property
    def connections(self) -> dict[Send, int | None]: ...
    def online(self) -> list[bool]: ...
    def present(self, online: list[bool] | None = None) -> set[int]: ...
    def demote(self, seat: int) -> None: ...
    async def broadcast(self, skip: Send | None = None) -> None: ...

    # The absence's (:mod:`.absence`).
    def note_presence(self) -> None: ...
    def absent_turn(self) -> tuple[int, int] | None: ...
    def votes_ripen(self) -> float | None: ...
    def wait_ripens(self) -> float | None: ...
    def wait_told(self, now: float) -> None: ...
    def waited_on(self, now: float) -> int | None: ...
    def votes_needed(self, present: set[int], now: float) -> list[int]: ...
    def count_votes(self) -> bool: ...

    # The alarms' (:mod:`.alarms`) and the bots' (:mod:`.bot_driver`).
    def set_alarms(self) -> None: ...
    def cancel_alarms(self) -> None: ...
    def wake_bots(self) -> None: ...

    # The commits' (:mod:`.commits`).
    async def commit(self, step: Callable[[], object], secret: str | None = None) -> None: ...
    async def until_stored(self) -> None: ...
    def store_pending(self) -> None: ...
    def change_seating(
        self,
        change: Callable[[Seating], list[Note]],
        by: int | None = None,
        secret: str | None = None,
    ) -> bool: ...
    def catch_up(self, moves_only: bool = False) -> bool: ...
    def person_decides(self, seating: Seating) -> bool: ...


class RoomPart:
    """A part of a room, which knows its room without keeping it alive (a weak reference):
    a room the server no longer holds is freed at once. A part holding its room made every
    room a cycle that only a full collection frees, which ``serve`` (its collector tuned for
    short pauses) runs seldom: an audit had ended games looked at through the API pile up to
    gigabytes."""

    def __init__(self, room: SharedRoom) -> None:
        self._room = weakref.ref(room)

    @property
    def room(self) -> SharedRoom:
        room = self._room()
        if room is None:
            raise ReferenceError("the room of this part is gone")
        return room

    @property
    def gone(self) -> bool:
        """Whether the room was dropped (work scheduled for it then has nothing to do)."""
        return self._room() is None
