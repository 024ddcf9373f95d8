"""Who is connected, across real ``pickomino serve`` processes on one PostgreSQL database:
Bob's socket on one process, Ann's on the process that holds the game's lease (and so keeps
its time). Each sees the other online, Bob is not marked away while his socket is open, a
vote against him is refused, and once his process is killed he is shown offline within
seconds (and marked away ``--away-after`` seconds later)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from .clients import follow, refused
from .server_process import ServerProcess, wait_until
from .test_cluster import database, lease_holder
from .test_server import open_seat, receive

__all__ = ["database"]  # fixture

pytestmark = pytest.mark.slow

AWAY_AFTER = 3  #: the servers' --away-after
SEEN_WITHIN = 15  #: seconds a page may take to see a player come or go (a deadline)


@pytest.fixture
def pair(database: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two processes on one database (the first makes the tables)."""
    options = ("--away-after", str(AWAY_AFTER))
    running: list[ServerProcess] = []
    try:
        for n in range(2):
            server = ServerProcess(database, log=tmp_path / f"s{n}.log", options=options)
            running.append(server.start())
        yield running
    finally:
        for server in running:
            server.stop()


def sees_online(ws, online: list[bool]) -> None:
    """Read on until the page is told that exactly the seats ``online`` are connected (by a
    presence message or a state), within :data:`SEEN_WITHIN` seconds."""
    deadline = time.monotonic() + SEEN_WITHIN
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = follow(ws, json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            break
        if message["type"] == "presence" and message["online"] == online:
            return
        if message["type"] == "state" and [s["online"] for s in message["seats"]] == online:
            return
    raise AssertionError(f"not told within {SEEN_WITHIN} s that online is {online}")


def aways(database: str, game_id: str) -> list[dict]:
    """The stored log's entries of a bot standing in for an away person."""
    with psycopg.connect(database) as connection:
        rows = connection.execute(
            "SELECT entry FROM table_events WHERE game_id = %s ORDER BY number", (game_id,)
        ).fetchall()
    return [entry for (text,) in rows if (entry := json.loads(text))["type"] == "away"]


@pytest.mark.long
def test_a_player_on_another_process_than_the_lease_holder_is_online_and_not_away(
    pair: list[ServerProcess], database: str
):
    answer = httpx.post(
        pair[0].url + "/api/games",
        json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "start_player": 1},
    )  # Bob moves first
    answer.raise_for_status()
    game = answer.json()
    pids = {server.process.pid: server for server in pair if server.process}
    holder = pids[wait_until(lambda: lease_holder(database, game["id"]), "a process drives it")]
    other = next(server for server in pair if server is not holder)
    with open_seat(holder, game, 0) as ann, open_seat(other, game, 1) as bob:
        sees_online(ann, [True, True])
        sees_online(bob, [True, True])
        ann.send(json.dumps({"type": "vote", "seat": 1}))
        refused(receive(ann, "error"), "vote_seat_waiting", name="Bob", count=AWAY_AFTER)
        # Bob's turn, his socket open: polled well past the away deadline, nobody took over.
        deadline = time.monotonic() + 3 * AWAY_AFTER
        while time.monotonic() < deadline:
            assert aways(database, game["id"]) == []
            time.sleep(0.1)  # polling the database, not timing anything
        state = httpx.get(f"{holder.url}/api/games/{game['id']}/record").json()
        bob.send(json.dumps({"type": "act", "action": "roll", "seq": len(state["moves"])}))
        while (seen := receive(bob, "state"))["seq"] <= len(state["moves"]):
            pass
        assert not seen["seats"][1]["away"]  # his own roll: the seat is still his
        other.kill()
        sees_online(ann, [True, False])  # his process died: offline within seconds
        away = wait_until(lambda: aways(database, game["id"]), "Bob marked away")
        assert away == [{"type": "away", "seat": 1, "why": "absent", "bot": "medium"}]
