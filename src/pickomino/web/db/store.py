"""Where the web app keeps its games: an SQL database through SQLAlchemy Core.

A game is stored as its record (the header: rules, seats, start player, meta) and its
moves, one row per move, appended *before* anything is broadcast. Loading a game replays its
moves through the engine, so after a crash (even ``kill -9``) every game goes on from its
last stored move. The same code runs on SQLite (a file, the default) and PostgreSQL.

>>> store = Store("sqlite://")  # in memory, for the example
>>> store.create_game("g1", '{"seats": ["Ann", "Bob"]}', [SeatRow(0, "Ann", None, "t0")])
>>> store.append_moves("g1", 0, ["dice 11223345", "keep 3"])
>>> store.load("g1").moves
['dice 11223345', 'keep 3']
"""

from __future__ import annotations

import json
import re
import secrets
import sys
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import sqlalchemy as sa
from platformdirs import user_data_path

from pickomino.web.db import migrations
from pickomino.web.db.tables import games, moves, seats, sheets, table_events

#: The statuses of a game still to be played (the others: "over" and "abandoned").
UNFINISHED = ("open", "playing")


#: PostgreSQL's channel on which every committed change of a game is announced to every
#: server process (see :mod:`pickomino.web.cluster.bridge`).
CHANNEL = "pickomino_games"
#: A notice's move number when the change was not a move (a seat, the status).
NOT_A_MOVE = -1
#: The most connections one process's store holds (``serve --db-pool``): its queries run on
#: the event loop, one at a time, and a few in threads.
POOL = 5
#: How PostgreSQL names the store's connections (``pg_stat_activity.application_name``).
APPLICATION = "pickomino-store"


class StaleMoves(Exception):
    """A move number already taken: another process stored a move of the game first."""


def notice(origin: str, game_id: str, seq: int) -> str:
    """The payload announcing a change: who made it, which game, and how many moves the game
    has now (``NOT_A_MOVE`` for a seat or status change). Ids hold no spaces.

    >>> notice("p1", "g1", 7), parse_notice("p1 g1 7")
    ('p1 g1 7', ('p1', 'g1', 7))
    """
    return f"{origin} {game_id} {seq}"


def parse_notice(payload: str) -> tuple[str, str, int] | None:
    """``(origin, game id, seq)``, or ``None`` for a payload of another shape."""
    parts = payload.split(" ")
    if len(parts) != 3 or not valid_id(parts[1]) or not parts[2].lstrip("-").isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def valid_id(text: str) -> bool:
    """Ids are URL-safe tokens; anything else (e.g. a NUL, which PostgreSQL refuses) names
    no game or sheet and is not looked up."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text) is not None


def shown_id(text: str, limit: int = 40) -> str:
    """An id as a refusal quotes it: cut to ``limit`` characters, so that a 404 does not
    echo whatever huge text was asked for, and with every invisible character (a control,
    a right-to-left mark) shown as ``�``. Not in quotes: the words around it (in the
    reader's language) quote it as that language does.

    >>> shown_id("a" + chr(0x202E) + "b"), shown_id("x" * 50, 4)  # a right-to-left mark
    ('a�b', 'xxxx…')
    """
    shown = "".join(char if char.isprintable() else "\ufffd" for char in text[:limit])
    return shown + ("…" if len(text) > limit else "")


@dataclass
class SeatRow:
    seat: int
    name: str
    bot: str | None
    token: str | None
    claimed: bool = False
    open_seat: bool = False
    spent: str | None = None
    transfer: str | None = None


@dataclass
class StoredSheet:
    data: str  #: the sheet as JSON
    secret: str | None  #: the key its link carries (None: a sheet from before keys)


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
    seats: list[SeatRow]
    moves: list[str]
    seating: str | None = None  #: see :mod:`pickomino.web.game.seating`
    events: list[TableEvent] = field(default_factory=list)


def default_database() -> Path:
    """A per-user file, e.g. ``~/.local/share/pickomino/games.sqlite3`` on Linux."""
    return user_data_path("pickomino") / "games.sqlite3"


def database_url(database: str | Path) -> str:
    """An SQLAlchemy URL from ``--database``: a PostgreSQL URL or a path to an SQLite file."""
    text = str(database)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        return text  # any SQLAlchemy URL, e.g. sqlite:// for a database in memory
    path = Path(text).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def shared_database(database: str | Path) -> bool:
    """Whether ``--database`` names a PostgreSQL database, which several server processes
    may share (an SQLite file is one process's own).

    >>> shared_database("postgresql://db.example/games"), shared_database("games.sqlite3")
    (True, False)
    """
    return str(database).startswith(("postgresql://", "postgres://", "postgresql+"))


def masked(text: str, database: str | Path) -> str:
    """``text`` with the password of ``--database`` (if its URL has one) replaced by
    ``***``: in any URL with a password, and wherever it stands alone (as typed or as
    decoded), for whatever the server prints or logs about the database.

    >>> url = "postgresql://ann:s%40cret@db.example/games"
    >>> masked(url, url)
    'postgresql://ann:***@db.example/games'
    >>> masked("login 's@cret' failed", url)
    "login '***' failed"
    """
    text = re.sub(r"(://[^/@:\s]*):[^@\s]*@", r"\1:***@", text)
    found = re.search(r"://[^/@:]*:([^@]*)@", str(database))
    for secret in {found.group(1), unquote(found.group(1))} if found else ():
        if secret:
            text = re.sub(rf"(?<![\w%]){re.escape(secret)}(?![\w%])", "***", text)
    return text


def _sqlite_pragmas(connection, _record) -> None:
    # WAL: a committed move survives the process being killed; readers never block writers.
    # No automatic checkpoints: they would run inside some player's commit and stall the
    # server for milliseconds; Store.checkpoint() does them from a worker thread instead.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _engine_with_driver(url: sa.URL, pool: int) -> sa.Engine:
    """An engine for ``url`` holding at most ``pool`` connections (no overflow: the sum over
    the processes must fit the server's ``max_connections``); a missing driver is told with
    what to install, not a traceback (psycopg comes with pickomino, but a Python set up by
    hand may lack it)."""
    named = {"application_name": APPLICATION} if url.get_backend_name() == "postgresql" else {}
    try:
        return sa.create_engine(url, pool_size=pool, max_overflow=0, connect_args=named)
    except ModuleNotFoundError as error:
        package = "psycopg[binary]" if error.name == "psycopg" else error.name
        raise RuntimeError(
            f"the {url.get_backend_name()} driver {error.name} is not installed in this "
            f"Python; install it with: {sys.executable} -m pip install '{package}'"
        ) from None


class Store:
    """The games table, their seats and moves; every method is one transaction."""

    def __init__(self, database: str | Path, pool: int = POOL) -> None:
        url = sa.make_url(database_url(database))
        self.in_memory = url.drivername == "sqlite" and url.database in (None, "", ":memory:")
        if self.in_memory:
            # One shared connection, or every connection would see its own empty database.
            self.engine = sa.create_engine(
                url, poolclass=sa.StaticPool, connect_args={"check_same_thread": False}
            )
        else:
            self.engine = _engine_with_driver(url, pool)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        migrations.upgrade(self.engine)  # the schema, under a lock: see .migrations
        #: This process, in the notices it sends (so it can skip its own).
        self.origin = secrets.token_hex(4)

    @property
    def shared(self) -> bool:
        """See :func:`shared_database` (changes are announced on :data:`CHANNEL`)."""
        return self.engine.dialect.name == "postgresql"

    def _announce(self, db: sa.Connection, game_id: str, seq: int = NOT_A_MOVE) -> None:
        """Announce a change to every process, inside its transaction: PostgreSQL delivers
        the notice at commit (and never if it rolls back)."""
        if self.shared:
            payload = notice(self.origin, game_id, seq)
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

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
    def create_game(self, game_id: str, header: str, seat_rows: list[SeatRow]) -> None:
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                games.insert().values(
                    id=game_id, header=header, status="open", created=now, updated=now, turns=1
                )
            )
            db.execute(seats.insert(), [{"game_id": game_id, **vars(row)} for row in seat_rows])
            self._announce(db, game_id)

    def append_moves(
        self,
        game_id: str,
        first_seq: int,
        new_moves: list[str],
        turns: int | None = None,
        seating: str | None = None,
    ) -> None:
        """Store moves numbered from ``first_seq``; a number already taken (another process
        moved first) raises :class:`StaleMoves`, and nothing of the batch is kept: the
        unique (game, number) is what serialises the moves of several processes. ``turns``,
        given when the moves began a turn or ended the game, is stored for the lobby and
        marks the game as active now (for the lobby's order: once a turn is plenty).
        ``seating``, given when the moves changed it (a clock stopped or started), is
        stored with them."""
        with self.engine.begin() as db:
            try:
                db.execute(
                    moves.insert(),
                    [
                        {"game_id": game_id, "seq": first_seq + i, "move": move}
                        for i, move in enumerate(new_moves)
                    ],
                )
            except sa.exc.IntegrityError:  # the transaction rolls back
                raise StaleMoves(game_id, first_seq) from None
            self._announce(db, game_id, first_seq + len(new_moves))
            values: dict[str, object] = {} if seating is None else {"seating": seating}
            if turns is not None:
                values.update(turns=turns, updated=time.time())
            if values:
                db.execute(games.update().where(games.c.id == game_id).values(**values))

    def save_seating(self, game_id: str, seating: str, events: list[TableEvent]) -> None:
        """Store who plays each seat and the clock, and the log entries that say why, at
        once."""
        with self.engine.begin() as db:
            db.execute(games.update().where(games.c.id == game_id).values(seating=seating))
            self._announce(db, game_id)
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

    def set_status(self, game_id: str, status: str, header: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(status=status, header=header, updated=time.time())
            )
            self._announce(db, game_id)

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
                self._announce(db, game_id)

    def claim_seat(
        self, game_id: str, seat: int, name: str | None, header: str, token: str
    ) -> bool:
        """Mark a person's seat as taken, with the new secret ``token`` (the old one, its
        invite link's if it had one, is kept as spent; renamed: the header holds the
        names); ``False`` (and nothing changed) if it was taken already: the database
        decides between two processes giving one seat at once."""
        values: dict[str, object] = {"claimed": True, "token": token, "spent": seats.c.token}
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

    def set_transfer(self, game_id: str, seat: int, transfer: str, holder: str) -> bool:
        """Store a seat's one-time transfer secret (replacing any earlier one), if
        ``holder`` is still the seat's secret; ``False`` if not."""
        holds = seats.c.token == holder
        return self._change_seat(game_id, seat, [holds], {"transfer": transfer})

    def reseat(self, game_id: str, seat: int, name: str, bot: str | None, header: str) -> bool:
        """A person's seat nobody took becomes a ``bot``'s, or (``None``) an open seat, its
        token gone; ``False`` (and nothing changed) if the seat is taken or not a person's."""
        untaken = [seats.c.bot.is_(None), sa.not_(seats.c.claimed)]
        values = {"name": name, "bot": bot, "token": None, "open_seat": bot is None}
        return self._change_seat(game_id, seat, untaken, values, header)

    def _change_seat(
        self,
        game_id: str,
        seat: int,
        still: list[Any],
        values: Mapping[str, object],
        header: str | None = None,
    ) -> bool:
        """Change one seat if the conditions ``still`` hold (one UPDATE: the database
        decides between processes), with the game's new ``header`` if given, and tell the
        other processes; ``False`` (and nothing changed) if they no longer hold."""
        with self.engine.begin() as db:
            changed = db.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.seat == seat, *still)
                .values(**values)
            ).rowcount
            if changed:
                if header is not None:
                    db.execute(
                        games.update()
                        .where(games.c.id == game_id)
                        .values(header=header, updated=time.time())
                    )
                self._announce(db, game_id)
        return bool(changed)

    # ----------------------------------------------------------------- reads
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
            event_rows = db.execute(
                table_events.select()
                .where(table_events.c.game_id == game_id)
                .order_by(table_events.c.number)
            ).all()
        return StoredGame(
            id=row.id,
            header=row.header,
            status=row.status,
            created=row.created,
            updated=row.updated,
            seats=[
                SeatRow(
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
            events=[TableEvent(r.seq, json.loads(r.entry)) for r in event_rows],
        )

    def moves_from(self, game_id: str, from_seq: int) -> list[str]:
        """A game's moves from number ``from_seq`` on (what a process behind lacks)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(moves.c.move)
                .where(moves.c.game_id == game_id, moves.c.seq >= from_seq)
                .order_by(moves.c.seq)
            ).all()
        return [row.move for row in rows]

    def game_ids(self, statuses: tuple[str, ...], idle_since: float | None = None) -> list[str]:
        """Games with one of these statuses (and, if ``idle_since`` is given, no move, claim or
        status change since that time)."""
        query = sa.select(games.c.id).where(games.c.status.in_(statuses))
        if idle_since is not None:
            query = query.where(games.c.updated < idle_since)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [row.id for row in rows]

    def listing(
        self, limit: int = 100, only: Collection[str] | None = None
    ) -> list[dict[str, object]]:
        """The most recently active games, for the lobby (no secrets in it); ``only`` these
        games if given."""
        query = games.select().order_by(games.c.updated.desc()).limit(limit)
        if only is not None:
            query = query.where(games.c.id.in_([i for i in only if valid_id(i)]))
        with self.engine.connect() as db:
            rows = db.execute(query).all()
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
                "seats": by_game.get(row.id, []),
                "turns": row.turns,
                "created": row.created,
                "updated": row.updated,
            }
            for row in rows
        ]

    def seat_tokens(self, game_ids: Collection[str]) -> dict[tuple[str, int], str]:
        """The people's seat tokens of these games, by (game, seat): to check tokens a
        browser holds without loading the games."""
        ids = [game_id for game_id in game_ids if valid_id(game_id)]
        query = sa.select(seats.c.game_id, seats.c.seat, seats.c.token).where(
            seats.c.game_id.in_(ids), seats.c.token.is_not(None)
        )
        with self.engine.connect() as db:
            return {(r.game_id, r.seat): r.token for r in db.execute(query).all()}

    # ------------------------------------------------------------ score sheets
    def create_sheet(self, sheet_id: str, secret: str, data: str, status: str) -> None:
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                sheets.insert().values(
                    id=sheet_id, secret=secret, data=data, status=status, created=now, updated=now
                )
            )

    def save_sheet(self, sheet_id: str, data: str, status: str) -> None:
        """Write a sheet whole (it is small) after a change."""
        with self.engine.begin() as db:
            db.execute(
                sheets.update()
                .where(sheets.c.id == sheet_id)
                .values(data=data, status=status, updated=time.time())
            )

    def load_sheet(self, sheet_id: str) -> StoredSheet | None:
        if not valid_id(sheet_id):
            return None
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(sheets.c.data, sheets.c.secret).where(sheets.c.id == sheet_id)
            ).first()
        return None if row is None else StoredSheet(row.data, row.secret)
