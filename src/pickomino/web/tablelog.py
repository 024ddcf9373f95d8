"""The log a table shows: the engine's events (:func:`pickomino.core.events.log_entries`)
with the table's own entries among them (a timeout, a seat handed to a bot or back: see
:mod:`pickomino.web.seating`), each after the moves that were played before it. Built the
same way live, entry by entry, and from the stored moves and entries after a restart, so a
page gets the same log either way.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> _ = game.push("dice 1233WWW5")
>>> timeout = {"type": "timeout", "seat": 0, "turn": 1, "bot": "easy"}
>>> log = TableLog.replayed(game.history, [TableEvent(1, timeout)])
>>> [entry["type"] for entry in log.entries]
['turn', 'rolled', 'timeout']
>>> log = TableLog.replayed([], [TableEvent(0, timeout)])  # out of time before any step
>>> [entry["type"] for entry in log.entries]
['turn', 'timeout']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pickomino.core import Event
from pickomino.core.events import log_entries
from pickomino.web.store import TableEvent

#: One move of a game's history: (turn, seat, move, events).
HistoryItem = tuple[int, int, str, list[Event]]


class TableLog:
    """The entries, and the turn the last heading was for (a turn is headed once, by its
    first move or by a timeout before it)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self._headed: int | None = None

    @classmethod
    def replayed(cls, history: Sequence[HistoryItem], events: Sequence[TableEvent]) -> TableLog:
        log, later = cls(), iter(events)
        event = next(later, None)
        for seq, move in enumerate(history):
            while event is not None and event.seq <= seq:
                log.note(event.entry)
                event = next(later, None)
            log.moves([move])
        while event is not None:
            log.note(event.entry)
            event = next(later, None)
        return log

    def moves(self, history: Sequence[HistoryItem]) -> None:
        """The entries of moves just played."""
        if history:
            self.entries.extend(log_entries(history, self._headed))
            self._headed = history[-1][0]

    def note(self, entry: dict[str, Any]) -> None:
        """A table's entry; one that belongs to a turn (a timeout) heads it if need be."""
        turn = entry.get("turn")
        if turn is not None and turn != self._headed:
            self.entries.append({"type": "turn", "turn": turn, "seat": entry["seat"]})
            self._headed = turn
        self.entries.append(entry)
