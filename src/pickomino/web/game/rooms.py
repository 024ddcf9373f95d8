"""The games a server process holds in memory: loaded from the store on first use, resumed
after a start, forgotten once ended and unwatched (but for the last few looked at) or while
nothing can happen in them until somebody comes (loaded again then), abandoned when idle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from functools import partial

from pickomino.core import RecordError
from pickomino.web.cluster.presence import Presence
from pickomino.web.db.store import UNFINISHED, Store
from pickomino.web.game.commits import TURN_LIMIT
from pickomino.web.game.room import Room
from pickomino.web.game.seating import AWAY_AFTER

log = logging.getLogger("pickomino.web")
#: Seconds an unfinished game in which nothing can happen until somebody comes (a person to
#: move, nobody connected) stays in memory after it was last handed out: a page reloading,
#: a player coming back within the minute, find it there.
UNLOAD_AFTER = 60.0


class Rooms:
    """The games the server has in memory, loaded from the store on first use."""

    #: Ended games looked at lately (a record, a replay, a rematch), kept so that another look
    #: does not replay the whole game from its stored moves again; the oldest go first.
    RECENT = 64
    #: And at most this many moves in all (a game in memory costs about 470 bytes a move: an
    #: audit's 64 looks at games of 14,000 moves held 510 MB, and a full collection of them
    #: took 0.8 s of the whole process).
    RECENT_MOVES = 100_000

    def __init__(
        self,
        store: Store,
        bot_delay: float,
        away_after: float = AWAY_AFTER,
        dice_seed: int | None = None,
        unload_after: float = UNLOAD_AFTER,
        turn_limit: int = TURN_LIMIT,
    ) -> None:
        self.store, self.bot_delay, self.away_after = store, bot_delay, away_after
        #: The turns a game may last (0: no limit; see :data:`.commits.TURN_LIMIT`).
        self.turn_limit = turn_limit
        #: Seconds a dormant game (:meth:`Room.dormant`) not handed out stays in memory.
        self.unload_after = unload_after
        #: Leases asked for resting games loaded again (a task keeps no reference to itself).
        self._waking: set[asyncio.Task[None]] = set()
        #: Each new game's seed, its dice drawn from it (``serve --dice-seed``); ``None``: the
        #: system's generator, unforeseeable.
        self.dice_seed = dice_seed
        self.rooms: dict[str, Room] = {}
        self.recent: OrderedDict[str, Room] = OrderedDict()  #: see :attr:`RECENT`
        #: The games being read in a worker thread (:meth:`load_here`): not abandoned meanwhile.
        self._loading: dict[
            tuple[str, Executor | None], asyncio.Future[tuple[Room, bool] | None]
        ] = {}
        #: Called when a game ends (its results are recorded).
        self.on_finish: Callable[[Room], None] = lambda room: None
        #: Called with the games just abandoned (their results, if any, are recorded).
        self.on_abandon: Callable[[list[str]], None] = lambda game_ids: None
        #: Called when another process changed a finished game's rematch offer (its pages
        #: here are told: :mod:`pickomino.web.api.rematch`).
        self.on_rematch: Callable[[Room], Awaitable[None]] = _nothing
        #: With several processes (:mod:`pickomino.web.cluster`): leases a game to this process,
        #: whether it could; ``None``: this process drives every game's bots.
        self.take: Callable[[str], Awaitable[bool]] | None = None
        #: With several processes: who is connected to the others; ``None``: only this one.
        self.presence: Presence | None = None

    def get(self, game_id: str, keep: bool = True) -> Room | None:
        """The game, loaded if need be; ``keep=False`` for a look (a record, a replay) that
        need not keep a finished game in memory."""
        room = self.held(game_id)
        if room is not None:
            room.used = time.monotonic()
        if room is not None and room.behind:  # changed by another process meanwhile
            room.catch_up()
        if room is None:
            read = self._read(game_id)
            if read is None:
                return None
            room = self._adopt(*read)
        self._keep(room, keep)
        return room

    async def load(
        self, game_id: str, keep: bool = True, threads: Executor | None = None
    ) -> Room | None:
        """:meth:`get`, with a game read from the store replayed in a worker thread (an
        audit: a game of 10,000 moves took 178 ms of the event loop, everybody's, to load):
        one of ``threads`` (default: the event loop's own pool)."""
        return (await self.load_here(game_id, keep, threads))[0]

    async def load_here(
        self, game_id: str, keep: bool = True, threads: Executor | None = None
    ) -> tuple[Room | None, bool]:
        """:meth:`load`, and whether this call took the game into play (into memory, or from
        the recent ones). Loads of one game at once in one pool share one read, the first
        one's (a socket's does not wait behind a stranger's looks queued in theirs); whoever
        comes back first takes it into play, the others find it held (a waiter that read it
        again itself replayed it on the event loop when the first load was cancelled)."""
        if self.held(game_id) is not None:
            return self._got(game_id, keep)
        key = (game_id, threads)
        reading = self._loading.get(key)
        first = reading is None
        if reading is None:
            reading = self._loading[key] = asyncio.get_running_loop().run_in_executor(
                threads, self._read, game_id
            )
        try:
            read = await asyncio.shield(reading)
        finally:
            if first:
                del self._loading[key]
        if read is None:
            return None, False
        if self.held(game_id) is not None:  # another load, or a synchronous get, took it
            return self._got(game_id, keep)
        # With several processes, what another stored as it was read is read too (one
        # process alone stores nothing in a game it does not hold, nor abandons one it reads).
        room = self._adopt(*read, caught_up=self.take is not None)
        self._keep(room, keep)
        return room, True

    def _got(self, game_id: str, keep: bool) -> tuple[Room | None, bool]:
        in_play = game_id in self.rooms
        return self.get(game_id, keep), not in_play

    def _read(self, game_id: str) -> tuple[Room, bool] | None:
        """The stored game replayed, and whether it rests; ``None``: no such game."""
        stored = self.store.load(game_id)
        if stored is None:
            return None
        try:
            room = Room(stored, self.store, self.bot_delay, self.away_after, self.turn_limit)
            return room, stored.resting
        except RecordError:
            log.exception("game %s cannot be replayed from its stored moves", game_id)
            raise

    def _adopt(self, room: Room, resting: bool, caught_up: bool = False) -> Room:
        """A game just read taken into this process's care; ``caught_up`` with what was
        stored since it was read (in a worker thread: by another process, or abandoned)."""
        self._hook(room)
        if caught_up:
            room.catch_up()
        room.settle_status()
        if resting and not room.ended:
            self._wake(room)
        return room

    def _keep(self, room: Room, keep: bool) -> None:
        if keep or not room.ended:
            self.rooms[room.id] = room
            self.recent.pop(room.id, None)
        elif room.id not in self.rooms:
            self._remember(room)

    def held(self, game_id: str) -> Room | None:
        """The game if this process holds it in memory (in play, or looked at lately)."""
        return self.rooms.get(game_id) or self.recent.get(game_id)

    def _remember(self, room: Room) -> None:
        """Keep an ended game among the :attr:`recent` ones, the oldest forgotten (the one just
        remembered is kept, whatever its length)."""
        self.recent[room.id] = room
        self.recent.move_to_end(room.id)
        moves = sum(len(kept.game.record.moves) for kept in self.recent.values())
        while len(self.recent) > 1 and (
            len(self.recent) > self.RECENT or moves > self.RECENT_MOVES
        ):
            _, forgotten = self.recent.popitem(last=False)
            moves -= len(forgotten.game.record.moves)

    def add(self, room: Room) -> None:
        self._hook(room)
        self.rooms[room.id] = room

    def _hook(self, room: Room) -> None:
        room.on_idle, room.on_finish = self.release, self.on_finish
        room.on_stopped = self._stopped
        room.drives_bots = self.take is None
        if self.presence is not None:
            room.elsewhere = partial(self.presence.elsewhere, room.id)
            room.on_seated = partial(self.presence.changed, room.id)

    def _stopped(self, room: Room) -> None:
        """A game stopped at its turn limit: its results are recorded from it as held here
        (one stopped as it was read is not read again for them)."""
        if self.held(room.id) is None:
            self._remember(room)
        self.on_abandon([room.id])

    def seated(self) -> dict[str, frozenset[int]]:
        """The seats connected to this process, per game (games with none left out)."""
        seated = {game_id: room.seated_here() for game_id, room in self.rooms.items()}
        return {game_id: seats for game_id, seats in seated.items() if seats}

    async def start_bots(self, room: Room) -> None:
        """A new game's bots play (with several processes: here, once leased here)."""
        if self.take is None:
            room.wake_bots()
        else:  # unless another process's sweep took it first: then that one drives it
            await self.take(room.id)

    def release(self, room: Room) -> None:
        """Forget an ended game nobody watches (it is stored; loaded again on demand), so
        a long-running server does not keep every game it ever served in memory."""
        if room.ended and not room.connections:
            self.rooms.pop(room.id, None)
            self._remember(room)

    def _wake(self, room: Room) -> None:
        """A resting game is loaded for somebody: it is no longer resting, and with several
        processes this one asks for its lease first, as for a new game (the process its people
        are on drives it; another's sweep, once it rests no more, could take it first); if
        another holds the game's key, that one takes it once it rests no more."""
        take = self.take
        if take is None:
            self.store.rest(room.id, False)
            return

        async def lease() -> None:
            try:
                await take(room.id)
            finally:
                self.store.rest(room.id, False)

        try:
            task = asyncio.get_running_loop().create_task(lease())
        except RuntimeError:  # no event loop (a script): the sweeps take it, resting no more
            self.store.rest(room.id, False)
            return
        self._waking.add(task)
        task.add_done_callback(self._waking.discard)

    def unload_dormant(self, idle: float | None = None) -> list[str]:
        """Let go of the unfinished games in which nothing can happen until somebody comes
        (:meth:`Room.dormant`: a person to move, nobody connected) and that were not handed
        out for ``idle`` seconds (default :attr:`unload_after`): a game against bots left
        for the night costs no memory; it rests (:meth:`.Store.rest`: not loaded at a start,
        no lease kept) and is loaded again, as stored, when somebody comes back. Their
        ids."""
        since = time.monotonic() - (self.unload_after if idle is None else idle)
        dormant = [
            game_id for game_id, room in self.rooms.items() if room.used <= since and room.dormant()
        ]
        for game_id in dormant:
            self.unload(self.rooms[game_id])
        return dormant

    def unload(self, room: Room) -> None:
        """Let go of a dormant game; the process driving it marks it resting (another only
        shows it: the driver may still have work in it), and its lease is given back by the
        next sweep (:mod:`pickomino.web.cluster.lease`)."""
        if room.drives_bots:
            self.store.rest(room.id, True)
        self.rooms.pop(room.id, None)

    def abandon_idle(self, idle: float) -> list[str]:
        """Mark as abandoned the unfinished games with no move or join for ``idle`` seconds
        that nobody is connected to, and forget them: they are no longer replayed at every
        start nor kept in memory, and refuse moves and joins; their record and replay stay."""
        loading = {game_id for game_id, _threads in self._loading}
        idle_ids = [
            game_id
            for game_id in self.store.game_ids(UNFINISHED, idle_since=time.time() - idle)
            if game_id not in loading
            and (game_id not in self.rooms or not self.rooms[game_id].connections)
        ]
        self.store.abandon(idle_ids)
        for game_id in idle_ids:
            room = self.rooms.pop(game_id, None)
            if room is not None:
                room.status = "abandoned"  # its bot task, if any, stops at its next step
        if idle_ids:
            log.info("abandoned %d idle game(s)", len(idle_ids))
            self.on_abandon(idle_ids)
        return idle_ids

    def resume_all(self) -> None:
        """After a start (or a crash): load every unfinished game (settled: one that ended
        just before is recorded) and let its bots play (with several processes: under
        their lease, :mod:`pickomino.web.cluster`); keep only those that need it. Resting
        games are not loaded (nothing can happen in them until somebody comes)."""
        for game_id in self.store.game_ids(UNFINISHED, resting=False):
            with contextlib.suppress(RecordError):  # logged; the other games go on
                room = self.get(game_id, keep=False)  # one that ended or stopped: let go
                if room is not None:
                    room.wake_bots()
        self.unload_dormant(idle=0)

    async def stop(self) -> None:
        await asyncio.gather(*(room.stop() for room in self.rooms.values()))


async def _nothing(room: Room) -> None:
    """No rematches to tell of (the app sets :attr:`Rooms.on_rematch`)."""
