"""Which process drives a game's bots: the one holding the game's lease, a session-level
PostgreSQL advisory lock on a connection of its own.

Why an advisory lock and not a table of leases renewed by heartbeats: PostgreSQL keeps the
lock exactly as long as the holder's session lives, so there is nothing to write while all
is well, no expiry to tune against clock skew, and a process that dies (even ``kill -9``)
loses its leases the moment the kernel closes its socket. A host that vanishes without
closing anything is noticed by the server's TCP keepalives, set short on this connection
(about ``KEEPALIVE`` seconds). Each process sweeps every ``every`` seconds for games with
bots whose lock nobody holds and takes them; a game taken over catches up from the database
first. Were two processes ever to play the same turn (a lease lost while a step was being
thought out), the unique move number stores one and refuses the other as stale.

The lock's key is (``LOCK_SPACE``, ``hashtext(game id)`` modulo ``BUCKETS``): the games of
one bucket share a driver, which is harmless, and the locks are bounded whatever the number
of games (see :data:`BUCKETS`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterable
from typing import Protocol

import psycopg

from pickomino.web.db.store import UNFINISHED

log = logging.getLogger("pickomino.web")

#: The first half of every lease's advisory-lock key: pickomino's games.
LOCK_SPACE = 0x5049
#: Seconds without an answer after which PostgreSQL drops a silent holder (and its leases).
KEEPALIVE = 5
#: How many lease keys the games share. PostgreSQL keeps every lock (these, and every
#: transaction's) in one table for the whole server, of about ``max_locks_per_transaction`` ×
#: ``max_connections`` entries: a lock per game filled it at 12,784 unfinished games on a
#: default server, and from then on every transaction (every move) failed with "out of shared
#: memory". A thousand keys leave it room, and still spread the games over the processes.
BUCKETS = 1024
#: A game's lease key (its second half), in SQL, from the game's id given as ``{}``.
KEY = "(hashtext({}) & " + str(BUCKETS - 1) + ")"
#: The games that need a driver (every unfinished one: its bots, its clock, a bot for a person
#: who is away), not leased by this process,
#: whose lock is free: the lock is tried on every row the inner query keeps, and all won are
#: returned (MATERIALIZED: the planner may not move the lock into the inner filter).
TAKE_ORPHANS = """
WITH candidates AS MATERIALIZED (
    SELECT games.id FROM games
    WHERE games.status = ANY(%(unfinished)s) AND NOT games.id = ANY(%(held)s)
)
SELECT id FROM candidates WHERE pg_try_advisory_lock(%(space)s, KEY)
""".replace("KEY", KEY.format("id"))


class LeaseHolder(Protocol):
    """What the leases drive (:class:`pickomino.web.cluster.bridge.Cluster`)."""

    async def drive(self, game_id: str) -> bool:
        """Catch the game up and play its bots from now on; whether it could."""

    def still_driving(self, game_id: str) -> bool:
        """Whether the game still needs this process (``False``: over, gone)."""

    def stop_driving(self, game_ids: list[str]) -> None: ...


class Leases:
    """This process's leases, and what it drives with them (``rooms``)."""

    def __init__(self, url: str, rooms: LeaseHolder, every: float = 1.0) -> None:
        self.url, self.rooms, self.every = url, rooms, every
        self.held: set[str] = set()
        self.unusable: set[str] = set()  #: games that could not be driven: not taken again
        self._connection: psycopg.AsyncConnection | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._connection = await self._connect()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._connection is not None:
            await self._connection.close()  # every lease goes with the session

    async def _connect(self) -> psycopg.AsyncConnection:
        return await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=True,
            application_name=f"pickomino-lease-{os.getpid()}",  # who holds what, in pg_locks
            keepalives=1,  # our side: notice a database gone silent
            keepalives_idle=KEEPALIVE,
            keepalives_interval=1,
            keepalives_count=3,
            # the database's side: drop the session (and its leases) of a host gone silent
            options=f"-c tcp_keepalives_idle={KEEPALIVE} -c tcp_keepalives_interval=1 "
            "-c tcp_keepalives_count=3",
        )

    async def take(self, game_id: str) -> bool:
        """Try to lease one game now (a new game is driven by the process that made it);
        whether this process holds it."""
        if game_id in self.held:
            return True
        if self._connection is None or self._connection.closed:
            return False
        try:
            row = await (
                await self._connection.execute(
                    f"SELECT pg_try_advisory_lock(%s, {KEY.format('%s')})", (LOCK_SPACE, game_id)
                )
            ).fetchone()
        except psycopg.Error:
            return False  # the sweep will notice the connection and start again
        if row is None or not row[0]:
            return False
        await self._taken([game_id])
        return True

    async def _run(self) -> None:
        while True:
            try:
                await self._sweep()
            except (psycopg.Error, OSError):
                log.exception("lost the connection holding the leases; taking them again")
                self._lose(list(self.held))
                await self._reconnect()
            await asyncio.sleep(self.every)

    async def _reconnect(self) -> None:
        if self._connection is not None:
            await self._connection.close()
        try:
            self._connection = await self._connect()
        except (psycopg.Error, OSError):
            log.exception("cannot reach the database for the leases")

    async def _sweep(self) -> None:
        """Give back the leases of games that ended; take those nobody holds."""
        connection = self._connection
        if connection is None or connection.closed:
            raise psycopg.OperationalError("no lease connection")
        done = [game_id for game_id in self.held if not self.rooms.still_driving(game_id)]
        for game_id in done:
            await self._unlock(game_id)
            self.held.discard(game_id)
        skip = [*self.held, *self.unusable]
        params = {"unfinished": list(UNFINISHED), "held": skip, "space": LOCK_SPACE}
        rows = await (await connection.execute(TAKE_ORPHANS, params)).fetchall()
        taken = [row[0] for row in rows]
        if taken:
            log.info("took the lease of %d game(s)", len(taken))
            await self._taken(taken)

    async def _taken(self, game_ids: Iterable[str]) -> None:
        for game_id in game_ids:
            if game_id in self.held:  # taken twice at once (a sweep and a new game)
                await self._unlock(game_id)  # session locks count: keep one
                continue
            self.held.add(game_id)
            try:
                driving = await self.rooms.drive(game_id)
            except Exception:
                log.exception("cannot drive game %s", game_id)
                driving = False
            if not driving:  # gone, damaged: the next sweep gives the lease back
                self.unusable.add(game_id)
                self.rooms.stop_driving([game_id])

    async def _unlock(self, game_id: str) -> None:
        assert self._connection is not None
        await self._connection.execute(
            f"SELECT pg_advisory_unlock(%s, {KEY.format('%s')})", (LOCK_SPACE, game_id)
        )

    def _lose(self, game_ids: list[str]) -> None:
        self.held.difference_update(game_ids)
        self.rooms.stop_driving(game_ids)
