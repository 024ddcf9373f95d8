"""Every committed change of a game reaches every server process: PostgreSQL's
``LISTEN/NOTIFY``, no broker of our own and no polling.

The process that stores a change (a move, a seat taken, a status) sends a notice inside the
same transaction (:func:`pickomino.web.db.notices.announce`), so PostgreSQL delivers it at
commit, in commit order, and never for a change rolled back. The notice carries only the
game's id and its move count: each process that holds the game reads what it lacks from the
database (:meth:`pickomino.web.game.room.Room.catch_up`) and tells its own sockets.

A notice sent while this process was not listening (its connection lost and made again) is
lost; so each time listening (re)starts, every game in memory catches up once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg

log = logging.getLogger("pickomino.web")

#: Called with each notice's payload on one channel.
OnNotice = Callable[[str], Awaitable[None]]
#: Seconds between attempts to listen again after the connection was lost (doubling).
RETRY = (0.5, 8.0)


class Listener:
    """One connection per process, listening on each of ``channels`` (the games' changes,
    :data:`pickomino.web.db.notices.CHANNEL`, and who is connected,
    :data:`pickomino.web.cluster.presence.CHANNEL`) and handing each notice to its channel's
    handler."""

    def __init__(
        self,
        url: str,
        channels: dict[str, OnNotice],
        on_listening: Callable[[], Awaitable[None]],
    ) -> None:
        self.url, self.channels, self.on_listening = url, channels, on_listening
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen from now on (a first connection that fails fails the start: the database
        is away, or the URL wrong)."""
        connection = await self._connect()
        self._task = asyncio.create_task(self._run(connection))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _connect(self) -> psycopg.AsyncConnection:
        connection = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, application_name="pickomino-listen"
        )
        for channel in self.channels:
            await connection.execute(f"LISTEN {channel}")
        return connection

    async def _run(self, connection: psycopg.AsyncConnection | None) -> None:
        wait = RETRY[0]
        while True:
            try:
                if connection is None:
                    connection = await self._connect()
                async with connection:
                    await self.on_listening()  # whatever came while nobody listened
                    wait = RETRY[0]
                    async for notify in connection.notifies():
                        await self._deliver(notify.channel, notify.payload)
            except (psycopg.Error, OSError):
                log.exception("lost the notices of other processes; listening again")
            connection = None
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY[1])

    async def _deliver(self, channel: str, payload: str) -> None:
        try:
            await self.channels[channel](payload)
        except Exception:  # one game's trouble must not deafen the process
            log.exception("could not follow a notice on %s: %s", channel, payload[:200])
