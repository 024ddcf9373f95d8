"""``pickomino serve`` in a process of its own on loopback, for tests and benchmarks that
need the real thing: started on a free port, polled until it answers, killed for real."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

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
    message_rate: float = 1000  # scripted clients play far faster than people
    new_games_per_minute: float = 100_000  # and create games faster
    options: tuple[str, ...] = ()  # more of serve's options, e.g. ("--watchers-per-game", "9")
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
            "--message-rate", str(self.message_rate),
            "--new-games-per-minute", str(self.new_games_per_minute), *self.options,
        ]  # fmt: skip
        log = self.database.with_suffix(".log").open("ab")  # a file: a pipe could fill up
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:  # poll until it answers: readiness, not timing
            if self.process.poll() is not None:
                output = self.database.with_suffix(".log").read_text(errors="replace")
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
