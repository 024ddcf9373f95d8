"""``pickomino serve`` in a process of its own on loopback, for tests and benchmarks that
need the real thing: started on a free port, polled until it answers, killed for real; and
a throwaway PostgreSQL cluster for them to share.

The processes are forked from a server of forks that imported the command and the web app
once (multiprocessing's ``forkserver``, a process with no threads, so forking is safe):
a fresh ``python -m pickomino serve`` spends 1.5 of its 1.8 s of CPU importing, and the
suite starts about 90 of them. Each still runs the command line's ``serve`` from its
arguments, in the caller's environment, with its output in its log."""

from __future__ import annotations

import glob
import itertools
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

STARTUP_SECONDS = 30

#: Where server processes are forked from (imports done once per test process).
FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload(["pickomino.cli", "pickomino.web.app"])


def run_command(arguments: list[str], environment: dict[str, str], log: str) -> None:
    """In the forked process: the caller's environment, no input and the output appended
    to ``log`` on the standard descriptors (``--workers`` hands its processes descriptor 0),
    then ``pickomino`` with ``arguments`` as the command line runs it (its exit status is
    the process's)."""
    os.environ.clear()
    os.environ.update(environment)
    for descriptor, path, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, log, os.O_WRONLY | os.O_CREAT | os.O_APPEND),
        (2, log, os.O_WRONLY | os.O_APPEND),
    ):
        opened = os.open(path, flags)
        os.dup2(opened, descriptor)
        os.close(opened)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the input for good
    from pickomino.cli import main  # imported already by the server of forks

    main(arguments, prog_name="pickomino")


class ForkedProcess:
    """The few calls of :class:`subprocess.Popen` that a server process needs, on a process
    forked by :data:`FORKS`."""

    def __init__(self, arguments: list[str], log: Path) -> None:
        forked = (arguments, dict(os.environ), str(log))
        self._process = FORKS.Process(target=run_command, args=forked)
        self._process.start()
        self.pid = self._process.pid

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired("pickomino serve", timeout)
        return self._process.exitcode

    def terminate(self) -> None:
        self._process.terminate()


T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, seconds: float = 60.0) -> T:
    """Poll ``condition`` until it gives something true, and return that: waiting for another
    process or thread to act (a server, PostgreSQL), never timing it; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.02)  # polling, not timing anything
    return value


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class ServerProcess:
    """``pickomino serve`` on 127.0.0.1; start it again on the same database after a kill."""

    database: Path | str  #: an SQLite file, or a PostgreSQL URL (then give ``log``)
    bot_delay: float = 0.05
    port: int = field(default_factory=free_port)
    message_rate: float = 1000  # scripted clients play far faster than people
    new_games_per_minute: float = 100_000  # and create games faster
    options: tuple[str, ...] = ()  # more of serve's options, e.g. ("--watchers-per-game", "9")
    fresh: bool = False  #: ``python -m pickomino serve`` in a new interpreter, as users start it
    process: ForkedProcess | subprocess.Popen | None = None
    log: Path | None = None  #: where its output goes (default: beside the SQLite file)

    @property
    def log_file(self) -> Path:
        return self.log or Path(self.database).with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start the process and wait until it answers."""
        return self.launch().wait_ready()

    def launch(self) -> ServerProcess:
        """Start the process without waiting (several launched at the same instant, as
        replicas start under systemd or Kubernetes); then :meth:`wait_ready`."""
        arguments = [
            "serve", "--port", str(self.port),
            "--database", str(self.database), "--bot-delay", str(self.bot_delay),
            "--message-rate", str(self.message_rate),
            "--new-games-per-minute", str(self.new_games_per_minute),
            "--no-offline-app", *self.options,  # the app's test asks for it: --offline-app
        ]  # fmt: skip
        if not self.fresh:
            self.log_file.touch()  # a file: a pipe could fill up
            self.process = ForkedProcess(arguments, self.log_file)
            return self
        with self.log_file.open("ab") as log:
            command = [sys.executable, "-m", "pickomino", *arguments]
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self) -> ServerProcess:
        """Poll until the process answers (or raise with its output if it exited)."""
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:  # poll until it answers: readiness, not timing
            if self.process.poll() is not None:
                output = self.log_file.read_text(errors="replace")
                raise RuntimeError(f"the server exited at start:\n{output}")
            try:
                with urllib.request.urlopen(self.url + "/api/options", timeout=1):
                    return self
            except OSError:  # refused, reset, or too slow to answer yet (a loaded machine)
                time.sleep(0.05)
        self.kill()  # not left running behind the failure
        raise RuntimeError(f"the server did not answer within {STARTUP_SECONDS} s")

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


# ------------------------------------------------------------------ PostgreSQL
def postgres_program(name: str) -> str | None:
    """A PostgreSQL server program (``initdb``, ``pg_ctl``), on the path or where Debian puts
    it; ``None`` if it is not installed."""
    return shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )


class TemporaryPostgres:
    """A throwaway PostgreSQL cluster on loopback (trust auth, no fsync), in a folder of its
    own; ``url`` is its base URL, :meth:`new_database` makes a fresh database on it."""

    def __init__(self) -> None:
        initdb, self._pg_ctl = postgres_program("initdb"), postgres_program("pg_ctl")
        if initdb is None or self._pg_ctl is None:
            raise RuntimeError("PostgreSQL's initdb and pg_ctl are missing: install `postgresql`")
        # Not under pytest's own temporary folder: that one is private to root.
        self.folder = Path(tempfile.mkdtemp(prefix="pickomino-postgres-"))
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: use its own account
            shutil.chown(self.folder, "postgres")
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._data, port = self.folder / "data", free_port()
        self._run([initdb, "-D", str(self._data), "-U", "postgres", "--auth=trust"])
        options = f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "log")
        self._run([self._pg_ctl, "-D", str(self._data), "-o", options, "-w", "-l", log, "start"])
        self.url = f"postgresql://postgres@127.0.0.1:{port}"
        self._numbers = itertools.count()
        self._migrated: str | None = None  # the migrated database's name, once made

    def _run(self, command: list[str]) -> None:
        subprocess.run([*self._as_user, *command], check=True, capture_output=True)

    def new_database(self, template: str = "template1") -> str:
        """A fresh database on the cluster (empty, or a copy of ``template``); its URL. The
        files are copied: for databases this small, quicker than through the WAL."""
        import psycopg

        name = f"t{next(self._numbers)}"
        with psycopg.connect(self.url + "/postgres", autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        return f"{self.url}/{name}"

    def migrated_database(self) -> str:
        """A fresh database with the newest schema already in it, as a server's first start
        leaves it: a copy of one migrated once per cluster (migrating every test's database
        from nothing cost 0.2 s a test; ``test_migrations`` tests the migrating)."""
        if self._migrated is None:
            from pickomino.web.db.database import open_database

            url = self.new_database()
            open_database(url, pool=1).dispose()  # migrated as it opens
            self._migrated = url.rsplit("/", 1)[1]
        return self.new_database(template=self._migrated)

    def stop(self) -> None:
        assert self._pg_ctl is not None
        self._run([self._pg_ctl, "-D", str(self._data), "-m", "immediate", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)
