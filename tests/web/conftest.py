"""A real server for the web tests: ``pickomino serve`` in its own process on loopback,
with a fresh SQLite file; ``ServerProcess.kill()`` is a real SIGKILL."""

from __future__ import annotations

import functools
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import pytest

STARTUP_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class ServerProcess:
    """``pickomino serve`` on 127.0.0.1; start it again on the same database after a kill."""

    database: Path
    bot_delay: float = 0.05
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        command = [
            sys.executable, "-m", "pickomino", "serve", "--port", str(self.port),
            "--database", str(self.database), "--bot-delay", str(self.bot_delay),
            "--message-rate", "1000",  # scripted clients play far faster than people
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:  # poll until it answers: readiness, not timing
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode() if self.process.stdout else ""
                raise RuntimeError(f"the server exited at start:\n{output}")
            try:
                httpx.get(self.url + "/api/options", timeout=1).raise_for_status()
                return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer within 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


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


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each web test runs on a fresh SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    base = request.getfixturevalue("postgres_server")
    name = f"t{next(_DATABASE_NUMBERS)}"
    with psycopg.connect(base + "/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return f"{base}/{name}"


_DATABASE_NUMBERS = itertools.count()
