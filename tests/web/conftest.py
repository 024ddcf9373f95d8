"""Real parts for the web tests: ``pickomino serve`` in its own process on loopback with a
fresh SQLite file (``ServerProcess.kill()`` is a real SIGKILL), and PostgreSQL."""

from __future__ import annotations

import functools
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from pickomino.web.process import ServerProcess, free_port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path / "games.sqlite3").start()
    yield running
    running.stop()


# ------------------------------------------------------------------ PostgreSQL
def _postgres_bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        pytest.fail(f"PostgreSQL's {name} is missing: scripts/test.sh installs `postgresql`")
    return found


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on loopback (trust auth); yields its base URL."""
    # Not under pytest's own temporary folder: that one is private to root.
    folder = Path(tempfile.mkdtemp(prefix="pickomino-postgres-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: use its own account
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    run = functools.partial(subprocess.run, check=True, capture_output=True)
    run([*as_user, _postgres_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"])
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg_ctl = _postgres_bin("pg_ctl")
    log = str(folder / "log")
    run([*as_user, pg_ctl, "-D", str(data), "-o", options, "-w", "-l", log, "start"])
    yield f"postgresql://postgres@127.0.0.1:{port}"
    run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"])
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each web test runs on a fresh SQLite file and on a fresh PostgreSQL database (the
    same code, with another driver: the full run, not the quick one)."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return new_postgres_database(request.getfixturevalue("postgres_server"))


def new_postgres_database(base: str) -> str:
    """A fresh database on the throwaway cluster at ``base``; its URL."""
    name = f"t{next(_DATABASE_NUMBERS)}"
    with psycopg.connect(base + "/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return f"{base}/{name}"


_DATABASE_NUMBERS = itertools.count()
