"""Unfinished games nobody touches for long are abandoned: the server stops replaying them
at every start and keeping them in memory; they refuse moves and joins, and keep their
record and replay (on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import threading

from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.db.store import Store
from pickomino.web.game.rooms import Rooms

from .clients import age, create, next_of, refused, refused_http, socket_path, stored_game

WEEK = 7 * 24 * 3600
DUEL = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], "start_player": 0}
PEOPLE = {"seats": [{"name": "Ann"}, {"name": "Bob", "open": True}]}


def statuses(client: TestClient) -> dict[str, str]:
    return {game["id"]: game["status"] for game in client.get("/api/games").json()}


def start_playing(client: TestClient, game: dict) -> None:
    """Ann opens her link (the game starts), rolls once and leaves."""
    with client.websocket_connect(socket_path(game, 0)) as ann:
        seq = next_of(ann, "state")["seq"]
        ann.send_json({"type": "act", "action": "roll", "seq": seq})
        while next_of(ann, "state")["seq"] == seq:
            pass


def test_idle_games_are_abandoned_at_start_and_keep_their_record_and_replay(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        waiting, playing = create(client, PEOPLE), create(client, DUEL)
        fresh = create(client, PEOPLE)
        start_playing(client, playing)
    for game in (waiting, playing):
        age(database, game["id"], WEEK + 60)

    with TestClient(create_app(database, bot_delay=0, abandon_after=WEEK)) as client:
        # Listed with the ended games when a move was played (its replay is worth a look);
        # one that never started is abandoned too, and has nothing to replay: not listed.
        assert statuses(client) == {playing["id"]: "abandoned", fresh["id"]: "open"}
        assert stored_game(database, waiting["id"]).status == "abandoned"
        rooms = client.app.state.rooms.rooms
        assert waiting["id"] not in rooms and playing["id"] not in rooms  # not replayed

        joined = client.post(f"/api/games/{waiting['id']}/join", json={"name": "Cy"})
        refused_http(joined, 409, "game_abandoned")
        assert waiting["id"] not in rooms
        record = client.get(f"/api/games/{playing['id']}/record").json()
        assert record["moves"][:2] and record["moves"][0].startswith("dice")
        frames = client.get(f"/api/games/{playing['id']}/replay").json()["frames"]
        assert frames

        with client.websocket_connect(socket_path(playing, 0)) as ann:
            state = next_of(ann, "state")
            assert state["status"] == "abandoned" and state["actions"] == []
            ann.send_json({"type": "act", "action": "roll", "seq": state["seq"]})
            refused(next_of(ann, "error"), "game_abandoned")
        assert playing["id"] not in rooms  # forgotten again once nobody watches
        assert client.post(f"/api/games/{fresh['id']}/join", json={"name": "Cy"}).is_success


def test_a_game_somebody_is_connected_to_is_not_abandoned(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        game = create(client, DUEL)
        rooms = client.app.state.rooms
        with client.websocket_connect(socket_path(game, 0)) as ann:
            next_of(ann, "state")
            age(database, game["id"], WEEK + 60)
            assert rooms.abandon_idle(WEEK) == []
            assert statuses(client)[game["id"]] == "playing"
        assert rooms.abandon_idle(WEEK) == [game["id"]]
        assert stored_game(database, game["id"]).status == "abandoned"  # no move: not listed
        assert game["id"] not in rooms.rooms


def test_a_game_being_read_for_somebody_is_not_abandoned_meanwhile(database):
    """A review: a game read in a worker thread for a socket (a long game's replay) was
    abandoned by the idle sweep meanwhile, then taken into play as still playing: moves
    were stored in a game the database called abandoned."""
    with TestClient(create_app(database, bot_delay=0)) as client:
        game = create(client, DUEL)
        start_playing(client, game)
    age(database, game["id"], WEEK + 60)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    reading, go_on = threading.Event(), threading.Event()
    real_read = rooms._read

    def held_up(game_id: str):
        reading.set()
        go_on.wait()  # the thread reads as long as the test says
        return real_read(game_id)

    rooms._read = held_up

    async def sweep_during_the_read() -> tuple[list[str], str]:
        loading = asyncio.ensure_future(rooms.load(game["id"]))
        await asyncio.to_thread(reading.wait)
        swept = rooms.abandon_idle(WEEK)
        go_on.set()
        return swept, (await loading).status

    try:
        assert asyncio.run(sweep_during_the_read()) == ([], "playing")
        assert stored_game(database, game["id"]).status == "playing"
    finally:
        store.close()


def test_a_game_abandoned_as_it_is_read_is_taken_as_abandoned(database):
    """The same review: with several processes, what another stores while a game is read
    here (abandoned here; moves) is caught up with before the game is taken into play."""
    with TestClient(create_app(database, bot_delay=0)) as client:
        game = create(client, DUEL)
        start_playing(client, game)
    store = Store(database)
    rooms = Rooms(store, bot_delay=0)
    rooms.take = leased  # one of several processes
    real_read = rooms._read

    def abandoned_meanwhile(game_id: str):
        read = real_read(game_id)
        store.abandon([game_id])  # as the sweep of another process would, once it is read
        return read

    rooms._read = abandoned_meanwhile
    try:
        room = asyncio.run(rooms.load(game["id"]))
        assert room is not None and room.status == "abandoned"
        assert stored_game(database, game["id"]).status == "abandoned"
    finally:
        store.close()


async def leased(game_id: str) -> bool:
    return True


def test_games_are_never_abandoned_when_told_so(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        game = create(client, PEOPLE)
    age(database, game["id"], 100 * WEEK)
    with TestClient(create_app(database, bot_delay=0, abandon_after=0)) as client:
        assert statuses(client)[game["id"]] == "open"
