"""The log a table shows: the engine's events (:func:`pickomino.core.events.log_entries`)
with the table's own entries among them (a timeout, a seat handed to a bot or back: see
:mod:`pickomino.web.game.seating`), each after the moves that were played before it, under the
heading of the turn it happened in. Built the same way live, entry by entry, and from the
stored moves and entries after a restart, so a page gets the same log either way.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> _ = game.push("dice 1233WWW5")
>>> timeout = {"type": "timeout", "seat": 0, "turn": 1, "bot": "easy"}
>>> log = TableLog.replayed(game.history, [TableEvent(1, timeout)], game.state)
>>> [entry["type"] for entry in log.entries]
['turn', 'rolled', 'timeout']
>>> log = TableLog.replayed([], [TableEvent(0, timeout)], Game(["Ann", "Bob"]).state)
>>> log.entries[0]  # out of time before any step: the turn is headed all the same
{'type': 'turn', 'turn': 1, 'seat': 0}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pickomino.core import Event, GameState
from pickomino.core.events import log_entries
from pickomino.web.db.store import TableEvent

#: One move of a game's history: (turn, seat, move, events).
HistoryItem = tuple[int, int, str, list[Event]]


class TableLog:
    """The entries, and the turn the last heading was for (a turn is headed once, by its
    first move or by an entry of the table before it)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self._headed: int | None = None

    @classmethod
    def replayed(
        cls, history: Sequence[HistoryItem], events: Sequence[TableEvent], state: GameState
    ) -> TableLog:
        """The log of a game's ``history`` and the table's ``events``; ``state`` is the
        game's now (the turn of the entries after the last move)."""
        log, later = cls(), iter(events)
        event = next(later, None)
        for seq, move in enumerate(history):
            while event is not None and event.seq <= seq:
                log.note(event.entry, move[0], move[1])  # the turn the move was played in
                event = next(later, None)
            log.moves([move])
        while event is not None:
            log.note(event.entry, state.turn, state.current)
            event = next(later, None)
        return log

    def moves(self, history: Sequence[HistoryItem]) -> None:
        """The entries of moves just played."""
        if history:
            self.entries.extend(log_entries(history, self._headed))
            self._headed = history[-1][0]

    def note(self, entry: dict[str, Any], turn: int, seat: int) -> None:
        """A table's entry, in ``turn`` (``seat``'s), which it heads if no move did yet."""
        if turn != self._headed:
            self.entries.append({"type": "turn", "turn": turn, "seat": seat})
            self._headed = turn
        self.entries.append(entry)
