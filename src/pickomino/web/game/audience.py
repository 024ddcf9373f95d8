"""Who is connected to a game on this server process, and what they are sent: the whole
state to a client that arrives (built once per version of what it shows, however many
arrive); after each change, what changed (a ``change``: the fields of the state that
differ, the new log entries, and the version it turns into) to every client that holds the
version before, the whole state to any other (one that arrived meanwhile); and a few bytes
of presence when a player comes or goes. Each message is encoded once for all who get it.
People connected to other processes count as online too (:attr:`.Room.elsewhere`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from pickomino.web.errors import Refused, refusal_message
from pickomino.web.game.shared import RoomPart, Send, SharedRoom
from pickomino.web.protocol import encode, state_body, state_change

#: Seconds between two presence messages of one game here at the most often: a coming or
#: going is told at once, those that follow within that time together after it (an audit:
#: a player opening and closing their socket 195 times a second sent each watcher 2,000
#: presence messages in 5 s; from many addresses, the limits per address would not do).
PRESENCE_EVERY = 0.25


class Audience(RoomPart):
    """The room's connections here, each with its seat (``None``: a spectator)."""

    def __init__(self, room: SharedRoom) -> None:
        super().__init__(room)
        self.connections: dict[Send, int | None] = {}
        #: Connections whose seat was given a new secret elsewhere (another device): they
        #: watch from now on, and are told so (:meth:`tell_moved`).
        self._moved: list[Send] = []
        self._log_sent = 0  #: log entries already broadcast: later states carry only the rest
        #: the last whole state sent on arrival: what it was built from, its text and body
        self._full: tuple[tuple, str, dict] | None = None
        self._shown: dict | None = None  #: the state's body as last sent to everyone
        self._version = 0  #: its version (``v``): a change turns ``base`` into ``v``
        #: the version each connection holds (``None``: one no change follows from)
        self._holds: dict[Send, int | None] = {}
        self._presence_at = -PRESENCE_EVERY  #: when the last presence message went (monotonic)
        self._presence_due: asyncio.Task[None] | None = None  #: the one to go after it

    def online(self) -> list[bool]:
        """Per seat: is somebody connected to it (to this process or another)."""
        seated = self.seated_here() | self.room.elsewhere()
        return [n in seated for n in range(len(self.room.seats))]

    def seated_here(self) -> frozenset[int]:
        """The seats with a connection to this process."""
        return frozenset(seat for seat in self.connections.values() if seat is not None)

    @property
    def watchers(self) -> int:
        return sum(seat is None for seat in self.connections.values())

    def present(self, online: list[bool] | None = None) -> set[int]:
        """The seats of the people connected now (to this process or another); from
        ``online`` (:meth:`online`) when the caller has just asked it."""
        online = self.online() if online is None else online
        return {n for n, seat in enumerate(self.room.seats) if seat.is_person and online[n]}

    # ------------------------------------------------------- comings and goings
    async def connect(self, send: Send, seat: int | None, claiming: bool = False) -> None:
        """A client arrives (``claiming``: it just took its seat, see :meth:`.Room.take`):
        it alone gets the whole state. The others hear of it only when it changes something
        for them: a seat taken (the whole state) or a player coming online (a small
        presence message); a spectator costs them nothing, so N spectators joining cost
        O(N) messages, not O(N²)."""
        room = self.room
        if room.behind:
            room.catch_up()
        await self.tell_moved()
        await room.until_stored()  # an action's moves waiting for the store, then told,
        if self._shown is not None and self._shown["seq"] != room.seq:  # before it joins:
            await asyncio.sleep(0)  # stored, and about to be told: the action goes first
        arriving = seat is not None and not self.online()[seat]
        self.connections[send] = seat  # then nothing until it has the state
        if seat is not None:
            room.on_seated()
        await self.send_full(send)  # built before any later state can be sent to it
        if arriving and room.count_votes():  # votes for them end: they are here
            await self.broadcast()
        elif claiming:
            await self.broadcast(skip=send)
        elif arriving:
            await self.announce_presence(skip=send)
        room.wake_bots()

    async def disconnect(self, send: Send, seat: int | None) -> None:
        """A client left (or was dropped); if it was a seat's last connection, the others
        see that player offline."""
        room = self.room
        self.connections.pop(send, None)
        self._holds.pop(send, None)
        if seat is not None:
            room.on_seated()
        if seat is not None and not self.online()[seat]:
            await self._came_or_went(count_votes=True)  # a voter left: the others may count
        if room.ended and not self.connections:
            room.on_idle(room)

    async def presence_changed(self) -> None:
        """People came to or left another process (:mod:`pickomino.web.cluster.presence`):
        this process's pages see it; the process keeping the game's time (its lease holder)
        counts the votes again and sets the away alarm, as for a coming or going here."""
        await self._came_or_went(count_votes=self.room.drives_bots)

    async def _came_or_went(self, count_votes: bool) -> None:
        """A player came online or went offline: if this process ``count_votes``, votes
        for a person who is here now end and votes that carry now hand their seat over
        (:meth:`.Absence.count_votes`), and everyone gets the new state; else (or if that
        changed nothing) they see who is online, and the away alarm is set again (and a
        stand-in that waited for somebody at the table plays: see :mod:`.bot_driver`)."""
        room = self.room
        if count_votes and room.count_votes():
            await self.broadcast()
        else:
            await self.announce_presence()
        room.wake_bots()  # sets the alarms too

    def demote(self, seat: int) -> None:
        """The seat's connections here watch from now on: its secret is another's."""
        for send, held in self.connections.items():
            if held == seat:
                self.connections[send] = None
                self._moved.append(send)

    async def tell_moved(self) -> None:
        """Tell the connections :meth:`demote` made watchers why (and who is online now)."""
        moved, self._moved = self._moved, []
        if moved:
            message = refusal_message(Refused("seat_moved"))
            for send in moved:
                with contextlib.suppress(Exception):  # gone meanwhile: nothing to tell
                    await send(message)
            await self.announce_presence()

    # ---------------------------------------------------------------- messages
    async def send_full(self, send: Send) -> None:
        """The state with the whole log: on connecting, or when a client asks to resync.
        Built once per version of what it shows, however many spectators come meanwhile."""
        room = self.room
        await room.until_stored()  # nothing is shown before it is stored
        online = self.online()
        seats = tuple(
            (s.name, s.bot, s.open, s.claimed, online[n]) for n, s in enumerate(room.seats)
        )  # a seat's kind too: a seat nobody took may go to a bot
        entries = len(room.table_log.entries)
        version = (room.seq, room.status, seats, entries, room.seating_changes)
        if self._full is None or self._full[0] != version:
            state = room.snapshot()
            self._full = (version, encode(state), state_body(state))
        _, text, body = self._full
        if self._shown is None:  # the first client: its state is the one changes start from
            self._shown = body
        holds = self._version if body == self._shown else None
        self._holds[send] = holds
        await send(_stamped(text, holds))

    async def broadcast(self, skip: Send | None = None) -> None:
        """What changed, to everyone (but ``skip``, who has the state already): to each
        client holding the last version, a ``change`` with only the log lines not sent
        before; to any other, the whole state (with those lines: it has the ones before)."""
        room = self.room
        await room.until_stored()  # nothing is shown before it is stored
        state = room.snapshot(self._log_sent)
        self._log_sent = len(room.table_log.entries)
        body = state_body(state)
        change = None if self._shown is None else state_change(self._shown, body)
        base, self._shown = self._version, body
        self._version += 1
        texts: dict[bool, str] = {}  # encoded once for all: the change, the whole state

        def message_for(send: Send) -> str:
            changed = change is not None and self._holds.get(send) == base
            if changed not in texts:
                if changed:
                    assert change is not None
                    log = {"log_start": state["log_start"], "log": state["log"]}
                    message = {"type": "change", "base": base, **change, **log}
                    texts[changed] = _stamped(encode(message), self._version)
                else:
                    texts[changed] = _stamped(encode(state), self._version)
            self._holds[send] = self._version
            return texts[changed]

        await self._send_all(message_for, skip)

    async def announce_presence(self, skip: Send | None = None) -> None:
        """Who is online, when a player comes or goes: a few bytes, not the whole state; at
        most one every :data:`PRESENCE_EVERY` seconds (a later one says who is online then,
        to everyone)."""
        if self._presence_due is not None:
            return  # one goes shortly, with whoever is online then
        wait = self._presence_at + PRESENCE_EVERY - time.monotonic()
        if wait > 0:
            self._presence_due = asyncio.create_task(self._presence_later(wait))
        else:
            await self._send_presence(skip)

    async def _presence_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self._presence_due = None
        if not self.gone:  # a room dropped meanwhile has nobody to tell
            await self._send_presence(None)

    async def _send_presence(self, skip: Send | None) -> None:
        self._presence_at = time.monotonic()
        message = encode({"type": "presence", "online": self.online()})
        await self._send_all(lambda send: message, skip)

    async def send_each(self, message_for: Callable[[int | None], str]) -> None:
        """To every client, the message for its seat (``None``: a spectator), for what
        differs by seat (a rematch's new seat token goes to its seat alone)."""
        for send, seat in list(self.connections.items()):
            try:
                await send(message_for(seat))
            except Exception:  # a client gone or far behind (its outbox closes it)
                self.connections.pop(send, None)

    async def _send_all(self, message_for: Callable[[Send], str], skip: Send | None) -> None:
        """Players first, then spectators: a send only queues the message, and each
        connection's writer runs in the order it was woken, so however many watch, the
        players' copies are written before the spectators' (see :mod:`.outbox`)."""
        players = [send for send, seat in self.connections.items() if seat is not None]
        watchers = [send for send, seat in self.connections.items() if seat is None]
        for send in players + watchers:
            if send == skip:
                continue
            try:
                await send(message_for(send))
            except Exception:  # a client gone or far behind (its outbox closes it)
                self.connections.pop(send, None)
                self._holds.pop(send, None)


def _stamped(state: str, version: int | None) -> str:
    """A state or change message (JSON text) with its version (``v``; ``null``: a state no
    change follows from, the next one is whole) and the server's time as it is sent
    (``now``): the page counts the clock down from the deadline as the server sees it,
    whatever its own clock says. Added to the text, so a message built once for many still
    says the time it leaves."""
    v = "null" if version is None else version
    return f'{state[:-1]},"v":{v},"now":{time.time()!r}}}'
