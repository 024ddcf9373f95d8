"""Who is connected to a game, across server processes on one PostgreSQL database.

Each process knows its own sockets; the others learn of them from its announcements on
:data:`CHANNEL` (``LISTEN/NOTIFY``, beside the games' changes): the seats connected to it,
per game, sent at once when they change and again every :data:`BEAT` seconds. What another
process announced holds for :data:`EXPIRES` seconds after its last announcement, so the
people of a process that dies (even ``kill -9``) are shown offline within that time; one
that stops says so on its way out. A room sees the union of its own sockets and what the
others announce (:meth:`pickomino.web.game.room.Room.online`); the dot, the away alarm and the
votes follow from it.

Each announcement carries its process's origin (:attr:`pickomino.web.db.store.Store.origin`,
new for every app): a process ignores its own, and everything it heard lives in its
:class:`Presence`, which lives and stops with its :class:`pickomino.web.cluster.bridge.Cluster`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

import psycopg

log = logging.getLogger("pickomino.web")

#: PostgreSQL's channel of the processes' presence announcements.
CHANNEL = "pickomino_presence"
#: Seconds between two announcements of all of a process's seats.
BEAT = 2.0
#: Seconds another process's announcement holds without being repeated.
EXPIRES = 6.0
#: Bytes of one announcement at most (PostgreSQL refuses payloads of 8,000 or more).
PAYLOAD = 7000

#: The seats connected to this process, per game (games with none left out).
LocalSeats = Callable[[], dict[str, frozenset[int]]]
#: Told the games whose seats connected elsewhere changed.
OnChange = Callable[[set[str]], Awaitable[None]]


def payloads(origin: str, games: dict[str, frozenset[int]], bye: bool = False) -> list[str]:
    """Announcements of ``games``' seats (an empty set: nobody here any more), each short
    enough for a notice; ``bye``: this process leaves (all it announced ends).

    >>> payloads("p1", {"g1": frozenset({1, 0}), "g2": frozenset()})
    ['{"from": "p1", "games": {"g1": [0, 1], "g2": []}}']
    >>> many = payloads("p1", {f"game{n:05}": frozenset(range(12)) for n in range(5000)})
    >>> len(many) > 1 and all(len(payload.encode()) < 8000 for payload in many)
    True
    """
    if bye:
        return [json.dumps({"from": origin, "bye": True})]
    chunks: list[dict[str, list[int]]] = [{}]
    size = 0
    for game_id, seats in games.items():
        entry = sorted(seats)
        size += len(game_id) + 4 * len(entry) + 8
        if size > PAYLOAD - 64 and chunks[-1]:
            chunks.append({})
            size = len(game_id) + 4 * len(entry) + 8
        chunks[-1][game_id] = entry
    return [json.dumps({"from": origin, "games": chunk}) for chunk in chunks if chunk]


class Presence:
    """This process's announcements, and what the others announced (kept until it expires)."""

    def __init__(self, url: str, origin: str, local: LocalSeats, on_change: OnChange) -> None:
        self.url, self.origin, self.local, self.on_change = url, origin, local, on_change
        #: game id → origin → (seats connected there, when that expires: monotonic time)
        self._remote: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        self._changed: set[str] = set()  #: games whose seats here changed since announced
        self._wake = asyncio.Event()
        self._next_beat = 0.0  #: when to announce everything again (monotonic time)
        self._connection: psycopg.AsyncConnection | None = None
        self._sending = asyncio.Lock()  #: one connection, made by whoever sends first
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop announcing, and tell the others this process's people are gone."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(psycopg.Error, OSError, TimeoutError):  # else they expire
            await asyncio.wait_for(self._send(payloads(self.origin, {}, bye=True)), BEAT)
        await self._disconnect()
        self._remote.clear()

    def elsewhere(self, game_id: str) -> frozenset[int]:
        """The seats of a game connected to other processes now."""
        now = time.monotonic()
        entries = self._remote.get(game_id, {}).values()
        return frozenset().union(*(seats for seats, until in entries if until > now))

    def changed(self, game_id: str) -> None:
        """A seat of the game connected here or left: announce it at once."""
        self._changed.add(game_id)
        self._wake.set()

    # ------------------------------------------------------------ hearing
    async def listening(self) -> None:
        """Listening (again): what the others announced meanwhile was missed, so ask them
        to announce everything now rather than at their next beat."""
        try:
            await self._send([json.dumps({"from": self.origin, "ask": True})])
        except (psycopg.Error, OSError):
            log.exception("could not ask the other processes who is connected to them")
            await self._disconnect()

    async def heard(self, payload: str) -> None:
        """An announcement on :data:`CHANNEL` (its own and malformed ones are ignored)."""
        try:
            message = json.loads(payload)
            origin = str(message["from"])
            games = message.get("games", {})
            seen = {game_id: frozenset(int(n) for n in seats) for game_id, seats in games.items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("a presence announcement of an unknown shape")
            return
        if origin == self.origin:
            return
        if message.get("ask"):  # a process (re)started listening
            self._next_beat = 0.0
            self._wake.set()
        if message.get("bye"):  # a process stops: its people are gone
            seen = {game_id: frozenset() for game_id, by in self._remote.items() if origin in by}
        await self._heard(origin, seen)

    async def _heard(self, origin: str, seen: dict[str, frozenset[int]]) -> None:
        until, changed = time.monotonic() + EXPIRES, set()
        for game_id, seats in seen.items():
            before = self.elsewhere(game_id)
            by = self._remote.setdefault(game_id, {})
            if seats:
                by[origin] = (seats, until)
            else:
                by.pop(origin, None)
            if not by:
                del self._remote[game_id]
            if self.elsewhere(game_id) != before:
                changed.add(game_id)
        if changed:
            await self.on_change(changed)

    async def _expire(self) -> None:
        """Forget what was not announced again in time (a process gone without a word)."""
        now, changed = time.monotonic(), set()
        for game_id, by in list(self._remote.items()):
            stale = [origin for origin, (_, until) in by.items() if until <= now]
            for origin in stale:
                del by[origin]
            if stale:
                changed.add(game_id)
            if not by:
                del self._remote[game_id]
        if changed:
            await self.on_change(changed)

    # ---------------------------------------------------------- announcing
    async def _run(self) -> None:
        while True:
            wait = max(0.0, self._next_beat - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()
            local = self.local()  # a changed game left out of it: nobody here now
            games = {game_id: local.get(game_id, frozenset()) for game_id in self._changed}
            self._changed.clear()
            if time.monotonic() >= self._next_beat:  # everything, as a heartbeat
                games.update(local)
                self._next_beat = time.monotonic() + BEAT
            try:
                await self._send(payloads(self.origin, games))
            except (psycopg.Error, OSError):
                log.exception("could not announce who is connected here; trying again")
                await self._disconnect()
            try:
                await self._expire()
            except Exception:  # one game's trouble must not stop the announcements
                log.exception("could not follow who left another process")

    async def _send(self, messages: Iterable[str]) -> None:
        async with self._sending:
            for message in messages:
                if self._connection is None or self._connection.closed:
                    self._connection = await psycopg.AsyncConnection.connect(
                        self.url,
                        autocommit=True,
                        application_name="pickomino-presence",
                        connect_timeout=5,  # a stop never waits long for a database away
                    )
                await self._connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, message))

    async def _disconnect(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await self._connection.close()
        self._connection = None
