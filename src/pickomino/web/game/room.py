"""One game on the server: its engine session, who sits where, who is watching, and the
task that plays its bots.

The server is authoritative: people send intents (an action name), the room checks that
the sender holds the seat to move, the engine checks the rules, the new moves are stored,
and only then is the new state broadcast. Dice come from a cryptographic generator. The
game is driven by the table layer (:class:`pickomino.table.Session`), like every face.

What goes to the browsers is data, never words: the table, the log as events
(:mod:`.tablelog`), refusals as message ids (:mod:`pickomino.web.errors`).

Who plays a person's seat and how long they have is the room's :class:`.Seating`, stored
with the game: when a person's time runs out, when they are disconnected on their turn for
``away_after`` seconds while somebody else at the table is connected, or when the others
vote for it, a bot stands in for them (:meth:`pickomino.table.Session.stand_in`), between
two steps; they take the seat back with a ``back`` message. Three timers per game at most (its
clock, the absence of the person to move, and the votes for a person gone long enough for
them to count), set only when their time changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from pickomino.core import Game, GameRecord
from pickomino.core.events import standing_dict, tie_break
from pickomino.table import Seat as TableSeat
from pickomino.table import Session, StalePlan, SystemDice, players
from pickomino.web.db.store import StaleMoves, Store, StoredGame, StoredSeat, TableEvent
from pickomino.web.errors import Refused, refusal_message
from pickomino.web.game.coach_message import Coach, no_advice
from pickomino.web.game.seating import AWAY_AFTER, DEFAULT_TAKEOVER, Note, Seating, TimeControl
from pickomino.web.game.tablelog import TableLog
from pickomino.web.game.view import table_view

log = logging.getLogger("pickomino.web")
#: Seconds before a timeout or an absence that could not be stored is tried again.
RETRY_AFTER = 5.0

#: Sends one message (JSON text) to one client.
Send = Callable[[str], Awaitable[None]]


@dataclass
class Seat:
    name: str
    bot: str | None
    token: str | None  #: the secret that opens the seat: only its person's browser has it
    claimed: bool
    open: bool = False  #: anyone may take it from the lobby (else only its invite link)
    spent: str | None = None  #: the last link's secret that gave the seat: refused as used
    transfer: str | None = None  #: a one-time secret to take the seat on another device

    @property
    def is_person(self) -> bool:
        return self.bot is None

    @classmethod
    def stored(cls, row: StoredSeat) -> Seat:
        return cls(
            row.name, row.bot, row.token, row.claimed, row.open_seat, row.spent, row.transfer
        )


def _same(secret: str | None, token: str) -> bool:
    """Whether ``token`` is ``secret`` (in constant time)."""
    return secret is not None and secrets.compare_digest(secret.encode(), token.encode())


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


class Alarm:
    """One call at a (Unix) time, set again only when the time changes: a game's clock or
    its absence check is a handle in the event loop's heap, not a task that polls, so
    hundreds of games cost nothing while they wait. It rings once per time it is set to, and
    may be set to that time again after it rang (the event loop's clock is not the wall
    clock: it may ring a moment before the time it was set to)."""

    def __init__(self, ring: Callable[[], None]) -> None:
        self.ring = ring
        self.when: float | None = None
        self._handle: asyncio.TimerHandle | None = None

    def set(self, when: float | None) -> None:
        if when == self.when:
            return
        self.cancel()
        self.when = when
        if when is not None:
            delay = max(0.0, when - time.time())
            self._handle = asyncio.get_running_loop().call_later(delay, self._rang)

    def _rang(self) -> None:
        self._handle = self.when = None
        self.ring()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self.when = None


class Room:
    """A game in play (or waiting for its people, or over) and its connections."""

    def __init__(
        self, stored: StoredGame, store: Store, bot_delay: float, away_after: float = AWAY_AFTER
    ) -> None:
        record = GameRecord.from_json(stored.header)
        record.moves = list(stored.moves)
        game = Game.from_record(record)
        seed = int(record.meta.get("seed", 0))
        self.seats = [Seat.stored(row) for row in stored.seats]
        seats = [TableSeat(seat.name, seat.bot) for seat in self.seats]
        self.session = Session(game, seats, SystemDice(), seed)
        self.id, self.store, self.bot_delay = stored.id, store, bot_delay
        self.status = stored.status
        self.connections: dict[Send, int | None] = {}
        #: Connections whose seat was given a new secret elsewhere (another device): they
        #: watch from now on, and are told so (:meth:`tell_moved`).
        self._moved: list[Send] = []
        self._bot_task: asyncio.Task[None] | None = None
        self._log = TableLog.replayed(game.history, stored.events, game.state)
        self._notes = len(stored.events)  #: the table's own log entries stored so far
        self._log_sent = 0  #: log entries already broadcast: later states carry only the rest
        self._full: tuple[tuple, str] | None = None  #: the last whole state sent, and its version
        self.coach = Coach()
        self.seating = Seating.load(stored.seating, record.meta, len(self.seats))
        self._seating_changes = 0  #: a version of the seating, for the state's cache
        self._stand_ins()
        #: Seconds the person to move may be disconnected before a bot plays for them
        #: (0: never), counted while somebody else at the table is connected.
        self.away_after = away_after
        #: The seats connected to other server processes (:mod:`pickomino.web.cluster.presence`);
        #: with one, none.
        self.elsewhere: Callable[[], frozenset[int]] = frozenset
        #: Called when the seats connected to this process change (to tell the others).
        self.on_seated: Callable[[], None] = lambda: None
        self._clock_alarm = Alarm(lambda: self._spawn(self._time_out()))
        self._away_alarm = Alarm(lambda: self._spawn(self._mark_absent()))
        self._vote_alarm = Alarm(lambda: self._spawn(self._count_ripe_votes()))
        #: Since when each person not connected has been gone, as this process saw it
        #: (:meth:`_note_presence`): everybody since the start, as how long anybody was
        #: gone while the server was down is unknown (a restart starts the wait again, so
        #: it never turns a minority vote into a majority).
        self._left = dict.fromkeys(range(len(self.seats)), time.time())
        self._absent: tuple[int, int] | None = None  #: (seat, turn) the away alarm is for
        self._tasks: set[asyncio.Task[None]] = set()
        #: Whether this process plays the game's bots: always with SQLite; with PostgreSQL,
        #: while it holds the game's lease (:mod:`pickomino.web.cluster.lease`), so that one
        #: process does.
        self.drives_bots = True
        #: Another process changed the game and nobody here was told yet: catch up before
        #: anybody is shown it (set instead of catching up when nobody here watches).
        self.behind = False
        #: Called when the game is over and nobody is connected (the server forgets it).
        self.on_idle: Callable[[Room], None] = lambda room: None
        #: Called once the game is over and stored so (its results are recorded).
        self.on_finish: Callable[[Room], None] = lambda room: None

    # ------------------------------------------------------------- creation
    @classmethod
    def create(
        cls,
        store: Store,
        record: GameRecord,
        bots: list[str | None],
        bot_delay: float,
        open_seats: frozenset[int] = frozenset(),
        creator: int | None = None,
        game_id: str | None = None,
        *,
        clock: TimeControl | None = None,
        takeover: str = DEFAULT_TAKEOVER,
        away_after: float = AWAY_AFTER,
    ) -> Room:
        """A new game: ``bots`` names each seat's bot (``None``: a person); ``open_seats``
        are people's seats anyone may take from the lobby (they get a token when taken),
        the others get an invite token now; the ``creator``'s seat is taken at once. The
        people have the ``clock``'s time (``None``: all they like); the ``takeover`` bot
        plays for one who is away or out of time. The record's ``meta`` keeps what it holds
        already (who plays as which profile, …)."""
        game_id = game_id or new_game_id()
        record.meta = {
            **record.meta, "seed": secrets.randbelow(1 << 32), "bots": bots, "takeover": takeover
        }  # fmt: skip
        if clock is not None:
            record.meta["clock"] = clock.to_dict()
        rows = [
            StoredSeat(
                n,
                name,
                bot,
                token=None if bot or n in open_seats else secrets.token_urlsafe(16),
                claimed=n == creator,
                open_seat=n in open_seats,
            )
            for n, (name, bot) in enumerate(zip(record.seats, bots, strict=True))
        ]
        store.create_game(game_id, record.to_json(indent=None), rows)
        stored = store.load(game_id)
        assert stored is not None
        room = cls(stored, store, bot_delay, away_after)
        room.settle_status()  # a game of bots (or bots and the creator) starts at once
        return room

    def settle_status(self) -> None:
        """Make the stored status agree with the seats and the moves, and the clock with
        the game (the first turn's clock starts): a crash may have come between the last
        claim or move and what is written after it."""
        if self.game.state.is_over and self.status != "over":
            self._finish()
            return
        if self.status == "open" and not self.waiting():
            self._set_status("playing")
        if self.status == "playing":
            with contextlib.suppress(Refused):  # logged; the next change settles it
                self._change_seating(lambda seating: [])

    # ---------------------------------------------------------------- views
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def ended(self) -> bool:
        """Over, or abandoned: nobody will play in it again."""
        return self.status in ("over", "abandoned")

    @property
    def seq(self) -> int:
        """How many moves have been made: the version of the state clients see."""
        return len(self.game.record.moves)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (its secret, or its transfer secret); ``None`` for a
        spectator (no token). A link's secret spent by taking the seat is refused as such
        (``seat_link_used``), any other as ``bad_token``. A token unknown here is looked
        up in the database once, if its secrets changed there (another process gave one)."""
        if not token:
            return None
        found = self._opened_by(token)
        if found is None and self._secrets_changed():
            self.catch_up()
            found = self._opened_by(token)
        if found is None:
            raise Refused("bad_token")
        seat, spent = found
        if spent:
            raise Refused("seat_link_used")
        return seat

    def _opened_by(self, token: str) -> tuple[int, bool] | None:
        """(seat, whether ``token`` is its spent link) for a token of a seat here."""
        for number, seat in enumerate(self.seats):
            if _same(seat.token, token) or _same(seat.transfer, token):
                return number, False
            if seat.claimed and _same(seat.spent, token):
                return number, True
        return None

    def _secrets_changed(self) -> bool:
        """Whether the stored seats' secrets differ from memory's (one small query)."""
        stored = self.store.seat_tokens([self.id])
        return stored != {(self.id, n): s.token for n, s in enumerate(self.seats) if s.token}

    def snapshot(self, log_start: int = 0) -> dict[str, object]:
        """The whole state for clients; the log from entry ``log_start`` on (a client that
        has the entries before it appends these, so states stay small as a game grows)."""
        state = self.game.state
        online = self.online()
        waiting = [s.name for s in self.seats if s.is_person and not s.claimed]
        profiles = self.profiles()
        seating = self.seating
        present, now = self.present(), time.time()
        return {
            "type": "state",
            "id": self.id,
            "seq": self.seq,
            "status": self.status,
            "waiting_for": waiting,
            "seats": [
                {
                    "name": s.name,
                    "bot": s.bot,
                    "claimed": s.claimed,
                    "open": s.open,
                    "online": online[n],
                    "profile": profiles[n],
                    "away": seating.away[n],
                    "stand_in": n in self.session.stand_ins,
                    "votes": seating.votes.get(n, []),
                    "votes_needed": seating.needed(
                        n, present, self.people, self._long_gone(n, now)
                    ),
                }
                for n, s in enumerate(self.seats)
            ],
            "rules": state.rules.to_dict(),
            "clock": self._clock_view(),
            "takeover": seating.takeover,
            "table": table_view(state),
            "actions": self._actions(),
            "log_start": log_start,
            "log": self._log.entries[log_start:],
        }

    def _clock_view(self) -> dict[str, object] | None:
        """The time control, the running clock (whose, and when it runs out: the page
        counts down to it from the state's ``now``) and the banks; ``None``: no clock."""
        seating = self.seating
        if seating.control is None:
            return None
        running = self.status == "playing" and seating.deadline is not None
        return {
            "per_turn": seating.control.per_turn,
            "bank": seating.control.bank,
            "increment": seating.control.increment,
            "seat": seating.clock_seat if running else None,
            "deadline": seating.deadline if running else None,
            "banks": seating.banks,
        }

    def _actions(self) -> list[str]:
        if self.status != "playing":
            return []
        return self.session.actions()

    # ---------------------------------------------------------------- joins
    def online(self) -> list[bool]:
        """Per seat: is somebody connected to it (to this process or another)."""
        seated = self.seated_here() | self.elsewhere()
        return [n in seated for n in range(len(self.seats))]

    def seated_here(self) -> frozenset[int]:
        """The seats with a connection to this process."""
        return frozenset(seat for seat in self.connections.values() if seat is not None)

    @property
    def watchers(self) -> int:
        return sum(seat is None for seat in self.connections.values())

    async def connect(self, send: Send, seat: int | None, claiming: bool = False) -> None:
        """A client arrives (``claiming``: it just took its seat, see :meth:`take`): it
        alone gets the whole state. The others hear of it only when it changes something
        for them: a seat taken (the whole state) or a player coming online (a small
        presence message); a spectator costs them nothing, so N spectators joining cost
        O(N) messages, not O(N²)."""
        if self.behind:
            self.catch_up()
        await self.tell_moved()
        arriving = seat is not None and not self.online()[seat]
        self.connections[send] = seat
        if seat is not None:
            self.on_seated()
        await self.send_full(send)  # built before any later state can be sent to it
        if arriving and self._count_votes():  # votes for them end: they are here
            await self.broadcast()
        elif claiming:
            await self.broadcast(skip=send)
        elif arriving:
            await self.announce_presence(skip=send)
        self.wake_bots()

    async def send_full(self, send: Send) -> None:
        """The state with the whole log: on connecting, or when a client asks to resync.
        Built once per version of what it shows, however many spectators come meanwhile."""
        online = self.online()
        seats = tuple((s.name, s.claimed, online[n]) for n, s in enumerate(self.seats))
        version = (self.seq, self.status, seats, len(self._log.entries), self._seating_changes)
        if self._full is None or self._full[0] != version:
            self._full = (version, json.dumps(self.snapshot()))
        await send(_stamped(self._full[1]))

    async def disconnect(self, send: Send, seat: int | None) -> None:
        """A client left (or was dropped); if it was a seat's last connection, the others
        see that player offline."""
        self.connections.pop(send, None)
        if seat is not None:
            self.on_seated()
        if seat is not None and not self.online()[seat]:
            if self._count_votes():  # a voter left: the others may now be a majority
                await self.broadcast()
                self.wake_bots()
            else:
                await self.announce_presence()
                self._set_alarms()
        if self.ended and not self.connections:
            self.on_idle(self)

    def take(self, seat: int, token: str) -> str | None:
        """A person opens ``seat`` with ``token``: a seat nobody took yet (its invite link)
        is theirs from now on, and a transfer secret moves it to this device; either way
        the seat gets a new secret, returned for their browser alone (the link's sender
        knows the old one). ``None``: the token is the seat's own secret, nothing changes.
        Refused (``seat_link_used``) if another took it with the same link first."""
        current = self.seats[seat]
        try:
            if not current.claimed:
                return self.claim(seat)
            if _same(current.transfer, token):
                return self.new_secret(seat, token)
        except Refused:
            raise Refused("seat_link_used") from None
        return None

    def claim(self, seat: int, name: str | None = None, profile: str | None = None) -> str:
        """A person takes their seat (by opening its link, or from the lobby with a name),
        as a ``profile`` if given; its secret is replaced by a new one, returned for them
        alone, so that the invite link stops opening it and no two people share a seat.
        The game starts once every person's seat is taken. Refused (``seat_taken``) if it
        was taken meanwhile (by another process: memory catches up)."""
        token = secrets.token_urlsafe(16)
        meta: dict[str, object] = {}
        if profile is not None:
            profiles = [*self.profiles()]
            profiles[seat] = profile
            meta["profiles"] = profiles
        header = self._header({seat: name} if name is not None else {}, meta)
        if not self.store.claim_seat(self.id, seat, name, header, token):  # first, then memory
            self.catch_up()
            raise Refused("seat_taken")
        self.game.record.meta.update(meta)
        if name is not None:
            self.seats[seat].name = name
            self.game.record.seats[seat] = name
        spent = self.seats[seat].token
        self.seats[seat].claimed, self.seats[seat].token = True, token
        self.seats[seat].spent = spent
        self.settle_status()
        return token

    def new_secret(self, seat: int, opened_by: str) -> str:
        """A taken seat's secret is replaced (it moves to another device: by its transfer
        secret ``opened_by``, or by its profile's key with the current secret); returned
        for that device alone. The seat's connections elsewhere only watch from now on.
        Refused (``seat_taken``) if ``opened_by`` no longer opens it (used elsewhere)."""
        token = secrets.token_urlsafe(16)
        if not self.store.new_seat_token(self.id, seat, token, opened_by):
            self.catch_up()
            raise Refused("seat_taken")
        current = self.seats[seat]
        if _same(current.transfer, opened_by):
            current.spent = opened_by
        current.token, current.transfer = token, None
        self._demote(seat)
        return token

    def transfer(self, seat: int) -> str:
        """A one-time secret that moves ``seat`` to another device (see :meth:`take`); a
        new one replaces the last."""
        transfer = secrets.token_urlsafe(16)
        holder = self.seats[seat].token
        if holder is None or not self.store.set_transfer(self.id, seat, transfer, holder):
            self.catch_up()
            raise Refused("seat_moved")
        self.seats[seat].transfer = transfer
        return transfer

    def _demote(self, seat: int) -> None:
        """The seat's connections here watch from now on: its secret is another's."""
        for send, held in self.connections.items():
            if held == seat:
                self.connections[send] = None
                self._moved.append(send)

    async def tell_moved(self) -> None:
        """Tell the connections :meth:`_demote` made watchers why (and who is online now)."""
        moved, self._moved = self._moved, []
        if moved:
            message = refusal_message(Refused("seat_moved"))
            for send in moved:
                with contextlib.suppress(Exception):  # gone meanwhile: nothing to tell
                    await send(message)
            await self.announce_presence()

    def profiles(self) -> list[str | None]:
        """Per seat: the id of the profile playing it, if any."""
        return self.game.record.meta.get("profiles") or [None] * len(self.seats)

    def replace_absent(self, seat: int, bot: str | None, name: str | None = None) -> None:
        """A person's seat nobody took yet goes to a ``bot`` for good, or (``None``) is
        reopened for anyone to take from the lobby; renamed if ``name`` is given. Its invite
        link stops working. Refused (``seat_taken``) if the seat was taken meanwhile."""
        name = name or self.seats[seat].name
        bots = list(self.game.record.meta.get("bots") or [s.bot for s in self.seats])
        bots[seat] = bot
        header = self._header({seat: name}, {"bots": bots})
        if not self.store.reseat(self.id, seat, name, bot, header):  # first, then memory
            raise Refused("seat_taken")
        self.game.record.meta["bots"] = bots
        self._seat(seat, Seat(name, bot, token=None, claimed=False, open=bot is None))
        self.settle_status()

    def _seat(self, seat: int, new: Seat) -> None:
        """Put ``new`` in a seat (its person or bot, name, token) in memory."""
        self.seats[seat] = new
        self.game.record.seats[seat] = new.name
        table_seat = TableSeat(new.name, new.bot)
        if self.session.seats[seat] != table_seat:
            self.session.seats[seat] = table_seat
            seed = int(self.game.record.meta.get("seed", 0))
            self.session.players[seat] = players([table_seat], seed + seat)[0]
        self._full = None  # the seat's kind is not in the cached state's version

    def free_open_seat(self) -> int | None:
        """The first open seat nobody took yet (invited people's seats are never offered)."""
        return next((n for n, s in enumerate(self.seats) if s.open and not s.claimed), None)

    # ---------------------------------------------------------------- moves
    async def act(self, seat: int | None, action: str, seq: int) -> None:
        """A person's intent on the state version ``seq`` they saw; raises :class:`Refused`
        with the reason and changes nothing."""
        state = self.game.state
        if seat is None:
            raise Refused("spectators_cannot_play")
        if self.status == "abandoned":
            raise Refused("game_abandoned")
        if self.status == "open":
            raise Refused("not_started", names=self.waiting())
        if state.is_over:
            raise Refused("game_over", "R18")
        if seat != state.current:
            raise Refused("not_your_turn", "R4", name=self.seats[state.current].name)
        if self.seating.away[seat]:
            raise Refused("seat_away", bot=self.seating.takeover)
        if self.seating.expired(time.time()):  # before its alarm rang: the time is up all the same
            await self._time_out()
            raise Refused("time_up", bot=self.seating.takeover)
        if self.seating.stood_in(seat, state.turn):
            raise Refused("time_up", bot=self.seating.takeover)
        if seq != self.seq:
            raise Refused("stale")
        try:
            self._commit(lambda: self.session.decide(action))  # the engine's refusal as it is
        except StaleMoves:  # another process moved first: this one was behind
            await self.refresh()
            raise Refused("stale") from None
        await self.broadcast()
        self.wake_bots()

    def _commit(self, step: Callable[[], object]) -> None:
        """Play a step in the engine, then store its moves (and the clock, when the step
        stopped or started one); if storing fails they are taken back, so memory never runs
        ahead of the database."""
        first, turn = self.seq, self.game.state.turn
        history_before = len(self.game.history)
        step()  # raises, changing nothing, if the engine refuses
        try:
            state = self.game.state
            turns = state.turn if state.turn != turn or state.is_over else None  # for the lobby
            # Within a turn the clock stays as it is (it starts and stops with turns and
            # with the seating's own changes): settling it costs only at a turn's end.
            timed = self.seating.control is not None and turns is not None
            seating = self._settled(self.seating.copy()) if timed else None
            changed = seating is not None and seating.to_json() != self.seating.to_json()
            self.store.append_moves(
                self.id, first, self.game.record.moves[first:], turns,
                seating.to_json() if seating is not None and changed else None,
            )  # fmt: skip
        except StaleMoves:
            self.game.truncate(first)  # the stored moves are the game's: catch up on them
            raise
        except Exception:
            log.exception("could not store moves of game %s; taking them back", self.id)
            self.game.truncate(first)  # in memory: the database may be what failed
            raise Refused("not_saved") from None
        if seating is not None and changed:
            self.seating = seating
            self._seating_changes += 1
        self._log.moves(self.game.history[history_before:])
        self._stand_ins()  # a bot that played the rest of a timed-out turn stands down
        if self.game.state.is_over:
            self._finish()
        else:
            self._set_alarms()

    # ------------------------------------------------------------ catching up
    def catch_up(self, moves_only: bool = False) -> bool:
        """Read what other processes stored since this one last looked (moves, and unless
        ``moves_only`` seats, status and who plays the seats) and play it into memory;
        whether anything changed. The stored game is the truth: memory only ever follows it.
        A timed game reads it all: a turn's end moves its clock."""
        self.behind = False
        if moves_only and self.seating.control is None:
            return self._play_stored(self.store.moves_from(self.id, self.seq))
        stored = self.store.load(self.id, from_seq=self.seq)
        if stored is None:
            return False
        changed = self._play_stored(stored.moves)
        header = json.loads(stored.header)
        self.game.record.meta = header["meta"]
        for row in stored.seats:
            seat = Seat.stored(row)
            if seat != self.seats[row.seat]:
                if self.seats[row.seat].claimed and seat.token != self.seats[row.seat].token:
                    self._demote(row.seat)  # the seat moved to a device on another process
                self._seat(row.seat, seat)
                changed = True
        if stored.status != self.status:
            self.status, changed = stored.status, True
        seating = Seating.load(stored.seating, self.game.record.meta, len(self.seats))
        if seating.to_json() != self.seating.to_json() or len(stored.events) != self._notes:
            self.seating, changed = seating, True
            self._seating_changes += 1
            self._log = TableLog.replayed(self.game.history, stored.events, self.game.state)
            self._notes = len(stored.events)
            self._stand_ins()
            self._set_alarms()
        return changed

    def _play_stored(self, moves: list[str]) -> bool:
        history_before = len(self.game.history)
        for move in moves:
            self.game.push(move)  # stored by a process that checked it: legal
        self._log.moves(self.game.history[history_before:])
        return bool(moves)

    async def refresh(self, moves_only: bool = False) -> None:
        """Catch up (see :meth:`catch_up`) and, if anything changed, tell this process's
        clients and let the bots play if it is their turn now."""
        if self.catch_up(moves_only):
            await self.tell_moved()
            await self.broadcast()
            self.wake_bots()

    def _finish(self) -> None:
        # The lobby lists the result without replaying the game (as data: pages word it).
        ranking = self.game.state.ranking()
        meta = self.game.record.meta
        meta.pop("result", None)  # the English sentence older versions kept
        meta["ranking"] = [standing_dict(standing) for standing in ranking]
        meta["tie_break"] = tie_break(ranking)
        self._set_status("over")
        self.on_finish(self)
        self._clock_alarm.cancel()
        self._away_alarm.cancel()
        self._vote_alarm.cancel()
        if not self.connections:
            self.on_idle(self)

    def _set_status(self, status: str) -> None:
        self.status = status
        self.store.set_status(self.id, status, self._header())

    def _header(
        self, renamed: dict[int, str] | None = None, meta: dict[str, object] | None = None
    ) -> str:
        """The record without its moves, as stored in the games table (with seats
        ``renamed`` and ``meta`` updated before memory is)."""
        header = self.game.record.to_dict()
        for seat, name in (renamed or {}).items():
            header["seats"][seat] = name
        header["meta"] = {**header["meta"], **(meta or {})}
        header["moves"] = []
        return json.dumps(header)

    def waiting(self) -> list[str]:
        return [s.name for s in self.seats if s.is_person and not s.claimed]

    # ---------------------------------------------------- who plays the seats
    def _person_decides(self, seating: Seating) -> bool:
        """Whether a person, not a bot, has the game's decision."""
        state = self.game.state
        return (
            self.status == "playing"
            and not state.is_over
            and self.seats[state.current].is_person
            and not seating.stood_in(state.current, state.turn)
        )

    def _settled(self, seating: Seating) -> Seating:
        state = self.game.state
        seating.settle(time.time(), state.turn, state.current, self._person_decides(seating))
        return seating

    def _change_seating(self, change: Callable[[Seating], list[Note]]) -> bool:
        """Change who plays the seats (or the clock) on a copy, store it with the log
        entries ``change`` returns, then keep it; ``False`` if nothing changed. Raises
        :class:`Refused` (``not_saved``) if it cannot be stored, changing nothing."""
        seating = self.seating.copy()
        notes = change(seating)
        self._settled(seating)
        stored = seating.to_json()
        if not notes and stored == self.seating.to_json():
            return False
        try:
            self.store.save_seating(self.id, stored, [TableEvent(self.seq, n) for n in notes])
        except Exception:
            log.exception("could not store the seating of game %s", self.id)
            raise Refused("not_saved") from None
        self.seating = seating
        self._seating_changes += 1
        self._notes += len(notes)
        state = self.game.state
        for note in notes:
            self._log.note(note, state.turn, state.current)
        self._stand_ins()
        self._set_alarms()
        return True

    def _stand_ins(self) -> None:
        """The session's bots for people agree with the seating."""
        turn, bot = self.game.state.turn, self.seating.takeover
        for number, seat in enumerate(self.seats):
            if seat.is_person:
                self.session.stand_in(number, bot if self.seating.stood_in(number, turn) else None)

    def present(self) -> set[int]:
        """The seats of the people connected now (to this process or another)."""
        online = self.online()
        return {n for n, seat in enumerate(self.seats) if seat.is_person and online[n]}

    @property
    def people(self) -> int:
        """How many of the game's seats are people's."""
        return sum(seat.is_person for seat in self.seats)

    @property
    def vote_after(self) -> float:
        """Seconds a person must be gone before the votes of the people present (fewer
        than half of the game's people, maybe one) hand their seat over: the patience
        ``away_after`` shows a person on their turn, or its default where that is never."""
        return self.away_after or AWAY_AFTER

    def _long_gone(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s person has been gone ``vote_after`` seconds."""
        return seat in self._left and now >= self._left[seat] + self.vote_after

    def _note_presence(self) -> None:
        """Keep since when each person not connected has been gone: from the first time
        this process sees them gone (called whenever somebody comes or goes, so never
        earlier than they left); forgotten while they are connected."""
        now = time.time()
        for seat, here in enumerate(self.online()):
            if here:
                self._left.pop(seat, None)
            else:
                self._left.setdefault(seat, now)

    async def vote(self, voter: int | None, seat: int) -> None:
        """``voter`` asks for a bot to play ``seat`` (a person's seat, its person not
        connected); it does once the votes carry (:meth:`Seating.carried`: a majority of
        the game's people, or of those present once the person has been gone
        ``vote_after`` seconds)."""
        if voter is None:
            raise Refused("spectators_cannot_vote")
        self._check_playing()
        if not 0 <= seat < len(self.seats):
            raise Refused("no_seat", seat=seat, high=len(self.seats) - 1)
        name = self.seats[seat].name
        if seat == voter:
            raise Refused("vote_own_seat")
        if not self.seats[seat].is_person:
            raise Refused("vote_bot_seat", name=name)
        if self.seating.away[seat]:
            raise Refused("vote_seat_away", name=name)
        if self.online()[seat]:
            raise Refused("vote_seat_online", name=name)
        if voter in self.seating.votes.get(seat, ()):
            raise Refused("voted_already", name=name)
        present, now = self.present(), time.time()
        long_gone = self._long_gone(seat, now)

        def cast(seating: Seating) -> list[Note]:
            if seating.vote(voter, seat, present, self.people, long_gone):
                return seating.hand_over(seat, "vote", now)
            return []

        self._change_seating(cast)
        await self.broadcast()
        self.wake_bots()

    async def come_back(self, seat: int | None) -> None:
        """A person takes back the seat a bot plays for them, from its next decision (a
        step the bot is thinking out meanwhile is dropped: see :meth:`_bot_step`)."""
        if seat is None:
            raise Refused("spectators_cannot_play")
        self._check_playing()
        if not self.seating.away[seat]:
            raise Refused("not_away")
        self._change_seating(lambda seating: seating.come_back(seat))
        await self.broadcast()
        self.wake_bots()

    def _check_playing(self) -> None:
        if self.status == "abandoned":
            raise Refused("game_abandoned")
        if self.status == "open":
            raise Refused("not_started", names=self.waiting())
        if self.status == "over":
            raise Refused("game_over", "R18")

    def _count_votes(self) -> bool:
        """After somebody came or went, or a person has been gone long enough: votes for a
        person who is here now end, and votes that carry now hand their seat over
        (:meth:`Seating.carried`). ``True`` if that changed anything."""
        self._note_presence()
        if not self.seating.votes or self.status != "playing":
            return False
        online, present, now = self.online(), self.present(), time.time()

        def count(seating: Seating) -> list[Note]:
            notes: list[Note] = []
            for seat in list(seating.votes):
                if online[seat]:
                    del seating.votes[seat]
                elif seating.carried(seat, present, self.people, self._long_gone(seat, now)):
                    notes += seating.hand_over(seat, "vote", now)
            return notes

        try:
            return self._change_seating(count)
        except Refused:  # logged; the next coming or going counts again
            return False

    def _absent_turn(self) -> tuple[int, int] | None:
        """(seat, turn) when the person to move is disconnected while somebody else at the
        table is connected (the others wait for them); ``None`` otherwise."""
        state = self.game.state
        seat = state.current
        if (
            not self.away_after
            or not self._person_decides(self.seating)
            or self.online()[seat]
            or not self.present() - {seat}
        ):
            return None
        return seat, state.turn

    def _set_alarms(self) -> None:
        """The clock's alarm at its deadline, the absence alarm ``away_after`` seconds
        after the person to move was last seen, while it is their turn, and the votes'
        alarm when a person with votes for a bot will have been gone ``vote_after``."""
        self._note_presence()
        playing = self.status == "playing" and self.drives_bots  # one process keeps time
        self._clock_alarm.set(self.seating.deadline if playing else None)
        absent = self._absent_turn() if playing else None
        if absent != self._absent:
            self._absent = absent
            self._away_alarm.set(time.time() + self.away_after if absent else None)
        self._vote_alarm.set(self._votes_ripen() if playing else None)

    def _votes_ripen(self) -> float | None:
        """When the first person with votes for a bot will have been gone long enough for
        the votes of the people present to count (``None``: no vote waits for that)."""
        now = time.time()
        left = [self._left[seat] for seat in self.seating.votes if seat in self._left]
        times = [when + self.vote_after for when in left]
        return min((when for when in times if when > now), default=None)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _time_out(self) -> None:
        """The clock ran out: a bot plays the rest of the turn (the alarm may ring a moment
        early, or for a deadline that is no longer: then it is only set again)."""
        now = time.time()
        if self.status == "playing" and self.seating.expired(now):
            try:
                self._change_seating(lambda seating: seating.time_out(now))
            except Refused:  # logged; try again in a while
                self._clock_alarm.set(now + RETRY_AFTER)
                return
            await self.broadcast()
        self.wake_bots()

    async def _count_ripe_votes(self) -> None:
        """A person with votes for a bot has been gone long enough: the votes carry, or
        fewer are needed now (or the alarm rang a moment early: then it is only set
        again)."""
        if not self._count_votes():
            self._seating_changes += 1  # the votes needed, in the cached whole state
        await self.broadcast()
        self.wake_bots()

    async def _mark_absent(self) -> None:
        """The person to move has been disconnected for ``away_after`` seconds."""
        absent = self._absent_turn()
        if absent is None or absent != self._absent:
            return
        now = time.time()
        try:
            self._change_seating(lambda seating: seating.hand_over(absent[0], "absent", now))
        except Refused:  # logged; the alarm rings again after another while
            self._away_alarm.set(now + RETRY_AFTER)
            return
        await self.broadcast()
        self.wake_bots()

    # ----------------------------------------------------------------- bots
    def wake_bots(self) -> None:
        """Make sure the bot task runs when it is a bot's turn in a started game (a bot's
        seat, or a person's a bot stands in for), and the alarms are set."""
        self._set_alarms()
        idle = self._bot_task is None or self._bot_task.done()
        if idle and self.drives_bots and self.status == "playing" and self.session.is_bot_turn():
            self._bot_task = asyncio.create_task(self._play_bots())

    async def _play_bots(self) -> None:
        failures = 0
        while self.drives_bots and self.status == "playing" and self.session.is_bot_turn():
            # After a failure (the database away?) wait longer, up to a minute, then retry.
            await asyncio.sleep(self.bot_delay if not failures else min(60, 2**failures))
            try:
                played = await self._bot_step()
                failures = 0
            except StaleMoves:  # the lease moved on meanwhile: follow what was stored
                await self.refresh()
                continue
            except Exception:
                failures += 1
                log.exception("a bot of game %s could not play (try %d)", self.id, failures)
                continue
            if played:  # a dropped step changed nothing: nobody hears of it
                await self.broadcast()

    async def _bot_step(self) -> bool:
        """One step of the play loop (a roll or a bot's decision), planned now, thought out
        in a worker thread on the plan's copy of the state, so other games stay responsive,
        then played through the session; ``False`` if it was dropped."""
        session = self.session
        if not session.is_bot_turn():  # the person came back while the bot waited
            return False
        plan = session.plan()
        try:
            step = await asyncio.to_thread(plan.think)
        except Exception:  # a bug in a bot must not stop the game: log it, play on
            log.exception("the bot of game %s failed; it plays a legal action", self.id)
            step = session.state.legal_actions()[0]
        # Played only if nothing moved meanwhile and the seat is still the bot's: a person
        # who took it back (or a person's move) wins, and the bot's step is dropped.
        try:
            self._commit(lambda: session.play(plan, step))
        except StalePlan:
            return False
        return True

    async def stop(self) -> None:
        self._clock_alarm.cancel()
        self._away_alarm.cancel()
        self._vote_alarm.cancel()
        tasks = [*self._tasks, *([self._bot_task] if self._bot_task is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):  # cancelled, or failed: it is over
                await task

    # ------------------------------------------------------------ broadcast
    async def broadcast(self, skip: Send | None = None) -> None:
        """The new state to everyone (but ``skip``, who has it), with only the log lines
        not sent before."""
        message = _stamped(json.dumps(self.snapshot(self._log_sent)))  # once, however many watch
        self._log_sent = len(self._log.entries)
        await self._send_all(message, skip)

    async def announce_presence(self, skip: Send | None = None) -> None:
        """Who is online, when a player comes or goes: a few bytes, not the whole state."""
        await self._send_all(json.dumps({"type": "presence", "online": self.online()}), skip)

    async def presence_changed(self) -> None:
        """People came to or left another process (:mod:`pickomino.web.cluster.presence`): this
        process's pages see it; the process keeping the game's time (its lease holder) counts
        the votes again and sets the away alarm, as for a coming or going here."""
        if self.drives_bots and self._count_votes():
            await self.broadcast()
            self.wake_bots()
        else:
            await self.announce_presence()
            self._set_alarms()

    async def send_each(self, message_for: Callable[[int | None], str]) -> None:
        """To every client, the message for its seat (``None``: a spectator), for what
        differs by seat (a rematch's new seat token goes to its seat alone)."""
        for send, seat in list(self.connections.items()):
            try:
                await send(message_for(seat))
            except Exception:  # a client gone or far behind (its outbox closes it)
                self.connections.pop(send, None)

    async def _send_all(self, message: str, skip: Send | None) -> None:
        """Players first, then spectators: a send only queues the message, and each
        connection's writer runs in the order it was woken, so however many watch, the
        players' copies are written before the spectators' (see :mod:`.outbox`)."""
        players = [send for send, seat in self.connections.items() if seat is not None]
        watchers = [send for send, seat in self.connections.items() if seat is None]
        for send in players + watchers:
            if send == skip:
                continue
            try:
                await send(message)
            except Exception:  # a client gone or far behind (its outbox closes it)
                self.connections.pop(send, None)

    def hint(self, seat: int | None) -> dict[str, object]:
        """The solver's view of the choices, for the player to move only: the others may not
        look over their shoulder (after the game there is nothing to advise on)."""
        if self.status == "playing" and seat != self.game.state.current:
            raise Refused("hint_not_yours")
        rows = self.session.hint_rows() if self.status == "playing" else []
        return {"type": "hint", "seq": self.seq, "rows": [vars(row) for row in rows]}

    async def coach_advice(self, seat: int | None) -> dict[str, object]:
        """The coach's values of the choices, for the player to move only, like a hint."""
        if self.status == "playing" and seat != self.game.state.current:
            raise Refused("coach_not_yours")
        if self.status != "playing":
            return no_advice(self.seq)
        return await self.coach.advice(self.game.state, self.seq)


def _stamped(state: str) -> str:
    """A state message (JSON text) with the server's time as it is sent (``now``): the page
    counts the clock down from the deadline as the server sees it, whatever its own clock
    says. Added to the text, so a state built once for many still says the time it leaves."""
    return f'{state[:-1]}, "now": {time.time()!r}}}'
