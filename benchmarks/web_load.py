"""Web load: N simultaneous 2-player games against a real ``pickomino serve``, every seat a
scripted person on its own WebSocket, all clients in this one asyncio process.

What it measures: actions per second the server carries and the latency of each action as a
player sees it, from sending ``act`` to reading the first ``state`` with a larger ``seq`` (so
it includes the engine, storing the moves in SQLite, building and sending the JSON state over
loopback, and the client reading it). Also the CPU time the server and the clients used in the
timed window (100% = one core), to tell which side was the bottleneck. The clients' process
collects its garbage as ``serve`` does (frozen after the baseline, the same thresholds): with
Python's defaults its own full collections paused every client at once for up to 0.3 s with
1,000 games, which counted as the server's latency.

Why: the target is 200 simultaneous games with p99 latency < 100 ms on a small (2-core)
machine. ``--think`` is how long a person takes before each action, on average (default
0.25 s, a fast player; each wait is uniform between half and one and a half times that, so the
games do not act in lockstep, which real players never do); ``--think 0`` plays as fast as the
server answers: the saturating worst case.

The clients pick among the legal actions with a seeded ``random.Random``, biased so that
turns end and games finish in a few hundred actions, as between people (keep the highest
face, stop once a worm is kept and the total is 25 or more; uniformly random choices make
games of thousands of actions, unlike people). A finished game is replaced by a
new one in its slot (unless ``--no-refill``), so N games stay in play. The server runs in a
subprocess on a fresh SQLite file in a temporary folder, on 127.0.0.1, with no bots.

Baseline, measured in this process before the server starts: the bare engine
(``pickomino.core.Game``) playing the same policy for a couple of seconds; the ratios say how
much of an action's cost is the web layer (storage, JSON, WebSocket).

The spectator storm (``--spectators N``): one second into the timed window, N spectators
(in a process of their own) open a WebSocket to the first game all at once and stay,
reading its states. It reports how
many were let in (welcome and state) and how long that took, and the players' latency for
the actions sent during the storm (all games, and the stormed game's two players alone):
a join must cost the players nothing.

Clocks (``--clocked N``): N more games, each with a time control (``--clock 60``, seconds per
turn, or ``--bank 300 --increment 10``), spread evenly among the others so both kinds are set
up and played side by side; the report gives the players' latency of the games with a clock
and of those without, from the same run. The players act well within their time, so no bot
takes over: this measures what the clocks cost (a deadline stored with the moves that start
or end a turn, an alarm per game in the event loop).

Several processes on PostgreSQL (``--processes 1,2``): a throwaway PostgreSQL cluster,
N ``pickomino serve`` processes on one database; each game's two seats sit on two different
processes (when N > 1), so every move crosses between processes through ``LISTEN/NOTIFY``.
For each N, the games in ``--ladder`` are played in turn; it reports the most games held at
a players' p99 under 100 ms, and the cross-process delay of a move: from the mover sending
``act`` to the other seat (on the other process) reading the state with that move.

The profile (``--profile OUT``): py-spy samples the server for the timed window and writes
its collapsed stacks to OUT; the report then groups them into the parts of an action
(``profile_summary.py``: storing, sending, the engine ...) with each part's share and its
microseconds of the server's CPU per action.

Run: ``.venv/bin/python benchmarks/web_load.py --games 200 --seconds 30``
(``--think 0 --games 50 --seconds 20`` for the saturating case; ``--games 50 --spectators
500`` for the storm; ``--games 200 --clocked 200`` for clocks; ``--seed`` for other dice
choices; the server's own dice come from ``secrets``, so runs never repeat exactly).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pickomino.core import Game
from pickomino.files import unwritable
from pickomino.web.cluster.workers import tune_collector
from pickomino.web.protocol import apply_change

# The server harness the web tests use (tests/web/server_process.py): one copy for both.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from profile_summary import read_stacks, summarise, table  # noqa: E402  (beside this file)
from web.server_process import ServerProcess, TemporaryPostgres  # noqa: E402

FACES = "12345W"  # keep faces in increasing value, as the action names spell them
STOP_TOTAL = 25  # stop (with a worm kept) from this total on, most of the time
ENGINE_SECONDS = 2.0  # the in-process baseline
SETUP_SECONDS = 60  # creating and connecting the first N games
SETUP_CONCURRENCY = 16  # games being created or connected at once during setup
MAX_GAMES_PER_SLOT = 1000  # bounds the refill loop (a game lasts far longer than 60 ms)
MAX_ENGINE_ACTIONS = 100_000  # bounds one baseline game (they last a few hundred)
MAX_MESSAGE = 16 * 2**20  # the first state after connecting carries the whole log
THINK_SPREAD = 0.5  # a think time is uniform in think * (1 +- this): no lockstep
STORM_AFTER = 1.0  # seconds into the timed window when the spectators come
PROFILE_RATE = 250  # py-spy's samples per second with --profile


# --------------------------------------------------------------------------- the policy
def choose(rng: random.Random, actions: list[str], total: int, has_worm: bool) -> str:
    """A person's quick choice: claim a tile when asked to, stop once a worm is kept and the
    total is decent (mostly), keep the highest face (mostly), else anything legal."""
    claims = [a for a in actions if a.startswith(("take", "steal"))]
    if claims:
        return rng.choice(claims)
    if "stop" in actions:
        return "stop" if has_worm and total >= STOP_TOTAL and rng.random() < 0.8 else "roll"
    keeps = [a for a in actions if a.startswith("keep")]
    if keeps and rng.random() < 0.8:
        return max(keeps, key=lambda a: FACES.index(a[-1]))
    return rng.choice(actions)


# --------------------------------------------------------------------------- baseline
def engine_step(game: Game, rng: random.Random) -> None:
    """One person's action as the server's session plays it: at a chance step the action is
    ``roll`` (the dice); a mid-turn ``roll`` decision is followed by its dice."""
    state = game.state
    if state.is_chance():
        game.roll_random(rng)
        return
    names = [action.name for action in state.legal_actions()]
    name = choose(rng, names, state.total, state.has_worm())
    game.play(name)
    if name == "roll":
        game.roll_random(rng)


def engine_actions_per_second(seconds: float, seed: int) -> float:
    """Whole games of the policy on the bare engine for about ``seconds``; actions/s."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(["A", "B"])
        for _ in range(MAX_ENGINE_ACTIONS):
            if game.state.is_over:
                break
            engine_step(game, rng)
            actions += 1
    return actions / (time.perf_counter() - start)


# --------------------------------------------------------------------------- the load
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per answered act
    acted: list[tuple[float, int]] = field(default_factory=list)  # (when sent, slot) for each
    errors: int = 0  # error messages and dropped connections: should stay 0
    unanswered: int = 0  # acts still waiting for their state when time ran out
    started: int = 0  # games played in the timed window: the first N and refills
    finished: int = 0
    states: int = 0
    state_bytes: int = 0
    clock_states: int = 0  # states with a time control (those of the clocked games)


@dataclass
class Storm:
    spectators: int
    game_id: str = ""
    joined: int = 0  # got welcome and the state
    refused: int = 0  # closed, refused or never answered
    started: float = 0.0  # perf_counter
    ended: float = 0.0  # when the last one got its state (or gave up)


@dataclass
class Run:
    servers: list[ServerProcess]
    think: float
    seed: int
    refill: bool
    storm: Storm
    clock: dict[str, float] | None = None  #: the time control of the clocked games
    clocked: frozenset[int] = frozenset()  #: the slots whose games have it
    stats: Stats = field(default_factory=Stats)
    start: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = float("inf")  # event-loop time
    profile: Path | None = None  #: where py-spy writes the server's stacks (``--profile``)
    crossings: list[float] = field(default_factory=list)  # seconds: act to the other seat
    games_opened: int = 0  # spreads games and their seats over the processes

    @property
    def server(self) -> ServerProcess:
        return self.servers[0]

    def time_left(self) -> float:
        return self.deadline - asyncio.get_running_loop().time()


def post_game(url: str, clock: dict[str, float] | None) -> tuple[str, list[str]]:
    """A new game of two people (with a ``clock``, or none); its id and the path of each
    seat's WebSocket (with its token)."""
    spec: dict[str, object] = {"seats": [{"name": "A"}, {"name": "B"}], "start_player": 0}
    if clock is not None:
        spec["clock"] = clock
    body = json.dumps(spec).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url + "/api/games", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        game = json.load(response)
    paths = [seat["link"].replace("/games/", "/ws/games/", 1) for seat in game["seats"]]
    return game["id"], paths


async def open_game(run: Run, slot: int) -> list[ClientConnection]:
    """Create the game of a slot and connect both seats (the game starts when both are in),
    each on another process when there are several; the first game is the one the storm's
    spectators will watch."""
    clock = run.clock if slot in run.clocked else None
    number, count = run.games_opened, len(run.servers)
    run.games_opened += 1
    game_id, paths = await asyncio.to_thread(post_game, run.servers[number % count].url, clock)
    run.storm.game_id = run.storm.game_id or game_id
    sockets: list[ClientConnection] = []
    try:
        for seat, path in enumerate(paths):
            server = run.servers[(number + seat) % count]
            sockets.append(await connect(server.ws_url + path, max_size=MAX_MESSAGE))
    except BaseException:
        await close_all(sockets)
        raise
    return sockets


async def close_all(sockets: list[ClientConnection]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


def is_my_move(state: dict, seat: int) -> bool:
    playing = state["status"] == "playing" and state["table"]["current"] == seat
    return playing and bool(state["actions"])


async def play_seat(
    run: Run,
    ws: ClientConnection,
    seat: int,
    rng: random.Random,
    slot: int,
    sent: dict[int, tuple[int, float]],
) -> str:
    """Play one seat until the game is over ("over"), a refusal or a drop ("error"), or the
    time is up ("timeout"). Acts once per state seq in which this seat is to move.
    ``sent`` (shared by the game's seats): when each act was sent, by the seq it acted on;
    the other seat's first state past it measures the move's trip between processes."""
    stats = run.stats
    acted = -1  # the seq of the last state this seat acted on
    sent_at: float | None = None  # when the act still waiting for its state was sent
    held: dict = {}  # the last state, as a change's base
    await run.start.wait()
    try:
        async with asyncio.timeout(run.time_left()):
            async for text in ws:  # ends with the connection; the timeout bounds it
                message = json.loads(text)
                if message["type"] == "error":
                    stats.errors += 1
                    return "error"
                if message["type"] == "change":  # what changed: the state it makes
                    message = apply_change(held, message)
                if message["type"] != "state":
                    continue
                held = message
                stats.states += 1
                stats.state_bytes += len(text)
                stats.clock_states += message["clock"] is not None
                seq = message["seq"]
                for other in [key for key, (by, _) in sent.items() if key < seq and by != seat]:
                    run.crossings.append(time.perf_counter() - sent.pop(other)[1])
                if sent_at is not None and seq > acted:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.acted.append((sent_at, slot))
                    sent_at = None
                if message["status"] == "over":
                    return "over"
                if sent_at is None and seq > acted and is_my_move(message, seat):
                    acted = seq
                    await asyncio.sleep(run.think * rng.uniform(1 - THINK_SPREAD, 1 + THINK_SPREAD))
                    table = message["table"]
                    action = choose(rng, message["actions"], table["total"], "W" in table["kept"])
                    sent_at = time.perf_counter()
                    sent[seq] = (seat, sent_at)
                    await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
    except TimeoutError:
        stats.unanswered += sent_at is not None
        return "timeout"
    except ConnectionClosed:
        pass
    stats.errors += 1  # the server closed the connection mid-game
    return "error"


async def play_game(
    run: Run, sockets: list[ClientConnection], rng: random.Random, slot: int
) -> str:
    """Both seats of one game; when one stops (game over, error, time up) so does the other."""
    seats = enumerate(sockets)
    sent: dict[int, tuple[int, float]] = {}
    tasks = [asyncio.create_task(play_seat(run, ws, n, rng, slot, sent)) for n, ws in seats]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await close_all(sockets)
    return done.pop().result()


async def play_slot(run: Run, slot: int, sockets: list[ClientConnection]) -> None:
    """Games one after the other in one slot, until time is up (or one game, no refill)."""
    rng = random.Random(run.seed * 1_000_003 + slot)
    for _ in range(MAX_GAMES_PER_SLOT):
        outcome = await play_game(run, sockets, rng, slot)
        run.stats.finished += outcome == "over"
        if not run.refill or run.time_left() <= 0:
            return
        try:
            async with asyncio.timeout(run.time_left()):
                sockets = await open_game(run, slot)
        except TimeoutError:
            return
        run.stats.started += 1


async def open_games(run: Run, count: int) -> list[list[ClientConnection]]:
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(slot: int) -> list[ClientConnection]:
        async with gate:
            return await open_game(run, slot)

    async with asyncio.timeout(SETUP_SECONDS):
        return await asyncio.gather(*(one(slot) for slot in range(count)))


def storm_process(url: str, spectators: int, seconds: float, results: Queue) -> None:
    """The storm, in a process of its own: its hundreds of handshakes must not delay the
    players' client loop, or the players' latency would measure this process, not the
    server."""
    results.put(asyncio.run(storm_clients(url, spectators, seconds)))


async def storm_clients(url: str, spectators: int, seconds: float) -> tuple[float, float, int, int]:
    """``spectators`` sockets opened at once, each reading the game's states until
    ``seconds`` are up: (started, last one in or refused, let in, refused)."""
    started = ended = time.perf_counter()  # CLOCK_MONOTONIC: the same in every process
    joined = refused = 0

    async def spectate() -> None:
        nonlocal ended, joined, refused
        got_state = False
        try:
            async with asyncio.timeout(seconds), connect(url, max_size=MAX_MESSAGE) as ws:
                async for text in ws:  # the game's states, as a spectator gets them
                    if not got_state and json.loads(text)["type"] == "state":
                        got_state, ended = True, time.perf_counter()
                        joined += 1
        except TimeoutError:
            return  # time is up (one still waiting counts as never answered)
        except (OSError, ConnectionClosed):
            pass
        if not got_state:  # refused, or closed before it got the state
            refused += 1
            ended = time.perf_counter()

    await asyncio.gather(*(spectate() for _ in range(spectators)))
    return started, ended, joined, refused


async def run_storm(run: Run) -> None:
    await asyncio.sleep(STORM_AFTER)
    storm, context = run.storm, multiprocessing.get_context("spawn")
    results = context.Queue()
    url = f"{run.server.ws_url}/ws/games/{storm.game_id}"
    child = context.Process(
        target=storm_process, args=(url, storm.spectators, run.time_left(), results)
    )
    child.start()
    storm.started, storm.ended, storm.joined, storm.refused = await asyncio.to_thread(results.get)
    await asyncio.to_thread(child.join)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from ``/proc/<pid>/stat`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Window:
    seconds: float
    server_cpu: float
    client_cpu: float


async def load(run: Run, games: int, seconds: float) -> Window:
    """Open ``games`` games, then play them (and their refills) for ``seconds``."""
    games_sockets = await open_games(run, games)
    run.stats.started = games
    pids = [server.process.pid for server in run.servers if server.process]
    spy = record_profile(pids[0], seconds, run.profile) if run.profile else None
    server_cpu, client_cpu = sum(map(cpu_seconds, pids)), time.process_time()
    start = time.perf_counter()
    run.deadline = asyncio.get_running_loop().time() + seconds
    run.start.set()
    slots = [play_slot(run, n, sockets) for n, sockets in enumerate(games_sockets)]
    await asyncio.gather(*slots, *([run_storm(run)] if run.storm.spectators else []))
    window = Window(
        time.perf_counter() - start,
        sum(map(cpu_seconds, pids)) - server_cpu,
        time.process_time() - client_cpu,
    )
    if spy is not None:
        await asyncio.to_thread(finish_profile, spy, seconds + 30)
    return window


def finish_profile(spy: subprocess.Popen, timeout: float) -> None:
    """Wait for py-spy, which writes its file as it stops; kill it if it hangs."""
    try:
        spy.wait(timeout)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait()


def record_profile(pid: int, seconds: float, out: Path) -> subprocess.Popen:
    """py-spy sampling the server for the timed window, its stacks (``--format raw``, one
    collapsed stack and its count a line) written to ``out`` for ``profile_summary.py``.
    ``--nonblocking`` reads the server without pausing it, so the profile does not slow what
    it measures; idle frames (the event loop waiting) are left out, so the samples are the
    server at work (and, on a busy machine, waiting for a core: shares, not times)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    command = [
        spy, "record", "--pid", str(pid), "--format", "raw", "--output", str(out),
        "--duration", str(max(1, round(seconds))), "--rate", str(PROFILE_RATE), "--nonblocking",
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# --------------------------------------------------------------------------- report
def milliseconds(latencies: list[float]) -> dict[str, float]:
    if len(latencies) < 2:
        return {}
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "p50": cuts[49] * 1000,
        "p90": cuts[89] * 1000,
        "p99": cuts[98] * 1000,
        "max": max(latencies) * 1000,
    }


def spread(clocked: int, slots: int) -> frozenset[int]:
    """``clocked`` of ``slots`` slots, evenly spread (every other one for half of them)."""
    return frozenset(n for n in range(slots) if (n + 1) * clocked // slots > n * clocked // slots)


def shown(latencies: list[float]) -> str:
    """p50, p90, p99 and max in milliseconds, as the report prints them."""
    figures = milliseconds(latencies).items()
    return "  ".join(f"{name} {value:.1f}" for name, value in figures) or "-"


def report(args: argparse.Namespace, run: Run, window: Window, engine_rate: float) -> None:
    stats = run.stats
    actions = len(stats.latencies)
    rate = actions / window.seconds
    quantiles = milliseconds(stats.latencies)
    figures = shown(stats.latencies)
    kib = stats.state_bytes / max(stats.states, 1) / 1024
    server_load, client_load = (
        window.server_cpu / window.seconds,
        window.client_cpu / window.seconds,
    )
    games = args.games + args.clocked
    print(f"{games} games at once, think {args.think:g} s, seed {args.seed}, SQLite")
    print(f"  duration           {window.seconds:.1f} s")
    print(f"  actions completed  {actions} ({rate:.1f} actions/s)")
    print(f"  latency (ms)       {figures}")
    if run.clocked:
        report_clocks(run, games)
    print(f"  errors/refusals    {stats.errors}")
    print(f"  unanswered at end  {stats.unanswered} acts still waiting when time ran out")
    print(f"  games              {stats.started} started, {stats.finished} finished")
    print(f"  states received    {stats.states} (whole or changes), {kib:.2f} KiB on average")
    print(f"  CPU (1 core = 100%) server {server_load:.0%}, clients {client_load:.0%}", end="")
    print(f" ({os.cpu_count()} cores)")
    print(f"engine baseline (bare Game, same policy, this process): {engine_rate:,.0f} actions/s")
    if actions:
        cost = window.server_cpu / actions
        print(f"  server/engine actions/s  {rate / engine_rate:.5f}")
        print(f"  server CPU per action    {cost * 1000:.2f} ms", end="")
        print(f" = {cost * engine_rate:.0f}x the engine's {1e6 / engine_rate:.1f} us")
    p99 = quantiles.get("p99", float("inf"))
    print(f"p99 < 100 ms: {'yes' if p99 < 100 else 'no'} (target: 200 games, people thinking)")
    if run.storm.spectators:
        report_storm(run.storm, stats)


def report_clocks(run: Run, slots: int) -> None:
    """The players' latency in the games with a clock and in the others, side by side."""
    stats, control = run.stats, ", ".join(f"{k} {v:g} s" for k, v in (run.clock or {}).items())
    print(f"  clocks ({control}) in {stats.clock_states} of {stats.states} states")
    for label, clocked in [("with a clock", True), ("without a clock", False)]:
        latencies = [
            latency
            for latency, (_, slot) in zip(stats.latencies, stats.acted, strict=True)
            if (slot in run.clocked) == clocked
        ]
        games = len(run.clocked) if clocked else slots - len(run.clocked)
        print(f"    {games} games {label} (ms, {len(latencies)} actions): {shown(latencies)}")


def report_storm(storm: Storm, stats: Stats) -> None:
    """The players' latency for the actions sent while the spectators came in."""
    during = [
        (latency, slot)
        for latency, (sent, slot) in zip(stats.latencies, stats.acted, strict=True)
        if storm.started <= sent <= max(storm.ended, storm.started)
    ]
    missing = storm.spectators - storm.joined - storm.refused
    print(f"storm: {storm.spectators} spectators open a socket to one game at once")
    print(f"  let in (welcome+state)  {storm.joined}, in {storm.ended - storm.started:.2f} s")
    print(f"  refused or dropped      {storm.refused}; never answered {missing}")
    for label, latencies in [
        ("all games", [latency for latency, _ in during]),
        ("the stormed game", [latency for latency, slot in during if slot == 0]),
    ]:
        print(f"  players' latency, {label} (ms, {len(latencies)} actions): {shown(latencies)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games at once (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="timed window (default 30)")
    parser.add_argument("--think", type=float, default=0.25, help="seconds before each action")
    parser.add_argument("--seed", type=int, default=0, help="the clients' choices (default 0)")
    parser.add_argument(
        "--no-refill", action="store_true", help="do not replace finished games; stop when all end"
    )
    parser.add_argument(
        "--spectators", type=int, default=0, help="spectators joining the first game at once"
    )
    parser.add_argument(
        "--clocked", type=int, default=0, help="games with a clock besides --games (default 0)"
    )
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--clock", type=float, default=60.0, help="their seconds per turn (60)")
    timing.add_argument("--bank", type=float, help="or their seconds for the whole game")
    parser.add_argument("--increment", type=float, default=0.0, help="added per turn to a bank")
    parser.add_argument(
        "--processes", default="", help="e.g. 1,2: server processes on PostgreSQL, in turn"
    )
    parser.add_argument(
        "--ladder", default="50,100,150,200,300", help="games at once tried for each --processes"
    )
    parser.add_argument(
        "--profile", type=Path, metavar="OUT", help="py-spy's stacks of the server to OUT (SQLite)"
    )
    args = parser.parse_args(argv)
    counts = (args.games, args.think, args.spectators, args.clocked)
    if args.games + args.clocked < 1 or args.seconds <= 0 or min(counts) < 0:
        parser.error("--games (with --clocked) and --seconds must be positive; --think,"
                     " --spectators not negative")  # fmt: skip
    why = unwritable(args.profile) if args.profile else None
    if why:
        parser.error(f"--profile: {why}")
    if args.processes:
        if args.profile:
            parser.error("--profile profiles the one SQLite server: not with --processes")
        return processes_main(args)
    clock = (
        {"per_turn": args.clock}
        if args.bank is None
        else {"bank": args.bank, "increment": args.increment}
    )

    engine_rate = engine_actions_per_second(ENGINE_SECONDS, args.seed)
    tune_collector()  # the clients' own pauses are not the server's (after the baseline)
    with tempfile.TemporaryDirectory(prefix="pickomino-load-") as folder:
        database = Path(folder) / "load.sqlite3"
        slots = args.games + args.clocked
        server = ServerProcess(
            database=database, bot_delay=0.0, message_rate=1000,
            options=server_options(slots, args.spectators),
        ).start()  # fmt: skip
        try:
            storm = Storm(args.spectators)
            run = Run(
                [server], args.think, args.seed, refill=not args.no_refill, storm=storm,
                clock=clock, clocked=spread(args.clocked, slots), profile=args.profile,
            )  # fmt: skip
            window = asyncio.run(load(run, slots, args.seconds))
        finally:
            server.stop()
    report(args, run, window, engine_rate)
    if args.profile:
        report_profile(args.profile, window, len(run.stats.latencies), engine_rate)
    return 0


def report_profile(out: Path, window: Window, actions: int, engine_rate: float) -> None:
    """Where the server's CPU went (``profile_summary.py``), in microseconds per action: each
    part's share of py-spy's samples times the CPU per action measured from ``/proc``.
    py-spy counts a running thread also while it waits for a core, so on a busy machine its
    samples outnumber the CPU time; the shares hold, the total is taken from ``/proc``."""
    if not out.exists():
        print(f"profile: py-spy wrote no {out} (is it installed, may it read the server?)")
        return
    parts, _ = summarise(read_stacks(out.read_text().splitlines()))
    per_action = window.server_cpu / max(actions, 1) * 1e6
    seconds = sum(parts.values()) / PROFILE_RATE
    print(f"profile of the server: {out} ({seconds:.1f} s of samples against "
          f"{window.server_cpu:.1f} s of CPU); the engine: {1e6 / engine_rate:.1f} us")  # fmt: skip
    print(table(parts, per_action))


def server_options(games: int, spectators: int) -> tuple[str, ...]:
    room = str(max(spectators, 500))  # every client is on this one address
    most = str(2 * games + spectators + 10)
    limits = ("--connections-per-address", most, "--http-connections-per-address", most)
    limits += ("--max-connections", str(max(1000, 2 * int(most))))
    limits += ("--games-per-address", most)  # every game in play is this address's
    return (*limits, "--watchers-per-game", room, "--clock-minimum", "0")


def processes_main(args: argparse.Namespace) -> int:
    """For each number of processes, the ladder of games at once on a fresh database."""
    tune_collector()  # the clients' own pauses are not the servers'
    counts = [int(n) for n in args.processes.split(",")]
    ladder = [int(n) for n in args.ladder.split(",")]
    postgres = TemporaryPostgres()
    held: dict[int, int] = {}
    try:
        for count in counts:
            held[count] = 0
            for games in ladder:
                run, window = play_on_processes(postgres, count, games, args)
                p99 = milliseconds(run.stats.latencies).get("p99", float("inf"))
                report_processes(count, games, run, window)
                if p99 >= 100 or run.stats.errors:
                    break
                held[count] = games
    finally:
        postgres.stop()
    print(f"games held at players' p99 < 100 ms (think {args.think:g} s, {os.cpu_count()} cores):")
    for count, games in held.items():
        print(f"  {count} process(es): {games or '<' + str(ladder[0])}")
    return 0


def play_on_processes(
    postgres: TemporaryPostgres, count: int, games: int, args: argparse.Namespace
) -> tuple[Run, Window]:
    with tempfile.TemporaryDirectory(prefix="pickomino-load-") as folder:
        database = postgres.new_database()
        servers: list[ServerProcess] = []
        try:
            for n in range(count):  # one after the other: the first makes the tables
                servers.append(
                    ServerProcess(
                        database=database,
                        bot_delay=0.0,
                        message_rate=1000,
                        options=server_options(games, 0),
                        log=Path(folder) / f"server{n}.log",
                    ).start()  # fmt: skip
                )
            run = Run(servers, args.think, args.seed, not args.no_refill, Storm(0))
            window = asyncio.run(load(run, games, args.seconds))
        finally:
            for server in servers:
                server.stop()
    return run, window


def report_processes(count: int, games: int, run: Run, window: Window) -> None:
    stats = run.stats
    latency = "  ".join(f"{k} {v:.1f}" for k, v in milliseconds(stats.latencies).items()) or "-"
    crossing = "  ".join(f"{k} {v:.1f}" for k, v in milliseconds(run.crossings).items()) or "-"
    rate = len(stats.latencies) / window.seconds
    print(f"{count} process(es), {games} games: {rate:.0f} actions/s, errors {stats.errors}, "
          f"server CPU {window.server_cpu / window.seconds:.0%}, "
          f"clients {window.client_cpu / window.seconds:.0%}")  # fmt: skip
    print(f"  players' latency (ms)         {latency}")
    print(f"  move to the other seat (ms)   {crossing}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
