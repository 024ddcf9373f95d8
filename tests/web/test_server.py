"""The web app as people run it: `pickomino serve` in its own process on loopback, spoken to
over real WebSockets; killed with SIGKILL mid-game and started again on the same database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pickomino.web.db.store import Store

from .clients import follow, refused, socket_path
from .server_process import ServerProcess, wait_until

# A real server process per test, killed and restarted: the full run (CI).
pytestmark = pytest.mark.slow

DEADLINE = 60  # seconds a polled condition may take before the test fails


def create(server: ServerProcess, seats: list[dict]) -> dict:
    response = httpx.post(server.url + "/api/games", json={"seats": seats, "start_player": 0})
    response.raise_for_status()
    return response.json()


def open_seat(server: ServerProcess, game: dict, seat: int):
    """A seat's socket: by its invite link, or the secret it gave (see ``clients.HELD``)."""
    return connect(server.ws_url + socket_path(game, seat), open_timeout=10)


def receive(ws, kind: str) -> dict:
    """The next message of a kind; states get ``full_log`` (see test_protocol.next_of)."""
    while True:
        message = follow(ws, json.loads(ws.recv(timeout=DEADLINE)))
        if message["type"] == kind:
            return message


def moves_of(server: ServerProcess, game: dict) -> list[str]:
    return httpx.get(f"{server.url}/api/games/{game['id']}/record").json()["moves"]


def play_until(ws, stop, state: dict | None = None) -> dict:
    """As seat 0, from ``state`` (or the next one): play the first offered action until
    ``stop(state)`` holds."""
    state, sent = state or receive(ws, "state"), -1
    while not stop(state):
        if state["actions"] and state["table"]["current"] == 0 and state["seq"] != sent:
            ws.send(json.dumps({"type": "act", "action": state["actions"][0], "seq": state["seq"]}))
            sent = state["seq"]
        state = receive(ws, "state")
    return state


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``python -m pickomino serve`` started as users start it, in a new interpreter (the
    other tests' servers are forked from one that imported it: server_process.py)."""
    running = ServerProcess(tmp_path / "games.sqlite3", fresh=True).start()
    yield running
    running.stop()


def test_a_real_server_speaks_the_protocol_and_drops_oversized_frames(fresh_server):
    game = create(fresh_server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with open_seat(fresh_server, game, 0) as ann:
        assert receive(ann, "welcome")["seat"] == 0
        ann.send(json.dumps({"type": "act", "action": "stop", "seq": 0}))
        refused(receive(ann, "error"), "no_stop_now", "R8", waiting="roll")
        ann.send(json.dumps({"type": "act", "action": "roll", "seq": 0}))
        state = receive(ann, "state")
        assert len(state["table"]["roll"]) == 8
    with open_seat(fresh_server, game, 0) as ann:
        ann.send("x" * 200_000)  # over the fresh_server's frame limit: the socket is closed
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ann.recv(timeout=DEADLINE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with open_seat(fresh_server, game, 0) as ann:  # and the game is still there
        assert receive(ann, "state")["seq"] == state["seq"]


def test_sigkill_mid_game_then_restart_every_game_goes_on(server):
    person = create(server, [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}])
    with open_seat(server, person, 0) as ann:
        seen = play_until(ann, lambda s: s["seq"] >= 4 and s["table"]["current"] == 0)
    bots = create(server, [{"name": "Bo", "bot": "easy"}, {"name": "Bi", "bot": "medium"}])
    before = wait_until(lambda: len(moves_of(server, bots)) >= 10 and moves_of(server, bots),
                        "the bots play")  # fmt: skip

    server.kill()
    store = Store(server.database)
    stored_person, stored_bots = store.load(person["id"]), store.load(bots["id"])
    store.close()
    assert stored_person is not None and stored_bots is not None
    assert len(stored_person.moves) == seen["seq"]  # stored before shown; then Ann's turn
    assert stored_bots.moves[: len(before)] == before  # everything shown had been stored

    server.bot_delay = 0
    server.start()
    with open_seat(server, person, 0) as ann:
        again = receive(ann, "state")
        assert again["seq"] == len(stored_person.moves)
        assert again["table"] == seen["table"] and again["full_log"] == seen["full_log"]
        final = play_until(ann, lambda s: s["table"]["over"], again)
    assert final["table"]["ranking"][0]["rank"] == 1
    wait_until(
        lambda: all(g["status"] == "over" for g in httpx.get(server.url + "/api/games").json()),
        "the bots' game is finished after the restart",
    )
    assert moves_of(server, bots)[: len(stored_bots.moves)] == stored_bots.moves
