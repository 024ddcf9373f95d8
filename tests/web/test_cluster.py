"""Three real ``pickomino serve`` processes on one PostgreSQL database, spoken to over real
WebSockets: a game played across processes, a process killed while it drives a game's bots,
and one seat's act sent to two processes at once."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest
from websockets.sync.client import connect

from pickomino.core import Game, GameRecord
from pickomino.core.events import log_entries
from pickomino.web.cluster.lease import KEY, LOCK_SPACE
from pickomino.web.db.store import Store

from .clients import follow, refused
from .server_process import ServerProcess, TemporaryPostgres, wait_until
from .test_server import DEADLINE, create, open_seat, receive

pytestmark = pytest.mark.slow

TAKEOVER = 5  # seconds another process may take to drive the bots of a dead one


@pytest.fixture
def database(postgres_cluster: TemporaryPostgres) -> str:
    return postgres_cluster.new_database()


@contextlib.contextmanager
def three_processes(
    database: str, tmp_path: Path, options: tuple[str, ...] = ()
) -> Iterator[list[ServerProcess]]:
    """Three processes on one database (started one after the other: the first makes the
    tables), with more of serve's ``options``."""
    running: list[ServerProcess] = []
    try:
        for n in range(3):
            log = tmp_path / f"server{n}.log"
            server = ServerProcess(database, bot_delay=0.05, log=log, options=options)
            running.append(server.start())
        yield running
    finally:
        for server in running:
            server.stop()


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    with three_processes(database, tmp_path) as running:
        yield running


def watch(server: ServerProcess, game: dict):
    return connect(f"{server.ws_url}/ws/games/{game['id']}", open_timeout=10)


def quick_choice(state: dict) -> str:
    """A person's quick play, so that games end in a few hundred moves: claim a tile when
    asked to, stop with a worm kept and 25 or more, else roll; keep worms, then the highest
    face (``keep 5`` < ``keep W``)."""
    actions, table = state["actions"], state["table"]
    claims = [a for a in actions if a.startswith(("take", "steal"))]
    enough = "W" in table["kept"] and table["total"] >= 25
    stop = ["stop"] if enough and "stop" in actions else []
    keeps = sorted(a for a in actions if a.startswith("keep"))
    return (claims or stop or ["roll"] * ("roll" in actions) or keeps[-1:] or actions)[0]


def follow_to_the_end(ws, seat: int | None) -> dict:
    """Read states until the game is over, playing ``seat``'s turns (``None``: watch)."""
    state, sent = receive(ws, "state"), -1
    while state["status"] != "over":
        mine = seat is not None and state["table"]["current"] == seat
        if mine and state["actions"] and state["seq"] != sent:
            action = quick_choice(state)
            ws.send(json.dumps({"type": "act", "action": action, "seq": state["seq"]}))
            sent = state["seq"]
        state = receive(ws, "state")
    return state


def stored_game(database: str, game_id: str) -> Game:
    """The game as stored, replayed (a gap or a foreign move would be refused)."""
    store = Store(database)
    try:
        stored = store.load(game_id)
    finally:
        store.close()
    assert stored is not None
    record = GameRecord.from_json(stored.header)
    record.moves = stored.moves
    return Game.from_record(record)


def stored_moves(database: str, game_id: str) -> list[tuple[int, str]]:
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT seq, move FROM moves WHERE game_id = %s ORDER BY seq", (game_id,)
        ).fetchall()
    return [(seq, move) for seq, move in rows]


def lease_holder(database: str, game_id: str) -> int | None:
    """The OS process id of the server holding the game's lease (its lease connection is
    named after it), or ``None``."""
    with psycopg.connect(database) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s"
            f" AND l.objid = {KEY.format('%s')}::oid",
            (LOCK_SPACE, game_id),
        ).fetchone()
    return None if row is None else int(row[0].rsplit("-", 1)[1])


def test_two_players_on_two_processes_and_a_spectator_on_a_third_see_every_move(servers):
    game = create(servers[0], [{"name": "Ann"}, {"name": "Bob"}])
    with (
        open_seat(servers[0], game, 0) as ann,
        open_seat(servers[1], game, 1) as bob,
        watch(servers[2], game) as spectator,
        ThreadPoolExecutor(3) as pool,
    ):
        ends = [
            pool.submit(follow_to_the_end, ann, 0),
            pool.submit(follow_to_the_end, bob, 1),
            pool.submit(follow_to_the_end, spectator, None),
        ]
        finals = [end.result(timeout=DEADLINE * 3) for end in ends]
    played = stored_game(servers[0].database, game["id"])
    assert played.state.is_over
    for final in finals:  # each saw the whole game: the same log, the same last table
        assert final["seq"] == len(played.record.moves)
        assert final["full_log"] == log_entries(played.history)
        assert final["table"] == finals[0]["table"]


def test_kill_the_process_driving_bots_and_another_takes_over(servers, database):
    game = create(servers[0], [{"name": "Bo", "bot": "easy"}, {"name": "Bi", "bot": "easy"}])
    holder_pid = wait_until(lambda: lease_holder(database, game["id"]), "a process drives it")
    holder = next(s for s in servers if s.process and s.process.pid == holder_pid)
    others = [s for s in servers if s is not holder]
    with watch(others[0], game) as spectator:
        receive(spectator, "state")
        wait_until(lambda: len(stored_moves(database, game["id"])) >= 10, "the bots play")
        holder.kill()
        before = len(stored_moves(database, game["id"]))
        pids = {s.process.pid for s in others if s.process}
        # a deadline, not a measurement: another process must hold the lease by then
        wait_until(
            lambda: lease_holder(database, game["id"]) in pids, "another drives it", TAKEOVER
        )
        state = receive(spectator, "state")
        while state["seq"] < before + 20 and state["status"] == "playing":
            state = receive(spectator, "state")  # the spectator sees the new driver's moves
    moves = stored_moves(database, game["id"])
    assert len(moves) >= state["seq"] > before
    assert [seq for seq, _ in moves] == list(range(len(moves)))  # no gap, no duplicate
    played = stored_game(database, game["id"])  # the moves replay as one game
    assert log_entries(played.history)[: len(state["full_log"])] == state["full_log"]


def test_one_seat_acting_on_two_processes_at_once_applies_exactly_one(servers, database):
    game = create(servers[0], [{"name": "Ann"}, {"name": "Bob"}])
    with (
        open_seat(servers[0], game, 1) as _bob,  # both seated: the game starts
        open_seat(servers[1], game, 0) as here,
        open_seat(servers[2], game, 0) as there,
        ThreadPoolExecutor(2) as pool,
    ):
        states = [playing(here), playing(there)]  # Bob's seat taken, as each process sees
        for _ in range(4):  # Ann's first roll, then keeps and rolls: her turn throughout
            seq = states[0]["seq"]
            assert states[1]["seq"] == seq and states[0]["table"]["current"] == 0
            action = next(a for a in states[0]["actions"] if a != "stop")
            together = threading.Barrier(2)
            answers = [pool.submit(act_then_answer, ws, action, seq, together)
                       for ws in (here, there)]  # fmt: skip
            outcomes = [answer.result(timeout=DEADLINE) for answer in answers]
            refusals = [refusal for refusals, _ in outcomes for refusal in refusals]
            assert len(refusals) == 1, refusals  # exactly one applied
            refused(refusals[0], "stale")
            states = [state for _, state in outcomes]  # both sockets see the move applied
            assert states[0]["seq"] == states[1]["seq"] == len(stored_moves(database, game["id"]))
            assert states[0]["table"] == states[1]["table"]
            if states[0]["table"]["current"] != 0:
                break


def playing(ws) -> dict:
    """The first state of the started game."""
    while (state := receive(ws, "state"))["status"] != "playing":
        pass
    return state


def act_then_answer(
    ws, action: str, seq: int, together: threading.Barrier
) -> tuple[list[dict], dict | None]:
    """Send the act at the same moment as the other thread, then a ping; the refusals that
    came before the pong (a socket's messages are answered in order), and the last state."""
    together.wait(timeout=DEADLINE)
    ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
    ws.send(json.dumps({"type": "ping"}))
    refusals, state = [], None
    while (message := follow(ws, json.loads(ws.recv(timeout=DEADLINE))))["type"] != "pong":
        refusals += [message] if message["type"] == "error" else []
        state = message if message["type"] == "state" else state
    return refusals, state


@pytest.mark.long
def test_serve_workers_share_one_port_and_one_database(database, tmp_path):
    server = ServerProcess(database, options=("--workers", "2"), log=tmp_path / "workers.log")
    server.start()
    try:
        wait_until(lambda: len(lease_sessions(database)) == 2, "two workers, a lease each")
        game = create(server, [{"name": "Ann"}, {"name": "Bob"}])
        with (
            open_seat(server, game, 0) as ann,
            open_seat(server, game, 1) as bob,
            ThreadPoolExecutor(2) as pool,
        ):
            ends = [pool.submit(follow_to_the_end, ann, 0), pool.submit(follow_to_the_end, bob, 1)]
            finals = [end.result(timeout=DEADLINE * 3) for end in ends]
        assert finals[0]["full_log"] == finals[1]["full_log"]
        assert stored_game(database, game["id"]).state.is_over
    finally:
        server.stop()


def lease_sessions(database: str) -> list[str]:
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT application_name FROM pg_stat_activity"
            " WHERE application_name LIKE 'pickomino-lease-%%' AND datname = current_database()"
        ).fetchall()
    return [row[0] for row in rows]


@contextlib.contextmanager
def a_timed_game_on_two_processes(
    database: str, tmp_path: Path, seats: list[dict], per_turn: float, *options: str
) -> Iterator[tuple[list[ServerProcess], dict]]:
    """Two servers on one database (clocks as short as asked, quick bots) and a game with a
    clock of ``per_turn`` seconds made on the first, the first seat to play."""
    running = [
        ServerProcess(database, bot_delay=0.05, log=tmp_path / f"s{n}.log",
                      options=("--clock-minimum", "0", *options))
        for n in range(2)
    ]  # fmt: skip
    try:
        for server in running:
            server.start()
        spec = {"seats": seats, "start_player": 0, "clock": {"per_turn": per_turn}}
        answer = httpx.post(running[0].url + "/api/games", json=spec)
        answer.raise_for_status()
        yield running, answer.json()
    finally:
        for server in running:
            server.stop()


def table_log(database: str, game_id: str) -> list[dict]:
    """The table's log entries of a game, as stored, in order."""
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT entry FROM table_events WHERE game_id = %s ORDER BY number", (game_id,)
        ).fetchall()
    return [json.loads(entry) for (entry,) in rows]


def test_a_stand_in_waiting_for_somebody_plays_when_they_come_to_another_process(
    database, tmp_path
):
    """A person's timed game against a bot, never opened: her time runs out, and the stand-in
    waits for somebody at the table (see pickomino.web.game.bot_driver). She comes to
    another process than the one driving the game: its presence notice wakes the stand-in."""
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
    with a_timed_game_on_two_processes(database, tmp_path, seats, 1) as (running, game):
        timed_out = lambda: any(e["type"] == "timeout" for e in table_log(database, game["id"]))  # noqa: E731
        wait_until(timed_out, "her time runs out")
        assert lease_holder(database, game["id"]) == running[0].process.pid  # she comes to 1
        with open_seat(running[1], game, 0) as ann:
            receive(ann, "state")
            wait_until(lambda: stored_moves(database, game["id"]), "the stand-in plays for her")


def test_a_clock_is_kept_by_one_process_of_several(database, tmp_path):
    """Two people on two processes let their 2-second clocks run out: each time-out is
    noted once (by the game's lease holder), both pages see it, and the bot's moves for the
    rest of the turn are stored once, without a gap."""
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    with a_timed_game_on_two_processes(database, tmp_path, seats, 2, "--away-after", "0") as (
        running,
        game,
    ):
        turn = lambda: stored_game(database, game["id"]).state.turn  # noqa: E731
        with open_seat(running[0], game, 0) as ann, open_seat(running[1], game, 1) as bob:
            for ws in (ann, bob):  # nobody acts: Ann's time runs out, then Bob's
                state = receive(ws, "state")
                while not [
                    e for e in state["full_log"] if e["type"] == "timeout" and e["seat"] == 1
                ]:
                    state = receive(ws, "state")
            # at the table still: a stand-in plays only while somebody is (see bot_driver)
            wait_until(lambda: turn() >= 3, "the bot ends Bob's turn too")
        entries = table_log(database, game["id"])
        timeouts = [(e["seat"], e["turn"]) for e in entries if e["type"] == "timeout"]
        assert timeouts[:2] == [(0, 1), (1, 2)] and len(set(timeouts)) == len(timeouts)
        moves = stored_moves(database, game["id"])
        assert [seq for seq, _ in moves] == list(range(len(moves)))
