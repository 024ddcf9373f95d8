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

The room is the one object the rest of the app talks to; it holds the game's state and
hands each concern to a part of its own, each in a module of its own: who holds the seats
and their secrets (:mod:`.seat_holders`), who is connected and what they are sent
(:mod:`.audience`, :mod:`.state_message`), absence and votes (:mod:`.absence`), the timers
(:mod:`.alarms`), the bots' task (:mod:`.bot_driver`), and storing every change before
memory keeps it, or following what another process stored (:mod:`.commits`). A part knows
the room only as :class:`.SharedRoom` (:mod:`.shared`): what it asks of another part, the
room hands on, so no part imports the room or another part.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable

import sqlalchemy as sa

from pickomino.core import Game, GameRecord
from pickomino.table import KeyedDice, Seat, Session, SystemDice
from pickomino.web.db.move_writes import StaleMoves, StaleSeating
from pickomino.web.db.networks import Origin
from pickomino.web.db.results import is_rated
from pickomino.web.db.store import Store, StoredGame, StoredSeat
from pickomino.web.errors import Refused
from pickomino.web.game.absence import Absence
from pickomino.web.game.advisor import Advisor, Run, no_advice, no_hint
from pickomino.web.game.alarms import Alarms
from pickomino.web.game.audience import Audience
from pickomino.web.game.bot_driver import BotDriver
from pickomino.web.game.commits import TURN_LIMIT, Commits, beyond_the_limit
from pickomino.web.game.seat_holders import SeatHolders
from pickomino.web.game.seating import AWAY_AFTER, DEFAULT_TAKEOVER, Note, Seating, TimeControl
from pickomino.web.game.shared import SeatHolder, Send
from pickomino.web.game.state_message import state_message
from pickomino.web.game.tablelog import TableLog

#: How often a move is tried again after a vote stored elsewhere at the same moment (each
#: try reads it first: only yet another vote, again at that moment, needs the next).
SEATING_TRIES = 3


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


class Room:
    """A game in play (or waiting for its people, or over) and its connections."""

    def __init__(
        self,
        stored: StoredGame,
        store: Store,
        bot_delay: float,
        away_after: float = AWAY_AFTER,
        turn_limit: int = TURN_LIMIT,
    ) -> None:
        record = GameRecord.from_json(stored.header)
        record.moves = list(stored.moves)
        game = Game.from_record(record)
        seed = int(record.meta.get("seed", 0))
        self.seats = [SeatHolder.stored(row) for row in stored.seats]
        seats = [Seat(seat.name, seat.bot) for seat in self.seats]
        # a game made by a server started with --dice-seed rolls from its seed (reproducible)
        dice = KeyedDice(seed, game=0) if record.meta.get("dice") == "seeded" else SystemDice()
        self.session = Session(game, seats, dice, seed)
        self.id, self.store, self.bot_delay = stored.id, store, bot_delay
        self.status = stored.status
        #: Seconds the person to move may be disconnected before a bot plays for them
        #: (0: never), counted while somebody else at the table is connected.
        self.away_after = away_after
        #: The turns the game may last (0: no limit): then it stops, abandoned
        #: (:meth:`.Commits.stop_at_the_limit`). The game's own, set when it was made (every
        #: process stops it alike); ``turn_limit`` for a game made before there was one.
        self.turn_limit = int(record.meta.get("turn_limit", turn_limit))
        self.holders = SeatHolders(self)
        self.audience = Audience(self)
        self.absence = Absence(self)
        self.alarms = Alarms(self)
        self.bots = BotDriver(self)
        self.commits = Commits(self, notes=len(stored.events))
        #: The log the table shows: the engine's events and the table's own entries.
        self.table_log = TableLog.replayed(game.history, stored.events, game.state)
        self.advisor = Advisor()
        self.seating = Seating.load(stored.seating, record.meta, len(self.seats))
        self.seating_changes = 0  #: a version of the seating, for the state's cache
        self.commits.stand_ins()
        #: The seats connected to other server processes (:mod:`pickomino.web.cluster.presence`);
        #: with one, none.
        self.elsewhere: Callable[[], frozenset[int]] = frozenset
        #: Called when the seats connected to this process change (to tell the others).
        self.on_seated: Callable[[], None] = lambda: None
        #: Whether this process plays the game's bots: always with SQLite; with PostgreSQL,
        #: while it holds the game's lease (:mod:`pickomino.web.cluster.lease`), so that one
        #: process does.
        self.drives_bots = True
        #: Another process changed the game and nobody here was told yet: catch up before
        #: anybody is shown it (set instead of catching up when nobody here watches).
        self.behind = False
        #: Called when the game is over and nobody is connected (the server forgets it).
        self.on_idle: Callable[[Room], None] = lambda room: None
        #: The game's replay, encoded once it is asked for with these moves and names (their
        #: number and the seats', and its making): :func:`pickomino.web.api.games.replay_of`.
        self.replay: tuple[tuple[int, tuple[str, ...]], asyncio.Future[bytes]] | None = None
        #: When the server last handed the game out (monotonic seconds: see :class:`.Rooms`).
        self.used = time.monotonic()
        #: Called once the game is over and stored so (its results are recorded).
        self.on_finish: Callable[[Room], None] = lambda room: None
        #: Called once the game stopped at its turn limit, abandoned (its results are recorded).
        self.on_stopped: Callable[[Room], None] = lambda room: None

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
        turn_limit: int = TURN_LIMIT,
        dice_seed: int | None = None,
        origin: Origin | None = None,
        check: Callable[[sa.Connection], None] | None = None,
    ) -> Room:
        """A new game: ``bots`` names each seat's bot (``None``: a person); ``open_seats``
        are people's seats anyone may take from the lobby (they get a token when taken),
        the others get an invite token now; the ``creator``'s seat is taken at once. The
        people have the ``clock``'s time (``None``: all they like); the ``takeover`` bot
        plays for one who is away or out of time. The record's ``meta`` keeps what it holds
        already (who plays as which profile, …). ``dice_seed``: the game's seed, its dice drawn
        from it (``"dice": "seeded"`` in ``meta``), not from the system's generator.
        ``origin``: where the creator made it from, ``check`` what may refuse it as it is
        stored (see :meth:`.Store.create_game`)."""
        game_id = game_id or new_game_id()
        seed = secrets.randbelow(1 << 32) if dice_seed is None else dice_seed
        record.meta = {**record.meta, "seed": seed, "bots": bots, "takeover": takeover}
        record.meta["turn_limit"] = turn_limit
        if dice_seed is not None:
            record.meta["dice"] = "seeded"
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
        store.create_game(game_id, record.to_json(indent=None), rows, origin, check)
        stored = store.load(game_id)
        assert stored is not None
        room = cls(stored, store, bot_delay, away_after, turn_limit)
        room.settle_status()  # a game of bots (or bots and the creator): its clock starts
        return room

    def settle_status(self) -> None:
        """Make the stored status agree with the seats and the moves, and the clock with
        the game (the first turn's clock starts): a crash may have come between the last
        claim or move and what is written after it (a game past its turn limit stops)."""
        if self.game.state.is_over and self.status != "over":
            self.commits.finish()
            return
        if self.status == "open" and not self.waiting():
            self.commits.set_status("playing")
        if self.status == "playing" and beyond_the_limit(self):
            self.commits.stop_at_the_limit()
            return
        if self.status == "playing":
            with contextlib.suppress(Refused):  # logged; the next change settles it
                self.change_seating(lambda seating: [])

    # ---------------------------------------------------------------- views
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def ended(self) -> bool:
        """Over, or abandoned: nobody will play in it again."""
        return self.status in ("over", "abandoned")

    def dormant(self) -> bool:
        """Whether nothing can happen in this unfinished game until somebody comes, so that
        the process may let it go (:meth:`.Rooms.unload_dormant`; it is stored): nobody
        connected here, no move waiting to be stored and, if this process drives it, no bot
        to move, no alarm set (a clock runs while a timed game is played) and nobody
        connected to another process (whose absence it would time)."""
        if self.ended or self.connections or self.store.move_writes.waiting(self.id):
            return False
        if not self.drives_bots:  # another process drives it: kept here for pages only
            return True
        return self.bots.idle() and self.alarms.quiet() and not self.elsewhere()

    @property
    def seq(self) -> int:
        """How many moves have been made: the version of the state clients see."""
        return len(self.game.record.moves)

    def snapshot(self, log_start: int = 0) -> dict[str, object]:
        """The whole state for clients, the log from entry ``log_start`` on (see
        :func:`.state_message`)."""
        return state_message(self, log_start)

    async def hint(self, seat: int | None, run: Run = asyncio.to_thread) -> dict[str, object]:
        """The hint (:mod:`.advisor`), for the player to move only: the others may not look
        over their shoulder (after the game there is nothing to advise on)."""
        self.store_pending()  # advice on the game as stored
        self._no_help_if_rated()
        if self.status == "playing" and seat != self.game.state.current:
            raise Refused("hint_not_yours")
        if self.status != "playing":
            return no_hint(self.seq)
        return await self.advisor.hint(self.game.state, self.seq, run)

    async def coach_advice(
        self, seat: int | None, run: Run = asyncio.to_thread
    ) -> dict[str, object]:
        """The coach's values of the choices, for the player to move only, like a hint."""
        self.store_pending()
        self._no_help_if_rated()
        if self.status == "playing" and seat != self.game.state.current:
            raise Refused("coach_not_yours")
        if self.status != "playing":
            return no_advice(self.seq)
        return await self.advisor.advice(self.game.state, self.seq, run)

    @property
    def rated(self) -> bool:
        """Rated as its seats stand now (:func:`.is_rated`): then played without the hint and
        the coach (the review's own evaluator: who follows them plays as the expert bot)."""
        meta = self.game.record.meta
        seats = {"profiles": self.profiles(), "bots": [seat.bot for seat in self.seats]}
        return is_rated({**meta, **seats}, len(self.seats))

    def _no_help_if_rated(self) -> None:
        if self.rated:
            raise Refused("no_help_rated")

    # ---------------------------------------------------------------- moves
    async def act(self, seat: int | None, action: str, seq: int, secret: str | None = None) -> None:
        """A person's intent on the state version ``seq`` they saw, from a device holding
        ``secret`` (their seat's, as their socket opened it; ``None``: the one memory knows):
        stored only while it holds the seat. Raises :class:`Refused` with the reason and
        changes nothing. A vote stored elsewhere as the move was (its
        clock worked out from the seating before it) is read, and the move tried again on it:
        the moves are the same, and the vote may have changed whether the move may be made."""
        for _ in range(SEATING_TRIES):
            try:
                await self._act(seat, action, seq, secret)
                return
            except StaleSeating:
                await self.refresh()
        raise Refused("stale")

    async def _act(self, seat: int | None, action: str, seq: int, secret: str | None) -> None:
        self.store_pending()  # checked against the game as stored: a move before may fail
        state = self.game.state
        if seat is None:
            raise Refused("spectators_cannot_play")
        if self.status == "abandoned" or beyond_the_limit(self):  # stopped, or about to be
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
            await self.alarms.time_out()
            raise Refused("time_up", bot=self.seating.takeover)
        if self.seating.stood_in(seat, state.turn):
            raise Refused("time_up", bot=self.seating.takeover)
        if seq != self.seq:
            raise Refused("stale")
        try:  # the engine's refusal as it is
            await self.commit(lambda: self.session.decide(action), secret)
        except StaleSeating:
            raise
        except StaleMoves:  # another process moved first: this one was behind
            await self.refresh()
            raise Refused("stale") from None
        await self.broadcast()
        self.wake_bots()

    async def refresh(self, moves_only: bool = False) -> None:
        """Catch up (see :meth:`catch_up`) and, if anything changed, tell this process's
        clients and let the bots play if it is their turn now."""
        if self.catch_up(moves_only):
            await self.tell_moved()
            await self.broadcast()
            self.wake_bots()

    async def follow(self, moves: tuple[str, ...], seating: str | None) -> None:
        """Moves another process stored, carried by its notice (see :meth:`.Commits.follow`):
        played in, then this process's clients told, as :meth:`refresh` does."""
        if self.commits.follow(moves, seating):
            await self.tell_moved()
            await self.broadcast()
            self.wake_bots()

    async def stop(self) -> None:
        """Cancel the alarms and the game's tasks (the bots', and what the alarms started),
        and wait until they are over."""
        self.cancel_alarms()
        bots = [self.bots.task] if self.bots.task is not None else []
        tasks = [*self.alarms.tasks, *bots]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):  # cancelled, or failed: it is over
                await task

    # ------------------- the parts, as the app and each other call them (see SharedRoom)
    def seat_of(self, token: str | None, moving: bool = False) -> int | None:
        return self.holders.seat_of(token, moving)

    def take(self, seat: int, token: str) -> str | None:
        return self.holders.take(seat, token)

    def claim(
        self,
        seat: int,
        name: str | None = None,
        profile: str | None = None,
        token: str | None = None,
    ) -> str:
        return self.holders.claim(seat, name, profile, token)

    def new_secret(self, seat: int, opened_by: str) -> str:
        return self.holders.new_secret(seat, opened_by)

    def transfer(self, seat: int) -> str:
        return self.holders.transfer(seat)

    def replace_absent(self, seat: int, bot: str | None, name: str | None = None) -> None:
        self.holders.replace_absent(seat, bot, name)

    def call_off(self) -> None:
        """The creator calls off the game while it waits for players: abandoned before its
        first move (no results, nothing to replay). Raises :class:`Refused` (``game_started``)
        if it started meanwhile, here or in another process."""
        self.commits.flush()
        if self.status != "open" or not self.store.call_off(self.id, self.commits.header()):
            self.commits.catch_up()
            raise Refused("game_started")
        self.status = "abandoned"
        self.cancel_alarms()

    def free_open_seat(self) -> int | None:
        return self.holders.free_open_seat()

    def profiles(self) -> list[str | None]:
        return self.holders.profiles()

    def waiting(self) -> list[str]:
        return self.holders.waiting()

    def put(self, seat: int, new: SeatHolder) -> None:
        self.holders.put(seat, new)

    @property
    def connections(self) -> dict[Send, int | None]:
        return self.audience.connections

    @property
    def watchers(self) -> int:
        return self.audience.watchers

    def online(self) -> list[bool]:
        return self.audience.online()

    def present(self, online: list[bool] | None = None) -> set[int]:
        return self.audience.present(online)

    def seated_here(self) -> frozenset[int]:
        return self.audience.seated_here()

    def demote(self, seat: int) -> None:
        self.audience.demote(seat)

    async def connect(self, send: Send, seat: int | None, claiming: bool = False) -> None:
        await self.audience.connect(send, seat, claiming)

    async def disconnect(self, send: Send, seat: int | None) -> None:
        self.used = time.monotonic()  # a page reloading finds the game here (Rooms)
        await self.audience.disconnect(send, seat)

    async def send_full(self, send: Send) -> None:
        await self.audience.send_full(send)

    async def broadcast(self, skip: Send | None = None) -> None:
        await self.audience.broadcast(skip)

    async def send_each(self, message_for: Callable[[int | None], str]) -> None:
        await self.audience.send_each(message_for)

    async def presence_changed(self) -> None:
        self.used = time.monotonic()  # people on another process: as if handed out here
        await self.audience.presence_changed()

    async def tell_moved(self) -> None:
        await self.audience.tell_moved()

    async def vote(self, voter: int | None, seat: int, secret: str | None = None) -> None:
        """``voter``'s vote (from a device holding ``secret``, as :meth:`act`) for a bot to
        play ``seat``."""
        self.store_pending()
        # A vote refused from memory reads nothing (an audit: spectators' refused votes, each
        # a read of the whole timed game on the event loop, held a server for seconds).
        self.absence.refuse_vote(voter, seat)
        # a move another process stored ends the wait a vote may rest on (an audit: a vote
        # on a process not yet told of the move took the seat of who had just moved)
        await self.refresh(moves_only=True)
        try:
            await self.absence.vote(voter, seat, secret)  # checked again, on the game as stored
        finally:  # refused as the voter's seat moved elsewhere: its devices here are told
            await self.tell_moved()

    async def come_back(self, seat: int | None, secret: str | None = None) -> None:
        self.store_pending()
        try:
            await self.absence.come_back(seat, secret)
        finally:
            await self.tell_moved()

    def note_presence(self) -> None:
        self.absence.note_presence()

    def absent_turn(self) -> tuple[int, int] | None:
        return self.absence.absent_turn()

    def votes_ripen(self) -> float | None:
        return self.absence.votes_ripen()

    def votes_needed(self, present: set[int], now: float) -> list[int]:
        return self.absence.votes_needed(present, now)

    def wait_ripens(self) -> float | None:
        return self.absence.wait_ripens()

    def wait_told(self, now: float) -> None:
        self.absence.wait_told(now)

    def waited_on(self, now: float) -> int | None:
        return self.absence.waited_on(now)

    def count_votes(self) -> bool:
        return self.absence.count_votes()

    def set_alarms(self) -> None:
        self.alarms.set()

    def cancel_alarms(self) -> None:
        self.alarms.cancel()

    def wake_bots(self) -> None:
        self.bots.wake()

    async def commit(self, step: Callable[[], object], secret: str | None = None) -> None:
        await self.commits.commit(step, secret)

    def store_pending(self) -> None:
        self.commits.flush()

    async def until_stored(self) -> None:
        await self.commits.until_stored()

    def change_seating(
        self,
        change: Callable[[Seating], list[Note]],
        by: int | None = None,
        secret: str | None = None,
    ) -> bool:
        return self.commits.change_seating(change, by, secret)

    def catch_up(self, moves_only: bool = False) -> bool:
        return self.commits.catch_up(moves_only)

    def person_decides(self, seating: Seating) -> bool:
        return self.commits.person_decides(seating)
