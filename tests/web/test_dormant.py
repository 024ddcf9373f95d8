"""A game in which nothing can happen until somebody comes (a person to move, nobody
connected) is let go from memory and loaded again, as stored, when somebody comes back: a
server's memory follows the games being played, not the games stored (stop 64's finding:
13 KB a game kept for a week). Games with a bot to move, a clock running or somebody
connected stay. Such a game rests: a start does not load it, no process holds its lease, and
the process its person comes back to drives it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.cluster import lease

from .clients import create, next_of, refused, socket_path, stored_game
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


def play_a_turn_and_robo_s(ann, state: dict) -> None:
    """Ann plays her turn to its end; then Robo plays his, and it is Ann's again (or over)."""
    turn = state["table"]["turn"]
    while state["table"]["turn"] == turn:
        action = "stop" if "stop" in state["actions"] else state["actions"][0]
        ann.send_json({"type": "act", "action": action, "seq": state["seq"]})
        state = until(ann, lambda s, seq=state["seq"]: s["seq"] > seq)
    until(ann, lambda s: s["table"]["turn"] > turn + 1 or s["status"] == "over")


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


def test_people_coming_back_to_their_resting_games_spend_no_looks(database):
    """A class back from the break behind one address: each opens their own game, which
    rests; that is not a look at a game read from the store (ten, then one each 10 s here)."""
    with TestClient(app(database, bot_delay=0)) as client:
        games = [create(client, DUEL) for _ in range(12)]
        for game in games:
            claim(client, game, 0)
        assert len(unload(client)) == 12
    school = ("203.0.113.7", 50000)
    with TestClient(create_app(database, new_games_per_minute=1), client=school) as client:
        for game in games:
            with client.websocket_connect(socket_path(game, 0)) as person:
                assert next_of(person, "state")["status"] == "playing"
        assert len(unload(client)) == 12
        for game in games[:10]:  # a spectator's look at a game read from the store counts
            with client.websocket_connect(socket_path(game, None)) as watcher:
                next_of(watcher, "state")
        with client.websocket_connect(socket_path(games[10], None)) as watcher:
            refused(watcher.receive_json(), "too_many_lookups")


@pytest.mark.slow
def test_a_resting_game_holds_no_lease_and_the_process_its_person_comes_back_to_drives_it(
    postgres_cluster: TemporaryPostgres,
):
    database = postgres_cluster.new_database()
    fast = {"bot_delay": 0}
    with TestClient(app(database, **fast)) as here, TestClient(app(database, **fast)) as there:
        game = create(here, DUEL)  # leased by this process: it plays Robo
        leases_here, leases_there = (
            client.app.state.rooms.take.__self__ for client in (here, there)
        )
        assert game["id"] in leases_here.held
        with there.websocket_connect(socket_path(game, 0)) as ann:
            roll_once(ann)
        # the driver lets it rest once it hears that Ann left the other process
        assert wait_until(lambda: unload(here), "Ann's leaving heard") == [game["id"]]
        assert unload(there) == [game["id"]]
        assert stored_game(database, game["id"]).resting
        wait_until(lambda: not leases_here.held and not leases_here.keys, "the lease given back")

        with there.websocket_connect(socket_path(game, 0)) as ann:
            state = next_of(ann, "state")
            wait_until(lambda: game["id"] in leases_there.held, "the process Ann is on drives it")
            assert not stored_game(database, game["id"]).resting
            play_a_turn_and_robo_s(ann, state)  # Robo's, played by the process Ann is on


@pytest.mark.slow
def test_a_resting_game_whose_lease_key_another_process_holds_is_driven_when_its_person_is_back(
    postgres_cluster: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch
):
    """A review: the game rested as Ann left the other process, whose memory still held it
    when she came back within the minute; its lease key was the driver's (for another game of
    that key), so neither process drove it and Robo never played. Her process wakes it: the
    key's holder drives it."""
    one_key = {"& 4095": "& 0"}  # every game of one lease key, as many games make likely
    for name in ("ORPHANS", "ONE"):
        text = getattr(lease, name)
        monkeypatch.setattr(lease, name, text.replace(*next(iter(one_key.items()))))
    database = postgres_cluster.new_database()
    fast = {"bot_delay": 0}
    with TestClient(app(database, **fast)) as here, TestClient(app(database, **fast)) as there:
        game = create(here, DUEL)
        timed = create(here, {"seats": ANN_BOB, "clock": {"per_turn": 600}})
        claim(here, timed, 0, 1)  # in play, its clock running: this process keeps the key
        leases_here = here.app.state.rooms.take.__self__
        assert {game["id"], timed["id"]} <= leases_here.held
        with there.websocket_connect(socket_path(game, 0)) as ann:
            roll_once(ann)
        assert wait_until(lambda: unload(here), "Ann's leaving heard") == [game["id"]]
        assert game["id"] in there.app.state.rooms.rooms  # still held there (a minute)
        with there.websocket_connect(socket_path(game, 0)) as ann:  # back within the minute
            play_a_turn_and_robo_s(ann, next_of(ann, "state"))
