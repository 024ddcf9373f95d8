"""Profiles (a claimed name, a key only the browser holds, a recovery code), seats taken as
profiles, names that would pass for a profile, ratings after rated games (once, across
restarts), the leaderboard and profile pages, and the creator removing people who never
came: the app in process, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord
from pickomino.table import SeededDice, advance
from pickomino.web import create_app
from pickomino.web.db import migrations
from pickomino.web.db.player_pages import ESTABLISHED_OPPONENTS
from pickomino.web.db.profile_keys import parse_code, recovery_code
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.results import PAIR_GAMES_A_DAY
from pickomino.web.db.store import Store

from .clients import HELD, create, next_of, profile_store, refused, refused_http, socket_path
from .test_clocks import pick
from .test_protocol import fast_app


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(fast_app(database)) as test_client:
        yield test_client


def sql(database: str, statement: str, **params: object) -> list:
    """Run SQL on the database itself (what the server stored, or a change behind its back)."""
    store = Store(database)
    try:
        with store.engine.begin() as db:
            result = db.execute(sa.text(statement), params)
            return result.all() if result.returns_rows else []
    finally:
        store.close()


def establish(engine: sa.Engine, profile_id: str) -> None:
    """The profile has met five other people's profiles in rated games (stored behind the
    server's back): its games move the ratings of the bots it plays (see the test of
    throw-away profiles)."""
    rows = [{"player": profile_id, "opponent": f"met{n:07d}"} for n in range(ESTABLISHED_OPPONENTS)]
    with engine.begin() as db:
        db.execute(sa.text("INSERT INTO met (player, opponent) VALUES (:player, :opponent)"), rows)


def engine_of(client: TestClient) -> sa.Engine:
    return client.app.state.rooms.store.engine


def from_address(client: TestClient, address: str) -> TestClient:
    """The same app, reached from another address (on the client's event loop)."""
    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal
    return other


def home(name: str) -> str:
    """The address a person of that name plays from in these tests, in a /24 of its own
    (different people: ratings tell one /24 apart from another)."""
    return f"198.18.{sum(map(ord, name)) % 250 + 1}.1"


def claim(client: TestClient, name: str, address: str | None = None) -> dict:
    """Claim a profile, by default from its person's :func:`home`, else from ``address``."""
    response = from_address(client, address or home(name)).post(
        "/api/profiles", json={"name": name}
    )
    assert response.status_code == 201, response.text
    return response.json()


def as_profile(profile: dict) -> dict[str, str]:
    """Requests made as the profile, by a person who agreed to play rated games as it (the
    page asks before taking a rated game's seat: see the test of ``claim_rated``)."""
    return {"Profile-Key": profile["code"], "Play-Rated": "yes"}


def token(game: dict, seat: int) -> str:
    return game["seats"][seat]["link"].split("token=")[1]


def creator_of(game: dict) -> dict[str, str]:
    return {"Seat-Token": token(game, 0)}


# ------------------------------------------------------------------ profiles
def test_a_claimed_name_is_proved_by_its_recovery_code_only(client, database):
    ann = claim(client, "Ann")
    assert parse_code(ann["code"]) is not None and ann["id"] in ann["code"].replace("-", "").lower()
    assert client.get("/api/profiles/me", headers=as_profile(ann)).json() == {
        "id": ann["id"],
        "name": "Ann",
    }
    typed = ann["code"].lower().replace("-", " ").replace("0", "o")  # as copied by hand
    assert client.get("/api/profiles/me", headers={"Profile-Key": typed}).status_code == 200
    # Only a hash of the key is stored: the database never sees the code.
    key = parse_code(ann["code"])[1]
    stored = sql(database, "SELECT * FROM profiles")
    assert stored and key not in repr(stored) and ann["code"] not in repr(stored)


def forged_codes(ann: dict, bob: dict) -> list[str | None]:
    ann_id, ann_key = parse_code(ann["code"])
    bob_id, bob_key = parse_code(bob["code"])
    return [
        None,  # no code at all
        "",
        "not a code",
        recovery_code(ann_id, "0" * 26),  # Ann's id, a made-up key
        recovery_code(ann_id, bob_key),  # Ann's id, Bob's key
        recovery_code("0" * 10, ann_key),  # no such profile
        ann["code"] + "X",  # one character too many
        "A" * 200,
    ]


def test_a_forged_or_borrowed_key_is_refused(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    for code in forged_codes(ann, bob):
        headers = {} if code is None else {"Profile-Key": code}
        for method, path in (("GET", "/api/profiles/me"), ("POST", "/api/profiles/me/key")):
            response = client.request(method, path, headers=headers)
            assert response.status_code in (403, 422), (code, response.text)
            if response.status_code == 403:
                refused(response.json()["detail"], "bad_profile_key")
    assert client.get("/api/profiles/me", headers=as_profile(ann)).json()["name"] == "Ann"


def test_a_replaced_key_stops_working_at_once(client):
    ann = claim(client, "Ann")
    renewed = client.post("/api/profiles/me/key", headers=as_profile(ann)).json()
    assert renewed["id"] == ann["id"] and renewed["code"] != ann["code"]
    refused_http(client.get("/api/profiles/me", headers=as_profile(ann)), 403, "bad_profile_key")
    refused_http(
        client.post("/api/profiles/me/key", headers=as_profile(ann)), 403, "bad_profile_key"
    )
    assert client.get("/api/profiles/me", headers=as_profile(renewed)).json()["name"] == "Ann"


def test_of_two_replacements_with_one_code_at_once_only_the_first_works(client, database):
    """An audit (four processes on PostgreSQL): a leaked code, its owner and a thief replacing
    the key at the same moment on two processes: both were answered with a new code, the
    owner's did not work and the thief's did. Each process had checked the code, then stored
    its new key over whatever was there. A key is replaced only while it is the one stored."""
    ann = claim(client, "Ann")
    here, there = profile_store(Store(database)), profile_store(Store(database))
    assert here.open(ann["code"]) is not None and there.open(ann["code"]) is not None  # both
    first = here.replace_key(ann["code"])
    assert first is not None
    assert there.replace_key(ann["code"]) is None  # the code opens nothing now
    renewed = {"code": recovery_code(ann["id"], first)}
    assert client.get("/api/profiles/me", headers=as_profile(renewed)).json()["name"] == "Ann"


@pytest.mark.parametrize(
    ("first", "again"),
    [("Ann", "Ann"), ("Ann", "ann"), ("Ann", "  ANN "), (" Mary  Ann", "mary ann")],
)
def test_a_name_is_claimed_once_whatever_its_case_and_spaces(client, first, again):
    claim(client, first)
    response = client.post("/api/profiles", json={"name": again})
    refused_http(response, 409, "profile_name_taken", name=again.strip())


def test_claims_are_limited_per_address(database):
    with TestClient(create_app(database, bot_delay=0, new_games_per_minute=1)) as slow:
        answers = [slow.post("/api/profiles", json={"name": f"P{n}"}) for n in range(11)]
    assert [answer.status_code for answer in answers] == [201] * 10 + [429]
    refused(answers[-1].json()["detail"], "too_many_profiles")


def test_new_keys_are_limited_per_address(database):
    """Each new key looks through the games in play for the profile's seats."""
    with TestClient(create_app(database, bot_delay=0, new_games_per_minute=1)) as slow:
        code = slow.post("/api/profiles", json={"name": "Ann"}).json()["code"]
        for _ in range(10):
            code = slow.post("/api/profiles/me/key", headers={"Profile-Key": code}).json()["code"]
        refused_http(
            slow.post("/api/profiles/me/key", headers={"Profile-Key": code}),
            429,
            "too_many_lookups",
        )


def test_key_checks_are_limited_per_address(database):
    """An audit: a flood of wrong keys on ``/api/profiles/me`` (2,000 a second from one
    address, each a read on the event loop) slowed every other request; counted as new keys."""
    with TestClient(create_app(database, bot_delay=0, new_games_per_minute=1)) as slow:
        code = slow.post("/api/profiles", json={"name": "Ann"}).json()["code"]
        wrong = code[:-4] + ("AAAA" if not code.endswith("AAAA") else "BBBB")
        statuses = [
            slow.get("/api/profiles/me", headers={"Profile-Key": wrong}).status_code
            for _ in range(30)
        ]
        assert set(statuses) == {403, 429} and statuses.index(429) <= 12  # a minute's few
        assert set(statuses[statuses.index(429) :]) == {429}
        refused_http(
            slow.get("/api/profiles/me", headers={"Profile-Key": code}), 429, "too_many_lookups"
        )


def test_an_address_claims_so_many_profiles_a_day(database):
    """An audit: one address claimed 600 profiles at the per-minute limit alone, every name
    kept for good and refused to guests with its lookalikes. An address claims
    ``profiles_per_address`` profiles a day, an IPv6 /48 eight times that (a review: counting
    the ratings' /24 would let one person shut a carrier's neighbours out); another address
    claims on, and the address again a day later."""
    app = create_app(database, bot_delay=0, new_games_per_minute=1e6, profiles_per_address=2)
    with TestClient(app) as client:
        for n in range(2):
            claim(client, f"Name{n}", "203.0.113.7")
        more = from_address(client, "203.0.113.7").post("/api/profiles", json={"name": "Z"})
        refused_http(more, 429, "too_many_names", most=2)
        claim(client, "Neighbour", "203.0.113.8")  # the same /24: another address
        for n in range(16):  # sixteen /64s of one /48: eight times an address's
            claim(client, f"Six{n}", f"2001:db8:5:{n}::1")
        more = from_address(client, "2001:db8:5:ff::1").post("/api/profiles", json={"name": "Z"})
        refused_http(more, 429, "too_many_names", most=2)
        claim(client, "Other", "2001:db8:6::1")  # another /48
        with engine_of(client).begin() as db:
            db.execute(sa.text("UPDATE profiles SET created = created - 86400"))
        claim(client, "Zed", "203.0.113.7")


# ------------------------------------------------------------ seats and names
ANN_AND_BOB = {"seats": [{"name": "Me"}, {"name": "Bob"}]}


def test_the_creator_plays_as_their_profile(client):
    ann = claim(client, "Ann")
    game = client.post("/api/games", json=ANN_AND_BOB, headers=as_profile(ann)).json()
    assert game["seats"][0]["name"] == "Ann"  # the profile's name, not the one typed
    with client.websocket_connect(socket_path(game, 0)) as ws:
        state = next_of(ws, "state")
    assert [seat["profile"] for seat in state["seats"]] == [ann["id"], None]
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["meta"]["profiles"] == [ann["id"], None] and record["meta"]["rated"] is True


@pytest.mark.parametrize(
    ("spec", "status", "code", "params"),
    [
        ({"seats": [{"name": "Bob"}, {"name": "ann"}]}, 409, "name_taken", {"name": "Ann"}),
        ({"seats": [{"name": "Guest", "open": True}, {"name": "B", "bot": "easy"}]}, 400,
         "no_seat_for_profile", {}),
    ],
)  # fmt: skip
def test_playing_as_a_profile_is_refused_where_it_cannot_be(client, spec, status, code, params):
    ann = claim(client, "Ann")
    response = client.post("/api/games", json=spec, headers=as_profile(ann))
    refused_http(response, status, code, **params)
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize("name", ["Ann", " ann", "ANN"])
def test_an_invited_name_may_not_pass_for_a_profile(client, name):
    """The creator's own seat under a profile's name is refused with advice for them (play
    as that profile); a friend's seat, with advice for the one inviting them (another name:
    their friend takes the seat as their profile from the link)."""
    claim(client, "Ann")
    for seats, code in [
        ([{"name": name}, {"name": "Bob"}], "name_is_profile"),
        ([{"name": "Bob"}, {"name": name}], "invited_name_is_profile"),
    ]:
        response = client.post("/api/games", json={"seats": seats})
        refused_http(response, 409, code, name=name.strip())
    assert client.get("/api/games").json() == []
    # A bot's or an open seat's name is no person's: it shows as a bot or is renamed when taken.
    create(client, {"seats": [{"name": "Bob"}, {"name": name, "bot": "easy"}]})
    create(client, {"seats": [{"name": "Bob"}, {"name": name, "open": True}]})


def test_a_forged_key_creates_nothing_and_takes_no_seat(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    open_game = create(client, {"seats": [{"name": "Cy"}, {"name": "Guest", "open": True}]})
    for code in forged_codes(ann, bob)[1:]:
        headers = {"Profile-Key": code}
        response = client.post("/api/games", json=ANN_AND_BOB, headers=headers)
        assert response.status_code in (403, 422), response.text
        join = client.post(
            f"/api/games/{open_game['id']}/join", json={"name": "Z"}, headers=headers
        )
        assert join.status_code in (403, 422), join.text
    assert len(client.get("/api/games").json()) == 1
    assert client.get("/api/games").json()[0]["seats"][1]["claimed"] is False


def test_joining_from_the_lobby_as_a_profile_or_under_a_free_name(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    spec = {
        "seats": [{"name": "Cy"}, {"name": "Guest", "open": True}, {"name": "G2", "open": True}]
    }
    game = create(client, spec)
    join = f"/api/games/{game['id']}/join"
    refused_http(client.post(join, json={"name": " ANN"}), 409, "name_is_profile", name="ANN")
    taken = client.post(join, json={"name": "anything"}, headers=as_profile(ann)).json()
    assert taken["seat"] == 1 and taken["name"] == "Ann"
    again = client.post(join, json={"name": "x"}, headers=as_profile(ann))
    refused_http(again, 409, "profile_seated", name="Ann")
    client.post(join, json={"name": "Dee"}).raise_for_status()
    listed = client.get("/api/games").json()[0]
    assert [seat["name"] for seat in listed["seats"]] == ["Cy", "Ann", "Dee"]
    assert bob  # Bob never played


def test_an_invited_seat_is_taken_as_a_profile_with_its_link(client):
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    game = create(client, {"seats": [{"name": "Cy"}, {"name": "Robert"}, {"name": "Dee"}]})
    path = f"/api/games/{game['id']}/claim"
    headers = {"Seat-Token": token(game, 1), **as_profile(bob)}
    taken = client.post(path, headers=headers).json()
    assert {k: taken[k] for k in ("seat", "name", "profile")} == {
        "seat": 1,
        "name": "Bob",
        "profile": bob["id"],
    }
    refused_http(client.post(path, headers=headers), 403, "seat_link_used")  # the link is spent
    again = {**headers, "Seat-Token": taken["token"]}  # with the seat's secret: nothing changes
    assert client.post(path, headers=again).json() == {
        k: taken[k] for k in ("seat", "name", "profile")
    }
    refused_http(
        client.post(path, headers={"Seat-Token": token(game, 2), **as_profile(bob)}),
        409, "profile_seated", name="Bob",
    )  # fmt: skip
    refused_http(
        client.post(path, headers={"Seat-Token": "nope", **as_profile(ann)}), 403, "bad_token"
    )
    refused_http(client.post(path, headers={**headers, "Profile-Key": "x"}), 403, "bad_profile_key")
    refused_http(client.post(path, headers={"Seat-Token": token(game, 1)}), 403, "bad_profile_key")
    # A seat taken already (the creator's; or one opened by its link) is nobody else's.
    refused_http(
        client.post(path, headers={"Seat-Token": token(game, 0), **as_profile(ann)}),
        409,
        "seat_taken",
    )
    with client.websocket_connect(socket_path(game, 2)) as dee:
        state = next_of(dee, "state")
        assert state["status"] == "playing" and state["seats"][1]["name"] == "Bob"
        assert [seat["profile"] for seat in state["seats"]] == [None, bob["id"], None]
    refused_http(
        client.post(path, headers={"Seat-Token": token(game, 2), **as_profile(ann)}),
        403,
        "seat_link_used",  # Dee's link gave her the seat: it is spent
    )


def test_the_keeper_takes_any_name(client):
    """A score sheet is private to its link and never rated: its names claim nothing."""
    claim(client, "Ann")
    assert client.post("/api/sheets", json={"names": ["Ann", "Bob"]}).status_code == 201


# ------------------------------------------------------------------- ratings
def finish_offline(database: str, game: dict, seed: int = 1) -> None:
    """Play the game to its end by bots while no server runs, and store its moves, as if the
    people had played them (the next start replays them)."""
    store = Store(database)
    try:
        stored = store.load(game["id"])
        record = GameRecord.from_json(stored.header)
        record.moves = list(stored.moves)
        played = Game.from_record(record)
        players = [make_bot("simple", seed + n) for n in range(len(record.seats))]
        advance(played, players, SeededDice(seed))
        store.append_moves(game["id"], len(stored.moves), played.record.moves[len(stored.moves) :])
    finally:
        store.close()


def two_profiles_and_a_bot(client: TestClient, rated: bool = True) -> tuple[dict, dict, dict]:
    """Ann (creator) and Bob, both as profiles, and a hard bot: started, no move made."""
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    establish(engine_of(client), ann["id"])  # a player of standing: the bot's moves too
    spec = {
        "seats": [{"name": "A"}, {"name": "B"}, {"name": "Robo", "bot": "hard"}],
        "rated": rated,
    }
    at_anns, at_bobs = from_address(client, home("Ann")), from_address(client, home("Bob"))
    game = at_anns.post("/api/games", json=spec, headers=as_profile(ann)).json()
    taken = at_bobs.post(
        f"/api/games/{game['id']}/claim", headers={"Seat-Token": token(game, 1), **as_profile(bob)}
    )  # two people, each at home
    taken.raise_for_status()
    with at_bobs.websocket_connect(taken.json()["link"].replace("/games/", "/ws/games/")) as ws:
        assert next_of(ws, "state")["status"] == "playing"  # the game started with the claim
    return ann, bob, game


def test_a_rated_game_moves_every_players_rating_once_across_restarts(database):
    with TestClient(fast_app(database)) as client:
        ann, bob, game = two_profiles_and_a_bot(client)
        assert client.get("/api/leaderboard").json() == []
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:  # replays the game: it is over
        board = client.get("/api/leaderboard").json()
        ranking = client.get(f"/api/games/{game['id']}/record").json()["meta"]["ranking"]
    assert {row["player"] for row in board} == {ann["id"], bob["id"], "bot-hard"}
    assert all(row["games"] == 1 and row["rating"]["ordinal"] != 0 for row in board)
    assert all(row["provisional"] for row in board)  # one opponent or two: not yet ranked
    by_seat = {0: ann["id"], 1: bob["id"], 2: "bot-hard"}
    rows = {row["player"]: row for row in board}
    rank = {by_seat[standing["seat"]]: standing["rank"] for standing in ranking}
    best, worst = min(rank, key=rank.get), max(rank, key=rank.get)
    if rank[best] != rank[worst]:
        assert rows[best]["rating"]["mu"] > 25 > rows[worst]["rating"]["mu"]
        assert rows[best]["win_share"] > 0 and rows[worst]["win_share"] == 0
    with TestClient(fast_app(database)) as client:  # a start more: nothing moves
        assert client.get("/api/leaderboard").json() == board
        page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["name"] == "Ann" and page["games"] == 1 and page["rated"]
    standing = next(s for s in ranking if s["seat"] == 0)
    assert page["mean_worms"] == standing["worms"]
    assert page["results"] == [
        {
            "game": game["id"], "finished": page["results"][0]["finished"],
            "rank": standing["rank"], "players": 3, "worms": standing["worms"],
            "rated": True, "rating": rows[ann["id"]]["rating"], "left": False,
            "accuracy": None, "luck": None,  # not reviewed: see test_profile_accuracy.py
        }
    ]  # fmt: skip


def test_a_replaced_key_takes_the_profile_s_ended_seats_back_from_every_device(database):
    """An audit: a device that had Bob's seat (moved there once with his code, leaked) went
    on offering rated rematches in his name after he replaced his key: his seats in ended
    games kept their secrets. A new key now gives them new ones, which nobody holds."""
    with TestClient(fast_app(database)) as client:
        ann, bob, game = two_profiles_and_a_bot(client)
        thief = from_address(client, "203.0.113.66")
        moved = thief.post(f"/api/games/{game['id']}/seat", headers=as_profile(bob))
        stolen = {"Seat-Token": moved.json()["token"]}
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        rematch = f"/api/games/{game['id']}/rematch"
        looked = from_address(client, "203.0.113.66").get(rematch, headers=stolen)
        assert looked.status_code == 200, looked.text  # the ended game held here, Bob's seat his
        replaced = client.post("/api/profiles/me/key", headers=as_profile(bob))
        assert replaced.status_code == 200, replaced.text
        offered = from_address(client, "203.0.113.66").post(rematch, headers=stolen)
        refused_http(offered, 403, "bad_token")
    with TestClient(fast_app(database)) as client:  # nor as stored, read afresh
        offered = from_address(client, "203.0.113.66").post(rematch, headers=stolen)
        refused_http(offered, 403, "bad_token")


def test_results_lost_to_a_crash_are_recorded_at_the_next_start(database, monkeypatch):
    with TestClient(fast_app(database)) as client:
        ann, bob, game = two_profiles_and_a_bot(client)
    finish_offline(database, game)

    def crash(*args: object) -> None:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setattr(ProfileStore, "record", crash)
        with TestClient(fast_app(database)) as client:
            assert client.get(f"/api/games/{game['id']}/record").status_code == 200
            over = [g for g in client.get("/api/games").json() if g["status"] == "over"]
            assert len(over) == 1 and client.get("/api/leaderboard").json() == []
    with TestClient(fast_app(database)) as client:
        assert len(client.get("/api/leaderboard").json()) == 3


def test_an_unrated_game_keeps_results_but_moves_no_rating(database):
    # (no app of the `client` fixture beside these: it would take the game's lease once the
    # first stops, and let the game rest before it is finished offline)
    with TestClient(fast_app(database)) as client:
        ann, bob, game = two_profiles_and_a_bot(client, rated=False)
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        assert client.get("/api/leaderboard").json() == []
        page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["games"] == 1 and not page["rated"] and page["rating"]["ordinal"] == 0
    assert page["results"][0]["rated"] is False and page["results"][0]["rating"] is None


def test_one_bot_level_in_several_seats_is_one_player(database):
    """Ann against two hard bots: hard's rating moves once (the mean of its two seats)."""
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        spec = {
            "seats": [
                {"name": "A"},
                {"name": "R1", "bot": "hard"},
                {"name": "R2", "bot": "expected"},
            ]
        }
        game = client.post("/api/games", json=spec, headers=as_profile(ann)).json()
    finish_offline(database, game, seed=3)
    with TestClient(fast_app(database)) as client:
        board = {row["player"]: row for row in client.get("/api/leaderboard").json()}
        bot_page = client.get("/api/profiles/bot-hard").json()
    assert set(board) == {ann["id"], "bot-hard"}
    assert board["bot-hard"]["games"] == 2  # a game per seat it played
    assert bot_page["bot"] == "hard" and bot_page["name"] is None and len(bot_page["results"]) == 2


def test_bots_ratings_move_only_in_games_with_people(database):
    """A rated game of bots only, or of bots and a person without a profile, moves no
    rating: anyone could make bots play each other to move their ratings."""
    bots = {"seats": [{"name": "E", "bot": "easy"}, {"name": "X", "bot": "expert"}]}
    anonymous = {
        "seats": [{"name": "Ann"}, {"name": "M", "bot": "medium"}, {"name": "H", "bot": "hard"}]
    }
    slow_bots = create_app(database, bot_delay=3600, new_games_per_minute=1e6)
    with TestClient(slow_bots) as client:  # the bots wait: the games end offline
        games = [create(client, bots), create(client, anonymous)]
    assert sql(database, "SELECT game_id FROM pending") == []
    for game in games:
        finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        assert client.get("/api/leaderboard").json() == []
        for level in ("easy", "medium", "hard", "expert"):
            page = client.get(f"/api/profiles/bot-{level}").json()
            assert page["games"] == 0 and not page["rated"]


def test_a_person_without_a_profile_makes_a_rated_game_unrated(database):
    """The creator holds every invite link: a seat nobody is rated for could throw the game
    to the profile that is (the audit's helper beside a profile and a bot)."""
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        spec = {"seats": [{"name": "A"}, {"name": "Helper"}, {"name": "Robo", "bot": "hard"}]}
        game = client.post("/api/games", json=spec, headers=as_profile(ann)).json()
        with client.websocket_connect(socket_path(game, 1)) as helper:  # the link, taken
            assert next_of(helper, "state")["status"] == "playing"
    finish_offline(database, game)
    with TestClient(fast_app(database)) as client:
        assert client.get("/api/leaderboard").json() == []
        page = client.get(f"/api/profiles/{ann['id']}").json()
        bots = client.get("/api/profiles/bot-hard").json()
    assert page["games"] == 1 and page["results"][0]["rated"] is False  # kept, unrated
    assert page["rating"]["ordinal"] == 0 and bots["games"] == 0


def bust_on_purpose(state: dict) -> str:
    """A spare profile's play: roll while it may, keep the least, never take a tile."""
    actions = state["actions"]
    if "roll" in actions:
        return "roll"
    keeps = [a for a in actions if a.startswith("keep")]
    return min(keeps, key=lambda a: "W54321".index(a[-1])) if keeps else actions[0]


def play_to_the_end(
    client: TestClient, game: dict, plays: dict, clients: dict | None = None
) -> None:
    """Every seat of ``plays`` (seat → choice) connected (from ``clients[seat]`` if given),
    each choosing its moves: the states of the seat to move are read, in order, and each of
    its turns is played once."""
    clients = clients or {}
    with contextlib.ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(
                clients.get(seat, client).websocket_connect(socket_path(game, seat))
            )
            for seat in plays
        }
        seat, latest, acted = 0, -1, -1
        while (state := next_of(sockets[seat], "state"))["status"] != "over":
            if state["status"] != "playing" or state["seq"] < latest or state["seq"] <= acted:
                continue  # waiting for the others, or seen already
            latest, mover = state["seq"], state["table"]["current"]
            if mover != seat:
                seat = mover  # its socket has this state too: it acts on it there
                continue
            choice = plays[seat](state)
            sockets[seat].send_json({"type": "act", "action": choice, "seq": state["seq"]})
            acted = state["seq"]


def test_spare_profiles_from_one_address_do_not_farm_a_rating(client):
    """The reproduction: from one address, a main profile and two spares; the spares bust
    on purpose every turn in three rated games. The main profile must not top the board."""
    address = "203.0.113.7"
    main, *spares = (claim(client, name, address) for name in ("Main", "Spare1", "Spare2"))
    for _ in range(3):
        spec = {"seats": [{"name": "M"}, {"name": "S1"}, {"name": "S2"}], "rated": True}
        game = client.post("/api/games", json=spec, headers=as_profile(main)).json()
        for seat, spare in enumerate(spares, start=1):
            headers = {"Seat-Token": token(game, seat), **as_profile(spare)}
            taken = client.post(f"/api/games/{game['id']}/claim", headers=headers)
            HELD[(game["id"], seat)] = taken.json()["token"]  # the seat's new secret, kept
        play_to_the_end(client, game, {0: pick, 1: bust_on_purpose, 2: bust_on_purpose})
    board = client.get("/api/leaderboard").json()
    assert main["id"] not in [row["player"] for row in board]
    page = client.get(f"/api/profiles/{main['id']}").json()
    assert page["games"] == 3 and not page["rated"]
    assert [result["rated"] for result in page["results"]] == [False] * 3


def test_spare_profiles_claimed_elsewhere_and_played_from_one_address_do_not_farm(client, database):
    """An audit: spares claimed once each from another address (a phone, a VPN), then every
    seat of the rated games claimed and played from home: the main profile topped the
    leaderboard after two games. Seats of two profiles played from one network do not rate
    each other, wherever the profiles were claimed."""
    main, *spares = (claim(client, name) for name in ("Main", "Spare1", "Spare2"))
    spec = {"seats": [{"name": "M"}, {"name": "S1"}, {"name": "S2"}], "rated": True}
    game = client.post("/api/games", json=spec, headers=as_profile(main)).json()
    with client.websocket_connect(socket_path(game, 0)) as page:  # the creator's page, open
        next_of(page, "state")  # while the game waits (a review: it was not kept, the game
        for seat, spare in enumerate(spares, start=1):  # not being rated yet)
            headers = {"Seat-Token": token(game, seat), **as_profile(spare)}
            taken = client.post(f"/api/games/{game['id']}/claim", headers=headers)
            HELD[(game["id"], seat)] = taken.json()["token"]
    kept = Store(database)
    try:
        with kept.engine.connect() as db:
            rows = db.execute(sa.text("SELECT seat FROM seat_networks WHERE game_id = :g"),
                              {"g": game["id"]}).scalars().all()  # fmt: skip
    finally:
        kept.close()
    assert sorted(rows) == [0, 1, 2]  # every seat, before a move is made
    play_to_the_end(client, game, {0: pick, 1: bust_on_purpose, 2: bust_on_purpose})
    assert client.get("/api/leaderboard").json() == []
    page = client.get(f"/api/profiles/{main['id']}").json()
    assert page["games"] == 1 and [result["rated"] for result in page["results"]] == [False]


def test_a_spare_that_joins_from_home_and_plays_elsewhere_does_not_farm(client, database):
    """An audit: a spare claimed elsewhere joined the main profile's rated game from home
    (``/join``) and never opened its socket there; the stand-in played the seat, and the
    main profile was rated a win. Every way a profile's seat comes to a device keeps its
    network (made, joined, taken to a new device), not only a socket opened: here the spare
    then plays from elsewhere, and the game is not rated all the same."""
    home, elsewhere = "198.51.100.7", "203.0.113.9"
    main, spare = claim(client, "Main", elsewhere), claim(client, "Spare", "192.0.2.5")
    spec = {"seats": [{"name": "M"}, {"name": "Guest", "open": True}], "rated": True}
    at_home = from_address(client, home)
    game = at_home.post("/api/games", json=spec, headers=as_profile(main)).json()
    joined = at_home.post(f"/api/games/{game['id']}/join", json={"name": "S"},
                          headers=as_profile(spare))  # fmt: skip
    assert joined.status_code == 200, joined.text
    HELD[(game["id"], 1)] = joined.json()["link"].split("token=")[1]
    networks = "SELECT seat, COUNT(*) FROM seat_networks WHERE game_id = :g GROUP BY seat"
    assert dict(sql(database, networks, g=game["id"])) == {0: 1, 1: 1}  # before any socket
    moved = from_address(client, elsewhere).post(
        f"/api/games/{game['id']}/seat", headers=as_profile(main)
    )  # the main profile's seat taken to another device: its network kept too
    HELD[(game["id"], 0)] = moved.json()["token"]
    assert dict(sql(database, networks, g=game["id"])) == {0: 2, 1: 1}
    seats = {0: from_address(client, elsewhere), 1: from_address(client, "192.0.2.5")}
    play_to_the_end(client, game, {0: pick, 1: bust_on_purpose}, seats)
    page = client.get(f"/api/profiles/{main['id']}").json()
    assert page["games"] == 1 and [result["rated"] for result in page["results"]] == [False]


def test_spare_profiles_in_one_ipv6_site_do_not_farm_a_rating(client):
    """An audit: a main profile and a spare claimed and played from two /64s of one home's
    IPv6 /56 were rated (each /64 counted as a network of its own). Ratings tell sites
    apart by the /48 (a free tunnel broker gives anyone one)."""
    homes = ("2001:db8:77:1::5", "2001:db8:77:2::9")
    main, spare = claim(client, "Main", homes[0]), claim(client, "Spare", homes[1])
    spec = {"seats": [{"name": "M"}, {"name": "S"}], "rated": True}
    game = from_address(client, homes[0]).post("/api/games", json=spec, headers=as_profile(main))
    game = game.json()
    headers = {"Seat-Token": token(game, 1), **as_profile(spare)}
    taken = from_address(client, homes[1]).post(f"/api/games/{game['id']}/claim", headers=headers)
    HELD[(game["id"], 1)] = taken.json()["token"]
    seats = {seat: from_address(client, home) for seat, home in enumerate(homes)}
    play_to_the_end(client, game, {0: pick, 1: bust_on_purpose}, seats)
    page = client.get(f"/api/profiles/{main['id']}").json()
    assert page["games"] == 1 and [result["rated"] for result in page["results"]] == [False]
    # the same from two sites is rated: what is refused is the one site
    other, rival = (
        claim(client, "Other", "2001:db8:78::5"),
        claim(client, "Rival", "2001:db8:79::9"),
    )
    game = (
        from_address(client, "2001:db8:78::5")
        .post("/api/games", json=spec, headers=as_profile(other))
        .json()
    )
    headers = {"Seat-Token": token(game, 1), **as_profile(rival)}
    taken = from_address(client, "2001:db8:79::9").post(
        f"/api/games/{game['id']}/claim", headers=headers
    )
    HELD[(game["id"], 1)] = taken.json()["token"]
    seats = {0: from_address(client, "2001:db8:78::5"), 1: from_address(client, "2001:db8:79::9")}
    play_to_the_end(client, game, {0: pick, 1: pick}, seats)
    page = client.get(f"/api/profiles/{other['id']}").json()
    assert [result["rated"] for result in page["results"]] == [True]


def join_or_claim(client: TestClient, game: dict, profile: dict, route: str):
    """``profile`` takes a seat of ``game``: the open one from the lobby, or the invited Cy's
    (seat 2) by its link."""
    if route == "join":
        path, headers = f"/api/games/{game['id']}/join", as_profile(profile)
        return client.post(path, json={"name": "A"}, headers=headers)
    headers = {"Seat-Token": token(game, 2), **as_profile(profile)}
    return client.post(f"/api/games/{game['id']}/claim", headers=headers)


@pytest.mark.parametrize("first", ["join", "claim"])
def test_a_profile_seated_by_another_process_takes_no_second_seat(database, first):
    """An audit: joining one game and claiming a seat of it at once on two processes, each
    checking its own memory, one profile took two seats. The stored header decides: the
    second is refused, and its seat stays free."""
    spec = {"seats": [{"name": "Host"}, {"name": "Guest", "open": True}, {"name": "Cy"}]}
    second = "claim" if first == "join" else "join"
    with TestClient(create_app(database)) as here, TestClient(create_app(database)) as there:
        ann = claim(here, "Ann")
        game = here.post("/api/games", json=spec).json()
        with there.websocket_connect(socket_path(game, None)) as watching:  # held there too,
            next_of(watching, "state")  # as it is now
        taken = join_or_claim(here, game, ann, first)
        assert taken.status_code == 200, taken.text
        refused_http(join_or_claim(there, game, ann, second), 409, "profile_seated", name="Ann")
    seat = 1 if first == "join" else 2
    header = json.loads(sql(database, "SELECT header FROM games WHERE id = :g", g=game["id"])[0][0])
    assert header["meta"]["profiles"] == [ann["id"] if n == seat else None for n in range(3)]
    claimed = "SELECT seat FROM seats WHERE game_id = :g AND claimed ORDER BY seat"
    assert [row[0] for row in sql(database, claimed, g=game["id"])] == [0, seat]  # the creator


def test_unknown_profiles_are_refused(client):
    for player in ("nobody0000", "bot-godlike", "bot-", "x" * 40, "a b"):
        refused_http(client.get(f"/api/profiles/{player}"), 404, "no_profile")
    assert client.get("/api/profiles/bot-easy").json()["games"] == 0


# ---------------------------------------------------------------- moderation
CREATOR_AND_FRIENDS = {
    "seats": [
        {"name": "Ann"}, {"name": "Bob"}, {"name": "Guest", "open": True},
        {"name": "Robo", "bot": "easy"}, {"name": "Cy"},
    ]
}  # fmt: skip


def remove(client: TestClient, game: dict, body: dict, headers: dict | None = None):
    return client.post(f"/api/games/{game['id']}/remove", json=body, headers=headers or {})


def test_only_the_creator_removes_and_only_a_seat_nobody_took(client):
    game = create(client, CREATOR_AND_FRIENDS)
    with client.websocket_connect(socket_path(game, 4)) as cy:  # Cy came
        cy_token = {"Seat-Token": next_of(cy, "welcome")["token"]}  # his secret from now on
    bob_token = {"Seat-Token": token(game, 1)}
    for headers in ({}, {"Seat-Token": "forged"}, {"Seat-Token": token(game, 0) + "x"}):
        refused_http(remove(client, game, {"seat": 1}, headers), 403, "bad_token")
    refused_http(remove(client, game, {"seat": 1}, bob_token), 403, "not_creator")  # himself
    refused_http(remove(client, game, {"seat": 1, "bot": "hard"}, cy_token), 403, "not_creator")
    creator = creator_of(game)
    refused_http(remove(client, game, {"seat": 0, "bot": "hard"}, creator), 409, "seat_taken")
    refused_http(remove(client, game, {"seat": 4}, creator), 409, "seat_taken")  # Cy came
    refused_http(remove(client, game, {"seat": 3}, creator), 409, "seat_is_bot")
    refused_http(remove(client, game, {"seat": 2}, creator), 409, "seat_open_already")
    refused_http(remove(client, game, {"seat": 5}, creator), 404, "no_seat", seat=5, high=4)
    rename = {"seat": 1, "bot": "hard", "name": "cy"}
    refused_http(remove(client, game, rename, creator), 409, "name_taken", name="cy")
    for bad in ({"seat": -1}, {"seat": "1"}, {"seat": 1, "bot": "godlike"}, {"seat": 1, "x": 1}):
        assert remove(client, game, bad, creator).status_code == 422
    seats = client.get("/api/games").json()[0]["seats"]
    assert [(s["name"], s["bot"], s["open"]) for s in seats] == [
        ("Ann", None, False), ("Bob", None, False), ("Guest", None, True),
        ("Robo", "easy", False), ("Cy", None, False),
    ]  # fmt: skip


def test_a_seat_nobody_took_goes_to_a_bot_and_the_game_starts(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        assert next_of(ann, "state")["waiting_for"] == ["Bob", "Cy"]
        answer = remove(
            client, game, {"seat": 1, "bot": "medium", "name": "Bot 2"}, creator_of(game)
        )
        assert answer.json() == {"seat": 1, "name": "Bot 2", "bot": "medium"}
        state = next_of(ann, "state")
        assert state["seats"][1] == {**state["seats"][1], "name": "Bot 2", "bot": "medium"}
        assert state["status"] == "open" and state["waiting_for"] == ["Cy"]
        remove(client, game, {"seat": 2, "bot": "easy"}, creator_of(game)).raise_for_status()
        assert next_of(ann, "state")["status"] == "playing"  # nobody else to wait for
    with client.websocket_connect(socket_path(game, 1)) as bob:  # his link no longer works
        refused(next_of(bob, "error"), "bad_token")
        with pytest.raises(WebSocketDisconnect):
            bob.receive_json()
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["seats"] == ["Ann", "Bot 2", "Cy"]
    assert record["meta"]["bots"] == [None, "medium", "easy"]


def test_a_reopened_seat_is_taken_from_the_lobby_and_survives_a_restart(database):
    with TestClient(fast_app(database)) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
        remove(client, game, {"seat": 1, "name": "Guest"}, creator_of(game)).raise_for_status()
    with TestClient(fast_app(database)) as client:
        listed = client.get("/api/games").json()[0]
        assert listed["seats"][1] == {"name": "Guest", "bot": None, "claimed": False, "open": True}
        taken = client.post(f"/api/games/{game['id']}/join", json={"name": "Dee"}).json()
        assert taken["seat"] == 1
        with client.websocket_connect(taken["link"].replace("/games/", "/ws/games/")) as dee:
            assert next_of(dee, "state")["status"] == "playing"
        refused_http(
            remove(client, game, {"seat": 1, "bot": "easy"}, creator_of(game)), 409, "seat_taken"
        )


def test_the_creator_calls_off_a_game_that_waits_and_only_that(client, database):
    ann = claim(client, "Ann")
    spec = {"seats": [{"name": "A"}, {"name": "Bob"}], "rated": True}
    game = client.post("/api/games", json=spec, headers=as_profile(ann)).json()
    cancel = f"/api/games/{game['id']}/cancel"
    refused_http(client.post(cancel), 403, "bad_token")
    refused_http(client.post(cancel, headers={"Seat-Token": token(game, 1)}), 403, "not_creator")
    assert sql(database, "SELECT game_id FROM pending") == [(game["id"],)]  # a profile's game
    with client.websocket_connect(socket_path(game, None)) as watcher:
        next_of(watcher, "state")
        called = client.post(cancel, headers=creator_of(game))
        assert called.json() == {"id": game["id"], "status": "abandoned"}
        assert next_of(watcher, "state")["status"] == "abandoned"  # the page says so at once
    assert sql(database, "SELECT game_id FROM pending") == []  # nothing played: no results
    refused_http(client.post(cancel, headers=creator_of(game)), 409, "game_abandoned")
    with client.websocket_connect(socket_path(game, 1)) as bob:  # his link shows it called off
        assert next_of(bob, "state")["status"] == "abandoned"
    started = create(client, {"seats": [{"name": "Dee"}, {"name": "Eve"}]})
    with client.websocket_connect(socket_path(started, 1)) as eve:  # Eve came: it started
        assert next_of(eve, "state")["status"] == "playing"
    late = client.post(f"/api/games/{started['id']}/cancel", headers=creator_of(started))
    refused_http(late, 409, "game_started")


def test_nothing_is_removed_from_a_game_over_or_abandoned(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    room = client.app.state.rooms.get(game["id"])
    for status, code, rule in (("abandoned", "game_abandoned", None), ("over", "game_over", "R18")):
        # Stored too: the store is the truth a catch-up (the PostgreSQL listener starting
        # to listen, say) brings memory back to.
        room.store.set_status(room.id, status, room.commits.header())
        room.status = status
        answer = remove(client, game, {"seat": 1, "bot": "easy"}, creator_of(game))
        refused_http(answer, 409, code, rule)


def test_a_seat_the_database_has_taken_is_not_removed(client, database):
    """Another server process (or a write memory missed) took the seat: the database's
    word goes, and nothing changes."""
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    sql(database, "UPDATE seats SET claimed = :yes WHERE seat = 1", yes=True)
    answer = remove(client, game, {"seat": 1, "bot": "easy"}, creator_of(game))
    refused_http(answer, 409, "seat_taken")
    assert client.app.state.rooms.get(game["id"]).seats[1].bot is None


# ------------------------------------------------------- who may rate whom
def finish(profiles: ProfileStore, game_id: str, players: list[str]) -> None:
    """Record a rated game of profiles that ended in their order (the first won)."""
    ranking = [{"seat": n, "rank": n + 1, "worms": 5 - n} for n in range(len(players))]
    profiles.expect_results(game_id)
    assert profiles.record(
        game_id, {"rated": True, "profiles": players, "ranking": ranking}, len(players)
    )


def test_a_pair_rates_five_games_a_day_and_a_rating_is_provisional_until_five_opponents(database):
    store = Store(database)
    try:
        profiles = profile_store(store)
        ann, bob, *others = (
            profiles.claim(name, f"198.18.{n}.1")[0]  # people of six /24s
            for n, name in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"), start=1)
        )
        for n in range(6):
            finish(profiles, f"pair{n}", [ann.id, bob.id])
        page = profiles.player(ann.id)
        assert [result["rated"] for result in page["results"]] == [True] * 5 + [False]
        assert page["provisional"] and all(row["provisional"] for row in profiles.leaderboard())
        for n, other in enumerate(others):
            finish(profiles, f"other{n}", [ann.id, other.id])
        board = profiles.leaderboard()
        assert board[0]["player"] == ann.id and not board[0]["provisional"]
        assert (
            all(row["provisional"] for row in board[1:])
            and not profiles.player(ann.id)["provisional"]
        )
    finally:
        store.close()


def test_profiles_claimed_in_one_ipv4_24_do_not_rate_each_other_nor_start_a_new_count(database):
    """An audit: spare profiles claimed each from an address of its own in one /24 (and
    played from there, busting on purpose) put a main profile at the top of the leaderboard
    in five games; once a pair's five games a day were played, fresh spares claimed from the
    same addresses were rated at once. Ratings tell sites apart by the /24, and a pair's
    daily games are counted by the sites its profiles were claimed from."""
    store = Store(database)
    try:
        profiles = profile_store(store)
        main = profiles.claim("Main", "203.0.113.10")[0]
        spare = profiles.claim("Spare", "203.0.113.11")[0]
        finish(profiles, "spare", [main.id, spare.id])
        ann = profiles.claim("Ann", "198.18.1.1")[0]
        bob = profiles.claim("Bob", "198.18.2.1")[0]
        for n in range(PAIR_GAMES_A_DAY):
            finish(profiles, f"pair{n}", [ann.id, bob.id])
        fresh = profiles.claim("Fresh", "198.18.2.77")[0]  # from Bob's /24, a new profile
        finish(profiles, "fresh", [ann.id, fresh.id])
        cy = profiles.claim("Cy", "198.18.3.1")[0]  # another site: a new pair
        finish(profiles, "cy", [ann.id, cy.id])
        rated = {
            game: [r["rated"] for r in profiles.player(player.id)["results"] if r["game"] == game]
            for game, player in (("spare", main), ("fresh", fresh), ("cy", cy), ("pair0", bob))
        }
        assert rated == {"spare": [False], "fresh": [False], "cy": [True], "pair0": [True]}
    finally:
        store.close()


def test_profiles_claimed_before_look_alike_names_keep_them_but_block_new_ones(database):
    """A database of the version before: two profiles whose names look alike (Latin and
    Cyrillic A) both stay; neither name, nor another look-alike, can be claimed again."""
    store = Store(database)  # today's schema, taken back to the version before (0003)
    with store.engine.begin() as db:
        command.downgrade(migrations.alembic_config(db), "0003")
        for n, name in enumerate(("Ann", "\u0410nn")):
            db.execute(
                sa.text("INSERT INTO profiles VALUES (:id, :name, :key, :hash, :created)"),
                {"id": f"old{n}", "name": name, "key": name.casefold(), "hash": "0" * 64,
                 "created": float(n)},
            )  # fmt: skip
    store.close()
    with TestClient(fast_app(database)) as client:
        for name in ("Ann", "\u0410nn", "ANN", "\u0391nn"):
            refused_http(
                client.post("/api/profiles", json={"name": name}), 409, "profile_name_taken"
            )
        assert client.get("/api/profiles/old1").json()["name"] == "\u0410nn"
    assert {row.look_key is not None for row in sql(database, "SELECT look_key FROM profiles")} == {
        True
    }


@pytest.mark.slow  # PostgreSQL only: two transactions at once
def test_two_processes_rating_one_bot_level_at_once_lose_no_update(database):
    """A game's rating reads its players' ratings and writes them back: another process
    rating ``bot-easy`` meanwhile must wait, then build on its result, not overwrite it."""
    if not database.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time")
    store = Store(database)
    try:
        profiles = profile_store(store)
        ann = profiles.claim("Ann", "192.0.2.1")[0]
        establish(store.engine, ann.id)  # her games move the bot's rating
        meta = {"rated": True, "profiles": [ann.id, None], "bots": [None, "easy"]}
        ranking = [{"seat": 0, "rank": 1, "worms": 4}, {"seat": 1, "rank": 2, "worms": 0}]
        for game_id in ("g1", "g2"):
            profiles.expect_results(game_id)
        assert profiles.record("g1", {**meta, "ranking": ranking}, 2)
        with store.engine.connect() as other:  # another process, in the middle of its rating
            with other.begin():
                other.execute(sa.text("SELECT * FROM ratings WHERE player = 'bot-easy' FOR UPDATE"))
                recording = threading.Thread(
                    target=profiles.record, args=("g2", {**meta, "ranking": ranking}, 2)
                )
                recording.start()
                waits = "SELECT count(*) FROM pg_locks WHERE NOT granted"
                while other.execute(sa.text(waits)).scalar_one() == 0:
                    assert recording.is_alive()  # it waits for the lock, or the test fails
                other.execute(sa.text("UPDATE ratings SET mu = 10 WHERE player = 'bot-easy'"))
            recording.join()
        mu = sql(database, "SELECT mu FROM ratings WHERE player = 'bot-easy'")[0][0]
        assert mu < 10  # lost again from the other process's 10, not from before it
    finally:
        store.close()


def test_a_rated_game_s_seat_is_taken_as_a_profile_only_once_asked(client):
    """An audit: a link opened with "Play as" on put the profile into a rated game at once;
    the visitor closed the tab, the stand-in played on, and the profile took a rated loss
    (five a day per victim for whoever posts such links). The page asks first: without
    ``Play-Rated: yes`` the claim is refused, and nothing is taken."""
    ann, bob = claim(client, "Ann"), claim(client, "Bob")
    spec = {"seats": [{"name": "A"}, {"name": "B"}], "rated": True}
    game = client.post("/api/games", json=spec, headers=as_profile(ann)).json()
    path, headers = f"/api/games/{game['id']}/claim", {"Seat-Token": token(game, 1)}
    not_asked = {**headers, "Profile-Key": bob["code"]}
    refused_http(client.post(path, headers=not_asked), 409, "claim_rated", name="Bob")
    taken = client.post(path, headers={**not_asked, "Play-Rated": "yes"})
    assert taken.status_code == 200 and taken.json()["profile"] == bob["id"]
    unrated = client.post("/api/games", json={**spec, "rated": False}, headers=as_profile(ann))
    game = unrated.json()  # an unrated game's seat: taken as the profile at once
    headers = {"Seat-Token": token(game, 1), "Profile-Key": bob["code"]}
    assert client.post(f"/api/games/{game['id']}/claim", headers=headers).status_code == 200


def test_throw_away_profiles_do_not_lift_a_bot(database):
    """An audit: new profiles (ten a minute from one address) lost to ``bot-easy`` on
    purpose, and 600 thrown games would have put it at the top of the leaderboard. A bot's
    rating moves only in games with a profile that met five other people's in rated games;
    the new profiles' own ratings still move."""
    store = Store(database)
    try:
        profiles = profile_store(store)
        lost = [{"seat": 0, "rank": 2, "worms": 0}, {"seat": 1, "rank": 1, "worms": 4}]
        throw_aways = [profiles.claim(f"Spare{n}", f"192.0.2.{n}")[0] for n in range(3)]
        for n, spare in enumerate(throw_aways):
            meta = {"rated": True, "profiles": [spare.id, None], "bots": [None, "easy"]}
            profiles.expect_results(f"thrown{n}")
            assert profiles.record(f"thrown{n}", {**meta, "ranking": lost}, 2)
        bot = profiles.player("bot-easy")
        assert bot is not None and bot["rating"]["ordinal"] == 0  # not lifted
        assert all(profiles.player(s.id)["rating"]["mu"] < 25 for s in throw_aways)
        regular = profiles.claim("Regular", "198.51.100.9")[0]
        establish(store.engine, regular.id)
        meta = {"rated": True, "profiles": [regular.id, None], "bots": [None, "easy"]}
        profiles.expect_results("played")
        assert profiles.record("played", {**meta, "ranking": lost}, 2)
        assert profiles.player("bot-easy")["rating"]["mu"] > 25  # a player of standing's loss
    finally:
        store.close()


def test_a_profile_lifts_a_bot_at_most_a_few_games_a_day(database):
    """An audit: six throw-away profiles meeting in one six-seat rated game are each
    established at once (they met five others), then free to throw game after game to a
    bot. Against one bot level, a profile's rated games move the bot's rating at most
    :data:`PAIR_GAMES_A_DAY` times a day, as a pair of people's do (theirs still move)."""
    store = Store(database)
    try:
        profiles = profile_store(store)
        lost = [{"seat": 0, "rank": 2, "worms": 0}, {"seat": 1, "rank": 1, "worms": 4}]
        thrower = profiles.claim("Thrower", "192.0.2.7")[0]
        establish(store.engine, thrower.id)
        meta = {"rated": True, "profiles": [thrower.id, None], "bots": [None, "easy"]}
        lifted = []
        for n in range(PAIR_GAMES_A_DAY + 2):
            profiles.expect_results(f"thrown{n}")
            assert profiles.record(f"thrown{n}", {**meta, "ranking": lost}, 2)
            lifted.append(profiles.player("bot-easy")["rating"]["mu"])
        assert lifted[:PAIR_GAMES_A_DAY] == sorted(set(lifted[:PAIR_GAMES_A_DAY]))  # rising
        assert lifted[PAIR_GAMES_A_DAY:] == [lifted[PAIR_GAMES_A_DAY - 1]] * 2  # then no more
        mine = "SELECT mu FROM results WHERE player = :player ORDER BY game_id"
        own = [row.mu for row in sql(database, mine, player=thrower.id)]
        assert own == sorted(own, reverse=True) and len(set(own)) == len(own)  # still falling
        # another established profile claimed from the thrower's /24 counts with it (an
        # audit: seven of one /24, five throws each); one from elsewhere does not
        for n, address in enumerate(("192.0.2.99", "198.18.7.1")):
            other = profiles.claim(f"Other{n}", address)[0]
            establish(store.engine, other.id)
            before = profiles.player("bot-easy")["rating"]["mu"]
            profiles.expect_results(f"other{n}")
            meta = {"rated": True, "profiles": [other.id, None], "bots": [None, "easy"]}
            assert profiles.record(f"other{n}", {**meta, "ranking": lost}, 2)
            moved = profiles.player("bot-easy")["rating"]["mu"] != before
            assert moved == (address == "198.18.7.1"), address
        profiles.expect_results("medium")  # another bot level: counted apart
        medium = {"rated": True, "profiles": [thrower.id, None], "bots": [None, "medium"]}
        assert profiles.record("medium", {**medium, "ranking": lost}, 2)
        assert profiles.player("bot-medium")["rating"]["mu"] > 25
    finally:
        store.close()
