"""A game in which nothing can happen until somebody comes (a person to move, nobody
connected) is let go from memory and loaded again, as stored, when somebody comes back: a
server's memory follows the games being played, not the games stored (stop 64's finding:
13 KB a game kept for a week). Games with a bot to move, a clock running or somebody
connected stay; with several processes, the one driving a game keeps its lease and drives it
again when something happens in it elsewhere."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .clients import create, next_of, socket_path
from .server_process import TemporaryPostgres, wait_until
from .test_clocks import ANN_BOB, app, claim, until

DUEL = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], "start_player": 0}


def unload(client: TestClient, idle: float = 0) -> list[str]:
    """The server's sweep of dormant games, run in its own event loop."""
    rooms = client.app.state.rooms
    return client.portal.call(rooms.unload_dormant, idle)  # type: ignore[union-attr]


def roll_once(ws) -> dict:
    """Ann rolls: the state after it (she is to keep a face now)."""
    state = until(ws, lambda s: "roll" in s["actions"])
    ws.send_json({"type": "act", "action": "roll", "seq": state["seq"]})
    return until(ws, lambda s, seq=state["seq"]: s["seq"] > seq)


def test_a_game_waiting_on_a_person_nobody_watches_is_let_go_and_comes_back_as_it_was(database):
    with TestClient(app(database, bot_delay=0)) as client:
        game = create(client, DUEL)
        rooms = client.app.state.rooms.rooms
        with client.websocket_connect(socket_path(game, 0)) as ann:
            rolled = roll_once(ann)
            assert unload(client) == []  # Ann is here
        assert unload(client, idle=60) == []  # handed out a moment ago: a reload finds it
        assert unload(client) == [game["id"]]
        assert game["id"] not in rooms

        with client.websocket_connect(socket_path(game, 0)) as ann:
            back = next_of(ann, "state")
            assert game["id"] in rooms
            assert back["seq"] == rolled["seq"] and back["table"] == rolled["table"]
            assert back["actions"] == rolled["actions"]
            ann.send_json({"type": "act", "action": back["actions"][0], "seq": back["seq"]})
            assert until(ann, lambda s: s["seq"] > back["seq"])["status"] == "playing"


def test_a_game_with_a_bot_to_move_or_a_clock_running_is_kept(database):
    with TestClient(app(database)) as client:  # bots wait a minute before each step
        bot_first = create(client, DUEL | {"start_player": 1})
        timed = create(client, {"seats": ANN_BOB, "clock": {"per_turn": 600}})
        claim(client, bot_first, 0)
        claim(client, timed, 0, 1)
        rooms = client.app.state.rooms.rooms
        assert bot_first["id"] in rooms and timed["id"] in rooms
        assert unload(client) == []


def test_a_restart_keeps_in_memory_only_the_games_that_need_it(database):
    with TestClient(app(database, bot_delay=0)) as client:
        waiting_on_ann = create(client, DUEL)
        with client.websocket_connect(socket_path(waiting_on_ann, 0)) as ann:
            roll_once(ann)
        timed = create(client, {"seats": ANN_BOB, "clock": {"per_turn": 600}})
        claim(client, timed, 0, 1)
    with TestClient(app(database, bot_delay=0)) as client:
        rooms = client.app.state.rooms.rooms  # several processes: once the leases are taken
        wait_until(lambda: timed["id"] in rooms, "the timed game is driven")
        assert set(rooms) == {timed["id"]}
        with client.websocket_connect(socket_path(waiting_on_ann, 0)) as ann:
            assert "roll" not in next_of(ann, "state")["actions"]  # loaded, as she left it


@pytest.mark.slow
def test_the_process_driving_a_game_let_go_drives_it_again_when_it_is_played_elsewhere(
    postgres_cluster: TemporaryPostgres,
):
    database = postgres_cluster.new_database()
    with TestClient(app(database, bot_delay=0)) as here, TestClient(app(database)) as there:
        game = create(here, DUEL)  # leased by this process: it plays Robo
        with there.websocket_connect(socket_path(game, 0)) as ann:
            roll_once(ann)
        # the driver lets go once it hears that Ann left the other process
        assert wait_until(lambda: unload(here), "Ann's leaving heard") == [game["id"]]
        assert unload(there) == [game["id"]]
        driven, shown = here.app.state.rooms, there.app.state.rooms
        leases = driven.take.__self__  # the driver's (pickomino.web.cluster.lease.Leases)
        assert game["id"] in leases.held and leases.rooms.still_driving(game["id"])  # kept

        with there.websocket_connect(socket_path(game, 0)) as ann:
            state = next_of(ann, "state")
            # Ann came to the other process: the driver loads the game (it times absences).
            wait_until(lambda: game["id"] in driven.rooms, "the driver loads the game again")
            assert driven.rooms[game["id"]].drives_bots
            assert not shown.rooms[game["id"]].drives_bots  # the lease stayed where it was
            turn = state["table"]["turn"]
            while state["table"]["turn"] == turn:  # Ann plays her turn to its end
                action = "stop" if "stop" in state["actions"] else state["actions"][0]
                ann.send_json({"type": "act", "action": action, "seq": state["seq"]})
                state = until(ann, lambda s, seq=state["seq"]: s["seq"] > seq)
            # Robo's turn, played by the driver; then Ann's again.
            until(ann, lambda s: s["table"]["turn"] > turn + 1 or s["status"] == "over")
