"""The hot path of the store, a move per action, run on the driver's own connection: its
statements are compiled by SQLAlchemy once, for the engine's dialect (so the same code speaks
SQLite's ``?`` and PostgreSQL's ``%(name)s``), and executed on the DBAPI cursor of a pooled
connection. Going through SQLAlchemy's :class:`~sqlalchemy.engine.Connection` cost some
80 µs a move in cache keys, parameter processing and transaction bookkeeping, twice what the
driver and SQLite spend storing it (``benchmarks/README.md``); the rest of the store keeps
SQLAlchemy, where a statement's cost does not matter.

>>> import sqlalchemy as sa
>>> engine = sa.create_engine("sqlite://", poolclass=sa.StaticPool)
>>> numbers = sa.Table("numbers", sa.MetaData(), sa.Column("n", sa.Integer, primary_key=True))
>>> numbers.metadata.create_all(engine)
>>> insert = Prepared(engine, numbers.insert())
>>> with driver_transaction(engine) as cursor:
...     insert.run(cursor, {"n": 1})
...     insert.run(cursor, {"n": 2})
>>> with engine.connect() as db:
...     db.execute(sa.select(numbers.c.n)).scalars().all()
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.sql.compiler import SQLCompiler


class Prepared:
    """A statement compiled once for ``engine``'s dialect (``columns``: the ones an insert
    or update sets, when not all), run with its parameters by name."""

    def __init__(
        self, engine: sa.Engine, statement: sa.ClauseElement, columns: Sequence[str] | None = None
    ) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=engine.dialect, column_keys=columns))
        self.sql = compiled.string
        #: The parameters' order for a driver that takes them by position (SQLite's ``?``).
        self._order = compiled.positiontup if engine.dialect.positional else None

    def params(self, values: Mapping[str, object]) -> Sequence[object] | Mapping[str, object]:
        """``values`` as the driver takes them."""
        return values if self._order is None else tuple(values[key] for key in self._order)

    def run(self, cursor: Any, values: Mapping[str, object]) -> None:
        cursor.execute(self.sql, self.params(values))


@contextmanager
def driver_transaction(engine: sa.Engine) -> Iterator[Any]:
    """A DBAPI cursor in a transaction on one of the pool's connections: committed when the
    block ends, rolled back if it raises (the driver's exception, as it is). A connection
    the database dropped is thrown out of the pool, as SQLAlchemy's own statements do."""
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            yield cursor
            connection.commit()
        except BaseException as error:
            if isinstance(
                error, engine.dialect.loaded_dbapi.Error
            ) and engine.dialect.is_disconnect(error, connection.dbapi_connection, cursor):
                connection.invalidate(error)
            else:
                with suppress(Exception):  # then the pool's own reset throws it out
                    connection.rollback()
            raise
        finally:
            cursor.close()
    finally:
        connection.close()  # back to the pool
