"""``serve --db-pool N``: the most connections one process's store holds to PostgreSQL, so
that N processes fit the server's ``max_connections`` (the README's deployment section has
the sum). Counted by PostgreSQL itself (``pg_stat_activity``, where the store's connections
carry its name), under a burst."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest
from click.testing import CliRunner

from pickomino.cli import main
from pickomino.web.db.database import APPLICATION
from pickomino.web.db.store import Store

from .server_process import ServerProcess, wait_until

STORE = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s"


def store_connections(url: str) -> int:
    """How many connections stores hold to the database of ``url`` now (PostgreSQL counts
    them; the store names its own, apart from the listener's, the leases' and others')."""
    with psycopg.connect(url) as db:
        row = db.execute(STORE, (url.rsplit("/", 1)[1], APPLICATION)).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.slow  # PostgreSQL
def test_the_store_holds_at_most_its_pool_of_connections_under_a_burst(postgres_cluster):
    url = postgres_cluster.new_database()
    store = Store(url, pool=2)
    start = threading.Barrier(8)

    def burst(_: int) -> int:
        start.wait()  # all at once
        return sum(store.load("nothing") is None for _ in range(25))

    try:
        with ThreadPoolExecutor(8) as threads:
            assert sum(threads.map(burst, range(8))) == 8 * 25  # every one answered
        assert 1 <= store_connections(url) <= 2  # the pool keeps what it opened, no more
    finally:
        store.close()
    # PostgreSQL lets a closed connection's backend go a moment after the client hangs up
    wait_until(lambda: store_connections(url) == 0, "the store's connections closed")


@pytest.mark.slow  # PostgreSQL and a real server process
def test_serve_db_pool_bounds_a_process_connections(postgres_cluster, tmp_path: Path):
    url = postgres_cluster.new_database()
    server = ServerProcess(url, log=tmp_path / "server.log", options=("--db-pool", "1"))
    server.start()
    try:
        spec = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]}
        with httpx.Client(base_url=server.url) as client, ThreadPoolExecutor(8) as threads:
            created = list(threads.map(lambda _: client.post("/api/games", json=spec), range(16)))
            assert {answer.status_code for answer in created} == {201}
            ids = [answer.json()["id"] for answer in created]
            looked = list(threads.map(lambda i: client.get(f"/api/games/{i}/record"), ids))
            assert {answer.status_code for answer in looked} == {200}
        assert store_connections(url) == 1
    finally:
        server.stop()


@pytest.mark.parametrize("value", ["0", "-3", "many", "100000"])
def test_a_bad_db_pool_is_refused_before_starting(value: str, tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    refused = CliRunner().invoke(main, ["serve", "--database", str(database), "--db-pool", value])
    assert refused.exit_code == 2
    assert "Invalid value for '--db-pool'" in refused.output
    assert not database.exists()
