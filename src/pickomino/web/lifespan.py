"""What the server does besides answering requests, from its start to its stop: at start
the games are resumed and the results a stop or a crash left unrecorded are recorded; while
it runs SQLite's log is folded into the database and idle games are abandoned; at stop each
part is stopped within its deadline (:mod:`pickomino.web.stopping`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from pickomino.web.api.analysis import Reviews
from pickomino.web.cluster.bridge import Cluster
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.store import Store
from pickomino.web.game.room import Room
from pickomino.web.game.rooms import Rooms
from pickomino.web.guard.connections import GUARD, ConnectionGuard
from pickomino.web.stopping import stop_within

log = logging.getLogger("pickomino.web")

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[dict[str, object]]]


def lifespan(
    store: Store,
    rooms: Rooms,
    profiles: ProfileStore,
    reviews: Reviews,
    guard: ConnectionGuard,
    abandon_after: float,
) -> Lifespan:
    """The app's lifespan; an unfinished game nobody touches for ``abandon_after`` seconds
    is abandoned (0: never). On PostgreSQL the processes share the games
    (:mod:`pickomino.web.cluster.bridge`)."""

    @asynccontextmanager
    async def running(_app: FastAPI) -> AsyncIterator[dict[str, object]]:
        tasks = [asyncio.create_task(_checkpoints(store))]
        if abandon_after:
            rooms.abandon_idle(abandon_after)  # before the start replays them all
            tasks.append(asyncio.create_task(_abandon_idle(rooms, abandon_after)))
        cluster = Cluster(rooms) if store.shared else None
        if cluster is not None:  # from now on, a game's bots play under its lease only
            await cluster.start()
        rooms.resume_all()
        profiles.settle()  # games that ended just before a stop or a crash
        yield {GUARD: guard}  # for serve's protocol, on every connection
        for task in tasks:
            task.cancel()
        if cluster is not None:
            await cluster.stop()  # each of its parts within a deadline
        await stop_within(rooms.stop(), "the games' bots and clocks")
        reviews.close()
        store.close()

    return running


def record_results(profiles: ProfileStore, room: Room) -> None:
    """A game ended: its results and ratings, if it has any (if the database fails now, the
    next start records them: the game is still pending)."""
    try:
        profiles.record(room.id, room.game.record.meta, len(room.seats))
    except Exception:
        log.exception("could not record the results of game %s", room.id)


async def _checkpoints(store: Store, every: float = 2.0) -> None:
    """Fold SQLite's write-ahead log into the database now and then, in a worker thread."""
    while store.needs_checkpoints:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(store.checkpoint)
        except Exception:  # the next one will try again; the moves are safe in the log
            log.exception("SQLite checkpoint failed")


async def _abandon_idle(rooms: Rooms, idle: float) -> None:
    """Look for idle games a few times per ``idle`` period (at least once an hour)."""
    while True:
        await asyncio.sleep(min(idle / 4, 3600))
        try:
            rooms.abandon_idle(idle)
        except Exception:  # the database away? the next round will try again
            log.exception("could not look for idle games")
