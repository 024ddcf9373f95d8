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

The games share ``BUCKETS`` lock keys (``LOCK_SPACE``, a hash of the game's id): a process
locks a key once, while it drives any game of that key, and the games of one key have one
driver, which is harmless. PostgreSQL keeps every lock (these, and every transaction's) in one
table for the whole server, of about ``max_locks_per_transaction`` × ``max_connections``
entries: a lock per game filled a default server's at 12,784 unfinished games, after which
every transaction (every move) failed with "out of shared memory". Resting games (nothing can
happen in them until somebody comes: :meth:`pickomino.web.game.rooms.Rooms.unload_dormant`)
are driven by nobody: the sweeps pass them by until their people connect again (then they
rest no more), so their keys are free for the games being played.
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
#: Games taken over read and set going at once (their reads overlap the database's waits).
DRIVING_AT_ONCE = 8
#: Seconds without an answer after which PostgreSQL drops a silent holder (and its leases).
KEEPALIVE = 5
#: Seconds a new game's lease waits for the sweep under way (a reconnect may take longer: the
#: game is then taken by a sweep, and its creation is not held up).
TAKE_WAIT = 10.0
#: How many lease keys the games share (see above): a third of a default server's locks at
#: most, and enough that the games being played spread over the processes (a new game is
#: driven by the process that made it unless another drives a game of its key).
BUCKETS = 4096
#: A game's lease key (its second half), in SQL, from the game's id given as ``{}``.
KEY = "(hashtext({}) & " + str(BUCKETS - 1) + ")"
#: The start of every lease session's ``application_name`` (then the process id).
APPLICATION = "pickomino-lease-"
#: The unfinished games that need a driver and are not driven here (those not resting: see
#: :data:`AWAKE`), of the keys this session holds or could lock now: their ids and keys; and
#: (id ``NULL``) the keys nobody held that it left to the others this time.
#:
#: A key nobody holds is taken at once only if it is this session's share (the others are
#: tried and let go, to know they were free): the lease sessions on the database, in the
#: order of their server process ids, share the keys by their remainder (a process killed
#: leaves its games to all the others, not all to whichever sweeps first; a process started
#: again gets its share of the keys freed from then on). A key left, still free at the next
#: sweep (``left``: its sharer is slow, or gone), is taken by any session then; so is at once
#: the key of a game whose people are connected here (``here``: woken by :data:`AWAKE`).
ORPHANS = """
WITH candidates AS MATERIALIZED (
    SELECT id, KEY AS key FROM games
    WHERE status = ANY(%(unfinished)s) AND NOT resting AND NOT id = ANY(%(held)s)
), sessions AS MATERIALIZED (
    SELECT greatest(count(*), 1) AS sharers, count(*) FILTER (WHERE pid < pg_backend_pid()) AS me
    FROM pg_stat_activity
    WHERE datname = current_database() AND starts_with(application_name, %(application)s)
), others AS MATERIALIZED (
    SELECT DISTINCT key, key %% sharers = me OR key = ANY(%(left)s) OR key IN (
        SELECT key FROM candidates WHERE id = ANY(%(here)s)
    ) AS taken
    FROM candidates, sessions WHERE NOT key = ANY(%(mine)s)
), won AS MATERIALIZED (
    SELECT key FROM others WHERE CASE WHEN taken THEN pg_try_advisory_lock(%(space)s, key) END
), left_free AS MATERIALIZED (
    SELECT key FROM others WHERE CASE WHEN taken THEN false
    WHEN pg_try_advisory_lock(%(space)s, key) THEN pg_advisory_unlock(%(space)s, key) END
)
SELECT id, key FROM candidates WHERE key = ANY(%(mine)s) OR key IN (SELECT key FROM won)
UNION ALL SELECT NULL, key FROM left_free
""".replace("KEY", KEY.format("id"))
#: Resting games whose people are connected to this process (another let the game rest as
#: they came back here) rest no more: the process holding their key (this one or another) then
#: takes them, as any game not resting (a review: taken only by this process, such a game
#: whose key another held stayed undriven).
AWAKE = "UPDATE games SET resting = false WHERE resting AND id = ANY(%(here)s)"
#: One game's key, and whether this session holds it (had it, or could lock it now).
ONE = f"""
SELECT key, key = ANY(%(mine)s) OR pg_try_advisory_lock(%(space)s, key)
FROM (SELECT {KEY.format("%(id)s")} AS key) AS game
"""


class LeaseHolder(Protocol):
    """What the leases drive (:class:`pickomino.web.cluster.bridge.Cluster`)."""

    async def drive(self, game_id: str) -> bool:
        """Catch the game up and play its bots from now on; whether it could."""

    def still_driving(self, game_id: str) -> bool:
        """Whether the game still needs this process (``False``: over, gone, resting)."""

    def held_here(self) -> list[str]:
        """The games whose people are connected to this process."""

    def stop_driving(self, game_ids: list[str]) -> None: ...


class Leases:
    """This process's leases, and what it drives with them (``rooms``)."""

    def __init__(self, url: str, rooms: LeaseHolder, every: float = 1.0) -> None:
        self.url, self.rooms, self.every = url, rooms, every
        self.held: set[str] = set()
        #: The keys this session has locked (once each), with the games of each driven here:
        #: a key is unlocked when its last game is given back.
        self.keys: dict[int, set[str]] = {}
        self._key_of: dict[str, int] = {}
        self.unusable: set[str] = set()  #: games that could not be driven: not taken again
        #: The keys the last sweep left to the other sessions (see :data:`ORPHANS`).
        self.left: list[int] = []
        self._connection: psycopg.AsyncConnection | None = None
        self._task: asyncio.Task[None] | None = None
        #: One change of the keys at a time (a sweep, a take, a new connection).
        self._changing = asyncio.Lock()

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
            connect_timeout=KEEPALIVE,  # a database gone silent: the next sweep tries again
            application_name=f"{APPLICATION}{os.getpid()}",  # who holds what, in pg_locks
            keepalives=1,  # our side: notice a database gone silent
            keepalives_idle=KEEPALIVE,
            keepalives_interval=1,
            keepalives_count=3,
            # the database's side: drop the session (and its leases) of a host gone silent
            options=f"-c tcp_keepalives_idle={KEEPALIVE} -c tcp_keepalives_interval=1 "
            "-c tcp_keepalives_count=3",
        )

    async def take(self, game_id: str) -> bool:
        """Try to lease one game now (a new game, or a resting one its people came back to,
        is driven by the process they are on, unless another drives a game of its key);
        whether this process holds it."""
        if game_id in self.held:
            return True
        try:  # a sweep's turn is short; a reconnect's may not be: then the sweeps take it
            async with asyncio.timeout(TAKE_WAIT):
                await self._changing.acquire()
        except TimeoutError:
            return False
        try:
            connection = self._live()
            params = {"id": game_id, "mine": list(self.keys), "space": LOCK_SPACE}
            row = await (await connection.execute(ONE, params)).fetchone()
            if row is None or not row[1] or game_id in self.held:
                return game_id in self.held
            self._hold([(game_id, row[0])])
        except psycopg.Error:
            return False  # the sweep will notice the connection and start again
        finally:
            self._changing.release()
        await self._drive([game_id])
        return True

    def _live(self) -> psycopg.AsyncConnection:
        if self._connection is None or self._connection.closed:
            raise psycopg.OperationalError("no lease connection")
        return self._connection

    async def _run(self) -> None:
        while True:
            try:
                await self._sweep()
            except (psycopg.Error, OSError):
                log.exception("lost the connection holding the leases; taking them again")
                async with self._changing:
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
        """Give back the leases of games that ended or rest; take those nobody holds."""
        async with self._changing:
            connection = self._live()
            done = [game_id for game_id in self.held if not self.rooms.still_driving(game_id)]
            await self._give_back(connection, done)
            here = self.rooms.held_here()
            if here:  # no statement a second for nothing
                await connection.execute(AWAKE, {"here": here})
            params = {
                "unfinished": list(UNFINISHED),
                "held": [*self.held, *self.unusable],
                "mine": list(self.keys),
                "space": LOCK_SPACE,
                "application": APPLICATION,
                "left": self.left,
                "here": here,
            }
            rows = await (await connection.execute(ORPHANS, params)).fetchall()
            self.left = [key for game_id, key in rows if game_id is None]
            taken = self._hold([(game_id, key) for game_id, key in rows if game_id is not None])
        if taken:
            log.info("took the lease of %d game(s)", len(taken))
            await self._drive(taken)

    def _hold(self, games: Iterable[tuple[str, int]]) -> list[str]:
        """Hold these games, their keys locked by this session; the ids."""
        for game_id, key in games:
            self.keys.setdefault(key, set()).add(game_id)
            self._key_of[game_id] = key
            self.held.add(game_id)
        return [game_id for game_id, _ in games]

    async def _drive(self, game_ids: list[str]) -> None:
        """Drive the games taken, :data:`DRIVING_AT_ONCE` at a time (each is read from the
        store in a worker thread: one after another, an audit's 300 games of a process
        killed waited up to 16 s for their first move on the survivor)."""
        at_once = asyncio.Semaphore(DRIVING_AT_ONCE)

        async def drive(game_id: str) -> None:
            async with at_once:
                try:
                    driving = await self.rooms.drive(game_id)
                except Exception:
                    log.exception("cannot drive game %s", game_id)
                    driving = False
            if not driving:  # gone, damaged: the next sweep gives the lease back
                self.unusable.add(game_id)
                self.rooms.stop_driving([game_id])

        await asyncio.gather(*(drive(game_id) for game_id in game_ids))

    async def _give_back(self, connection: psycopg.AsyncConnection, game_ids: list[str]) -> None:
        """No longer hold these games; unlock the keys left with none."""
        emptied = []
        for game_id in game_ids:
            self.held.discard(game_id)
            key = self._key_of.pop(game_id)
            self.keys[key].discard(game_id)
            if not self.keys[key]:
                del self.keys[key]
                emptied.append(key)
        for key in emptied:
            await connection.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, key))

    def _lose(self, game_ids: list[str]) -> None:
        self.held.difference_update(game_ids)
        self.keys.clear()  # the session, and every lock of it, is gone
        self._key_of.clear()
        self.rooms.stop_driving(game_ids)
