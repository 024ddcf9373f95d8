"""Where the web app keeps its games, in the database :mod:`.database` opens.

A game is stored as its record (the header: rules, seats, start player, meta) and its
moves, one row per move, appended *before* anything is broadcast. Loading a game replays its
moves through the engine, so after a crash (even ``kill -9``) every game goes on from its
last stored move. Every change is announced to the other server processes (:mod:`.notices`).

>>> store = Store("sqlite://")  # in memory, for the example
>>> store.create_game("g1", '{"seats": ["Ann", "Bob"]}', [StoredSeat(0, "Ann", None, "t0")])
>>> store.append_moves("g1", 0, ["dice 11223345", "keep 3"])
>>> store.load("g1").moves
['dice 11223345', 'keep 3']
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from pickomino.web.addresses import Counted
from pickomino.web.db.database import in_memory, open_database
from pickomino.web.db.ids import valid_id
from pickomino.web.db.move_writes import GameMoves, MoveWrites, StaleHolder
from pickomino.web.db.networks import Origin
from pickomino.web.db.notices import NOT_A_MOVE, announce
from pickomino.web.db.sheets import SheetStore
from pickomino.web.db.tables import games, moves, seats, table_events

#: The statuses of a game still to be played (the others: "over" and "abandoned").
UNFINISHED = ("open", "playing")
#: The first half of the advisory lock's key that makes a site's games one at a time
#: (:meth:`Store.create_game`; the leases use 0x5049, the migrations 0x504D, the sheets 0x5053).
MADE_LOCK_SPACE = 0x5047
#: The lobby's lists, by status: waiting for players, in play, ended.
LOBBY_LISTS = (("open",), ("playing",), ("over", "abandoned"))


def newest_first(row: sa.Row[Any]) -> tuple[float, str]:
    return -row.updated, row.id


#: The most connections one process's store holds (``serve --db-pool``): its queries run on
#: the event loop, one at a time, and a few in threads.
POOL = 5


#: A change to a game's stored header (the record without its moves, as JSON): the new one.
HeaderChange = Callable[[str], str]


@dataclass
class StoredSeat:
    """A seat of a game as stored (a row of ``seats``), secrets and all."""

    seat: int
    name: str
    bot: str | None
    token: str | None
    claimed: bool = False
    open_seat: bool = False
    spent: str | None = None
    transfer: str | None = None


@dataclass
class TableEvent:
    """A log entry of the table (a timeout, a seat handed to a bot or back), after ``seq``
    moves: the log puts it among the engine's events there."""

    seq: int
    entry: dict[str, object]


@dataclass
class StoredGame:
    id: str
    header: str
    status: str
    created: float
    updated: float
    seats: list[StoredSeat]
    moves: list[str]
    seating: str | None = None  #: see :mod:`pickomino.web.game.seating`
    events: list[TableEvent] = field(default_factory=list)
    resting: bool = False  #: see :meth:`Store.rest`


class Store:
    """The games table, their seats and moves; every method is one transaction. The score
    keeper's sheets are in the same database (:attr:`sheets`)."""

    def __init__(self, database: str | Path, pool: int = POOL) -> None:
        self.engine = open_database(database, pool)
        self.in_memory = in_memory(self.engine.url)
        self.sheets = SheetStore(self.engine)
        #: This process, in the notices it sends (so it can skip its own).
        self.origin = secrets.token_hex(4)
        #: Storing moves, the one write of every action (see :mod:`.move_writes`).
        self.move_writes = MoveWrites(self.engine, self.origin, notify=self.shared)
        self._commits = 0
        sa.event.listen(self.engine, "commit", self._committed)

    def _committed(self, _connection: object) -> None:
        self._commits += 1

    @property
    def changes(self) -> int:
        """How many transactions this process committed (SQLAlchemy's and the moves'): an
        answer kept for everyone is read again once it moved
        (:mod:`pickomino.web.api.shared_answers`)."""
        return self._commits + self.move_writes.stored

    @property
    def shared(self) -> bool:
        """See :func:`.database.shared_database` (changes are announced: see :mod:`.notices`)."""
        return self.engine.dialect.name == "postgresql"

    def announce(self, db: sa.Connection, game_id: str, seq: int = NOT_A_MOVE) -> None:
        """Announce a change to the other processes, if they share the database."""
        if self.shared:
            announce(db, self.origin, game_id, seq)

    def close(self) -> None:
        self.checkpoint()
        self.engine.dispose()

    @property
    def needs_checkpoints(self) -> bool:
        """SQLite files (no log to fold in memory; sharing its one connection would be
        wrong)."""
        return self.engine.dialect.name == "sqlite" and not self.in_memory

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file (call it now and then, off
        the event loop); a no-op on PostgreSQL."""
        if self.needs_checkpoints:
            with self.engine.connect() as db:
                db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # ---------------------------------------------------------------- writes
    def create_game(
        self,
        game_id: str,
        header: str,
        seat_rows: list[StoredSeat],
        origin: Origin | None = None,
        check: Callable[[sa.Connection], None] | None = None,
    ) -> None:
        """Store a new game (``origin``: where its creator made it from). ``check(db)``, in
        the same transaction first, may refuse it (raising) from what its origin made
        (:meth:`open_games_from`, … given ``db``): on PostgreSQL one process at a time for
        the origin's site, so that two processes counting at once do not both pass. A game
        nobody waits for (bots, and people whose seats are taken) is stored in play: the
        next count made under the lock counts it so."""
        now = time.time()
        made = origin.columns() if origin else {}
        waits = any(row.bot is None and not row.claimed for row in seat_rows)
        with self.engine.begin() as db:
            if check is not None and origin is not None:
                origin.one_at_a_time(db, MADE_LOCK_SPACE)
                check(db)
            db.execute(
                games.insert().values(
                    id=game_id, header=header, status="open" if waits else "playing",
                    created=now, updated=now, turns=1,
                    **made,
                )
            )  # fmt: skip
            db.execute(seats.insert(), [{"game_id": game_id, **vars(row)} for row in seat_rows])
            self.announce(db, game_id)

    def append_moves(
        self,
        game_id: str,
        first_seq: int,
        new_moves: list[str],
        turns: int | None = None,
        seating: str | None = None,
    ) -> None:
        """Store moves numbered from ``first_seq`` now, in a transaction of their own; a
        number already taken raises :class:`.StaleMoves` (see :meth:`.MoveWrites.write`; the
        server stores an action's moves with the others of the event loop's pass)."""
        self.move_writes.now(GameMoves(game_id, first_seq, new_moves, turns, seating))

    def change_seating(
        self,
        game_id: str,
        change: Callable[[str | None], tuple[str, list[TableEvent]] | None],
        holder: tuple[int, str] | None = None,
    ) -> bool:
        """Change who plays each seat and the clock from what is stored, the game's row
        locked meanwhile: ``change(stored)`` gives the new seating and the log entries that
        say why (``None``: nothing to store). Two processes changing it at once (two votes)
        each change what the other stored, never overwrite it; whether anything was stored.
        A person's change (``holder``: their seat and the secret they came with) is stored
        only while that secret holds the seat (else :class:`.StaleHolder`, nothing stored)."""
        with self.engine.begin() as db:
            if holder is not None:
                seat, secret = holder
                held_by = sa.select(seats.c.token).where(
                    seats.c.game_id == game_id, seats.c.seat == seat
                )
                if db.execute(held_by).scalar() != secret:
                    raise StaleHolder(game_id, None)
            # FOR NO KEY UPDATE: not waiting for the key-share locks a process storing moves
            # holds (their rows' reference to the game), which would close a circle with
            # the games it locks next (a deadlock, found by a review's stress test)
            locked = (
                sa.select(games.c.seating)
                .where(games.c.id == game_id)
                .with_for_update(key_share=True)
            )
            changed = change(db.execute(locked).scalar())
            if changed is None:
                return False
            seating, events = changed
            db.execute(games.update().where(games.c.id == game_id).values(seating=seating))
            self.announce(db, game_id)
            if events:
                stored = db.execute(
                    sa.select(sa.func.count()).where(table_events.c.game_id == game_id)
                ).scalar_one()
                db.execute(
                    table_events.insert(),
                    [
                        {
                            "game_id": game_id,
                            "number": stored + n,
                            "seq": event.seq,
                            "entry": json.dumps(event.entry),
                        }
                        for n, event in enumerate(events)
                    ],
                )
        return True

    def set_status(self, game_id: str, status: str, header: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(status=status, header=header, updated=time.time())
            )
            self.announce(db, game_id)

    def stop_playing(self, game_id: str, header: str) -> bool:
        """Mark a game in play as abandoned at its turn limit, with its new ``header`` (the
        record's ``meta`` says so); ``False`` (nothing changed) if it is not in play any more:
        another process stopped it first."""
        return self._abandon_if(game_id, "playing", header)

    def abandon(self, game_ids: list[str]) -> None:
        """Mark unfinished games as abandoned; their moves stay (the record and the replay
        still work) and the time of their last activity too."""
        if not game_ids:
            return
        with self.engine.begin() as db:
            db.execute(
                games.update()
                .where(games.c.id.in_(game_ids), games.c.status.in_(UNFINISHED))
                .values(status="abandoned")
            )
            for game_id in game_ids:
                self.announce(db, game_id)

    def call_off(self, game_id: str, header: str) -> bool:
        """Mark a game still waiting for players as abandoned (its creator called it off);
        ``False`` (nothing changed) if it is not waiting any more: another process started
        it first."""
        return self._abandon_if(game_id, "open", header)

    def _abandon_if(self, game_id: str, status: str, header: str) -> bool:
        """Mark the game abandoned, with its new ``header``, if its status is still ``status``
        (the database decides between processes); whether it was."""
        with self.engine.begin() as db:
            changed = db.execute(
                games.update()
                .where(games.c.id == game_id, games.c.status == status)
                .values(status="abandoned", header=header, updated=time.time())
            ).rowcount
            if changed:
                self.announce(db, game_id)
        return bool(changed)

    def claim_seat(
        self, game_id: str, seat: int, name: str | None, header: HeaderChange, token: str
    ) -> bool:
        """Mark a person's seat as taken, with the new secret ``token`` (the old one, its
        invite link's if it had one, is kept as spent; renamed: the header holds the
        names); ``False`` (and nothing changed) if it was taken already: the database
        decides between two processes giving one seat at once."""
        values: dict[str, object] = {
            "claimed": True, "token": token, "spent": seats.c.token, "transfer": None,
        }  # fmt: skip
        if name is not None:
            values["name"] = name
        return self._change_seat(game_id, seat, [sa.not_(seats.c.claimed)], values, header)

    def new_seat_token(self, game_id: str, seat: int, token: str, opened_by: str) -> bool:
        """Give a taken seat the new secret ``token``, if ``opened_by`` still opens it (its
        current secret, or its transfer secret, which is spent by this); ``False`` (and
        nothing changed) if not: a secret is replaced once, whichever process asks."""
        opens = sa.or_(seats.c.token == opened_by, seats.c.transfer == opened_by)
        spent = sa.case((seats.c.transfer == opened_by, opened_by), else_=seats.c.spent)
        values = {"token": token, "transfer": None, "spent": spent}
        return self._change_seat(game_id, seat, [opens], values)

    def new_secrets(self, taken: list[tuple[str, int]]) -> None:
        """New secrets, which nobody holds, for these taken seats (game, seat), in one
        transaction; the other processes are told."""
        with self.engine.begin() as db:
            for game_id, seat in taken:
                db.execute(
                    seats.update()
                    .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.claimed)
                    .values(token=secrets.token_urlsafe(16), transfer=None)
                )
                self.announce(db, game_id)

    def set_transfer(self, game_id: str, seat: int, transfer: str, holder: str) -> bool:
        """Store a seat's one-time transfer secret (replacing any earlier one), if
        ``holder`` is still the seat's secret; ``False`` if not."""
        holds = seats.c.token == holder
        taken = seats.c.claimed  # an untaken seat's secret is its invite link's
        return self._change_seat(game_id, seat, [holds, taken], {"transfer": transfer})

    def reseat(
        self, game_id: str, seat: int, name: str, bot: str | None, header: HeaderChange
    ) -> bool:
        """A person's seat nobody took becomes a ``bot``'s, or (``None``) an open seat, its
        token gone; ``False`` (and nothing changed) if the seat is taken or not a person's."""
        untaken = [seats.c.bot.is_(None), sa.not_(seats.c.claimed)]
        values = {
            "name": name, "bot": bot, "token": None, "transfer": None, "open_seat": bot is None,
        }  # fmt: skip
        return self._change_seat(game_id, seat, untaken, values, header)

    def _change_seat(
        self,
        game_id: str,
        seat: int,
        still: list[Any],
        values: Mapping[str, object],
        header: HeaderChange | None = None,
    ) -> bool:
        """Change one seat if the conditions ``still`` hold (one UPDATE: the database
        decides between processes), with ``header`` changing the stored header if given (the
        row locked: another process's change of another seat at the same moment stays), and
        tell the other processes; ``False`` (and nothing changed) if they no longer hold."""
        with self.engine.begin() as db:
            changed = db.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.seat == seat, *still)
                .values(**values)
            ).rowcount
            if changed:
                if header is not None:
                    locked = sa.select(games.c.header).where(games.c.id == game_id)
                    stored = db.execute(locked.with_for_update(key_share=True)).scalar_one()
                    db.execute(
                        games.update()
                        .where(games.c.id == game_id)
                        .values(header=header(stored), updated=time.time())
                    )
                self.announce(db, game_id)
        return bool(changed)

    # ----------------------------------------------------------------- reads
    def turns_of(self, game_id: str) -> int | None:
        """The turn a game is in, as stored (``None``: no such game, or one stored by an
        older version that has not moved since)."""
        with self.engine.connect() as db:
            return db.execute(sa.select(games.c.turns).where(games.c.id == game_id)).scalar()

    def status_of(self, game_id: str) -> str | None:
        """A game's status as stored, read without its moves (``None``: no such game)."""
        with self.engine.connect() as db:
            return db.execute(sa.select(games.c.status).where(games.c.id == game_id)).scalar()

    def load(self, game_id: str, from_seq: int = 0) -> StoredGame | None:
        """The game, with its moves from number ``from_seq`` on (a process catching up
        reads only the moves it lacks)."""
        if not valid_id(game_id):
            return None
        with self.engine.connect() as db:
            row = db.execute(games.select().where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = db.execute(
                seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).all()
            move_rows = db.execute(
                sa.select(moves.c.move)
                .where(moves.c.game_id == game_id, moves.c.seq >= from_seq)
                .order_by(moves.c.seq)
            ).all()
            events = self._events(db, game_id)
        return StoredGame(
            id=row.id,
            header=row.header,
            status=row.status,
            created=row.created,
            updated=row.updated,
            seats=[
                StoredSeat(
                    r.seat,
                    r.name,
                    r.bot,
                    r.token,
                    r.claimed,
                    bool(r.open_seat),
                    r.spent,
                    r.transfer,
                )
                for r in seat_rows
            ],
            moves=[r.move for r in move_rows],
            seating=row.seating,
            events=events,
            resting=row.resting,
        )

    def table_events(self, game_id: str) -> list[TableEvent]:
        """The table's log entries of a game (timeouts, seats handed to a bot and back)."""
        with self.engine.connect() as db:
            return self._events(db, game_id)

    @staticmethod
    def _events(db: sa.Connection, game_id: str) -> list[TableEvent]:
        rows = db.execute(
            table_events.select()
            .where(table_events.c.game_id == game_id)
            .order_by(table_events.c.number)
        ).all()
        return [TableEvent(row.seq, json.loads(row.entry)) for row in rows]

    def moves_from(self, game_id: str, from_seq: int) -> list[str]:
        """A game's moves from number ``from_seq`` on (what a process behind lacks)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(moves.c.move)
                .where(moves.c.game_id == game_id, moves.c.seq >= from_seq)
                .order_by(moves.c.seq)
            ).all()
        return [row.move for row in rows]

    def game_ids(
        self,
        statuses: tuple[str, ...],
        idle_since: float | None = None,
        resting: bool | None = None,
    ) -> list[str]:
        """Games with one of these statuses (and, if ``idle_since`` is given, no move, claim or
        status change since that time; if ``resting`` is, resting or not: :meth:`rest`)."""
        query = sa.select(games.c.id).where(games.c.status.in_(statuses))
        if idle_since is not None:
            query = query.where(games.c.updated < idle_since)
        if resting is not None:
            query = query.where(games.c.resting == resting)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [row.id for row in rows]

    def rest(self, game_id: str, resting: bool) -> None:
        """Mark an unfinished game resting (nothing can happen in it until somebody comes: no
        process holds it, a start does not load it, no lease is kept on it), or no longer."""
        with self.engine.begin() as db:
            db.execute(games.update().where(games.c.id == game_id).values(resting=resting))

    def listing(
        self, limit: int = 100, only: Collection[str] | None = None
    ) -> list[dict[str, object]]:
        """The lobby's games (no secrets in them): the ``limit`` most recently active of each
        list it shows — waiting for players, in play, ended (over, or abandoned after a move:
        one called off or never started has nothing to replay) — so games of one kind never
        push another's out (a hundred bots' games made in minutes hid every game waiting for
        players); ``only`` these games, whatever their status, if given."""
        recent = games.select().order_by(games.c.updated.desc()).limit(limit)
        with self.engine.connect() as db:
            if only is not None:
                rows = list(
                    db.execute(recent.where(games.c.id.in_([i for i in only if valid_id(i)])))
                )
            else:
                rows = []
                played = sa.exists().where(moves.c.game_id == games.c.id)
                for statuses in LOBBY_LISTS:  # each on the (status, updated) index
                    found = [
                        row
                        for status in statuses
                        for row in db.execute(
                            recent.where(games.c.status == status)
                            if status != "abandoned"
                            else recent.where(games.c.status == status, played)
                        )
                    ]
                    rows += sorted(found, key=newest_first)[:limit]
                rows.sort(key=newest_first)  # the lists together, newest activity first
            ids = [row.id for row in rows]
            seat_rows = db.execute(
                seats.select().where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)
            ).all()
        by_game: dict[str, list[dict[str, object]]] = {}
        for r in seat_rows:
            by_game.setdefault(r.game_id, []).append(
                {"name": r.name, "bot": r.bot, "claimed": r.claimed, "open": bool(r.open_seat)}
            )
        headers = {row.id: json.loads(row.header) for row in rows}
        return [
            {
                "id": row.id,
                "status": row.status,
                "rules": headers[row.id].get("rules"),
                "clock": headers[row.id].get("meta", {}).get("clock"),  # null: none
                # the final ranking, as data (games finished before it was kept: none)
                "ranking": headers[row.id].get("meta", {}).get("ranking"),
                "tie_break": headers[row.id].get("meta", {}).get("tie_break"),
                "stopped_after": headers[row.id].get("meta", {}).get("stopped_after"),
                "seats": by_game.get(row.id, []),
                "start_player": headers[row.id].get("start_player"),
                "turns": row.turns,
                "created": row.created,
                "updated": row.updated,
            }
            for row in rows
        ]

    def open_games_from(
        self, origin: Origin, within: float, db: sa.Connection | None = None
    ) -> Counted:
        """How many games created from this network (and its site) wait for players now,
        active in the last ``within`` seconds (``db``: in that transaction)."""
        recent = games.c.updated > time.time() - within
        return self._games_from(origin, db, games.c.status == "open", recent)

    def unfinished_games_from(self, origin: Origin, db: sa.Connection | None = None) -> Counted:
        """How many games created from this network (and its site) are unfinished (waiting
        for players or in play)."""
        return self._games_from(origin, db, games.c.status.in_(UNFINISHED))

    def bot_games_from(self, origin: Origin, db: sa.Connection | None = None) -> Counted:
        """How many games of bots alone created from this network (and its site) are in
        play."""
        people = sa.select(seats.c.game_id).where(
            seats.c.game_id == games.c.id, seats.c.bot.is_(None)
        )
        return self._games_from(origin, db, games.c.status == "playing", ~sa.exists(people))

    def _games_from(
        self, origin: Origin, db: sa.Connection | None, *conditions: sa.ColumnElement[bool]
    ) -> Counted:
        """How many games created from this network, and from its site, meet
        ``conditions`` (in ``db``'s transaction, else in one of their own)."""
        if db is not None:
            return origin.made_here(db, games, *conditions)
        with self.engine.connect() as own:
            return origin.made_here(own, games, *conditions)

    def opens_a_seat(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is, as stored, a seat's secret in the game or its spent link: a
        request with any other is refused without reading the game."""
        query = sa.select(seats.c.token, seats.c.spent).where(seats.c.game_id == game_id)
        with self.engine.connect() as db:
            secrets_kept = [kept for row in db.execute(query) for kept in row if kept]
        given = token.encode()
        return any(secrets.compare_digest(kept.encode(), given) for kept in secrets_kept)

    def has_free_open_seat(self, game_id: str) -> bool:
        """Whether a seat of the game is open to anyone and not taken yet, as stored."""
        free = seats.c.open_seat.is_(True) & seats.c.claimed.is_(False)
        query = sa.select(seats.c.seat).where(seats.c.game_id == game_id, free).limit(1)
        with self.engine.connect() as db:
            return db.execute(query).first() is not None

    def seat_tokens(self, game_ids: Collection[str]) -> dict[tuple[str, int], str]:
        """The people's seat tokens of these games, by (game, seat): to check tokens a
        browser holds without loading the games."""
        ids = [game_id for game_id in game_ids if valid_id(game_id)]
        query = sa.select(seats.c.game_id, seats.c.seat, seats.c.token).where(
            seats.c.game_id.in_(ids), seats.c.token.is_not(None)
        )
        with self.engine.connect() as db:
            return {(r.game_id, r.seat): r.token for r in db.execute(query).all()}
