"""What the server does besides answering requests, from its start to its stop: at start
the games are resumed and the results a stop or a crash left unrecorded (or unreviewed) are
recorded (and reviewed); while it runs SQLite's log is folded into the database, idle games
are abandoned and finished games with results reviewed; at stop each part is stopped within
its deadline (:mod:`pickomino.web.stopping`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI

from pickomino.core import GameRecord
from pickomino.core.events import standing_dict
from pickomino.web.api.analysis import Reviews
from pickomino.web.cluster.bridge import Cluster
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.results import recorded_players
from pickomino.web.db.store import Store
from pickomino.web.game.commits import beyond_the_limit
from pickomino.web.game.room import Room
from pickomino.web.game.rooms import Rooms
from pickomino.web.guard.connections import GUARD, ConnectionGuard
from pickomino.web.stopping import stop_within

log = logging.getLogger("pickomino.web")

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[dict[str, object]]]


def lifespan(
    store: Store,
    rooms: Rooms,
    results: ResultReviews,
    guard: ConnectionGuard,
    abandon_after: float,
) -> Lifespan:
    """The app's lifespan; an unfinished game nobody touches for ``abandon_after`` seconds
    is abandoned (0: never). On PostgreSQL the processes share the games
    (:mod:`pickomino.web.cluster.bridge`)."""

    @asynccontextmanager
    async def running(_app: FastAPI) -> AsyncIterator[dict[str, object]]:
        tasks = [asyncio.create_task(_checkpoints(store))]
        tasks.append(asyncio.create_task(_unload_dormant(rooms)))
        if abandon_after:
            rooms.abandon_idle(abandon_after)  # before the start replays them all
            tasks.append(asyncio.create_task(_abandon_idle(rooms, abandon_after)))
        cluster = Cluster(rooms) if store.shared else None
        if cluster is not None:  # from now on, a game's bots play under its lease only
            await cluster.start()
        rooms.resume_all()
        results.profiles.recount()  # the figures, if a version that kept none recorded some
        results.profiles.settle()  # games that ended just before a stop or a crash
        await results.settle_abandoned()  # abandoned just now, and just before a stop
        results.review_unreviewed()
        yield {GUARD: guard}  # for serve's protocol, on every connection
        for task in tasks:
            task.cancel()
        if cluster is not None:
            await cluster.stop()  # each of its parts within a deadline
        store.move_writes.flush()  # the last pass's moves, while the games' alarms can be
        await stop_within(rooms.stop(), "the games' bots and clocks")  # set and stopped
        store.move_writes.flush()  # any a stopping task left, before the database closes
        results.close()
        results.reviews.close()
        store.close()

    return running


#: At most this many batches of the server's own reviews wait at once (a third of the
#: reviews others may have waiting: see :data:`pickomino.web.api.analysis.WAITING`).
OWN_WAITING = 8


async def finished_record(rooms: Rooms, game_id: str) -> GameRecord | None:
    """A finished game's record, a copy for the review process (``None``: no such game, or
    not over); a game not held here is read in a worker thread, as every read while serving."""
    room = await rooms.load(game_id, keep=False)
    if room is None or not room.game.state.is_over:
        return None
    return GameRecord.from_dict(room.game.record.to_dict())


async def left_unfinished(rooms: Rooms, game_id: str) -> dict[str, Any] | None:
    """An abandoned game's record ``meta`` as its results count it: the standings when it
    was left (``ranking``), every person having left it (``left``: after the bots, in the
    standings' order among themselves), unless it stopped at its turn limit (or went past
    it: abandoned as idle before it was read again): then only those a stand-in played for
    left it, the standings count as they are. ``None`` for a game that never started (no
    move: nobody left anything)."""
    room = await rooms.load(game_id, keep=False)
    if room is None or not room.game.record.moves:
        return None
    meta = room.game.record.meta
    if "stopped_after" in meta or beyond_the_limit(room):
        left = list(meta.get("left", []))
    else:
        left = [number for number, seat in enumerate(room.seats) if seat.is_person]
    return {
        **meta,
        "ranking": [standing_dict(standing) for standing in room.game.state.ranking()],
        "left": left,
        "unfinished": True,  # the standings order the people who left (results.counted_ranks)
    }


class ResultReviews:
    """A game's results with its review: when a game with results ends, they are recorded
    (if the database fails then, the next start records them: the game is still pending)
    and the game is reviewed in the reviews' queue, as the server's own asker
    (asking with no address); each recorded seat's decisions, their cost
    and its luck then join its results (a profile's page shows its accuracy over its last
    games). A stop before the review only delays it: at start the server reviews the last
    games left without one (:meth:`review_unreviewed`). The review is kept for the game's
    Analysis view too. ``await record_of(id)``: a finished game's record, or ``None``;
    ``await left_of(id)``: an abandoned game's ``meta`` as its results count it
    (:func:`left_unfinished`). Not ``eager``: no review of the server's own (a small host's
    choice); a game's accounts then join its results when somebody asks for its analysis."""

    def __init__(
        self,
        profiles: ProfileStore,
        reviews: Reviews,
        record_of: Callable[[str], Awaitable[GameRecord | None]],
        left_of: Callable[[str], Awaitable[dict[str, Any] | None]],
        eager: bool = True,
    ) -> None:
        self.profiles, self.reviews, self.record_of = profiles, reviews, record_of
        self.left_of, self.eager = left_of, eager
        self.tasks: set[asyncio.Task[None]] = set()
        #: The abandoned games' results being recorded (:meth:`games_abandoned`).
        self.recording: set[asyncio.Task[None]] = set()

    def game_ended(self, room: Room) -> None:
        """Record a game's results, and review it if they were recorded here and now."""
        try:
            recorded = self.profiles.record(room.id, room.game.record.meta, len(room.seats))
        except Exception:
            log.exception("could not record the results of game %s", room.id)
            return
        meta, seats = room.game.record.meta, len(room.seats)
        if recorded and self.eager and any(recorded_players(meta, seats)):  # results kept
            self._review([room.id])

    def games_abandoned(self, game_ids: list[str]) -> None:
        """Record the results of abandoned games that have some, as a task of the event loop
        (each game not held here read in a worker thread: an idle sweep's games, read on the
        event loop, held everybody's moves); without one (a script's sweep), at the next
        start (they are still pending then)."""
        pending = self.profiles.pending_among(game_ids)
        if not pending:
            return
        try:
            task = asyncio.get_running_loop().create_task(self.record_abandoned(pending))
        except RuntimeError:
            log.info("results of %d abandoned game(s) left for the next start", len(pending))
            return
        self.recording.add(task)
        task.add_done_callback(self.recording.discard)

    async def settle_abandoned(self) -> None:
        """At a start: the abandoned games' results under way recorded, and those a stop
        left pending."""
        await asyncio.gather(*self.recording)
        await self.record_abandoned(self.profiles.abandoned_pending())

    async def record_abandoned(self, game_ids: list[str]) -> None:
        """Record the results of these abandoned games: leaving a game unfinished counts as
        having left it (a rated game a person was losing moves their rating as a loss); a
        game never started has none. One that fails is tried at the next start."""
        for game_id in game_ids:
            try:
                meta = await self.left_of(game_id)
                if meta is None:
                    self.profiles.forget_pending(game_id)
                else:
                    self.profiles.record(game_id, meta, len(meta["ranking"]))
            except Exception:
                log.exception("could not record the results of abandoned game %s", game_id)

    def review_unreviewed(self) -> None:
        """Review the last games whose results have no review yet."""
        if self.eager:
            self._review(self.profiles.unreviewed())

    def close(self) -> None:
        for task in [*self.tasks, *self.recording]:  # a result not recorded: at the next start
            task.cancel()

    def _review(self, game_ids: list[str]) -> None:
        """Review ``game_ids`` one after the other, unless :data:`OWN_WAITING` reviews of
        the server's own wait already (games ended faster than they are reviewed: the rest
        wait for a start within a day, their results kept meanwhile)."""
        if len(self.tasks) >= OWN_WAITING:
            log.warning(
                "%d reviews of finished games wait already: %s left for a start within a day",
                OWN_WAITING,
                ", ".join(game_ids),
            )
        elif game_ids:
            task = asyncio.get_running_loop().create_task(self._note(game_ids))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _note(self, game_ids: list[str]) -> None:
        """One game after the other: the server's own reviews take one place in the queue."""
        for game_id in game_ids:
            try:
                record = await self.record_of(game_id)
                if record is None:
                    continue
                await self.reviews.get(game_id, record, None)  # noted as it is made
            except Exception:  # the next start tries again
                log.exception("could not review game %s for its results", game_id)


async def _checkpoints(store: Store, every: float = 2.0) -> None:
    """Fold SQLite's write-ahead log into the database now and then, in a worker thread."""
    while store.needs_checkpoints:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(store.checkpoint)
        except Exception:  # the next one will try again; the moves are safe in the log
            log.exception("SQLite checkpoint failed")


async def _unload_dormant(rooms: Rooms) -> None:
    """Let go of dormant games twice per :attr:`.Rooms.unload_after` (at most once a second)."""
    while True:
        await asyncio.sleep(max(1.0, rooms.unload_after / 2))
        try:
            rooms.unload_dormant()
        except Exception:  # a bug in one game's check must not stop the others' sweep
            log.exception("could not let go of dormant games")


async def _abandon_idle(rooms: Rooms, idle: float) -> None:
    """Look for idle games a few times per ``idle`` period (at least once an hour)."""
    while True:
        await asyncio.sleep(min(idle / 4, 3600))
        try:
            rooms.abandon_idle(idle)
        except Exception:  # the database away? the next round will try again
            log.exception("could not look for idle games")
