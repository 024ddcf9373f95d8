"""The database's schema is versioned (Alembic migrations, run at every start under a lock):
replicas started at the same instant on an empty PostgreSQL database all come up, a database
written before migrations existed is upgraded and its games go on, and the migrations build
exactly the schema the code declares."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.db import migrations
from pickomino.web.db.database import database_url
from pickomino.web.db.store import Store

from .clients import next_of
from .server_process import ServerProcess, TemporaryPostgres
from .test_protocol import latest_state

pytestmark = pytest.mark.empty_database  # what these tests migrate

ROUNDS = 2  # released together at the catalog lock, they raced in the first round already
DATA = Path(__file__).parent.parent / "data"
#: Written by the code of commit 1c758f9 (tables by create_all, no alembic_version): a
#: profile, a sheet, and Ann and Bob's game with Ann's first roll ``dice 112344WW``.
BEFORE_MIGRATIONS = DATA / "web-before-migrations.sqlite3"
#: The same code's tables on PostgreSQL, as its create_all made them.
BEFORE_MIGRATIONS_DDL = DATA / "web-before-migrations.postgresql.sql"
GAME = "YwRAfmmY"
GATE_SECONDS = 30


@contextmanager
def gate(database: str, waiting: int) -> Iterator[None]:
    """Hold PostgreSQL's catalog locked while the body starts processes, and open it once
    ``waiting`` connections wait for it: they all go on at the same instant, on the
    database's clock rather than on how fast each one started."""
    with psycopg.connect(database) as holder:
        holder.execute("LOCK TABLE pg_catalog.pg_class IN ACCESS EXCLUSIVE MODE")
        yield
        deadline = time.monotonic() + GATE_SECONDS
        query = "SELECT count(*) FROM pg_locks WHERE NOT granted"
        while holder.execute(query).fetchone() < (waiting,) and time.monotonic() < deadline:
            time.sleep(0.05)
        holder.commit()


@pytest.mark.long
@pytest.mark.slow  # real server processes on PostgreSQL
def test_three_processes_started_at_the_same_instant_on_an_empty_postgresql_all_serve(
    postgres_cluster: TemporaryPostgres, tmp_path: Path
) -> None:
    spec = {"seats": [{"name": "Ann"}, {"name": "Bob"}]}
    for round_ in range(ROUNDS):
        database = postgres_cluster.new_database()
        servers = [
            ServerProcess(database, log=tmp_path / f"round{round_}-server{n}.log") for n in range(3)
        ]
        try:
            with gate(database, waiting=len(servers)):  # they race for the empty database
                for server in servers:
                    server.launch()
            for server in servers:
                server.wait_ready()
            created = httpx.post(f"{servers[0].url}/api/games", json=spec).json()
            for server in servers:  # each serves, from the one shared schema
                listed = httpx.get(f"{server.url}/api/games").json()
                assert [game["id"] for game in listed] == [created["id"]]
        finally:
            for server in servers:
                server.stop()


def copy_before_migrations(database: str) -> None:
    """Make ``database`` (empty) what the code before migrations left: the SQLite file
    itself, or on PostgreSQL that code's tables and the file's rows."""
    if not database.startswith("postgresql"):
        shutil.copy(BEFORE_MIGRATIONS, database)
        return
    source = sa.create_engine(f"sqlite:///{BEFORE_MIGRATIONS}")
    target = sa.create_engine(database_url(database))
    try:
        with source.connect() as old, target.begin() as new:
            new.exec_driver_sql(BEFORE_MIGRATIONS_DDL.read_text())
            tables = sa.MetaData()
            tables.reflect(old)
            for table in tables.sorted_tables:
                rows = [dict(row._mapping) for row in old.execute(table.select())]
                if rows:
                    new.execute(
                        sa.Table(table.name, sa.MetaData(), autoload_with=new).insert(), rows
                    )
    finally:
        source.dispose()
        target.dispose()


def seat_token(database: str, seat: int) -> str:
    store = Store(database)
    try:
        with store.engine.connect() as db:
            query = "SELECT token FROM seats WHERE game_id = :game AND seat = :seat"
            return db.execute(sa.text(query), {"game": GAME, "seat": seat}).scalar_one()
    finally:
        store.close()


def test_a_database_written_before_migrations_is_upgraded_and_its_game_plays_on(database):
    copy_before_migrations(database)
    app = create_app(database, bot_delay=0, message_rate=1000, new_games_per_minute=1e6)
    with TestClient(app) as client:
        [listed] = client.get("/api/games").json()
        assert (listed["id"], listed["status"]) == (GAME, "playing")
        ann = f"/ws/games/{GAME}?token={seat_token(database, 0)}"
        bob = f"/ws/games/{GAME}?token={seat_token(database, 1)}"
        with client.websocket_connect(ann) as ann_ws, client.websocket_connect(bob) as bob_ws:
            state = next_of(ann_ws, "state")
            assert state["table"]["phase"] == "keep" and "keep W" in state["actions"]
            ann_ws.send_json({"type": "act", "action": "keep W", "seq": state["seq"]})
            assert latest_state(bob_ws, state["seq"] + 1)["table"]["phase"] == "roll_or_stop"
        record = client.get(f"/api/games/{GAME}/record").json()
        assert record["moves"] == ["dice 112344WW", "keep W"]
        assert client.post("/api/profiles", json={"name": "Cy"}).status_code == 409  # kept
    store = Store(database)
    try:
        assert migrations.differences(store.engine) == []
    finally:
        store.close()


#: What 0002 adds to the first schema (0001): a database from the first version lacks it all.
LATER_TABLES = ("sheets", "table_events", "profiles", "results", "ratings", "pending", "rematches")
LATER_COLUMNS = (("games", "turns"), ("games", "seating"), ("seats", "open_seat"))


def test_a_database_of_the_first_schema_gains_every_later_table_and_column(database):
    copy_before_migrations(database)
    engine = sa.create_engine(database_url(database))
    try:
        with engine.begin() as db:  # back to the first version's tables
            for table in LATER_TABLES:
                db.exec_driver_sql(f"DROP TABLE {table}")
            for table, column in LATER_COLUMNS:
                db.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
    finally:
        engine.dispose()
    store = Store(database)
    try:
        assert migrations.differences(store.engine) == []
        assert store.load(GAME).moves == ["dice 112344WW"]
    finally:
        store.close()


def test_the_migrations_build_exactly_the_tables_the_code_declares(database):
    """A column or table added to the code without a revision fails here (see the README:
    adding a revision)."""
    store = Store(database)
    try:
        assert migrations.differences(store.engine) == []
    finally:
        store.close()


def test_the_revisions_go_down_to_nothing_and_up_again(database):
    store = Store(database)
    try:
        with store.engine.begin() as db:
            command.downgrade(migrations.alembic_config(db), "base")
        assert sa.inspect(store.engine).get_table_names() == ["alembic_version"]
        migrations.upgrade(store.engine)
        assert migrations.differences(store.engine) == []
    finally:
        store.close()


DROP_SEATING = """
from alembic import op

revision, down_revision, branch_labels, depends_on = "{revision}", "{head}", None, None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seating")
"""


def test_a_new_revision_brings_the_schema_to_the_tables_the_code_declares(
    tmp_path: Path,
) -> None:
    """A copy of the revisions where the newest one lost a column the code declares: the
    revision written next adds it back."""
    folder = shutil.copytree(migrations.FOLDER, tmp_path / "migrations")
    head = ScriptDirectory(str(folder)).get_current_head()
    assert head is not None
    dropping, again = f"{int(head) + 1:04d}", f"{int(head) + 2:04d}"
    drop = DROP_SEATING.format(revision=dropping, head=head)
    (folder / "versions" / f"{dropping}_drop_seating.py").write_text(drop)
    written = migrations.new_revision("seating again", folder)
    assert written.name == f"{again}_seating_again.py"
    revision = ScriptDirectory(str(folder)).get_revision(again)
    assert revision is not None and revision.down_revision == dropping
    assert "batch_op.add_column(sa.Column('seating'" in written.read_text()
    engine = sa.create_engine(f"sqlite:///{tmp_path}/new.sqlite3")
    try:
        migrations.upgrade(engine, folder)
        assert migrations.differences(engine) == []
    finally:
        engine.dispose()
