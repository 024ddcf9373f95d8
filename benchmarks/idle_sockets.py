"""Idle sockets against a real ``pickomino serve``: one address opens 1,000 connections that
send nothing (or, with ``--slowloris``, headers that never end) and opens each again about
a second after the server closes it (``--reopen-after``, with jitter: no lockstep), while
another address asks ``GET /api/options`` at a steady pace.

What it measures: the visitor's latency (a fresh connection per request: connecting,
sending, reading the answer) before the attack and during it, as percentiles and their
ratio; and what became of the attacker's connections (let in and cut at the request
deadline, closed at once for the per-address cap, open at the end, the longest held). The
server runs with its default limits (``--request-timeout 10``,
``--http-connections-per-address 50``, ``--max-connections 1000``) unless ``--server-options``
says otherwise. The target: the visitor's p99 under 100 ms while the attack lasts.

The attacker (127.0.0.2) and the visitor (127.0.0.1) are two addresses of this machine's
loopback; the attacker runs in a process of its own, so its work does not delay the
visitor's measurements in this one (both share the machine's cores with the server, as an
attacker on a neighbouring host would not).

``--open-files 1024`` starts the server with that soft limit of open files (systemd's default
for a service): without the limits, its idle sockets leave it none to accept with.

Run: ``.venv/bin/python benchmarks/idle_sockets.py`` (``--sockets 1000 --seconds 30``;
``--slowloris`` for trickled headers; ``--open-files 1024``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import shlex
import socket
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.synchronize import Event
from pathlib import Path

from web_load import (  # a sibling script: run from the project root as shown
    ServerProcess,
    cpu_seconds,
    milliseconds,
)

ATTACKER, VISITOR = "127.0.0.2", "127.0.0.1"
REQUEST = b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
AT_ONCE = 0.5  # seconds: a connection closed sooner was refused, not cut at a deadline
TRICKLE = 1.0  # seconds between two header lines of a slowloris connection


# --------------------------------------------------------------------------- the attacker
@dataclass
class Tally:
    opened: int = 0  # connections the server accepted
    refused: int = 0  # closed by the server within AT_ONCE (the per-address cap)
    cut: int = 0  # closed by the server later (a deadline)
    failed: int = 0  # could not even connect
    open_at_end: int = 0
    longest: float = 0.0  # seconds one connection was held open by the server


async def hold(
    port: int, args: argparse.Namespace, stop_at: float, tally: Tally, first: asyncio.Event
) -> None:
    """One attacker's socket: open it, send nothing (or trickle headers), open it again
    ``args.reopen_after`` seconds after the server closed it, until ``stop_at``."""
    loop = asyncio.get_running_loop()
    while loop.time() < stop_at:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(ATTACKER, 0)
            )
        except OSError:
            tally.failed += 1
            first.set()
            await asyncio.sleep(args.reopen_after)
            continue
        tally.opened += 1
        first.set()
        opened, closed = loop.time(), False
        if args.slowloris:
            writer.write(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not closed and loop.time() < stop_at:
            try:
                async with asyncio.timeout(min(TRICKLE, max(stop_at - loop.time(), 0.01))):
                    closed = not await reader.read(4096)
            except TimeoutError:
                if args.slowloris:
                    writer.write(b"X-Slow: 1\r\n")
            except ConnectionError:
                closed = True
        held = loop.time() - opened
        tally.longest = max(tally.longest, held)
        if not closed:
            tally.open_at_end += 1
        elif held < AT_ONCE:
            tally.refused += 1
        else:
            tally.cut += 1
        writer.close()
        await asyncio.sleep(args.reopen_after * random.uniform(0.5, 1.5))


async def attack(port: int, args: argparse.Namespace, ready: Event) -> Tally:
    tally = Tally()
    stop_at = asyncio.get_running_loop().time() + args.seconds
    firsts = [asyncio.Event() for _ in range(args.sockets)]
    tasks = [asyncio.create_task(hold(port, args, stop_at, tally, first)) for first in firsts]
    for first in firsts:
        await first.wait()
    ready.set()  # every socket tried once: the attack is on
    await asyncio.gather(*tasks)
    return tally


def attacker(port: int, args: argparse.Namespace, ready: Event, out: multiprocessing.Queue) -> None:
    out.put(asyncio.run(attack(port, args, ready)))


# --------------------------------------------------------------------------- the visitor
def one_request(port: int) -> float | None:
    """Seconds for one GET on a fresh connection, from connecting to the answer's end;
    ``None`` if it failed (refused, reset, no answer in 10 s, or not a 200)."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), 10, (VISITOR, 0)) as sock:
            sock.sendall(REQUEST)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return None
    return time.perf_counter() - start if answer.startswith(b"HTTP/1.1 200") else None


def visit(port: int, seconds: float, every: float) -> tuple[list[float], int]:
    """A request every ``every`` seconds for ``seconds``; each one's latency, and how many
    failed."""
    latencies, failed, end = [], 0, time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        latency = one_request(port)
        if latency is None:
            failed += 1
        else:
            latencies.append(latency)
        time.sleep(max(0.0, every - (time.monotonic() - start)))  # the visitor's pace
    return latencies, failed


@contextmanager
def open_files(soft: int | None) -> Iterator[None]:
    """This process's soft limit of open files lowered to ``soft`` meanwhile (a server
    started meanwhile keeps it, as under systemd's default of 1024)."""
    if soft is None:
        yield
        return
    before, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (before, hard))


def line(name: str, visited: tuple[list[float], int]) -> str:
    latencies, failed = visited
    shown = "  ".join(f"{k} {v:7.1f} ms" for k, v in milliseconds(latencies).items())
    return f"{name:<16} {len(latencies):5d} answered, {failed} failed  {shown or '-'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the attack lasts")
    parser.add_argument("--baseline-seconds", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=0.02, help="the visitor's pace (s)")
    parser.add_argument("--slowloris", action="store_true", help="trickle headers, never end")
    parser.add_argument("--reopen-after", type=float, default=1.0, help="seconds")
    parser.add_argument("--server-options", default="", help="more options for serve")
    parser.add_argument(
        "--open-files", type=int, help="the server's soft limit of open files (systemd: 1024)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        options = tuple(shlex.split(args.server_options))
        with open_files(args.open_files):
            server = ServerProcess(Path(folder) / "games.sqlite3", options=options).start()
        assert server.process is not None
        pid = server.process.pid
        try:
            cpu = cpu_seconds(pid)
            baseline = visit(server.port, args.baseline_seconds, args.every)
            cpu_before = (cpu_seconds(pid) - cpu) / args.baseline_seconds
            ready, out = multiprocessing.Event(), multiprocessing.Queue()
            process = multiprocessing.Process(
                target=attacker,
                args=(server.port, args, ready, out),
            )
            process.start()
            if not ready.wait(60):
                raise RuntimeError("the attacker could not open its sockets within 60 s")
            window, cpu = args.seconds - 2, cpu_seconds(pid)  # the attack is under way
            attacked = visit(server.port, window, args.every)
            cpu_during = (cpu_seconds(pid) - cpu) / window
            tally: Tally = out.get(timeout=args.seconds + 60)
            process.join(10)
        finally:
            server.stop()

    kind = "slowloris (headers trickled, never ended)" if args.slowloris else "idle (nothing sent)"
    print(
        f"attacker {ATTACKER}: {args.sockets} sockets, {kind}, reopened {args.reopen_after} s after"
    )
    print(f"visitor {VISITOR}: GET /api/options on a fresh connection every {args.every} s")
    print(f"server options: {' '.join(options) or '(defaults)'}", end="")
    print(f"; its soft limit of open files: {args.open_files}" if args.open_files else "")
    print(line("before", baseline) + f"  server CPU {cpu_before:.0%}")
    print(line("under attack", attacked) + f"  server CPU {cpu_during:.0%}")
    before, during = milliseconds(baseline[0]), milliseconds(attacked[0])
    if before and during:
        p50, p99 = during["p50"] / before["p50"], during["p99"] / before["p99"]
        print(f"ratio under attack / before: p50 {p50:.2f}x, p99 {p99:.2f}x")
    print(
        f"attacker's connections: {tally.opened} accepted, {tally.refused} closed at once "
        f"(within {AT_ONCE} s), {tally.cut} cut at a deadline, {tally.open_at_end} open at the "
        f"end, {tally.failed} failed to connect; longest held {tally.longest:.1f} s"
    )
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
