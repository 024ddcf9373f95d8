"""The database's schema is versioned (Alembic migrations, run at every start under a lock):
replicas started at the same instant on an empty PostgreSQL database all come up, a database
written before migrations existed is upgraded and its games go on, and the migrations build
exactly the schema the code declares."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import pytest

from pickomino.web.process import ServerProcess, TemporaryPostgres

ROUNDS = 3  # the race lost one process in 1 or 2 rounds of 3 before migrations
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
