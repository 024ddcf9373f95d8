"""The floor of the web's cost per move on this stack (issue 29): a server that does only
what any server of a 2-player game must do for an action, with the same parts as ``pickomino
serve`` (uvicorn on its default event loop with its Sans-I/O WebSocket protocol over the
``websockets`` library, no compression, Starlette's WebSocket), and no game: read the
mover's ``act`` (``json.loads``), encode one change of the average size the real server
sends (one ``json.dumps`` per action, about 270 bytes), and write it to both seats' sockets.
Nothing is stored, no rule is checked, no state is built.

The clients are ``web_load.py``'s shape: N games, two sockets each, all in this process; the
seat to move sends its ``act`` as soon as the change before it arrives (``--think 0``, the
saturating case). It reports the server's CPU per action from ``/proc`` and its ratio to the
bare engine's action (``web_load.engine_actions_per_second``, measured in this process
before the server starts): the ratio below which no server on this stack can go. The bare
server is ``floor_app.py``, beside this file.

Run: ``.venv/bin/python benchmarks/socket_floor.py [--games 50] [--seconds 15] [--ws
websockets] [--server granian]`` (``--ws`` for uvicorn's legacy protocol, ``--server`` for
another ASGI server under the same app, to compare); then
``web_load.py --think 0 --games 50 --seconds 15`` for the real server's figure beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from web_load import ENGINE_SECONDS, cpu_seconds, engine_actions_per_second  # beside this file
from websockets.asyncio.client import ClientConnection, connect

# The web tests' server harness, as web_load.py uses it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web.server_process import free_port, wait_until  # noqa: E402

#: A change as the real server sends one mid-turn (a face kept): about 270 bytes with its time.
CHANGE = {
    "type": "change", "base": 0, "v": 0,
    "set": {"seq": 0, "actions": ["roll", "stop", "take 22"]},
    "table": {"phase": "decide", "kept": ["W", "W", "4", "4", "4"], "total": 22},
    "log_start": 0, "log": [{"type": "kept", "player": 0, "face": "4", "count": 3}],
    "now": 0.0,
}  # fmt: skip

#: uvicorn's WebSocket implementations over the ``websockets`` library: the one over its
#: Sans-I/O core (``pickomino serve``'s, uvicorn's default since 0.50) and the legacy one.
WEBSOCKETS = ("websockets-sansio", "websockets")

#: The bare server's module, beside this file.
APP = Path(__file__).resolve().with_name("floor_app.py")

#: The servers compared: uvicorn (``pickomino serve``'s) and granian (a Rust HTTP server
#: running the same ASGI app, one worker on uvloop; not one of pickomino's dependencies:
#: ``.venv/bin/pip install granian`` first).
SERVERS = ("uvicorn", "granian")


def accepts(port: int) -> bool:
    """Whether a server listens on ``port``."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def start_server(port: int, server: str, ws: str) -> subprocess.Popen:
    """The bare server on ``server`` (uvicorn with its WebSocket implementation ``ws``), once
    it accepts connections."""
    if server == "granian":
        command = [
            sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "1", "--loop", "uvloop", "--log-level", "warning",
            f"{APP.stem}:app",
        ]  # fmt: skip
    else:
        command = [sys.executable, str(APP), str(port), ws]
    environment = {**os.environ, "FLOOR_CHANGE": json.dumps(CHANGE)}
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(APP.parent), os.environ.get("PYTHONPATH")])
    )
    process = subprocess.Popen(command, env=environment)
    try:
        wait_until(lambda: accepts(port), "the bare server accepting connections", 30)
    except AssertionError:
        process.kill()
        raise SystemExit("the bare server did not start") from None
    return process


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children (granian serves from a worker process)."""
    tasks = Path(f"/proc/{pid}/task").glob("*/children")
    children = [int(child) for task in tasks for child in task.read_text().split()]
    return cpu_seconds(pid) + sum(tree_cpu_seconds(child) for child in children)


async def play(sockets: list[ClientConnection], deadline: float, counts: list[int]) -> None:
    """One game: seat ``seq % 2`` acts on each change (a turn of one action each, which costs
    the server the same as a long turn); the first act starts it."""

    async def seat(number: int) -> None:
        websocket = sockets[number]
        if number == 0:
            await websocket.send(json.dumps({"type": "act", "action": "roll", "seq": 0}))
        async for text in websocket:
            seq = json.loads(text)["set"]["seq"]
            if number == 0:
                counts[0] += 1
            if time.perf_counter() >= deadline:
                return
            if seq % 2 == number:
                await websocket.send(json.dumps({"type": "act", "action": "roll", "seq": seq}))

    # The game ends with the first seat to stop: the deadline may pass between the two seats
    # reading one change, and the seat to move stop while the other waits for its act.
    seats = [asyncio.create_task(seat(number)) for number in range(2)]
    done, waiting = await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
    for task in waiting:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    for task in done:
        task.result()  # a seat's error (a dropped connection) is the run's


async def load(port: int, pid: int, games: int, seconds: float) -> tuple[int, float, float]:
    """Actions, server CPU and wall seconds of the timed window."""
    url = f"ws://127.0.0.1:{port}/ws"
    tables = [[await connect(f"{url}/{game}/{n}") for n in range(2)] for game in range(games)]
    counts = [0]
    cpu, start = tree_cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(*(play(sockets, start + seconds, counts) for sockets in tables))
    window = time.perf_counter() - start
    used = tree_cpu_seconds(pid) - cpu
    for sockets in tables:
        for websocket in sockets:
            await websocket.close()
    return counts[0], used, window


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (default 50)")
    parser.add_argument("--seconds", type=float, default=15.0, help="timed window (default 15)")
    parser.add_argument(
        "--engine-seconds", type=float, default=ENGINE_SECONDS, help="the engine's baseline (2)"
    )
    parser.add_argument(
        "--ws",
        choices=WEBSOCKETS,
        default=WEBSOCKETS[0],
        help="uvicorn's WebSocket implementation (default: pickomino serve's, websockets-sansio)",
    )
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default=SERVERS[0],
        help="the ASGI server (default: pickomino serve's, uvicorn; granian: install it first)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.engine_seconds <= 0:
        parser.error("--games, --seconds and --engine-seconds must be positive")
    if args.server == "granian" and importlib.util.find_spec("granian") is None:
        parser.error("granian is not installed (not a pickomino dependency): pip install granian")
    engine_rate = engine_actions_per_second(args.engine_seconds, 0)
    port = free_port()
    server = start_server(port, args.server, args.ws)
    try:
        actions, used, window = asyncio.run(load(port, server.pid, args.games, args.seconds))
    finally:
        server.terminate()
        server.wait(10)
    per_action = used / max(actions, 1)
    engine = 1 / engine_rate
    name = args.ws if args.server == "uvicorn" else args.server
    print(f"bare server ({name}), {args.games} games, {window:.1f} s: {actions:,} actions "
          f"({actions / window:,.0f}/s), server CPU {used / window:.0%} of a core")  # fmt: skip
    print(f"server CPU per action {per_action * 1e6:.0f} us; bare engine "
          f"{engine * 1e6:.1f} us; ratio {per_action / engine:.0f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
