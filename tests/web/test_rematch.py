"""Rematches (one offer per finished game, accepted seat by seat, declined for all, kept across
restarts) and "My games" (the games of the seat tokens a browser holds, your turn first):
the app in process, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from pickomino.web import create_app
from pickomino.web.game.room import Room

from .clients import next_of, refused_http, socket_path, where_running
from .test_profiles import as_profile, claim, finish_offline, sql, token
from .test_protocol import fast_app

ANN_BOB_AND_BOT = {
    "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Robo", "bot": "easy"}],
    "start_player": 1,
    "rules": "short",
}


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(fast_app(database)) as test_client:
        yield test_client


def seat(game: dict, number: int) -> dict[str, str]:
    return {"Seat-Token": token(game, number)}


def started(client: TestClient, spec: dict = ANN_BOB_AND_BOT, headers: dict | None = None) -> dict:
    """A new game Bob took his seat in: the game's seats as the browsers hold them (Bob's
    link now has his seat's new secret; the invite link is spent)."""
    game = client.post("/api/games", json=spec, headers=headers).json()
    with client.websocket_connect(socket_path(game, 1)) as ws:  # Bob takes his seat
        secret = next_of(ws, "welcome")["token"]
        assert next_of(ws, "state")["status"] == "playing"
    game["seats"][1]["link"] = f"/games/{game['id']}?token={secret}"
    return game


def finished(database: str, spec: dict = ANN_BOB_AND_BOT) -> dict:
    """A game of Ann, Bob and a bot, played to its end while no server ran."""
    with TestClient(fast_app(database)) as client:
        game = started(client, spec)
    finish_offline(database, game)
    return game


def rematch(client: TestClient, game: dict, number: int | None, what: str = "") -> object:
    headers = seat(game, number) if number is not None else {}
    return client.post(f"/api/games/{game['id']}/rematch{what}", headers=headers)


def test_an_offer_accepted_by_every_person_starts_the_same_seats_again(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        offered = rematch(client, game, 0).json()["offer"]
        assert offered["status"] == "offered" and offered["offered_by"] == 0
        assert offered["accepted"] == [0, 2] and offered["waiting_for"] == [1]  # the bot at once
        assert offered["game"] is None and offered["token"] is None
        assert offered["start_player"] == 2  # after Bob, who started

        with client.websocket_connect(socket_path(game, 0)) as ann_ws:
            next_of(ann_ws, "state")
            accepted = rematch(client, game, 1).json()["offer"]
            told = next_of(ann_ws, "rematch")["offer"]
        assert accepted["status"] == told["status"] == "started"
        assert accepted["game"] == told["game"] and accepted["seat"] == 1 and told["seat"] == 0
        assert accepted["token"] and told["token"] and accepted["token"] != told["token"]

        new_id = accepted["game"]
        path = f"/ws/games/{new_id}?token={accepted['token']}"
        with client.websocket_connect(path) as ws:
            assert next_of(ws, "welcome")["seat"] == 1
            state = next_of(ws, "state")
        assert state["status"] == "playing"
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bob", "Robo"]
        assert state["seats"][2]["bot"] == "easy" and state["rules"]["flip_returned_highest"]
        record = client.get(f"/api/games/{new_id}/record").json()
        assert record["start_player"] == 2 and record["meta"]["rematch_of"] == game["id"]
        # The old links do not open the new game.
        with client.websocket_connect(f"/ws/games/{new_id}?token={token(game, 1)}") as ws:
            assert next_of(ws, "error")["id"] == "bad_token"


def test_a_second_click_joins_the_offer_never_a_second_game(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        first = rematch(client, game, 0).json()["offer"]
        again = rematch(client, game, 0).json()["offer"]
        assert again["status"] == "offered" and again["accepted"] == first["accepted"]
        bob = rematch(client, game, 1).json()["offer"]
        once_more = rematch(client, game, 0).json()["offer"]
    assert bob["status"] == once_more["status"] == "started"
    assert bob["game"] == once_more["game"]
    assert len([g for g in client.get("/api/games").json() if g["id"] == bob["game"]]) == 1


def test_spectators_see_the_offer_but_cannot_answer_it(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        path = f"/api/games/{game['id']}/rematch"
        assert client.get(path).json() == {"offer": None}
        refused_http(rematch(client, game, None), 403, "rematch_seated_only")
        rematch(client, game, 0)
        seen = client.get(path).json()["offer"]
        assert seen["status"] == "offered" and seen["seat"] is None and seen["token"] is None
        refused_http(rematch(client, game, None, "/decline"), 403, "rematch_seated_only")
        rematch(client, game, 1)
        watched = client.get(path).json()["offer"]
    assert watched["status"] == "started" and watched["game"] and watched["token"] is None


def test_a_rematch_seat_moved_to_another_device_is_not_given_again_to_the_old_one(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        rematch(client, game, 0)
        bobs = rematch(client, game, 1).json()["offer"]
        path = f"/api/games/{game['id']}/rematch"
        asked = client.get(path, headers=seat(game, 0)).json()["offer"]
        again = client.get(path, headers=seat(game, 0)).json()["offer"]  # a reload: the same
        assert asked["token"] and again["token"] == asked["token"] != bobs["token"]
        new_id, first = asked["game"], asked["token"]
        moved = client.post(f"/api/games/{new_id}/transfer", headers={"Seat-Token": first})
        one_time = moved.json()["link"].split("token=")[1]
        with client.websocket_connect(f"/ws/games/{new_id}?token={one_time}") as phone:
            phones = next_of(phone, "welcome")["token"]
        afterwards = client.get(path, headers=seat(game, 0)).json()["offer"]
        assert afterwards["status"] == "started" and afterwards["token"] is None
        assert client.get(path, headers=seat(game, 1)).json()["offer"]["token"] == bobs["token"]
        with client.websocket_connect(f"/ws/games/{new_id}?token={first}") as old_device:
            assert next_of(old_device, "error")["id"] == "bad_token"
        with client.websocket_connect(f"/ws/games/{new_id}?token={phones}") as on_the_phone:
            assert next_of(on_the_phone, "welcome")["seat"] == 0


@pytest.mark.parametrize("forged", ["x", "A" * 22, "A" * 64])
def test_a_forged_token_is_refused(database, forged):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        path = f"/api/games/{game['id']}/rematch"
        for response in (
            client.post(path, headers={"Seat-Token": forged}),
            client.post(path + "/decline", headers={"Seat-Token": forged}),
            client.get(path, headers={"Seat-Token": forged}),
        ):
            refused_http(response, 403, "bad_token")
        assert client.get(path).json() == {"offer": None}


def test_no_rematch_before_the_end(client):
    game = started(client)
    refused_http(rematch(client, game, 0), 409, "rematch_not_over")
    refused_http(rematch(client, game, 0, "/decline"), 409, "rematch_not_over")
    refused_http(client.post("/api/games/nope/rematch", headers=seat(game, 0)), 404, "no_game")


def test_a_decline_cancels_the_offer_for_everyone(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        refused_http(rematch(client, game, 1, "/decline"), 404, "no_rematch")
        rematch(client, game, 0)
        with client.websocket_connect(socket_path(game, None)) as watcher:
            next_of(watcher, "state")
            declined = rematch(client, game, 1, "/decline").json()["offer"]
            told = next_of(watcher, "rematch")["offer"]
        assert declined["status"] == told["status"] == "declined"
        assert declined["declined_by"] == told["declined_by"] == 1
        refused_http(rematch(client, game, 0), 409, "rematch_declined")
        refused_http(rematch(client, game, 1), 409, "rematch_declined")


def test_a_started_rematch_cannot_be_declined(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        rematch(client, game, 0)
        rematch(client, game, 1)
        refused_http(rematch(client, game, 0, "/decline"), 409, "rematch_started")


def test_an_offer_every_person_accepted_cannot_be_declined_while_it_starts(database):
    """An audit: Bob's accept and Ann's decline at once; the decline came while the accept
    made the new game (reading the store), so the game was made, its seats taken, and both
    were told the offer was declined: a game nobody knew of. Everyone accepted it: it starts."""
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        rematch(client, game, 0)
        sql(
            database, "UPDATE rematches SET accepted = '[0, 1, 2]' WHERE game_id = :g", g=game["id"]
        )
        refused_http(rematch(client, game, 0, "/decline"), 409, "rematch_started")  # it starts
        stored = sql(database, "SELECT status FROM rematches WHERE game_id = :g", g=game["id"])
        offer = client.get(f"/api/games/{game['id']}/rematch", headers=seat(game, 0)).json()
    assert stored == [("started",)]
    assert offer["offer"]["status"] == "started" and offer["offer"]["token"]


def test_an_offer_survives_a_restart(database):
    game = finished(database)
    with TestClient(fast_app(database)) as client:
        rematch(client, game, 1)
    with TestClient(fast_app(database)) as client:
        kept = client.get(f"/api/games/{game['id']}/rematch").json()["offer"]
        assert kept["status"] == "offered" and kept["offered_by"] == 1
        new_id = rematch(client, game, 0).json()["offer"]["game"]
    with TestClient(fast_app(database)) as client:  # the new game is stored, and plays on
        state_path = f"/api/games/{new_id}/record"
        assert client.get(state_path).json()["seats"] == ["Ann", "Bob", "Robo"]
        assert client.get(f"/api/games/{game['id']}/rematch").json()["offer"]["game"] == new_id


def test_a_start_a_crash_cut_short_is_finished_at_the_next_look(database):
    """The new game was created, its seats not yet taken, when the server stopped: the next
    look takes them, each opening with the secret its person is then given."""
    game = finished(database)

    def crash(*args: object, **options: object) -> None:
        raise RuntimeError("the server stopped")

    with TestClient(fast_app(database)) as client:
        rematch(client, game, 0)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Room, "claim", crash)  # after the new game is stored
            with pytest.raises(RuntimeError):
                rematch(client, game, 1)
    path = f"/api/games/{game['id']}/rematch"
    with TestClient(fast_app(database)) as client:
        bob = client.get(path, headers=seat(game, 1)).json()["offer"]
        ann = client.get(path, headers=seat(game, 0)).json()["offer"]
        assert bob["status"] == ann["status"] == "started" and bob["game"] == ann["game"]
        assert bob["token"] and ann["token"] and bob["token"] != ann["token"]
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[bob["game"]]["status"] == "playing"  # every seat taken at the look
        with client.websocket_connect(f"/ws/games/{bob['game']}?token={bob['token']}") as ws:
            assert next_of(ws, "welcome")["seat"] == 1
            assert next_of(ws, "state")["status"] == "playing"


def test_profiles_and_the_rated_flag_carry_over(database):
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        spec = {**ANN_BOB_AND_BOT, "rated": False}
        game = started(client, spec, as_profile(ann))
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        rematch(client, game, 0)
        new_id = rematch(client, game, 1).json()["offer"]["game"]
        meta = client.get(f"/api/games/{new_id}/record").json()["meta"]
    assert meta["profiles"] == [ann["id"], None, None] and meta["rated"] is False


# ------------------------------------------------------------------ My games
def mine(client: TestClient, *held: tuple[dict, str]) -> list[dict]:
    seats = [{"game": game["id"], "token": secret} for game, secret in held]
    response = client.post("/api/mine", json={"seats": seats})
    assert response.status_code == 200, response.text
    return response.json()


def test_my_games_lists_your_turn_first_and_leaves_forged_tokens_out(database):
    over = finished(database)
    with TestClient(fast_app(database)) as client:
        bobs_turn, anns_wait = started(client), started(client)  # Bob starts both
        waiting = client.post("/api/games", json=ANN_BOB_AND_BOT).json()  # Bob never came
        held = [
            (over, token(over, 0)),
            (anns_wait, token(anns_wait, 0)),
            (waiting, token(waiting, 0)),
            (bobs_turn, token(bobs_turn, 1)),
            (waiting, "forged"),
        ]
        rows = mine(client, *held)
        assert [(row["id"], row["seat"]) for row in rows] == [
            (bobs_turn["id"], 1),
            (waiting["id"], 0),  # waiting for people, or for a move: the latest activity first
            (anns_wait["id"], 0),
            (over["id"], 0),
        ]
        assert [row["your_turn"] for row in rows] == [True, False, False, False]
        assert [row["to_move"] for row in rows] == [1, None, 1, None]
        assert rows[-1]["status"] == "over" and rows[-1]["ranking"]
        # The games waiting on a person, let go from memory, say whose turn it is as stored.
        rooms = client.app.state.rooms
        let_go = client.portal.call(rooms.unload_dormant, 0)
        assert {bobs_turn["id"], anns_wait["id"]} <= set(let_go)
        again = mine(client, *held)
        assert [(row["your_turn"], row["to_move"]) for row in again] == [
            (row["your_turn"], row["to_move"]) for row in rows
        ]
        assert mine(client, (over, "x" * 22), (bobs_turn, token(waiting, 0))) == []


def test_my_games_reads_the_store_off_the_event_loop(client, monkeypatch):
    """An audit: My games' reads (2–6 ms for a hundred seats) ran on the event loop."""
    game = started(client)
    store = client.app.state.rooms.store
    read_in: list[str] = []
    for name in ("seat_tokens", "listing"):
        real = getattr(store, name)
        monkeypatch.setattr(
            store, name, lambda *a, real=real, **k: read_in.append(where_running()) or real(*a, **k)
        )
    assert [row["id"] for row in mine(client, (game, token(game, 1)))] == [game["id"]]
    assert read_in == ["in a worker thread, asyncio"] * 2


def test_my_games_caps_the_seats_of_a_request(client):
    seats = [{"game": "g", "token": "t"}] * 101
    assert client.post("/api/mine", json={"seats": seats}).status_code == 422
    assert client.post("/api/mine", json={"seats": seats[:100]}).json() == []
    long = [{"game": "g", "token": "t" * 65}]
    assert client.post("/api/mine", json={"seats": long}).status_code == 422


def test_my_games_is_rate_limited_per_address(database):
    with TestClient(create_app(database, bot_delay=0, new_games_per_minute=1)) as client:
        answers = [client.post("/api/mine", json={"seats": []}) for _ in range(12)]
    assert answers[0].status_code == 200
    refused_http(answers[-1], 429, "too_many_lookups")
