"""The database's schema, versioned: Alembic revisions in ``versions/``, run at every start.

:func:`upgrade` brings a database to the newest revision in one transaction; on PostgreSQL
it first takes an advisory lock, so that processes started at the same instant (replicas
under systemd, Compose or Kubernetes) take turns: the first one builds the schema, the
others find it done. SQLite and PostgreSQL run the same revisions (SQLite's ALTERs through
Alembic's batch mode). A database made before migrations existed (tables, no
``alembic_version``) is stamped at the first revision, whose successor adds whatever such a
database may lack. :func:`new_revision` writes the next revision from the difference
between the tables the code declares and the newest revision's schema.

>>> engine = sa.create_engine("sqlite://")
>>> upgrade(engine)
>>> differences(engine)
[]
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from pickomino.web.db import tables

FOLDER = Path(__file__).parent
#: The revision a database made before migrations is stamped at (then upgraded from).
BEFORE_MIGRATIONS = "0001"
#: The first half of the advisory lock's key (the leases of games use 0x5049).
LOCK_SPACE = 0x504D


def target_metadata() -> list[sa.MetaData]:
    """Every table the code declares (:mod:`pickomino.web.db.tables`)."""
    return [tables.metadata]


def alembic_config(db: sa.Connection, folder: Path = FOLDER) -> Config:
    """Alembic's configuration without alembic.ini, for any of Alembic's commands
    (``alembic.command.downgrade``, ``history``, …): the revisions in ``folder``, run on
    ``db``."""
    config = Config()
    config.set_main_option("script_location", str(folder))
    config.attributes["connection"] = db
    return config


def upgrade(engine: sa.Engine, folder: Path = FOLDER) -> None:
    """Bring the database to the newest revision, in one transaction (under an advisory lock
    on PostgreSQL, released at its end)."""
    with engine.connect() as db, db.begin():
        if db.dialect.name == "postgresql":
            db.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK_SPACE, 0)))
        tables = sa.inspect(db).get_table_names()
        if "games" in tables and "alembic_version" not in tables:  # made before migrations
            MigrationContext.configure(db).stamp(ScriptDirectory(str(folder)), BEFORE_MIGRATIONS)
        command.upgrade(alembic_config(db, folder), "head")


def differences(engine: sa.Engine) -> list[Any]:
    """What differs between the database's schema and the tables the code declares
    (``[]`` when a revision covers every change)."""
    with engine.connect() as db:
        context = MigrationContext.configure(db, opts={"compare_type": True})
        return compare_metadata(context, target_metadata())  # type: ignore[arg-type]


def new_revision(message: str, folder: Path = FOLDER) -> Path:
    """Write the next revision into ``folder``: what the tables the code declares add to
    the newest revision's schema (made on a scratch SQLite database), titled ``message``.
    Read it before committing: renames, data moves and defaults need a hand."""
    number = f"{len(list(ScriptDirectory(str(folder)).walk_revisions())) + 1:04d}"
    with tempfile.TemporaryDirectory() as scratch:
        engine = sa.create_engine(f"sqlite:///{scratch}/schema.sqlite3")
        try:
            upgrade(engine, folder)
            with engine.begin() as db:
                config = alembic_config(db, folder)
                script = command.revision(config, message, autogenerate=True, rev_id=number)
        finally:
            engine.dispose()
    assert script is not None and not isinstance(script, list)
    return Path(script.path)
