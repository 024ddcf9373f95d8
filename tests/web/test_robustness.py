"""The web app when things go wrong: the database failing a write, a crash between a move and
its status, a damaged record, a client that stops reading, hostile input."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from pickomino.core import Game, GameRecord
from pickomino.web import create_app, protocol
from pickomino.web.api import games as games_api
from pickomino.web.api.games import LONG_GAME, LOOKS
from pickomino.web.api.play_socket import _serve_client
from pickomino.web.db.store import Store
from pickomino.web.game import audience
from pickomino.web.game.outbox import Outbox
from pickomino.web.game.room import Room
from pickomino.web.game.rooms import Rooms
from pickomino.web.protocol import FELL_BEHIND, TOO_MANY, RateLimit, RateLimits

from .clients import (
    Reads,
    create,
    invalid,
    next_of,
    refused,
    refused_http,
    socket_path,
    stored_game,
)
from .server_process import wait_until
from .test_analysis_api import bots_game, store_game
from .test_profiles import as_profile, claim, sql

DUEL = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], "start_player": 0}
BOTS = {"seats": [{"name": "Bo", "bot": "easy"}, {"name": "Bi", "bot": "medium"}]}


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_delay=0, message_rate=1000)) as test_client:
        yield test_client


def failing_writes(room: Room, times: int) -> list[int]:
    """The database refuses the next ``times`` writes of moves (a fault at the boundary:
    every write of moves goes through ``MoveWrites.write``)."""
    writes = room.store.move_writes
    real, calls = writes.write, []

    def write(*args, **kwargs):
        calls.append(1)
        if len(calls) <= times:
            raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))
        return real(*args, **kwargs)

    writes.write = write  # type: ignore[method-assign]
    return calls


def failing_read(*args, **kwargs):
    raise sa.exc.OperationalError("SELECT", {}, Exception("database is locked"))


def stored_moves(database: str, game_id: str) -> list[str]:
    return stored_game(database, game_id).moves


def test_a_failed_write_is_refused_and_taken_back_and_play_goes_on(client, database):
    game = create(client, DUEL)
    with client.websocket_connect(socket_path(game, 0)) as ann:
        before = next_of(ann, "state")
        room = client.app.state.rooms.get(game["id"])
        failing_writes(room, times=1)
        room.store.load = failing_read  # the database is away for reads too
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        refused(next_of(ann, "error"), "not_saved")
        ann.send_json({"type": "sync"})
        again = next_of(ann, "state")
        assert again["seq"] == before["seq"] == 0 and again["table"] == before["table"]
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        rolled = next_of(ann, "state")
    assert rolled["seq"] == 1 and stored_moves(database, game["id"]) == [
        "dice " + "".join(rolled["table"]["roll"])
    ]


@pytest.mark.slow  # waits out a bot's retry pause
def test_the_bots_play_on_after_a_failed_write(client):
    game = create(client, BOTS)
    room = client.app.state.rooms.get(game["id"])
    calls = failing_writes(room, times=1)
    with client.websocket_connect(socket_path(game, None)) as watcher:
        while not next_of(watcher, "state")["table"]["over"]:
            pass
    assert len(calls) > 1  # it failed once, waited, and went on to the end
    replayed = Game.from_record(
        GameRecord.from_dict(client.get(f"/api/games/{game['id']}/record").json())
    )
    assert replayed.state.is_over


def test_a_crash_between_the_last_move_and_its_status_is_mended_at_start(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        finished = create(client, BOTS)
        with client.websocket_connect(socket_path(finished, None)) as watcher:
            while not next_of(watcher, "state")["table"]["over"]:
                pass
        seated = create(client, DUEL)
        with client.websocket_connect(socket_path(seated, 0)):
            pass
    store = Store(database)  # as if the server died before writing these statuses
    for game in (finished, seated):
        header = store.load(game["id"]).header  # type: ignore[union-attr]
        store.set_status(game["id"], "playing" if game is finished else "open", header)
    store.close()
    with TestClient(create_app(database, bot_delay=0)) as client:
        status = {g["id"]: g["status"] for g in client.get("/api/games").json()}
        assert status == {finished["id"]: "over", seated["id"]: "playing"}
        with client.websocket_connect(socket_path(seated, 0)) as ann:
            assert next_of(ann, "state")["status"] == "playing"
            ann.send_json({"type": "act", "action": "roll", "seq": 0})
            while (state := next_of(ann, "state"))["seq"] < 1:  # skip presence updates
                pass
            assert state["table"]["phase"] == "keep"  # Ann could play: nobody to wait for


def test_a_damaged_record_is_reported_and_the_other_games_go_on(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        good, bad = create(client, DUEL), create(client, DUEL)
        with client.websocket_connect(socket_path(bad, 0)):
            pass
    store = Store(database)
    store.append_moves(bad["id"], 0, ["take 36"])  # no roll yet: no replay can accept this
    store.close()
    with TestClient(create_app(database, bot_delay=0)) as client:  # starts all the same
        response = client.get(f"/api/games/{bad['id']}/record")
        why = refused_http(response, 500, "game_damaged")["params"]["why"]
        refused(why, "move_refused", "R11", number=1, move="take 36")
        with client.websocket_connect(socket_path(bad, 0)) as ws:
            assert refused(next_of(ws, "error"), "game_damaged")["params"]["why"] == why
        with client.websocket_connect(socket_path(good, 0)) as ann:
            assert next_of(ann, "state")["status"] == "playing"  # Ann came: it starts


def test_hostile_input_gets_clear_answers(client):
    game = create(client, DUEL)
    with client.websocket_connect(f"/ws/games/{game['id']}?token=%C3%A9t%C3%A9") as ws:
        refused(next_of(ws, "error"), "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(socket_path(game, 0)) as ws:
        next_of(ws, "state")
        ws.send_text("[" * 1000)  # short, but nested too deep to parse
        refused(next_of(ws, "error"), "not_json_object")
    for name in ("Ann\nTurn 9 - Bob", "A\u202eB", "\u200b", "Nul\x00"):
        spec = {"seats": [{"name": name}, {"name": "Bob"}]}
        response = client.post("/api/games", json=spec)
        invalid(response, "unprintable_name", loc=["body", "seats", 0, "name"])
    huge = {"seats": [{"name": "A"}, {"name": "B"}], "rules": "official" + " " * 20_000}
    refused_http(client.post("/api/games", json=huge), 413, "body_too_big", most=16384)
    for path, shown in [  # the id as asked for, invisible characters made visible
        ("/api/games/%00/record", "\ufffd"),
        ("/api/games/a%20b/replay", "a b"),
        ("/api/games/a%E2%80%AEb/replay", "a\ufffdb"),
    ]:
        refused_http(client.get(path), 404, "no_game", id=shown)
    refused_http(client.get("/api/sheets/%00"), 404, "no_sheet")


@pytest.mark.slow  # a real server process
def test_a_chunked_body_without_a_length_is_capped_too(server):
    """A body sent in chunks declares no length; it is refused once it passes the limit, and
    a small chunked body still works."""
    spec = DUEL

    def chunks(text: str, size: int = 1000) -> Iterator[bytes]:
        for start in range(0, len(text), size):
            yield text[start : start + size].encode()

    with httpx.Client(base_url=server.url, headers={"content-type": "application/json"}) as http:
        huge = json.dumps({**spec, "rules": "official" + " " * 20_000})
        refused = http.post("/api/games", content=chunks(huge))
        assert "content-length" not in refused.request.headers
        assert refused.status_code == 413
        assert refused.json()["detail"] == {
            "id": "body_too_big",
            "rule": None,
            "params": {"most": 16384},
        }
        created = http.post("/api/games", content=chunks(json.dumps(spec), 10))
        assert created.status_code == 201, created.text


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", '{"seats": [{"name": NaN}, {"name": "Bob"}]}'),
        ("/api/games", '{"seats": [{"name": "A"}, {"name": "B"}], "start_player": Infinity}'),
        ("/api/games/{game}/join", '{"name": NaN}'),
        ("/api/sheets/{sheet}/entries", '{"entry": "bust", "count": Infinity}'),
        ("/api/sheets/{sheet}/undo", '{"count": -Infinity}'),
    ],
)
def test_nan_and_infinity_are_refused_with_a_reason(client, caplog, path, body):
    """Python's JSON parser reads NaN and Infinity; they must not reach the answer (which
    cannot hold them) nor the log as a traceback."""
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Guest", "open": True}]})
    sheet = client.post("/api/sheets", json={"names": ["A", "B"]}).json()
    url = path.format(game=game["id"], sheet=sheet["id"])
    response = client.post(url, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    problem = response.json()["detail"][0]
    assert problem["type"] and problem["loc"][0] == "body" and "input" not in problem
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_an_unknown_id_is_not_echoed_whole(client):
    huge = "x" * 5000
    shown = "x" * 40 + "…"
    for path in (f"/api/games/{huge}/record", f"/api/sheets/{huge}"):
        response = client.get(path)
        assert response.status_code == 404 and len(response.text) < 200, path
    game = refused_http(client.get(f"/api/games/{huge}/replay"), 404, "no_game")
    assert shown in game["params"]["id"]
    sheet = refused_http(client.get(f"/api/sheets/{huge}"), 404, "no_sheet")
    assert "x" not in str(sheet["params"])  # a sheet's 404 names no id at all
    with client.websocket_connect(f"/ws/games/{huge}") as ws:
        error = ws.receive_text()
        assert len(error) < 200 and shown in refused(json.loads(error), "no_game")["params"]["id"]


def test_every_answer_carries_the_security_headers(client):
    game = create(client, DUEL)
    for path in ("/", f"/games/{game['id']}", "/keeper", "/static/game.js", "/api/games", "/nope"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
    docs = client.get("/api/docs")  # Swagger UI starts with an inline script of its own
    assert (
        docs.status_code == 200
        and "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    )


def test_pages_answer_head(client):
    game = create(client, DUEL)
    for path in ("/", f"/games/{game['id']}", "/keeper", "/keeper/abc"):
        response = client.head(path)
        assert response.status_code == 200 and response.content == b"", path
        assert response.headers["content-type"].startswith("text/html")


class StuckSocket:
    """A client that never reads: every send waits for ever (the network at its worst)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


def test_a_client_that_stops_reading_holds_up_nobody(database):
    async def scenario() -> tuple[int, list[str], bool, tuple | None]:
        store = Store(database)
        room = Room.create(store, GameRecord(seats=["Ann", "Bob"]), [None, None], 0)
        socket = StuckSocket()
        stuck, heard = Outbox(socket), []

        async def reader(text: str) -> None:
            heard.append(text)

        room.connections[stuck.send] = None
        room.connections[reader] = None
        for _ in range(Outbox.LIMIT + 10):  # finishes: nothing waits for the stuck client
            await asyncio.wait_for(room.broadcast(), timeout=10)
        dropped = stuck.send not in room.connections
        await stuck.stop()
        store.close()
        return len(heard), heard, dropped, socket.closed

    count, heard, dropped, closed = asyncio.run(scenario())
    assert count == Outbox.LIMIT + 10 and dropped
    assert closed == (FELL_BEHIND, "fell_behind")  # closed at once: the page reconnects
    kinds = [json.loads(text)["type"] for text in heard]  # then only what changed
    assert kinds == ["state"] + ["change"] * (len(heard) - 1), kinds


def test_a_client_that_stops_reading_pins_a_bounded_size_not_a_count_of_messages():
    async def scenario() -> tuple[int, tuple | None, bool]:
        socket, queued = StuckSocket(), 0
        outbox = Outbox(socket)
        with contextlib.suppress(ConnectionError):
            for _ in range(Outbox.LIMIT):  # far fewer messages than the count allows
                await outbox.send("x" * (Outbox.SIZE // 4))
                queued += 1
        await outbox.stop()
        alone = Outbox(StuckSocket())  # one message bigger than the bound still goes
        await alone.send("x" * (Outbox.SIZE + 1))
        await alone.stop()
        return queued, socket.closed, alone.queued == 1

    queued, closed, one_big_went = asyncio.run(scenario())
    assert queued >= 1 and queued * (Outbox.SIZE // 4) <= Outbox.SIZE and one_big_went
    assert closed == (FELL_BEHIND, "fell_behind")


class ScriptedClient(StuckSocket):
    """A client that sends ``texts`` and then a ping. One ``reading`` reads each answer (a
    state) before it sends the next; any other reads nothing until the ping is sent, then
    everything up to the pong; then it leaves."""

    def __init__(self, texts: list[str], reading: bool) -> None:
        super().__init__()
        self.texts = [*texts, json.dumps({"type": "ping"})]
        self.reading, self.ponged = asyncio.Event(), asyncio.Event()
        self.states, self.asked, self.arrived = 0, 0, asyncio.Condition()
        if reading:
            self.reading.set()

    async def receive(self) -> dict:
        if self.texts:
            if self.reading.is_set():  # the state of connecting, then each sync's
                async with self.arrived:
                    await self.arrived.wait_for(lambda: self.states > self.asked)
                self.asked += 1
            return {"type": "websocket.receive", "text": self.texts.pop(0)}
        self.reading.set()
        await self.ponged.wait()
        return {"type": "websocket.disconnect"}

    async def send_text(self, data: str) -> None:
        await self.reading.wait()
        self.sent.append(data)
        kind = json.loads(data)["type"]
        if kind == "state":
            async with self.arrived:
                self.states += 1
                self.arrived.notify_all()
        elif kind == "pong":
            self.ponged.set()


@pytest.mark.parametrize("reading", [False, True])
def test_syncs_from_a_client_that_does_not_read_queue_one_whole_state(database, reading):
    async def scenario() -> list[str]:
        store = Store(database)
        room = Room.create(store, GameRecord(seats=["Ann", "Bob"]), [None, None], 0)
        client = ScriptedClient([json.dumps({"type": "sync"})] * 30, reading)
        await asyncio.wait_for(
            _serve_client(client, room, None, RateLimit(1000), None, 60, asyncio.to_thread, None),
            10,
        )
        store.close()
        return [json.loads(text)["type"] for text in client.sent]

    kinds = asyncio.run(scenario())
    assert kinds[0] == "welcome" and kinds[-1] == "pong"
    # a reader gets a state for each sync; one that reads nothing, the one still waiting
    assert kinds.count("state") == (31 if reading else 1), kinds


def test_a_refused_socket_does_not_keep_a_finished_game_in_memory(client, database):
    store_game(database, "done", bots_game().record, "over", humans=True)
    rooms = client.app.state.rooms
    for _ in range(2):  # read from the store, then found among the recent
        with client.websocket_connect("/ws/games/done?token=forged") as forged:
            assert refused(forged.receive_json(), "bad_token")
            with pytest.raises(WebSocketDisconnect):
                forged.receive_json()
        assert "done" not in rooms.rooms and "done" in rooms.recent
    with client.websocket_connect("/ws/games/done") as watcher:  # a watcher keeps it
        assert next_of(watcher, "state")["status"] == "over"
        assert "done" in rooms.rooms
        with client.websocket_connect("/ws/games/done?token=forged") as forged:
            assert refused(forged.receive_json(), "bad_token")
        assert "done" in rooms.rooms  # a refusal does not let go of a game in play
    assert "done" not in rooms.rooms  # until it leaves


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/api/games/done/remove", {}),
        ("/api/games/done/claim", {"Profile-Key": "KEY"}),
        ("/api/games/done/seat", {"Profile-Key": "KEY"}),
    ],
)
def test_a_request_about_an_ended_game_does_not_keep_it_in_memory(client, database, path, headers):
    """An audit: a removal (no secret needed to be refused), a claim or a seat's lookup
    kept every ended game asked about in memory for good: 410 seven-player games took the
    server from 425 to 800 MB. Now they stay among the recent ones only (a bounded few)."""
    store_game(database, "done", bots_game().record, "over", humans=True)
    if "KEY" in headers.values():
        made = client.post("/api/profiles", json={"name": "Ann"}).json()
        headers = {"Profile-Key": made["code"]}
    rooms = client.app.state.rooms
    answer = client.post(path, json={"seat": 0}, headers=headers)
    assert answer.status_code in (403, 404, 409), answer.text
    assert "done" not in rooms.rooms
    # read, then kept among the recent ones; a profile's seat in a game it does not play is
    # refused from what is stored, the game not read at all (stop 69)
    assert ("done" in rooms.recent) == (not path.endswith("/seat"))


def test_an_ended_game_looked_at_again_is_not_read_and_replayed_again(
    client, database, monkeypatch
):
    store_game(database, "done", bots_game().record, "over", humans=True)
    rooms = client.app.state.rooms
    reads = Reads(rooms.store, monkeypatch)
    replay = client.get("/api/games/done/replay").json()
    assert reads.made == ["load"] and "done" in rooms.recent and "done" not in rooms.rooms
    assert client.get("/api/games/done/replay").json() == replay
    assert client.get("/api/games/done/record").json()["moves"] == bots_game().record.moves
    assert reads.made == ["load"]  # looked at three times, read once
    with client.websocket_connect("/ws/games/done") as watcher:  # watched: in play's memory
        next_of(watcher, "state")
        assert "done" in rooms.rooms and "done" not in rooms.recent
    assert "done" in rooms.recent and reads.made == ["load"]  # and back among the recent


def test_a_load_waiting_on_a_cancelled_ones_read_takes_the_game_itself(
    database, games_read, monkeypatch
):
    """A review: two loads of one game share one read; when the first was cancelled (its
    client gone) before it took the game, the second read it again, on the event loop."""
    store_game(database, "shared", bots_game().record, "over", humans=True)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    go_on = threading.Event()  # the read waits until the first load is cancelled
    real_load = store.load
    monkeypatch.setattr(store, "load", lambda *a, **k: go_on.wait(20) and real_load(*a, **k))

    async def loaded_by_the_second() -> tuple[Room | None, bool]:
        first = asyncio.ensure_future(rooms.load_here("shared", keep=False))
        await asyncio.sleep(0)  # its read set going
        second = asyncio.ensure_future(rooms.load_here("shared", keep=False))
        await asyncio.sleep(0)  # waiting on that read
        first.cancel()
        go_on.set()
        return await second

    try:
        room, took = asyncio.run(loaded_by_the_second())
    finally:
        store.close()
    assert room is not None and took and rooms.held("shared") is room
    assert games_read == ["in a worker thread, asyncio"]  # read once, never on the loop


def test_only_the_last_ended_games_looked_at_are_kept(database):
    for game_id in ("a", "b", "c"):
        store_game(database, game_id, bots_game().record, "over", humans=True)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    rooms.RECENT = 2
    first = rooms.get("a", keep=False)
    rooms.get("b", keep=False)
    assert rooms.get("a", keep=False) is first  # a look again makes it the newest
    rooms.get("c", keep=False)
    assert list(rooms.recent) == ["a", "c"] and rooms.rooms == {}
    store.close()


def test_the_ended_games_looked_at_are_kept_up_to_a_number_of_moves_too(database):
    """An audit: 64 looks at ended games of 14,000 moves held 510 MB (the recent ones were
    counted in games, whatever their length)."""
    for game_id in ("a", "b", "c"):
        store_game(database, game_id, bots_game().record, "over", humans=True)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    rooms.RECENT_MOVES = 2 * len(bots_game().record.moves)  # two such games
    for game_id in ("a", "b", "c"):
        rooms.get(game_id, keep=False)
    assert list(rooms.recent) == ["b", "c"]
    rooms.RECENT_MOVES = 1  # one game longer than that is still kept: the one just looked at
    rooms.get("a", keep=False)
    assert list(rooms.recent) == ["a"]
    store.close()


def test_a_game_the_server_no_longer_holds_is_freed_without_the_cycle_collector(database):
    """An audit: each room was a cycle (its parts held it), freed only by a full collection,
    which ``serve``'s tuned collector runs seldom: ended games looked at through the API
    piled up (2.5 GB in 90 s). With the collector off, a game dropped from the recent ones is
    gone at once."""
    for game_id in ("a", "b", "c"):
        store_game(database, game_id, bots_game().record, "over", humans=True)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    rooms.RECENT = 1
    was_on = gc.isenabled()
    gc.disable()
    try:
        looked = [weakref.ref(rooms.get(game_id, keep=False)) for game_id in ("a", "b", "c")]
        assert [room() is not None for room in looked] == [False, False, True]
    finally:
        if was_on:
            gc.enable()
        store.close()


@pytest.fixture
def slow_client(database: str) -> Iterator[TestClient]:
    """A server whose limits refill slowly (one look every 10 s after ten at once), so that a
    test's ten requests cannot earn an eleventh however slow the machine."""
    app = create_app(database, bot_delay=0, message_rate=1000, new_games_per_minute=1)
    with TestClient(app) as test_client:
        yield test_client


def test_records_and_replays_of_games_read_from_the_store_are_limited_per_address(
    slow_client, database
):
    client = slow_client
    for n in range(12):
        store_game(database, f"done{n}", bots_game().record, "over", humans=True)
    reads = [client.get(f"/api/games/done{n}/{('record', 'replay')[n % 2]}") for n in range(11)]
    assert [a.status_code for a in reads[:10]] == [200] * 10  # ten at once, then one in 10 s
    refused_http(reads[10], 429, "too_many_lookups")
    held = [client.get(f"/api/games/done{n % 10}/replay") for n in range(30)]  # a club's ends
    assert [a.status_code for a in held] == [200] * 30  # games held here cost nothing again


def test_a_held_game_s_replay_is_made_once_a_length_out_of_the_event_loop_and_counted(
    slow_client, monkeypatch
):
    """An audit: one address asked for the replay of an unfinished game of 10,000 moves, held
    here (its spectator was connected), 8 at a time: each was made anew on the event loop,
    counted nowhere, and everybody's moves waited 1.8 s. A replay is made once for each
    length of the record, in a worker thread, and a held game's replays count among the
    lobby's looks (30 at once: a club's ends fit, see above)."""
    client = slow_client
    game = create(client, DUEL)
    made = []  # for each replay made: whether an event loop ran in its thread
    real = games_api.replay_frames

    def counted(record: GameRecord) -> list[dict]:
        try:
            asyncio.get_running_loop()
            made.append("on the event loop")
        except RuntimeError:  # the replays' own: not in front of people's games being read
            made.append(f"in a worker thread, {threading.current_thread().name.split('_')[0]}")
        return real(record)

    monkeypatch.setattr(games_api, "replay_frames", counted)
    path = f"/api/games/{game['id']}/replay"
    with client.websocket_connect(socket_path(game, 0)) as ann:  # held here: in play
        next_of(ann, "state")
        before = [client.get(path) for _ in range(5)]
        assert [answer.status_code for answer in before] == [200] * 5
        assert made == ["in a worker thread, replays"]  # asked five times, made once
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        rolled = next_of(ann, "state")
        after = client.get(path).json()
        assert made == ["in a worker thread, replays"] * 2  # a move: made again, with it
        assert after["frames"][-1]["table"] == rolled["table"] != before[0].json()["frames"][-1]
        looks = [client.get(path) for _ in range(40)]
    assert [look.status_code for look in looks[:24]] == [200] * 24  # 30 at once in all
    refused_http(next(look for look in looks if look.status_code != 200), 429, "too_many_lookups")
    assert len(made) == 2


def test_a_replay_shows_the_names_of_seats_taken_since_it_was_made(client):
    """A review: a replay kept for its number of moves kept the name of an open seat after a
    guest took it (no move made)."""
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Guest", "open": True}]})
    path = f"/api/games/{game['id']}"
    with client.websocket_connect(socket_path(game, 0)):  # held here
        assert client.get(f"{path}/replay").json()["seats"] == ["Ann", "Guest"]
        assert client.post(f"{path}/join", json={"name": "Zoe"}).is_success
        assert client.get(f"{path}/replay").json()["seats"] == ["Ann", "Zoe"]


def test_a_game_read_from_the_store_for_a_socket_or_a_look_is_replayed_out_of_the_event_loop(
    client, database, games_read
):
    """An audit: waking a stored game of 10,000 moves (its spectator's socket, its replay)
    replayed its moves on the event loop: 178 ms of everybody's time each."""
    for game_id in ("watched", "looked", "short"):
        store_game(database, game_id, bots_game().record, "playing", humans=True)
    sql(database, f"UPDATE games SET turns = {LONG_GAME + 1} WHERE id <> 'short'")  # long ones
    made = games_read
    with client.websocket_connect("/ws/games/watched") as watcher:
        assert next_of(watcher, "state")["seq"] == len(bots_game().record.moves)
    assert client.get("/api/games/looked/replay").status_code == 200
    read = ["in a worker thread, asyncio", "in a worker thread, looks"]  # a look: the looks'
    assert made == read
    assert client.get("/api/games/looked/record").status_code == 200  # held now: not read
    assert made == read
    assert client.get("/api/games/short/record").status_code == 200  # a short game: shared
    assert made == [*read, "in a worker thread, asyncio"]


def test_a_game_read_for_a_join_a_seat_or_a_rematch_is_replayed_out_of_the_event_loop(
    client, database, games_read
):
    """The routes that still read a game on the event loop after that audit (each counted
    per address first): a join, a seat's transfer, a rematch's look. In the looks' own thread:
    an audit's five addresses flooding them on games of 14,000 moves, in the threads people's
    games are read in, made another player's ping 30–44 ms median, 186–317 ms p95, and the
    opening of a small game up to 2.3 s; in one thread of their own 7–8, 22–27 ms and 0.35 s
    (long games only: people's own looks at their games do not wait behind them)."""
    for game_id, status in (("joined", "playing"), ("moved", "playing"), ("ended", "over")):
        store_game(database, game_id, bots_game().record, status, humans=True)
    sql(database, "UPDATE seats SET open_seat = true, claimed = false WHERE game_id = 'joined'")
    sql(database, f"UPDATE games SET turns = {LONG_GAME + 1}")  # long games
    answers = [
        client.post("/api/games/joined/join", json={"name": "Zoe"}),
        client.post("/api/games/moved/transfer", headers={"Seat-Token": "token-0"}),
        client.get("/api/games/ended/rematch"),
    ]
    assert [answer.status_code < 500 for answer in answers] == [True] * 3, answers
    assert games_read == ["in a worker thread, looks"] * 3


def test_a_socket_does_not_wait_for_a_look_at_its_game_queued_behind_a_strangers(
    client, database, games_read
):
    """A review: a socket opened on a long game a stranger's look had queued in the looks'
    thread waited for it (2.5-3.5 s behind a flood); it reads the game in its own pool."""
    store_game(database, "long", bots_game().record, "playing", humans=True)
    sql(database, f"UPDATE games SET turns = {LONG_GAME + 1}")
    busy = threading.Event()
    LOOKS.submit(busy.wait, 20)  # the looks' thread at a stranger's flood
    try:
        look = threading.Thread(target=client.get, args=("/api/games/long/record",))
        look.start()
        rooms = client.app.state.rooms
        wait_until(lambda: ("long", LOOKS) in rooms._loading, "the look queued")
        with client.websocket_connect("/ws/games/long") as watcher:
            assert next_of(watcher, "state")["seq"] == len(bots_game().record.moves)
        assert games_read == ["in a worker thread, asyncio"]  # while the look still waits
    finally:
        busy.set()
    look.join()
    assert games_read == ["in a worker thread, asyncio", "in a worker thread, looks"]


def test_a_join_without_a_seat_to_take_or_a_transfer_without_its_secret_reads_nothing(
    client, database, games_read
):
    """An audit: joins and transfers refused (no open seat, a wrong secret) each read a long
    game into memory first, held a minute or more. What is stored says enough; so it does
    for a profile asking for its seat in a game it does not play (read first until stop 69)."""
    store_game(database, "full", bots_game().record, "playing", humans=True)
    stranger = as_profile(claim(client, "Stranger"))
    for answer, why in [
        (client.post("/api/games/full/join", json={"name": "Zoe"}), "no_open_seat"),
        (client.post("/api/games/full/transfer", headers={"Seat-Token": "x" * 22}), "bad_token"),
        (client.post("/api/games/full/transfer"), "bad_token"),
        (client.post("/api/games/full/seat", headers=stranger), "profile_not_seated"),
    ]:
        status = {"no_open_seat": 409, "bad_token": 403, "profile_not_seated": 404}[why]
        refused_http(answer, status, why)
    refused_http(client.post("/api/games/nope/seat", headers=stranger), 404, "no_game")
    refused_http(client.post("/api/games/nope/transfer"), 404, "no_game")
    assert games_read == [] and client.app.state.rooms.held("full") is None


def test_a_rematch_look_at_a_game_held_here_asks_the_store_nothing(client, monkeypatch):
    """A review: every rematch look asked the store for the game's status, a game held here
    too (looks at a held game are not counted per address)."""
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    store = client.app.state.rooms.store
    monkeypatch.setattr(store, "status_of", lambda game_id: pytest.fail("the store was asked"))
    assert client.get(f"/api/games/{game['id']}/rematch").json() == {"offer": None}


def test_a_rematch_of_a_game_not_over_reads_nothing_of_it(client, database, games_read):
    """An audit: rematch looks at long unfinished games read each into play, woken and held
    a minute or more (three addresses: 137 MB to 1 GB in 45 s). Its status says enough."""
    record = bots_game().record
    record.moves = record.moves[:200]  # a game still going: its people away, resting
    store_game(database, "going", record, "playing", humans=True)
    sql(database, "UPDATE games SET resting = true WHERE id = 'going'")
    assert client.get("/api/games/going/rematch").json() == {"offer": None}
    for path in ("rematch", "rematch/decline"):
        answer = client.post(f"/api/games/going/{path}", headers={"Seat-Token": "token-0"})
        refused_http(answer, 409, "rematch_not_over")
    assert games_read == [] and client.app.state.rooms.held("going") is None


@pytest.mark.parametrize(
    ("method", "path", "answer"),
    [
        ("GET", "rematch", 200),
        ("POST", "rematch", 403),  # no seat token
        ("POST", "rematch/decline", 403),
        ("POST", "cancel", 409),  # not waiting for players any more
        ("POST", "remove", 409),
        ("POST", "claim", 403),  # no profile key
    ],
)
def test_other_requests_about_games_read_from_the_store_are_limited_per_address(
    slow_client, database, method: str, path: str, answer: int
):
    """An audit: a rematch look, a creator's cancel or removal, a profile's claim each read
    and replayed an ended game from the store before refusing (no token, not the creator, an
    ended game), with no limit: a stranger cycling through the lobby's finished games made
    every move on the server wait seconds. They count against the address's looks now."""
    for n in range(11):
        store_game(database, f"done{n}", bots_game().record, "over", humans=True)
    body = {"seat": 0} if path == "remove" else None
    asked = [slow_client.request(method, f"/api/games/done{n}/{path}", json=body)
             for n in range(11)]  # fmt: skip
    assert [a.status_code for a in asked[:10]] == [answer] * 10, asked[0].text
    refused_http(asked[10], 429, "too_many_lookups")


def test_analyses_read_from_the_store_and_records_sent_are_limited_per_address(
    slow_client, database
):
    """An audit: ``GET .../analysis`` read and replayed a game from the store before any
    limit (20 s of CPU in 20 s), and every ``POST /api/analysis`` replayed the record sent
    (10 clients: a trivial GET 5 -> 361 ms). Both now count against the address's looks."""
    record = bots_game().record
    record.moves = record.moves[:40]  # a game left unfinished, then abandoned
    for n in range(11):
        store_game(database, f"gone{n}", record, "abandoned", humans=True)
    looks = [slow_client.get(f"/api/games/gone{n}/analysis") for n in range(11)]
    assert [a.status_code for a in looks[:10]] == [409] * 10  # ten at once, then one in 10 s
    refused_http(looks[10], 429, "too_many_lookups")
    fresh_app = create_app(database, bot_delay=0, new_games_per_minute=1)
    with TestClient(fresh_app) as fresh:  # the budget of a new server
        sent = [fresh.post("/api/analysis", json={"format": "chess"}) for _ in range(11)]
        assert [a.status_code for a in sent[:10]] == [400] * 10
        refused_http(sent[10], 429, "too_many_lookups")


def test_spectators_and_connections_are_limited_but_players_are_let_in(database):
    app = create_app(database, bot_delay=0, connections_per_address=4, watchers_per_game=2)
    with TestClient(app) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        watch = f"/ws/games/{game['id']}"
        with client.websocket_connect(watch) as first, client.websocket_connect(watch) as second:
            for ws in (first, second):
                next_of(ws, "state")
            with client.websocket_connect(watch) as third:  # one spectator too many
                refused(third.receive_json(), "too_many_watchers")
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == TOO_MANY
            with ExitStack() as stack:  # four seated connections from one address
                for n in range(4):  # Bob's first takes his seat: its new secret is kept
                    seat = stack.enter_context(client.websocket_connect(socket_path(game, n % 2)))
                    assert next_of(seat, "welcome")["seat"] == n % 2
                    assert next_of(seat, "state")
                with client.websocket_connect(socket_path(game, 0)) as again:  # a fifth
                    refused(again.receive_json(), "too_many_connections")
                    with pytest.raises(WebSocketDisconnect) as closed:
                        again.receive_json()
                    assert closed.value.code == TOO_MANY
        with client.websocket_connect(watch) as later:  # the others have left
            assert next_of(later, "state")


def test_spectators_from_an_address_cannot_lock_its_players_out(database):
    """Whoever opens spectators' sockets from a player's address (a script, a foreign page
    by a rebinding trick) fills only the spectators' share: the seats' share is counted
    apart, and only holders of a seat's secret can use it."""
    app = create_app(database, bot_delay=0, connections_per_address=3)
    with TestClient(app) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        watch = f"/ws/games/{game['id']}"
        with ExitStack() as stack:
            for _ in range(3):
                next_of(stack.enter_context(client.websocket_connect(watch)), "state")
            with client.websocket_connect(watch) as fourth:
                refused(fourth.receive_json(), "too_many_connections")
            with client.websocket_connect(socket_path(game, 0)) as ann:
                assert next_of(ann, "welcome")["seat"] == 0


def test_taking_seats_too_fast_is_refused(database):
    with TestClient(create_app(database, new_games_per_minute=10)) as client:
        seats = [{"name": "Ann"}] + [{"name": f"Guest {n}", "open": True} for n in range(6)]
        games = [create(client, {"seats": seats}) for _ in range(2)]
        answers = [
            client.post(f"/api/games/{game['id']}/join", json={"name": f"P{n}"}).status_code
            for game in games
            for n in range(6)
        ]
        assert answers == [200] * 10 + [429] * 2
        refused = client.post(f"/api/games/{games[1]['id']}/join", json={"name": "Q"})
        refused_http(refused, 429, "too_many_joins")


def test_creating_games_or_sheets_too_fast_is_refused(database):
    with TestClient(create_app(database, new_games_per_minute=10)) as client:
        spec = {"seats": [{"name": "A"}, {"name": "B"}]}
        answers = [client.post("/api/games", json=spec).status_code for _ in range(10)]
        answers += [client.post("/api/sheets", json={"names": ["A", "B"]}).status_code]
        assert answers == [201] * 10 + [429]
        refused_http(client.post("/api/games", json=spec), 429, "too_many_new_games")
        sheet = client.post("/api/sheets", json={"names": ["A", "B"]})
        refused_http(sheet, 429, "too_many_new_games")


def app_with_ended_games(database: str, count: int) -> FastAPI:
    """An app over ``count`` ended games stored (``done0``, ``done1``, …), whose addresses
    may look at ten at once, then one each 10 s."""
    for n in range(count):
        store_game(database, f"done{n}", bots_game().record, "over", humans=True)
    return create_app(database, new_games_per_minute=1)


def records_read(client: TestClient, numbers: range) -> list[int]:
    """The status of each ended game's record asked for, in turn."""
    return [client.get(f"/api/games/done{n}/record").status_code for n in numbers]


def test_the_addresses_of_one_ipv6_network_share_its_limits(database):
    app = app_with_ended_games(database, 12)
    with TestClient(app, client=("2001:db8:1:2::1", 50000)) as first:
        assert records_read(first, range(10)) == [200] * 10
        neighbour = TestClient(app, client=("2001:db8:1:2:ffff::9", 50000))  # the same /64
        refused_http(neighbour.get("/api/games/done10/record"), 429, "too_many_lookups")
        elsewhere = TestClient(app, client=("2001:db8:1:3::1", 50000))  # the next /64
        assert elsewhere.get("/api/games/done11/record").status_code == 200


def test_texts_forwarded_that_are_no_address_share_one_budget(database):
    """An audit: any text a proxy forwarded that is no address (``1.2.3.4:80``, ``01.2.3.4``,
    stray spaces) counted as an address of its own, with a budget of its own. Now all such
    texts are one address; an address written in brackets is that address."""
    app = app_with_ended_games(database, 21)
    with TestClient(app, client=("1.2.3.4:80", 50000)) as first:
        assert records_read(first, range(10)) == [200] * 10
        for text in ("01.2.3.4", " 1.2.3.4:81", "nonsense"):
            other = TestClient(app, client=(text, 50000))
            refused_http(other.get("/api/games/done10/record"), 429, "too_many_lookups")
        bracketed = TestClient(app, client=("[2001:db8:1:2::1]", 50000))
        assert records_read(bracketed, range(10, 20)) == [200] * 10  # not the texts' budget
        same = TestClient(app, client=("2001:db8:1:2::9", 50000))  # the bracketed one's /64
        refused_http(same.get("/api/games/done20/record"), 429, "too_many_lookups")


def test_spectators_sockets_to_games_read_from_the_store_count_as_looks(database):
    """An audit's flood: sockets opened and closed on ended games, each read from the store and
    replayed whole, 38 times the looks a record is allowed. Now ten, then one each 10 s; a
    game held here (just watched) costs nothing to open again; another address has its own."""
    for n in range(12):
        store_game(database, f"done{n}", bots_game().record, "over", humans=True)
    app = create_app(database, new_games_per_minute=1)  # ten looks, then one each 10 s
    with TestClient(app, client=("203.0.113.7", 50000)) as client:
        for n in range(10):
            with client.websocket_connect(f"/ws/games/done{n}") as watcher:
                assert next_of(watcher, "state")["table"]["over"]
        with client.websocket_connect("/ws/games/done10") as refused_socket:
            refused(refused_socket.receive_json(), "too_many_lookups")
            with pytest.raises(WebSocketDisconnect) as closed:
                refused_socket.receive_json()
            assert closed.value.code == TOO_MANY  # the page tries again later
        with client.websocket_connect("/ws/games/done9") as again:  # held: no load
            assert next_of(again, "state")["table"]["over"]
        elsewhere = TestClient(app, client=("198.51.100.4", 50000))
        with elsewhere.websocket_connect("/ws/games/done10") as watcher:
            assert next_of(watcher, "state")["table"]["over"]


def test_a_player_opening_and_closing_their_socket_in_a_loop_is_held_back(database):
    """An audit: a seated player opened and closed their socket 195 times a second, each
    coming and going told to the whole table (1,954 presence messages to each of 20
    watchers in 5 s). Thirty opens at once, then one a second (at ten games a minute)."""
    app = create_app(database, new_games_per_minute=10)
    with TestClient(app, client=("203.0.113.7", 50000)) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        for _ in range(30):
            with client.websocket_connect(socket_path(game, 0)) as ann:
                next_of(ann, "state")
        with client.websocket_connect(socket_path(game, 0)) as churned:
            refused(churned.receive_json(), "too_many_lookups")
            with pytest.raises(WebSocketDisconnect) as closed:
                churned.receive_json()
            assert closed.value.code == TOO_MANY
        elsewhere = TestClient(app, client=("198.51.100.4", 50000))  # Bob: his own budget
        with elsewhere.websocket_connect(socket_path(game, 1)) as bob:
            assert next_of(bob, "state")["seats"][1]["online"]


def test_a_socket_opening_beyond_the_address_s_opens_reads_no_seats(database, monkeypatch):
    """An audit: every opening with a token (forged too) of a game not held here read the
    game's seats first (a person's own game is no look), then was refused as one too many."""
    with TestClient(create_app(database)) as client:
        held, resting = (
            create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]}) for _ in "ab"
        )
    address = ("203.0.113.7", 50000)  # thirty opens at once (at ten games a minute)
    monkeypatch.setattr(protocol, "time", SteadyClock())  # and none more during the test
    with TestClient(create_app(database, new_games_per_minute=10), client=address) as client:
        for _ in range(30):
            with client.websocket_connect(f"/ws/games/{held['id']}?token=forged") as opened:
                refused(opened.receive_json(), "bad_token")
        store = client.app.state.rooms.store
        asked: list[str] = []
        real = store.seat_tokens
        monkeypatch.setattr(store, "seat_tokens", lambda ids: asked.append("") or real(ids))
        for _ in range(5):
            with client.websocket_connect(f"/ws/games/{resting['id']}?token=forged") as beyond:
                refused(beyond.receive_json(), "too_many_lookups")
        assert asked == []


class SteadyClock:
    """``time.monotonic`` as the test sets it (``time.time`` as it is)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    @staticmethod
    def time() -> float:
        return time.time()


def test_comings_and_goings_in_a_burst_are_told_in_two_presence_messages(database, monkeypatch):
    """From many addresses, the opens per address would not hold a churn back: however many
    comings and goings, a table hears of the first at once and of the rest together, a
    quarter of a second later, whoever is online then."""
    clock = SteadyClock()
    monkeypatch.setattr(audience, "time", clock)
    with TestClient(create_app(database)) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        with client.websocket_connect(socket_path(game, 0)) as ann:
            next_of(ann, "state")
            room = client.app.state.rooms.rooms[game["id"]]

            async def churn() -> None:  # as twenty sockets coming and going would
                for _ in range(20):
                    await room.audience.announce_presence()

            clock.now += 60  # the last presence message long ago: the first goes at once
            client.portal.call(churn)
            assert next_of(ann, "presence") == next_of(ann, "presence")  # the first, the rest
            ann.send_json({"type": "ping"})
            assert ann.receive_json() == {"type": "pong"}  # and nothing more


def test_a_stream_of_new_addresses_gives_a_busy_one_no_budget_back():
    limits = RateLimits(per_second=1 / 600, burst_seconds=6000)  # ten at once, then no more
    limits.MAX_CLIENTS = 100
    busy = "203.0.113.7"
    assert [limits.allow(busy) for _ in range(11)] == [True] * 10 + [False]
    for n in range(1000):  # ten times as many addresses as are remembered
        assert limits.allow(f"198.51.{n // 250}.{n % 250 + 1}")
        assert not limits.allow(busy)
    assert len(limits.limits) <= limits.MAX_CLIENTS


def test_unknown_addresses_and_methods_are_refused_with_an_id_not_words(client):
    for path in ("/nope", "/api/nope", "/static/nope.js", "/i18n/x.json"):
        refused_http(client.get(path), 404, "no_page")
    listing = client.delete("/api/games")  # the lobby's list takes GET and POST only
    refused_http(listing, 405, "method_not_allowed")
    assert listing.headers["allow"]  # Starlette's headers stay
    refused_http(client.get("/api/sheets"), 405, "method_not_allowed")  # nobody lists sheets

    async def teapot() -> None:  # any other refusal Starlette words
        raise StarletteHTTPException(418, "I'm a teapot")

    client.app.add_api_route("/teapot", teapot)
    refused_http(client.get("/teapot"), 418, "http_status", status=418)


def test_an_unexpected_failure_is_a_500_with_an_id_not_words(database, monkeypatch):
    app = create_app(database)
    with TestClient(app, raise_server_exceptions=False) as client:

        def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(Store, "listing", broken)
        refused_http(client.get("/api/games"), 500, "server_error")


def test_a_move_waiting_to_be_stored_is_not_what_the_next_act_is_checked_against(
    database: str,
) -> None:
    """A player's turn-ending move (stopping) waits for the end of the pass; in the same
    pass the other acts on the version after it (guessed: never shown it). The stop's write
    then fails: the other is checked against the game as stored (not their turn), so they
    are refused, and nothing of theirs is stored on the first player's turn."""
    store = Store(database)
    try:
        room = Room.create(
            store, GameRecord(["Ann", "Bob"], start_player=0), [None, None], 0,
            creator=0, dice_seed=7,
        )  # fmt: skip
        room.claim(1)

        async def play() -> tuple[int, object, object]:
            while "stop" not in room.session.actions():
                actions = room.session.actions()
                await room.act(room.game.state.current, actions[0], room.seq)
            mover, seq = room.game.state.current, room.seq
            failing_writes(room, times=1)
            stop = asyncio.ensure_future(room.act(mover, "stop", seq))
            other = asyncio.ensure_future(room.act(1 - mover, "roll", seq + 1))
            first, second = await asyncio.gather(stop, other, return_exceptions=True)
            return mover, first, second

        mover, stop, other = asyncio.run(play())
        assert getattr(stop, "code", None) == "not_saved"
        assert getattr(other, "code", None) in ("stale", "not_your_turn"), other
        assert stored_moves(database, room.id) == room.game.record.moves
        assert room.game.state.current == mover and "stop" in room.session.actions()
    finally:
        store.close()
