"""A seat's secret belongs to whoever holds the seat: when a person takes a seat (by its invite
link, from the lobby, as a profile or not), its secret is replaced by one only their browser
receives, so the invite link (which its sender knows) no longer opens it; a rematch answers
only to the seats' current secrets; the way back in from another device is the profile's
recovery code or a one-time transfer link the seat's holder makes. The app in process on
SQLite and PostgreSQL, then real server processes: restarted, and two on one PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pickomino.core import GameRecord
from pickomino.web.db.store import Store
from pickomino.web.errors import Refused
from pickomino.web.game.room import Room

from .clients import follow, next_of, refused, refused_http, socket_path
from .server_process import ServerProcess, TemporaryPostgres
from .test_profiles import as_profile, claim, finish_offline, token
from .test_protocol import fast_app
from .test_server import DEADLINE

ANN_AND_BOB = {"seats": [{"name": "Ann"}, {"name": "Bob"}], "start_player": 0}
#: The same seats for Ann's and Bob's profiles (an invited name may not be a profile's).
PROFILES = {"seats": [{"name": "A"}, {"name": "B"}], "start_player": 0, "rated": True}


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(fast_app(database)) as test_client:
        yield test_client


def seat_path(game: dict, secret: str) -> str:
    return f"/ws/games/{game['id']}?token={secret}"


def take_by_link(client: TestClient, game: dict, seat: int) -> str:
    """Open a seat's invite link, as its person does: the welcome brings the seat's new
    secret (for this browser alone)."""
    with client.websocket_connect(socket_path(game, seat)) as ws:
        welcome = next_of(ws, "welcome")
        assert welcome["seat"] == seat
        assert welcome["token"] != token(game, seat) and len(welcome["token"]) >= 16
        return welcome["token"]


def opens(client: TestClient, game: dict, secret: str) -> dict:
    """The welcome a secret gets (its seat, and a new secret when it took the seat)."""
    with client.websocket_connect(seat_path(game, secret)) as ws:
        welcome = next_of(ws, "welcome")
        next_of(ws, "state")
        return welcome


def refused_socket(client: TestClient, game: dict, secret: str, code: str) -> None:
    """The socket is refused with ``code`` and closed for good (4403)."""
    with client.websocket_connect(seat_path(game, secret)) as ws:
        refused(next_of(ws, "error"), code)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (4403, code)


# ------------------------------------------------------- taking a seat
def test_the_invite_link_stops_opening_a_seat_once_its_person_took_it(database):
    with TestClient(fast_app(database)) as client:
        game = client.post("/api/games", json=ANN_AND_BOB).json()
        bobs = take_by_link(client, game, 1)
        refused_socket(client, game, token(game, 1), "seat_link_used")  # the creator knows it
        assert opens(client, game, bobs) == {"type": "welcome", "seat": 1, "name": "Bob"}
        assert opens(client, game, token(game, 0))["seat"] == 0  # the creator's own: hers
    with TestClient(fast_app(database)) as client:  # after a restart, too
        refused_socket(client, game, token(game, 1), "seat_link_used")
        assert opens(client, game, bobs)["seat"] == 1


def test_a_seat_taken_as_a_profile_has_a_secret_only_its_browser_knows(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    game = client.post("/api/games", json=PROFILES, headers=as_profile(ann)).json()
    path = f"/api/games/{game['id']}/claim"
    taken = client.post(path, headers={"Seat-Token": token(game, 1), **as_profile(bob)}).json()
    assert (taken["seat"], taken["name"], taken["profile"]) == (1, "Bob", bob["id"])
    assert taken["token"] != token(game, 1) and taken["link"].endswith(f"?token={taken['token']}")
    refused_socket(client, game, token(game, 1), "seat_link_used")
    refused_http(
        client.post(path, headers={"Seat-Token": token(game, 1), **as_profile(ann)}),
        403, "seat_link_used",
    )  # fmt: skip
    assert opens(client, game, taken["token"]) == {"type": "welcome", "seat": 1, "name": "Bob"}


def test_two_browsers_opening_one_invite_link_the_first_takes_the_seat(client):
    game = client.post("/api/games", json=ANN_AND_BOB).json()
    with client.websocket_connect(socket_path(game, 1)) as first:
        assert "token" in next_of(first, "welcome")
        refused_socket(client, game, token(game, 1), "seat_link_used")
        first.send_json({"type": "ping"})
        assert next_of(first, "pong")  # the first one plays on


def test_my_games_knows_the_seat_by_its_new_secret_only(client):
    game = client.post("/api/games", json=ANN_AND_BOB).json()
    bobs = take_by_link(client, game, 1)

    def mine(secret: str) -> list[tuple[str, int]]:
        seats = [{"game": game["id"], "token": secret}]
        return [
            (row["id"], row["seat"])
            for row in client.post("/api/mine", json={"seats": seats}).json()
        ]

    assert mine(bobs) == [(game["id"], 1)]
    assert mine(token(game, 1)) == []
    assert mine(token(game, 0)) == [(game["id"], 0)]


# ------------------------------------------------- back in from another device
def test_a_profile_gets_a_fresh_secret_for_its_seat_with_its_recovery_code(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    game = client.post("/api/games", json=PROFILES, headers=as_profile(ann)).json()
    path = f"/api/games/{game['id']}/claim"
    first = client.post(path, headers={"Seat-Token": token(game, 1), **as_profile(bob)}).json()
    with client.websocket_connect(seat_path(game, first["token"])) as old_device:
        next_of(old_device, "state")
        again = client.post(f"/api/games/{game['id']}/seat", headers=as_profile(bob)).json()
        assert again["seat"] == 1 and again["token"] not in (first["token"], token(game, 1))
        refused(next_of(old_device, "error"), "seat_moved")  # now a spectator
        old_device.send_json({"type": "act", "action": "roll", "seq": 0})
        refused(next_of(old_device, "error"), "spectators_cannot_play")
    refused_socket(client, game, first["token"], "bad_token")
    assert opens(client, game, again["token"])["seat"] == 1
    seat = f"/api/games/{game['id']}/seat"
    refused_http(client.post(seat, headers={"Profile-Key": "nope"}), 403, "bad_profile_key")
    cy = claim(client, "Cy")
    refused_http(client.post(seat, headers=as_profile(cy)), 404, "profile_not_seated")
    assert client.post(seat, headers=as_profile(ann)).json()["seat"] == 0  # the creator's too


def test_a_new_recovery_code_takes_back_the_seats_a_leaked_one_moved(client):
    """An audit: X learned Bea's code and moved her seat to X's device; Bea made a new code,
    as the docs advise, but X's seat secret still played, and accepted rematches in her name.
    A new code gives her seats in games not ended new secrets nobody holds."""
    ann, bea = claim(client, "Ann"), claim(client, "Bea")
    game = client.post("/api/games", json=PROFILES, headers=as_profile(ann)).json()
    path = f"/api/games/{game['id']}"
    client.post(f"{path}/claim", headers={"Seat-Token": token(game, 1), **as_profile(bea)})
    stolen = client.post(f"{path}/seat", headers=as_profile(bea)).json()["token"]  # X's device
    assert client.post(f"{path}/transfer", headers={"Seat-Token": stolen}).status_code == 200
    new_code = client.post("/api/profiles/me/key", headers=as_profile(bea)).json()["code"]
    refused_http(client.post(f"{path}/transfer", headers={"Seat-Token": stolen}), 403, "bad_token")
    refused_socket(client, game, stolen, "bad_token")
    back = client.post(f"{path}/seat", headers={"Profile-Key": new_code}).json()
    assert back["seat"] == 1 and opens(client, game, back["token"])["seat"] == 1
    assert opens(client, game, token(game, 0))["seat"] == 0  # Ann's seat is untouched


def test_a_seats_secret_may_come_as_a_subprotocol_which_is_not_sent_back(client):
    """As the page sends it: in a header, which access logs do not keep (an address's
    query they do)."""
    game = client.post("/api/games", json=ANN_AND_BOB).json()
    bobs = take_by_link(client, game, 1)
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path, subprotocols=["pickomino", f"seat.{bobs}"]) as ws:
        assert ws.accepted_subprotocol == "pickomino"
        assert next_of(ws, "welcome")["seat"] == 1
    with client.websocket_connect(path, subprotocols=["pickomino", "seat.forged"]) as ws:
        refused(next_of(ws, "error"), "bad_token")
    with client.websocket_connect(path, subprotocols=["pickomino"]) as ws:
        assert ws.accepted_subprotocol == "pickomino"
        assert next_of(ws, "welcome")["seat"] is None  # no secret: a spectator
    with client.websocket_connect(path) as ws:  # a script asking for no subprotocol
        assert ws.accepted_subprotocol is None and next_of(ws, "welcome")["seat"] is None


def test_a_transfer_link_moves_a_seat_once_to_another_device(client):
    game = client.post("/api/games", json=ANN_AND_BOB).json()
    bobs = take_by_link(client, game, 1)
    transfer = f"/api/games/{game['id']}/transfer"
    refused_http(client.post(transfer), 403, "bad_token")
    refused_http(
        client.post(transfer, headers={"Seat-Token": token(game, 1)}), 403, "seat_link_used"
    )
    link = client.post(transfer, headers={"Seat-Token": bobs}).json()["link"]
    one_time = link.split("token=")[1]
    assert one_time != bobs and link == f"/games/{game['id']}?token={one_time}"
    # the one-time link moves the seat and does nothing else (an audit: it acted as the
    # seat's secret on every request, a transfer of its own included, until opened)
    refused_http(client.post(transfer, headers={"Seat-Token": one_time}), 403, "bad_token")
    with client.websocket_connect(seat_path(game, bobs)) as old_device:
        next_of(old_device, "state")
        with client.websocket_connect(seat_path(game, one_time)) as new_device:
            welcome = next_of(new_device, "welcome")
            assert welcome["seat"] == 1 and welcome["token"] not in (bobs, one_time)
            refused(next_of(old_device, "error"), "seat_moved")
    refused_socket(client, game, one_time, "seat_link_used")  # used once
    refused_socket(client, game, bobs, "bad_token")
    assert opens(client, game, welcome["token"])["seat"] == 1


def test_whoever_made_the_game_cannot_move_a_seat_nobody_took_yet(client):
    """An audit: the creator (who knows every invite link) made a transfer link of Bob's
    seat before Bob came, and with it took the seat back from Bob once he had taken it
    (a profile's seat in a rated game too)."""
    game = client.post("/api/games", json=ANN_AND_BOB).json()
    transfer = f"/api/games/{game['id']}/transfer"
    invite = token(game, 1)
    refused_http(client.post(transfer, headers={"Seat-Token": invite}), 403, "seat_not_taken")
    bobs = take_by_link(client, game, 1)
    refused_http(client.post(transfer, headers={"Seat-Token": invite}), 403, "seat_link_used")
    assert opens(client, game, bobs)["seat"] == 1  # still Bob's


def test_two_processes_give_a_seat_once_and_each_knows_its_new_secret(database):
    """Two memories of one game, as two processes hold it: the one behind neither gives the
    seat a second time nor refuses the secret the other gave."""
    store = Store(database)
    record = GameRecord(["Ann", "Bob"], start_player=0)
    here = Room.create(store, record, [None, None], bot_delay=0, creator=0)
    there, yonder = (Room(store.load(here.id), store, bot_delay=0) for _ in range(2))
    invite = here.seats[1].token
    bobs = here.take(1, invite)
    assert bobs is not None and there.seats[1].token == yonder.seats[1].token == invite
    with pytest.raises(Refused) as refusal:  # opened at once there: the database says no
        there.take(there.seat_of(invite), invite)
    assert refusal.value.code == "seat_link_used" and there.seats[1].claimed
    assert yonder.seat_of(bobs) == 1  # a secret unknown here is looked up
    store.close()


# ------------------------------------------------------------------ rematch
def test_a_rematch_is_answered_only_with_the_seats_current_secrets(database):
    """Ann offers, then tries Bob's old invite link to accept in his name: refused, nothing
    starts; Bob accepts with his own secret; each answer carries its own seat's link only."""
    with TestClient(fast_app(database)) as client:
        game = client.post("/api/games", json=ANN_AND_BOB).json()
        bobs = take_by_link(client, game, 1)
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        path = f"/api/games/{game['id']}/rematch"
        anns = {"Seat-Token": token(game, 0)}
        assert client.post(path, headers=anns).json()["offer"]["waiting_for"] == [1]
        refused_http(
            client.post(path, headers={"Seat-Token": token(game, 1)}), 403, "seat_link_used"
        )
        assert client.get(path).json()["offer"]["status"] == "offered"  # nothing started
        accepted = client.post(path, headers={"Seat-Token": bobs}).json()["offer"]
        assert accepted["status"] == "started" and accepted["seat"] == 1
        new = {"id": accepted["game"]}
        anns_view = client.get(path, headers=anns).json()["offer"]
        assert anns_view["seat"] == 0 and anns_view["token"] != accepted["token"]
        assert opens(client, new, accepted["token"])["seat"] == 1
        assert opens(client, new, anns_view["token"])["seat"] == 0
        refused_http(
            client.get(path, headers={"Seat-Token": token(game, 1)}), 403, "seat_link_used"
        )


# ------------------------------------------------------ real server processes
def real_socket(server: ServerProcess, game: dict, secret: str):
    return connect(f"{server.ws_url}/ws/games/{game['id']}?token={secret}", open_timeout=10)


def receive(ws, kind: str) -> dict:
    while True:
        message = follow(ws, json.loads(ws.recv(timeout=DEADLINE)))
        if message["type"] == kind:
            return message


def real_refusal(server: ServerProcess, game: dict, secret: str) -> str:
    """The refusal's id a socket gets (and its close code: final)."""
    with real_socket(server, game, secret) as ws:
        error = receive(ws, "error")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=DEADLINE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        return error["id"]


def real_seat(server: ServerProcess, game: dict, secret: str) -> int | None:
    with real_socket(server, game, secret) as ws:
        return receive(ws, "welcome")["seat"]


@pytest.mark.slow
def test_the_creator_cannot_play_the_profile_seat_she_invited_on_a_real_server(server):
    """Issue 24's finding 1 from outside: Ann creates a rated game, Bob takes his seat as his
    profile, Ann opens the invite link she created: refused, and still after a restart."""
    post = lambda path, **headers: httpx.post(server.url + path, headers=headers, json={})  # noqa: E731
    ann = httpx.post(server.url + "/api/profiles", json={"name": "Ann"}).json()
    bob = httpx.post(server.url + "/api/profiles", json={"name": "Bob"}).json()
    game = httpx.post(server.url + "/api/games", json=PROFILES, headers=as_profile(ann)).json()
    invite = token(game, 1)
    taken = post(f"/api/games/{game['id']}/claim", **{"Seat-Token": invite}, **as_profile(bob))
    bobs = taken.json()["token"]
    assert real_refusal(server, game, invite) == "seat_link_used"
    assert real_seat(server, game, bobs) == 1
    server.stop()
    server.start()
    assert real_refusal(server, game, invite) == "seat_link_used"
    assert real_seat(server, game, bobs) == 1


@pytest.mark.slow
def test_a_seat_taken_on_one_process_is_refused_to_its_old_link_on_another(
    postgres_cluster: TemporaryPostgres, tmp_path: Path
):
    """Two processes on one PostgreSQL: the one that holds the game in memory (Ann is
    connected there) refuses the invite link once Bob took the seat on the other, and
    knows Bob's new secret."""
    database = postgres_cluster.new_database()
    first = ServerProcess(database, log=tmp_path / "first.log").start()
    try:
        second = ServerProcess(database, log=tmp_path / "second.log").start()
        try:
            game = httpx.post(first.url + "/api/games", json=ANN_AND_BOB).json()
            with real_socket(second, game, token(game, 0)) as ann:
                receive(ann, "state")  # the second process holds the game now
                with real_socket(first, game, token(game, 1)) as bob:
                    bobs = receive(bob, "welcome")["token"]
                receive(ann, "state")  # Bob took his seat: the game started
                assert real_refusal(second, game, token(game, 1)) == "seat_link_used"
                assert real_seat(second, game, bobs) == 1
        finally:
            second.stop()
    finally:
        first.stop()
