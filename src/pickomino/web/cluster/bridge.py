"""Several server processes on one PostgreSQL database: what ties this process's games in
memory to the others'.

- Moves are serialised by the database (a unique move number per game): a process whose
  memory of a game is behind is refused by it, catches up and answers ``stale``
  (:meth:`pickomino.web.game.room.Room.act`).
- Every committed change reaches every process by ``LISTEN/NOTIFY`` (:mod:`.notify`): a game
  in memory with sockets (or bots to drive) catches up and tells its sockets; one with
  neither is marked behind, and catches up when somebody comes.
- One process at a time drives a game's bots, the holder of its lease (:mod:`.lease`).
- Who is connected to a game is the union of every process's sockets (:mod:`.presence`).

With SQLite none of this runs: one process owns its file.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa

from pickomino.web.cluster.lease import Leases
from pickomino.web.cluster.notify import Listener
from pickomino.web.cluster.presence import CHANNEL as PRESENCE
from pickomino.web.cluster.presence import Presence
from pickomino.web.db.notices import CHANNEL, NOT_A_MOVE, REMATCH, parse_notice
from pickomino.web.game.rooms import Rooms
from pickomino.web.stopping import stop_within

log = logging.getLogger("pickomino.web")


def libpq_url(url: sa.URL) -> str:
    """The database's URL as psycopg itself takes it (no SQLAlchemy driver name)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Cluster:
    """This process among the others: listening to their changes, leasing games to drive,
    sharing who is connected."""

    def __init__(self, rooms: Rooms, sweep_every: float = 1.0) -> None:
        self.rooms = rooms
        url = libpq_url(rooms.store.engine.url)
        origin = rooms.store.origin
        self.presence = Presence(url, origin, rooms.seated, self.presence_changed)
        self.listener = Listener(
            url, {CHANNEL: self.on_notice, PRESENCE: self.presence.heard}, self.listening
        )
        self.leases = Leases(url, self, sweep_every)
        rooms.take = self.leases.take  # rooms are driven only under a lease from now on
        rooms.presence = self.presence  # and see the people connected to other processes

    async def start(self) -> None:
        await self.listener.start()
        await self.leases.start()
        await self.presence.start()

    async def stop(self) -> None:
        """Each part within its deadline, so that one stuck part cannot hold the others."""
        await stop_within(self.listener.stop(), "the listener of other processes' notices")
        await stop_within(self.presence.stop(), "the announcer of who is connected")
        await stop_within(self.leases.stop(), "the holder of the games' leases")

    async def listening(self) -> None:
        """Listening (again): notices may have been missed meanwhile."""
        await self.presence.listening()
        await self.catch_up_all()

    # ------------------------------------------------------------- notices
    async def on_notice(self, payload: str) -> None:
        """Another process changed a game: follow it if this one holds the game."""
        heard = parse_notice(payload)
        if heard is None:
            log.warning("a notice of an unknown shape on %s", CHANNEL)
            return
        room = self.rooms.held(heard.game_id)
        if heard.origin == self.rooms.store.origin or room is None:
            return  # its own change, or a game it does not hold
        if heard.seq == REMATCH:  # the finished game's rematch offer: its pages here hear it
            if room.connections:
                await self.rooms.on_rematch(room)
            return
        room.store_pending()  # compared with the moves stored, not those waiting
        moves = heard.moves
        if not room.connections and not room.drives_bots:
            room.behind = True  # nobody here to tell: catch up when somebody comes
        elif heard.seq == NOT_A_MOVE:  # a seat, the status: read the game
            await room.refresh()
        elif heard.seq <= room.seq:
            return  # moves it has already read
        elif moves is not None and not room.behind and heard.seq - len(moves) == room.seq:
            await room.follow(moves, heard.seating)  # the next moves, carried: nothing to read
        else:  # moves it has not read (only those)
            await room.refresh(moves_only=True)

    async def catch_up_all(self) -> None:
        self.rooms.recent.clear()  # ended games only looked at: read again when looked at
        for room in list(self.rooms.rooms.values()):
            try:
                await room.refresh()
            except Exception:
                log.exception("could not catch up on game %s", room.id)

    async def presence_changed(self, game_ids: set[str]) -> None:
        """People came to or left other processes: the games held here follow."""
        for game_id in game_ids:
            room = self.rooms.rooms.get(game_id)
            if room is not None:
                try:
                    await room.presence_changed()
                except Exception:
                    log.exception("could not follow who is connected to game %s", game_id)

    # -------------------------------------------------------------- leases
    async def drive(self, game_id: str) -> bool:
        """Play the game's bots and keep its time from now on (its lease is held here);
        whether it could. One loaded only for this and dormant is let go at once (a start's
        sweep takes every game: memory holds only those in play). Read in a worker thread:
        a process taking over a stopped one's games replays them all."""
        room, loaded = await self.rooms.load_here(game_id)
        if room is None or room.ended:
            if room is not None:  # ended elsewhere: kept only while watched here
                self.rooms.release(room)
            return False
        room.drives_bots = True
        if not loaded:  # read just now, and caught up with: nobody here to tell
            await room.refresh()  # the previous holder's last moves
        room.wake_bots()
        if loaded and self.rooms.rooms.get(game_id) is room and room.dormant():
            self.rooms.unload(room)  # it rests; its lease is given back by the next sweep
        return True

    def still_driving(self, game_id: str) -> bool:
        room = self.rooms.rooms.get(game_id)
        return room is not None and room.drives_bots and not room.ended

    def held_here(self) -> list[str]:
        return list(self.rooms.seated())  # games whose people are connected here

    def stop_driving(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            room = self.rooms.rooms.get(game_id)
            if room is not None:
                room.drives_bots = False  # its bot task ends before its next step
                room.wake_bots()  # and its alarms are let go: the new holder keeps time
