"""Which database ``--database`` names, and opening it: the same code runs on SQLite (a file,
the default) and PostgreSQL, through SQLAlchemy Core; a database is opened with its schema
brought up to date (see :mod:`.migrations`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import sqlalchemy as sa
from platformdirs import user_data_path
from sqlalchemy.dialects import postgresql, sqlite

from pickomino.web.db import migrations

#: How PostgreSQL names the store's connections (``pg_stat_activity.application_name``).
APPLICATION = "pickomino-store"


def default_database() -> Path:
    """A per-user file, e.g. ``~/.local/share/pickomino/games.sqlite3`` on Linux (its folder
    made if need be: a folder named by ``--database`` must exist, so a typing slip makes none)."""
    return user_data_path("pickomino", ensure_exists=True) / "games.sqlite3"


def database_url(database: str | Path) -> str:
    """An SQLAlchemy URL from ``--database``: a PostgreSQL URL or a path to an SQLite file."""
    text = str(database)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        return text  # any SQLAlchemy URL, e.g. sqlite:// for a database in memory
    return f"sqlite:///{Path(text).expanduser()}"


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


def in_memory(url: sa.URL) -> bool:
    """Whether ``url`` is an SQLite database in memory (``sqlite://``), not in a file."""
    return url.drivername == "sqlite" and url.database in (None, "", ":memory:")


def sqlite_file(url: sa.URL) -> Path | None:
    """The file of an SQLite database: its URL's path, or the path of a ``file:`` URI
    (``sqlite:///file:games.sqlite3?mode=rwc&uri=true``), not the URI itself (which would
    put the secret in the current folder); ``None`` in memory."""
    if url.get_backend_name() != "sqlite" or in_memory(url) or not url.database:
        return None  # another database than SQLite is refused when it is opened
    if not sa.util.asbool(url.query.get("uri", False)) or not url.database.startswith("file:"):
        return Path(url.database)
    path = unquote(urlsplit(url.database).path)
    return None if url.query.get("mode") == "memory" or path in ("", ":memory:") else Path(path)


def _owner_only_when_new(url: sa.URL) -> None:
    """A new SQLite file is made readable and writable by its owner only (SQLite gives its
    log files the same mode): it keeps the seats' secrets and the score sheets' keys, with
    which anyone who reads it could play any seat. A file there already keeps its mode."""
    file = sqlite_file(url)
    if file is not None and url.query.get("mode") != "ro":
        with contextlib.suppress(FileExistsError):
            os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def open_database(database: str | Path, pool: int) -> sa.Engine:
    """An engine for ``--database`` holding at most ``pool`` connections, its schema brought
    up to date (under a lock: see :mod:`.migrations`)."""
    url = sa.make_url(database_url(database))
    _owner_only_when_new(url)
    if in_memory(url):
        # One shared connection, or every connection would see its own empty database.
        engine = sa.create_engine(
            url, poolclass=sa.StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        engine = _engine_with_driver(url, pool)
    if engine.dialect.name == "sqlite":
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    migrations.upgrade(engine)
    return engine


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


def first_insert(db: sa.Connection, table: sa.Table, **values: object) -> bool:
    """Insert a row unless its key is taken; whether this inserted it (PostgreSQL says so by
    the row it returns, SQLite by its count of changes: its ``RETURNING`` is 3.35's and
    newer, older than some systems' SQLite)."""
    statement = insert_unless_there(db, table).values(**values)
    if db.dialect.name == "postgresql":
        return db.execute(statement.returning(*table.primary_key.columns)).first() is not None
    return db.execute(statement).rowcount == 1


def insert_unless_there(engine: sa.Engine | sa.Connection, table: sa.Table) -> sa.Insert:
    """An ``INSERT`` into ``table`` that writes nothing where its key is taken (the row count
    tells), instead of raising an error that would end a PostgreSQL transaction."""
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    return dialect.insert(table).on_conflict_do_nothing()
