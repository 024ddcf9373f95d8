"""One game on the server: its engine session, who sits where, who is watching, and the
task that plays its bots.

The server is authoritative: people send intents (an action name), the room checks that
the sender holds the seat to move, the engine checks the rules, the new moves are stored,
and only then is the new state broadcast. Dice come from a cryptographic generator. The
game is driven by the table layer (:class:`pickomino.table.Session`), like every face.

What goes to the browsers is data, never words: the table, the log as events
(:func:`pickomino.core.events.log_entries`), refusals as message ids (:mod:`.errors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pickomino.core import Game, GameRecord
from pickomino.core.events import log_entries, standing_dict, tie_break
from pickomino.table import Seat as TableSeat
from pickomino.table import Session, SystemDice, apply, next_step, players
from pickomino.web.coaching import Coach, no_advice
from pickomino.web.errors import Refused
from pickomino.web.store import SeatRow, StaleMoves, Store, StoredGame
from pickomino.web.view import table_view

log = logging.getLogger("pickomino.web")

#: Sends one message (JSON text) to one client.
Send = Callable[[str], Awaitable[None]]


@dataclass
class Seat:
    name: str
    bot: str | None
    token: str | None
    claimed: bool
    open: bool = False  #: anyone may take it from the lobby (else only its invite link)

    @property
    def is_person(self) -> bool:
        return self.bot is None


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


class Room:
    """A game in play (or waiting for its people, or over) and its connections."""

    def __init__(self, stored: StoredGame, store: Store, bot_delay: float) -> None:
        record = GameRecord.from_json(stored.header)
        record.moves = list(stored.moves)
        game = Game.from_record(record)
        seed = int(record.meta.get("seed", 0))
        self.seats = [Seat(r.name, r.bot, r.token, r.claimed, r.open_seat) for r in stored.seats]
        seats = [TableSeat(seat.name, seat.bot) for seat in self.seats]
        self.session = Session(game, seats, SystemDice(), seed)
        self.id, self.store, self.bot_delay = stored.id, store, bot_delay
        self.status = stored.status
        self.connections: dict[Send, int | None] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._log = log_entries(game.history)
        self._log_sent = 0  #: log entries already broadcast: later states carry only the rest
        self._full: tuple[tuple, str] | None = None  #: the last whole state sent, and its version
        self.coach = Coach()
        #: Whether this process plays the game's bots: always with SQLite; with PostgreSQL,
        #: while it holds the game's lease (:mod:`.lease`), so that one process does.
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
    ) -> Room:
        """A new game: ``bots`` names each seat's bot (``None``: a person); ``open_seats``
        are people's seats anyone may take from the lobby (they get a token when taken),
        the others get an invite token now; the ``creator``'s seat is taken at once. The
        record's ``meta`` keeps what it holds already (who plays as which profile, …)."""
        game_id = game_id or new_game_id()
        record.meta = {**record.meta, "seed": secrets.randbelow(1 << 32), "bots": bots}
        rows = [
            SeatRow(
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
        room = cls(stored, store, bot_delay)
        room.settle_status()  # a game of bots (or bots and the creator) starts at once
        return room

    def settle_status(self) -> None:
        """Make the stored status agree with the seats and the moves: a crash may have come
        between the last claim or move and the status written after it."""
        if self.game.state.is_over and self.status != "over":
            self._finish()
        elif self.status == "open" and not self.waiting():
            self._set_status("playing")

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
        """The seat a token opens; ``None`` for a spectator (no token)."""
        if not token:
            return None
        for number, seat in enumerate(self.seats):
            if seat.token is not None and secrets.compare_digest(
                seat.token.encode(), token.encode()
            ):
                return number
        raise Refused("bad_token")

    def snapshot(self, log_start: int = 0) -> dict[str, object]:
        """The whole state for clients; the log from entry ``log_start`` on (a client that
        has the entries before it appends these, so states stay small as a game grows)."""
        state = self.game.state
        online = self.online()
        waiting = [s.name for s in self.seats if s.is_person and not s.claimed]
        profiles = self.profiles()
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
                }
                for n, s in enumerate(self.seats)
            ],
            "rules": state.rules.to_dict(),
            "table": table_view(state),
            "actions": self._actions(),
            "log_start": log_start,
            "log": self._log[log_start:],
        }

    def _actions(self) -> list[str]:
        if self.status != "playing":
            return []
        return self.session.actions()

    # ---------------------------------------------------------------- joins
    def online(self) -> list[bool]:
        """Per seat: is somebody connected to it."""
        seated = set(self.connections.values())
        return [n in seated for n in range(len(self.seats))]

    @property
    def watchers(self) -> int:
        return sum(seat is None for seat in self.connections.values())

    async def connect(self, send: Send, seat: int | None) -> None:
        """A client arrives: it alone gets the whole state. The others hear of it only when
        it changes something for them: a seat taken (the whole state) or a player coming
        online (a small presence message); a spectator costs them nothing, so N spectators
        joining cost O(N) messages, not O(N²)."""
        if self.behind:
            self.catch_up()
        claiming = arriving = False
        if seat is not None:
            arriving = not self.online()[seat]
            claiming = not self.seats[seat].claimed
            if claiming:
                self.claim(seat, None)
        self.connections[send] = seat
        await self.send_full(send)  # built before any later state can be sent to it
        if claiming:
            await self.broadcast(skip=send)
        elif arriving:
            await self.announce_presence(skip=send)
        self.wake_bots()

    async def send_full(self, send: Send) -> None:
        """The state with the whole log: on connecting, or when a client asks to resync.
        Built once per version of what it shows, however many spectators come meanwhile."""
        online = self.online()
        seats = tuple((s.name, s.claimed, online[n]) for n, s in enumerate(self.seats))
        version = (self.seq, self.status, seats)
        if self._full is None or self._full[0] != version:
            self._full = (version, json.dumps(self.snapshot()))
        await send(self._full[1])

    async def disconnect(self, send: Send, seat: int | None) -> None:
        """A client left (or was dropped); if it was a seat's last connection, the others
        see that player offline."""
        self.connections.pop(send, None)
        if seat is not None and not self.online()[seat]:
            await self.announce_presence()
        if self.ended and not self.connections:
            self.on_idle(self)

    def claim(
        self,
        seat: int,
        name: str | None = None,
        new_token: bool = False,
        profile: str | None = None,
    ) -> None:
        """A person takes their seat (by opening its link, or from the lobby with a name and
        a fresh token, so that the seat's old invite link stops working and no two people
        share a seat), as a ``profile`` if given; the game starts once every person's seat
        is taken."""
        token = secrets.token_urlsafe(16) if new_token else None
        meta: dict[str, object] = {}
        if profile is not None:
            profiles = [*self.profiles()]
            profiles[seat] = profile
            meta["profiles"] = profiles
        header = self._header({seat: name} if name is not None else {}, meta)
        self.store.claim_seat(self.id, seat, name, header, token)  # first, then memory
        self.game.record.meta.update(meta)
        if name is not None:
            self.seats[seat].name = name
            self.game.record.seats[seat] = name
        self.seats[seat].claimed = True
        if token is not None:
            self.seats[seat].token = token
        self.settle_status()

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
        """Play a step in the engine, then store its moves; if storing fails they are taken
        back, so memory never runs ahead of the database."""
        first, turn = self.seq, self.game.state.turn
        history_before = len(self.game.history)
        step()  # raises, changing nothing, if the engine refuses
        try:
            state = self.game.state
            turns = state.turn if state.turn != turn or state.is_over else None  # for the lobby
            self.store.append_moves(self.id, first, self.game.record.moves[first:], turns)
        except StaleMoves:
            self.game.truncate(first)  # the stored moves are the game's: catch up on them
            raise
        except Exception:
            log.exception("could not store moves of game %s; taking them back", self.id)
            self.game.truncate(first)  # in memory: the database may be what failed
            raise Refused("not_saved") from None
        self._extend_log(history_before)
        if self.game.state.is_over:
            self._finish()

    def _extend_log(self, history_before: int) -> None:
        """The log entries of the moves made since the history had ``history_before``."""
        last_turn = self.game.history[history_before - 1][0] if history_before else None
        self._log.extend(log_entries(self.game.history[history_before:], last_turn))

    # ------------------------------------------------------------ catching up
    def catch_up(self, moves_only: bool = False) -> bool:
        """Read what other processes stored since this one last looked (moves, and unless
        ``moves_only`` seats and status) and play it into memory; whether anything changed.
        The stored game is the truth: memory only ever follows it."""
        self.behind = False
        if moves_only:
            return self._play_stored(self.store.moves_from(self.id, self.seq))
        stored = self.store.load(self.id, from_seq=self.seq)
        if stored is None:
            return False
        changed = self._play_stored(stored.moves)
        header = json.loads(stored.header)
        self.game.record.meta = header["meta"]
        for row in stored.seats:
            seat = Seat(row.name, row.bot, row.token, row.claimed, row.open_seat)
            if seat != self.seats[row.seat]:
                self._seat(row.seat, seat)
                changed = True
        if stored.status != self.status:
            self.status, changed = stored.status, True
        return changed

    def _play_stored(self, moves: list[str]) -> bool:
        history_before = len(self.game.history)
        for move in moves:
            self.game.push(move)  # stored by a process that checked it: legal
        self._extend_log(history_before)
        return bool(moves)

    async def refresh(self, moves_only: bool = False) -> None:
        """Catch up (see :meth:`catch_up`) and, if anything changed, tell this process's
        clients and let the bots play if it is their turn now."""
        if self.catch_up(moves_only):
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

    # ----------------------------------------------------------------- bots
    def wake_bots(self) -> None:
        """Make sure the bot task runs when it is a bot's turn in a started game."""
        idle = self._bot_task is None or self._bot_task.done()
        if idle and self.drives_bots and self.status == "playing" and self.session.is_bot_turn():
            self._bot_task = asyncio.create_task(self._play_bots())

    async def _play_bots(self) -> None:
        failures = 0
        while self.drives_bots and self.status == "playing" and self.session.is_bot_turn():
            # After a failure (the database away?) wait longer, up to a minute, then retry.
            await asyncio.sleep(self.bot_delay if not failures else min(60, 2**failures))
            try:
                await self._bot_step()
                failures = 0
            except StaleMoves:  # the lease moved on meanwhile: follow what was stored
                await self.refresh()
                continue
            except Exception:
                failures += 1
                log.exception("a bot of game %s could not play (try %d)", self.id, failures)
                continue
            await self.broadcast()

    async def _bot_step(self) -> None:
        """One step of the play loop (a roll or a bot's decision), thought out in a worker
        thread on a copy of the state, so other games stay responsive, then played."""
        state, seq, session = self.game.state, self.seq, self.session
        try:
            step = await asyncio.to_thread(next_step, state.copy(), session.players, session.dice)
        except Exception:  # a bug in a bot must not stop the game: log it, play on
            log.exception("the bot of game %s failed; it plays a legal action", self.id)
            step = state.legal_actions()[0]
        if step is not None and seq == self.seq:  # nothing else moves a bot's turn
            self._commit(lambda: apply(self.game, step))

    async def stop(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(BaseException):  # cancelled, or failed: it is over
                await self._bot_task

    # ------------------------------------------------------------ broadcast
    async def broadcast(self, skip: Send | None = None) -> None:
        """The new state to everyone (but ``skip``, who has it), with only the log lines
        not sent before."""
        message = json.dumps(self.snapshot(self._log_sent))  # once, however many watch
        self._log_sent = len(self._log)
        await self._send_all(message, skip)

    async def announce_presence(self, skip: Send | None = None) -> None:
        """Who is online, when a player comes or goes: a few bytes, not the whole state."""
        await self._send_all(json.dumps({"type": "presence", "online": self.online()}), skip)

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
