"""Answers that cost a read of the database and are the same for everyone (the lobby's lists,
the leaderboard, a player's page): read in a worker thread, one read of each at a time shared
by everyone asking meanwhile, and kept encoded while this process committed nothing and for a
second at most (another process's change shows within it).

Why: an audit's flood of the lobby's lists from one address (38 a second, a 20 ms read each on
the event loop) held everybody's moves two seconds; the leaderboard sorted every rated player
(46 ms with 50,000) on each request, and a flood of it or of player pages took the threads
the other pages wait for.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

import orjson
from fastapi import Request, Response


class SharedAnswers:
    """Encoded answers kept by key, read again when stale (see the module's docstring)."""

    #: Seconds an answer is kept at most (changes of other processes show within it).
    FRESH = 1.0
    #: Answers kept at once (a player's page each): the least recently asked go first.
    KEPT = 256

    def __init__(self, changes: Callable[[], int], limit: Callable[[Request], None]) -> None:
        """``changes()``: a count that moves when this process commits; ``limit``: the
        per-address budget of these requests (a route's dependency: :attr:`limit`)."""
        self._changes, self.limit = changes, limit
        self._kept: OrderedDict[Hashable, tuple[float, int, bytes]] = OrderedDict()
        #: The read under way for each key, and the count of commits it started after.
        self._reading: dict[Hashable, tuple[int, asyncio.Future[bytes]]] = {}

    async def answer(self, key: Hashable, read: Callable[[], object]) -> Response:
        """The JSON answer of ``read()`` (run in a worker thread if not kept)."""
        return Response(await self.encoded(key, read), media_type="application/json")

    async def encoded(self, key: Hashable, read: Callable[[], object]) -> bytes:
        changes = self._changes()
        kept = self._kept.get(key)
        if kept is not None and kept[1] == changes and time.monotonic() - kept[0] < self.FRESH:
            self._kept.move_to_end(key)
            return kept[2]
        under_way = self._reading.get(key)
        reading: asyncio.Future[bytes]
        if under_way is None or under_way[0] != changes:  # none, or begun before a commit
            reading = asyncio.ensure_future(self._read(key, read, changes))
            self._reading[key] = (changes, reading)
            reading.add_done_callback(lambda done: self._forget(key, done))
        else:
            reading = under_way[1]
        return await asyncio.shield(reading)  # one asker leaving does not stop the others

    def _forget(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        under_way = self._reading.get(key)
        if under_way is not None and under_way[1] is done:
            del self._reading[key]

    async def _read(self, key: Hashable, read: Callable[[], object], changes: int) -> bytes:
        encoded = orjson.dumps(await asyncio.to_thread(read))
        kept = self._kept.get(key)
        if kept is not None and kept[1] > changes:
            return encoded  # a read begun after a later commit was kept meanwhile
        self._kept[key] = (time.monotonic(), changes, encoded)
        self._kept.move_to_end(key)
        while len(self._kept) > self.KEPT:
            self._kept.popitem(last=False)
        return encoded
