"""The web app's API and WebSocket protocol against the real app, in process (Starlette's
TestClient runs the ASGI app itself) on a real SQLite file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pickomino.core import Game, GameRecord
from pickomino.core.events import log_entries
from pickomino.web import create_app
from pickomino.web.db.store import Store
from pickomino.web.protocol import MAX_MESSAGE, apply_change, state_body

from .clients import create as create_game
from .clients import follow, invalid, next_of, refused, refused_http, socket_path
from .wire import check_message

PEOPLE_AND_BOT = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Robo", "bot": "hard"}]}


def fast_app(
    database: Path,
    message_rate: float = 1000,
    review_results: bool = False,
    dice_seed: int | None = None,
):
    """The app for scripted clients, which play and create games far faster than people
    (and finish them so: their reviews are made when a test asks for them, unless
    ``review_results``)."""
    return create_app(
        database,
        bot_delay=0,
        message_rate=message_rate,
        new_games_per_minute=1e6,
        open_games_per_address=10**6,
        review_results=review_results,
        dice_seed=dice_seed,
    )


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(fast_app(database)) as test_client:
        yield test_client


def create(client: TestClient, spec: dict | None = None) -> dict:
    return create_game(client, spec or PEOPLE_AND_BOT)


def latest_state(ws, seq: int) -> dict:
    while True:
        message = next_of(ws, "state")
        if message["seq"] >= seq:
            return message


# ---------------------------------------------------------------- the lobby API
NAMES_TWICE = {"seats": [{"name": "Mum"}, {"name": "Bob"}, {"name": " mum"}, {"name": "BOB"}]}
MUMS, BOBS = {"players": [1, 3], "name": "Mum"}, {"players": [2, 4], "name": "Bob"}
TWO = [{"name": "A"}, {"name": "B"}]
BLANK_NAME = {"seats": [{"name": "A"}, {"name": "  "}]}
GODLIKE = {"seats": [{"name": "A"}, {"name": "B", "bot": "godlike"}]}
SECOND = ["body", "seats", 1]  # where the second seat's problems are
START = ["body", "start_player", "int"]


@pytest.mark.parametrize(
    ("spec", "kind", "fields"),
    [
        ({"seats": [{"name": "Ann"}]}, "too_short", {"ctx": {"min_length": 2}}),
        ({"seats": [{"name": f"P{i}"} for i in range(8)]}, "too_long", {"ctx": {"max_length": 7}}),
        (NAMES_TWICE, "same_name", {"ctx": {"players": [1, 2, 3, 4], "name": "Mum"}}),
        (NAMES_TWICE, "same_name", {"ctx": {"groups": [MUMS, BOBS]}}),  # every group, named
        (BLANK_NAME, "string_too_short", {"loc": [*SECOND, "name"]}),
        (GODLIKE, "literal_error", {"loc": [*SECOND, "bot"]}),
        ({"seats": TWO, "start_player": 2}, "start_seat", {"ctx": {"high": 1}}),
        ({"seats": TWO, "colour": "red"}, "extra_forbidden", {"loc": ["body", "colour"]}),
        ({"seats": TWO, "start_player": True}, "int_type", {"loc": START}),
        ({"seats": TWO, "start_player": "1"}, "int_type", {"loc": START}),
    ],
)
def test_bad_new_games_are_refused_with_what_is_wrong_where(client, spec, kind, fields):
    invalid(client.post("/api/games", json=spec), kind, **fields)
    assert client.get("/api/games").json() == []


def test_unknown_rules_are_refused_with_the_presets(client):
    response = client.post("/api/games", json={"seats": TWO, "rules": "chess"})
    refused_http(
        response, 400, "unknown_preset", given="chess", presets=["official", "short", "bga"]
    )
    assert client.get("/api/games").json() == []


def test_each_person_gets_a_secret_link_and_the_lobby_shows_no_secret(client):
    game = create(client)
    links = [seat["link"] for seat in game["seats"]]
    assert links[2] is None  # the bot
    tokens = [link.split("token=")[1] for link in links[:2]]
    assert len(set(tokens)) == 2 and all(len(token) >= 16 for token in tokens)
    listing = client.get("/api/games").text
    assert json.loads(listing)[0]["status"] == "open"
    assert not any(token in listing for token in tokens)
    assert not any(token in client.get(f"/api/games/{game['id']}/record").text for token in tokens)


def test_rules_and_start_player_reach_the_game(client):
    spec = {"seats": [{"name": "A"}, {"name": "B"}], "rules": "short,lower_tile=any"}
    game = create(client, {**spec, "start_player": 1})
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["rules"] == {
        "flip_returned_highest": True,
        "exact_match_mandatory": False,
        "lower_tile": "any",
    }
    assert record["start_player"] == 1
    starts = {
        client.get(
            f"/api/games/{create(client, {**spec, 'start_player': 'random'})['id']}/record"
        ).json()["start_player"]
        for _ in range(20)
    }
    assert starts == {0, 1}  # fails with probability 2 * 2**-20


def test_join_takes_only_open_seats(client):
    spec = {"seats": [{"name": "Ann"}, {"name": "Guest", "open": True}, {"name": "Bob"}]}
    game = create(client, spec)
    assert [seat["open"] for seat in game["seats"]] == [False, True, False]
    assert game["seats"][1]["link"] is None  # nobody holds an open seat's token yet
    join = f"/api/games/{game['id']}/join"
    refused_http(client.post(join, json={"name": "Bob"}), 409, "name_taken", name="Bob")
    refused_http(client.post(join, json={"name": "BOB"}), 409, "name_taken", name="BOB")
    first = client.post(join, json={"name": "Cy"}).json()
    assert (first["seat"], first["name"]) == (1, "Cy")
    with client.websocket_connect(first["link"].replace("/games/", "/ws/games/")) as ws:
        assert ws.receive_json() == {"type": "welcome", "seat": 1, "name": "Cy"}
    refused_http(client.post(join, json={"name": "Di"}), 409, "no_open_seat")
    listing = client.get("/api/games").json()[0]
    assert listing["status"] == "open"  # Bob has not come yet
    assert [(s["name"], s["claimed"], s["open"]) for s in listing["seats"]] == [
        ("Ann", True, False),  # the creator, seated at creation
        ("Cy", True, True),
        ("Bob", False, False),
    ]
    refused_http(client.post("/api/games/nope/join", json={"name": "X"}), 404, "no_game", id="nope")


def test_links_are_absolute_on_the_public_url(database):
    app = create_app(database, new_games_per_minute=1e6, public_url="https://dice.example.org")
    with TestClient(app) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Guest", "open": True}]})
        assert game["url"] == f"https://dice.example.org/games/{game['id']}"
        assert game["seats"][0]["link"].startswith(f"{game['url']}?token=")
        joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Cy"}).json()
        assert joined["link"].startswith(f"{game['url']}?token=")


def test_a_stranger_cannot_take_the_creators_or_an_invited_seat(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    for name in ("X", "Y"):
        refused_http(
            client.post(f"/api/games/{game['id']}/join", json={"name": name}), 409, "no_open_seat"
        )
    for seat, name in enumerate(("Ann", "Bob")):  # both links still open their seats
        with client.websocket_connect(socket_path(game, seat)) as ws:
            welcome = ws.receive_json()
            assert {k: welcome[k] for k in ("type", "seat", "name")} == {
                "type": "welcome", "seat": seat, "name": name,
            }  # fmt: skip
            assert ("token" in welcome) == (seat == 1)  # Bob's new secret; Ann's is hers
    assert client.get("/api/games").json()[0]["status"] == "playing"


@pytest.mark.parametrize(
    ("seat", "kind"),
    [
        ({"name": "B", "open": "yes"}, "bool_type"),
        ({"name": "B", "open": 1}, "bool_type"),
        ({"name": "B", "bot": "easy", "open": True}, "bot_not_open"),
    ],
)
def test_seat_kinds_are_checked(client, seat, kind):
    response = client.post("/api/games", json={"seats": [{"name": "Ann"}, seat]})
    assert invalid(response, kind)["loc"][:3] == ["body", "seats", 1]


def test_the_creator_is_seated_at_creation_and_the_game_waits_for_the_others(client):
    alone = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    friends = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    nobody_invited = create(client, {"seats": [{"name": "A", "open": True}, {"name": "B"}]})
    status = {g["id"]: g["status"] for g in client.get("/api/games").json()}
    assert status[alone["id"]] == "playing"
    assert status[friends["id"]] == status[nobody_invited["id"]] == "open"
    claimed = {g["id"]: [s["claimed"] for s in g["seats"]] for g in client.get("/api/games").json()}
    assert claimed[friends["id"]] == [True, False]
    assert claimed[nobody_invited["id"]] == [False, True]  # the first invited person: B


def test_a_database_from_before_open_seats_opens_with_every_seat_invite_only(database):
    with TestClient(fast_app(database)) as first:
        game = create(first, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    store = Store(database)
    with store.engine.begin() as db:  # as an older version made it (before migrations,
        for table in (
            "rematches",
            "pending",
            "ratings",
            "results",
            "profiles",
            "totals",
            "met",
            "settings",
            "seat_networks",
        ):
            db.exec_driver_sql(f"DROP TABLE {table}")  # profiles, open seats and what came
        for column in ("open_seat", "spent", "transfer"):  # after them)
            db.exec_driver_sql(f"ALTER TABLE seats DROP COLUMN {column}")
        for index in (
            "games_status_updated",
            "games_created_from",
            "games_created_site",
            "sheets_created_from",
            "sheets_created_site",
        ):
            db.exec_driver_sql(f"DROP INDEX {index}")
        for column in ("created_from", "created_site", "resting"):
            db.exec_driver_sql(f"ALTER TABLE games DROP COLUMN {column}")
        for column in ("created_from", "created_site"):
            db.exec_driver_sql(f"ALTER TABLE sheets DROP COLUMN {column}")
        db.exec_driver_sql("DROP TABLE alembic_version")
    store.close()
    with TestClient(fast_app(database)) as second:
        assert [s["open"] for s in second.get("/api/games").json()[0]["seats"]] == [False] * 2
        joined = second.post(f"/api/games/{game['id']}/join", json={"name": "X"})
        refused_http(joined, 409, "no_open_seat")
        with second.websocket_connect(socket_path(game, 1)) as bob:
            assert next_of(bob, "state")["status"] == "playing"


# ------------------------------------------------------------ who may do what
def test_a_spectator_joining_costs_the_others_nothing_a_player_a_presence_message(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    with client.websocket_connect(socket_path(game, 1)) as bob:
        assert next_of(bob, "state")["status"] == "playing"  # Ann is seated since creation
        with client.websocket_connect(socket_path(game, 0)) as ann:
            assert next_of(ann, "state")["seats"][1]["online"]
            assert bob.receive_json() == {"type": "presence", "online": [True, True]}
            with client.websocket_connect(socket_path(game, None)) as watcher:
                next_of(watcher, "state")
                bob.send_json({"type": "ping"})
                assert bob.receive_json() == {"type": "pong"}  # nothing came before it
            bob.send_json({"type": "ping"})
            assert bob.receive_json() == {"type": "pong"}  # nor when the spectator left
        assert bob.receive_json() == {"type": "presence", "online": [False, True]}


def test_unknown_game_and_bad_token_are_refused_and_closed(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        refused(next_of(ws, "error"), "no_game")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (4404, "no_game")
    game = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}?token=guess") as ws:
        refused(next_of(ws, "error"), "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (4403, "bad_token")


def test_the_game_waits_for_every_person_then_only_the_seat_to_move_may_act(client):
    game = create(client, {**PEOPLE_AND_BOT, "start_player": 0})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        assert ann.receive_json() == {"type": "welcome", "seat": 0, "name": "Ann"}
        state = next_of(ann, "state")
        assert state["status"] == "open" and state["waiting_for"] == ["Bob"]
        assert state["actions"] == []
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        refused(next_of(ann, "error"), "not_started", names=["Bob"])
        with client.websocket_connect(socket_path(game, 1)) as bob:
            assert next_of(bob, "state")["status"] == "playing"
            bob.send_json({"type": "act", "action": "roll", "seq": 0})
            refused(next_of(bob, "error"), "not_your_turn", "R4", name="Ann")
            with client.websocket_connect(socket_path(game, None)) as watcher:
                assert next_of(watcher, "welcome")["seat"] is None
                watcher.send_json({"type": "act", "action": "roll", "seq": 0})
                refused(next_of(watcher, "error"), "spectators_cannot_play")
            ann.send_json({"type": "act", "action": "roll", "seq": 0})
            rolled = latest_state(bob, 1)
            assert rolled["table"]["phase"] == "keep" and len(rolled["table"]["roll"]) == 8
    record = GameRecord.from_dict(client.get(f"/api/games/{game['id']}/record").json())
    assert len(record.moves) == 1 and record.moves[0].startswith("dice ")  # rolled by the server


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        state = next_of(ann, "state")
        for action, code, rule in [
            ("stop", "no_stop_now", "R8"),
            ("keep 3", "no_keep_now", "R6"),
            ("take 21", "no_claim_now", "R11"),
        ]:
            ann.send_json({"type": "act", "action": action, "seq": 0})
            refused(next_of(ann, "error"), code, rule, waiting="roll")
        ann.send_json({"type": "act", "action": "fly", "seq": 0})
        refused(next_of(ann, "error"), "not_an_action", text="fly")
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        state = latest_state(ann, 1)
        ann.send_json({"type": "act", "action": state["actions"][0], "seq": state["seq"] - 1})
        refused(next_of(ann, "error"), "stale")
        # A face the roll does not show; eight dice may show all six: then, once W is kept,
        # no face can be kept until the next roll. Either way rule R6.
        missing = [face for face in "12345W" if face not in state["table"]["roll"]]
        if missing:
            code, params = "face_not_rolled", {"face": missing[0]}
        else:
            ann.send_json({"type": "act", "action": "keep W", "seq": state["seq"]})
            state = latest_state(ann, 2)
            code, params, missing = "no_keep_now", {"waiting": "roll_or_stop"}, ["W"]
        ann.send_json({"type": "act", "action": f"keep {missing[0]}", "seq": state["seq"]})
        refused(next_of(ann, "error"), code, "R6", **params)
        ann.send_json({"type": "ping"})
        assert next_of(ann, "pong") == {"type": "pong"}
    after = client.get(f"/api/games/{game['id']}/record").json()
    assert len(after["moves"]) == state["seq"]  # nothing refused was stored


def test_a_player_cannot_name_their_own_dice(client):
    """The server rolls (the table's system dice): a roll typed in as a record writes it is
    refused, on the player's own turn at a roll too, and changes nothing."""
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        state = next_of(ann, "state")
        assert state["table"]["phase"] == "roll" and state["actions"] == ["roll"]
        for action in ("dice WWWWWWWW", "DICE  wwwwwwww", "dice 12345W12"):
            ann.send_json({"type": "act", "action": action, "seq": 0})
            answer = ann.receive_json()  # nobody else moves: the answer comes next
            assert answer["type"] == "error", answer
            refused(answer, "dice_not_typed", "R5")
        ann.send_json({"type": "sync"})
        again = next_of(ann, "state")
        assert (again["seq"], again["table"]) == (0, state["table"])
        assert again["full_log"] == state["full_log"] == []
    assert client.get(f"/api/games/{game['id']}/record").json()["moves"] == []


# ------------------------------------------------------------- bad messages
ACT = '{"type": "act", "action": "roll"'


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("not json", "not_json_object", {}),
        ("[1, 2]", "not_json_object", {}),
        ('{"type": "dance"}', "unknown_message", {"given": "dance"}),
        ('{"action": "roll"}', "unknown_message", {"given": "null"}),  # as sent: JSON
        ('{"type": {"a": true}}', "unknown_message", {"given": '{"a": true}'}),
        ('{"type": "act"}', "bad_message", {"kind": "act", "field": "action"}),
        ('{"type": "act", "action": "", "seq": 0}', "bad_message", {"field": "action"}),
        (ACT + ', "seq": 0, "as": 1}', "bad_message", {"kind": "act", "field": "as"}),
        (ACT + ', "seq": -1}', "bad_message", {"field": "seq"}),
        (ACT + "}", "bad_message", {"field": "seq"}),
        (ACT + ', "seq": "0"}', "bad_message", {"field": "seq"}),
        (ACT + ', "seq": true}', "bad_message", {"field": "seq"}),
        (ACT + ', "seq": NaN}', "bad_message", {"field": "seq"}),
        ('{"type": "hint", "seq": 0}', "bad_message", {"kind": "hint", "field": "seq"}),
        (
            '{"type": "act", "action": "' + "x" * (MAX_MESSAGE + 1) + '"}',
            "message_too_long",
            {"length": MAX_MESSAGE + 30, "most": MAX_MESSAGE},
        ),
    ],
)
def test_malformed_messages_get_an_error_and_the_connection_carries_on(client, text, code, params):
    game = create(client)
    with client.websocket_connect(socket_path(game, 0)) as ws:
        next_of(ws, "state")
        ws.send_text(text)
        refused(next_of(ws, "error"), code, **params)
        ws.send_bytes(b"\x00\x01")
        refused(next_of(ws, "error"), "binary_message")
        ws.send_json({"type": "ping"})
        assert next_of(ws, "pong")


def test_a_flood_is_cut_off_and_the_game_carries_on(database):
    with TestClient(fast_app(database, message_rate=5)) as client:
        game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
        with client.websocket_connect(socket_path(game, 0)) as ws:
            for _ in range(40):
                ws.send_json({"type": "ping"})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    message = ws.receive_json()
                    if message["type"] == "error":
                        refused(message, "flood")
            assert (closed.value.code, closed.value.reason) == (1008, "flood")
        with client.websocket_connect(socket_path(game, 0)) as ws:  # the same seat again
            next_of(ws, "state")
            ws.send_json({"type": "act", "action": "roll", "seq": 0})
            assert latest_state(ws, 1)["table"]["phase"] == "keep"


# ------------------------------------------------------------- a whole game
def play_to_the_end(ws, database: Path, game_id: str) -> dict:
    """Play the first offered action whenever it is our turn; check at every state that
    its moves were stored before it was broadcast, and that it holds no words."""
    store = Store(database)
    try:
        while True:
            state = next_of(ws, "state")
            names = {seat["name"] for seat in state["seats"]}
            check_message({k: v for k, v in state.items() if k != "full_log"}, {game_id, *names})
            stored = store.load(game_id)
            assert stored is not None and len(stored.moves) >= state["seq"]
            if state["table"]["over"]:
                return state
            if state["actions"] and state["table"]["current"] == 0:
                ws.send_json({"type": "act", "action": state["actions"][0], "seq": state["seq"]})
    finally:
        store.close()


def test_a_game_against_a_bot_is_played_stored_and_replayed(client, database):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "hard"}]})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        final = play_to_the_end(ann, database, game["id"])
        ann.send_json({"type": "hint"})
        assert next_of(ann, "hint")["rows"] == []  # nothing to advise on any more
    assert final["status"] == "over" and final["actions"] == []
    ranking, tie = final["table"]["ranking"], {"tie_break": final["table"]["tie_break"]}
    assert {s["seat"] for s in ranking} == {0, 1} and ranking[0]["rank"] == 1
    assert "result" not in final["table"]  # words are the page's
    record = client.get(f"/api/games/{game['id']}/record").json()
    replayed = Game.from_record(GameRecord.from_dict(record))
    assert replayed.state.is_over and replayed.state.scores() == final["table"]["worms"]
    assert final["full_log"] == log_entries(replayed.history)  # the record, as events
    assert final["full_log"][-1] == {"type": "game_over", "ranking": ranking, **tie}
    assert len(final["log"]) < len(final["full_log"]) / 10  # later states bring new entries only
    frames = client.get(f"/api/games/{game['id']}/replay").json()["frames"]
    assert frames[0]["table"]["worms"] == [0, 0] and frames[-1]["table"] == final["table"]
    assert [f["turn"] for f in frames[1:]] == list(range(1, len(frames)))
    listed = client.get("/api/games").json()[0]
    assert listed["status"] == "over" and listed["ranking"] == ranking
    assert {"tie_break": listed["tie_break"]} == tie and "result" not in listed
    assert game["id"] not in client.app.state.rooms.rooms  # released once nobody watches
    with client.websocket_connect(socket_path(game, None)) as watcher:  # and loaded again
        assert next_of(watcher, "state")["table"] == final["table"]


def test_only_the_player_to_move_gets_a_hint(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}], "start_player": 0})
    with (
        client.websocket_connect(socket_path(game, 0)) as ann,
        client.websocket_connect(socket_path(game, 1)) as bob,
        client.websocket_connect(socket_path(game, None)) as watcher,
    ):
        for ws in (bob, watcher):
            next_of(ws, "state")
            ws.send_json({"type": "hint"})
            refused(next_of(ws, "error"), "hint_not_yours")
        next_of(ann, "state")
        ann.send_json({"type": "hint"})
        assert [row["action"] for row in next_of(ann, "hint")["rows"]] == ["roll"]


def test_a_rated_game_is_played_without_the_hint_and_the_coach(client):
    """An audit won a rated game with 169 hints, its best move each time: the hint and the
    coach are the review's own evaluator, the expert bot's play. A game set up as rated says
    so in its state (the page shows neither) and refuses both; an unrated one answers."""
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "hard"}]
    spec = {"seats": seats, "start_player": 0, "rated": True}
    code = client.post("/api/profiles", json={"name": "Ann"}).json()["code"]
    made = client.post("/api/games", json=spec, headers={"Profile-Key": code})
    assert made.status_code == 201, made.text
    rated = made.json()  # a profile against a bot: rated
    plain = create(client, {**spec, "seats": [{"name": "Cy"}, seats[1]]})  # no profile: unrated
    with client.websocket_connect(socket_path(rated, 0)) as ann:
        assert next_of(ann, "state")["rated"] is True
        for kind in ("hint", "coach"):
            ann.send_json({"type": kind})
            refused(next_of(ann, "error"), "no_help_rated")
    with client.websocket_connect(socket_path(plain, 0)) as ann:
        assert next_of(ann, "state")["rated"] is False
        ann.send_json({"type": "hint"})
        assert [row["action"] for row in next_of(ann, "hint")["rows"]] == ["roll"]


@pytest.mark.slow  # plays a whole game of bots
def test_the_record_keeps_the_seed_secret_until_the_game_has_ended(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    meta = client.get(f"/api/games/{game['id']}/record").json()["meta"]
    assert "seed" not in meta and meta["bots"] == [None, "easy"]
    bots = create(client, {"seats": [{"name": "Bo", "bot": "easy"}, {"name": "Bi", "bot": "easy"}]})
    with client.websocket_connect(socket_path(bots, None)) as watcher:
        while not next_of(watcher, "state")["table"]["over"]:
            pass
    record = client.get(f"/api/games/{bots['id']}/record").json()
    assert isinstance(record["meta"]["seed"], int)  # over: the whole record
    assert Game.from_record(GameRecord.from_dict(record)).state.is_over


def bots_game_to_its_end(client: TestClient, seats: list[dict]) -> dict:
    """A game of bots created with a random start player, watched to its end: its record."""
    game = create(client, {"seats": seats, "start_player": "random"})
    with client.websocket_connect(socket_path(game, None)) as watcher:
        while not next_of(watcher, "state")["table"]["over"]:
            pass
    return client.get(f"/api/games/{game['id']}/record").json()


@pytest.mark.slow  # plays whole games of bots
def test_a_server_with_a_dice_seed_plays_each_game_again_the_same(tmp_path: Path):
    """``serve --dice-seed``: the start player, the dice and the bots all come from the seed,
    so the same game is played on another server, or later on the same one; the record says
    so. Without it, the seeds differ (drawn by the system's generator)."""
    seats = [
        {"name": "Bo", "bot": "easy"},
        {"name": "Bi", "bot": "medium"},
        {"name": "Bu", "bot": "easy"},
    ]
    records = []
    for n in range(2):
        with TestClient(fast_app(tmp_path / f"{n}.sqlite3", dice_seed=41)) as client:
            records += [bots_game_to_its_end(client, seats) for _ in range(2)]
    assert all(
        record["meta"]["seed"] == 41 and record["meta"]["dice"] == "seeded" for record in records
    )
    assert all(record["moves"] == records[0]["moves"] for record in records)
    assert all(record["start_player"] == records[0]["start_player"] for record in records)
    with TestClient(fast_app(tmp_path / "system.sqlite3")) as client:
        unseeded = [bots_game_to_its_end(client, seats) for _ in range(2)]
    assert (
        "dice" not in unseeded[0]["meta"]
        and unseeded[0]["meta"]["seed"] != unseeded[1]["meta"]["seed"]
    )
    assert unseeded[0]["moves"] != unseeded[1]["moves"]


def test_hints_rank_the_legal_choices(client):
    game = create(client, {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]})
    with client.websocket_connect(socket_path(game, 0)) as ann:
        next_of(ann, "state")
        ann.send_json({"type": "hint"})
        (roll,) = next_of(ann, "hint")["rows"]
        assert roll["action"] == "roll"
        assert roll["tile"] + roll["bust"] == pytest.approx(1)  # a turn ends one way or the other
        assert 1 < roll["worms"] < 4  # a tile of 1 to 4 worms, minus the risk of busting
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        state = latest_state(ann, 1)
        ann.send_json({"type": "hint"})
        rows = next_of(ann, "hint")["rows"]
        ann.send_json({"type": "coach"})
        coach = next_of(ann, "coach")
    assert sorted(row["action"] for row in rows) == sorted(state["actions"])
    assert [row["win"] for row in rows] == sorted((row["win"] for row in rows), reverse=True)
    assert all(0 <= row[odds] <= 1 for row in rows for odds in ("win", "tile", "bust"))
    # the hint's best is the coach's (and the review's: the same evaluator), its chances too
    assert [row["action"] for row in rows] == [choice["action"] for choice in coach["choices"]]
    assert [row["win"] for row in rows] == [choice["value"] for choice in coach["choices"]]


def test_a_second_server_on_the_same_database_goes_on_with_the_game(database):
    spec = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]}
    with TestClient(fast_app(database)) as first:
        game = create(first, spec)
        with first.websocket_connect(socket_path(game, 0)) as ann:
            next_of(ann, "state")
            ann.send_json({"type": "act", "action": "roll", "seq": 0})
            before = latest_state(ann, 1)
    with (
        TestClient(fast_app(database)) as second,
        second.websocket_connect(socket_path(game, 0)) as ann,
    ):
        again = next_of(ann, "state")
    assert again["seq"] == before["seq"] and again["table"] == before["table"]
    assert again["log_start"] == 0 and again["log"] == before["full_log"]


@pytest.mark.slow  # plays a whole game of bots
def test_the_lobby_counts_turns_not_moves(client):
    people = create(client, {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    bots = create(client, {"seats": [{"name": "A", "bot": "easy"}, {"name": "B", "bot": "easy"}]})
    with client.websocket_connect(socket_path(bots, None)) as ws:
        while not (state := next_of(ws, "state"))["table"]["over"]:
            pass
    listed = {game["id"]: game for game in client.get("/api/games").json()}
    assert listed[people["id"]]["turns"] == 1  # the first turn, not started
    record = client.get(f"/api/games/{bots['id']}/record").json()
    replayed = Game.from_record(GameRecord.from_dict(record))
    assert listed[bots["id"]]["turns"] == replayed.state.turn == state["table"]["turn"]
    assert len(replayed.turns()) == replayed.state.turn < len(record["moves"])


def test_a_watcher_rebuilds_each_state_from_what_changed(client):
    """After the whole state on joining, each update is a ``change``: the fields that
    differ and the version it turns ``base`` into. Applied in turn (as the page does) they
    make the same state a ``sync`` sends whole, in a fraction of its bytes."""
    bots = create(client, {"seats": [{"name": "Bo", "bot": "easy"}, {"name": "Bi", "bot": "easy"}]})
    raw: list[dict] = []
    with client.websocket_connect(socket_path(bots, None)) as watcher:
        held: dict = {}
        while not held.get("table", {}).get("over"):
            message = watcher.receive_json()
            raw.append(message)
            held = follow(watcher, dict(message)) if message["type"] != "welcome" else held
        watcher.send_json({"type": "sync"})
        whole = next_of(watcher, "state")
    assert [m["type"] for m in raw[:2]] == ["welcome", "state"]
    changes = raw[2:]
    assert changes and all(m["type"] == "change" for m in changes)
    assert [m["v"] for m in changes] == list(range(raw[1]["v"] + 1, raw[1]["v"] + 1 + len(changes)))
    assert state_body(held) == state_body(whole) and held["v"] == whole["v"]
    assert held["full_log"] == whole["full_log"]
    # the changes take under a third of the bytes of the states they make, sent whole
    sizes = [
        (len(json.dumps(change)), len(json.dumps(state_body(state))))
        for change, state in zip(changes, rebuilt_states(raw[1], changes), strict=True)
    ]
    assert sum(c for c, _ in sizes) * 3 < sum(w for _, w in sizes), sizes[:5]


def rebuilt_states(first: dict, changes: list[dict]) -> list[dict]:
    """The state each change makes, from the first whole one."""
    states, held = [], first
    for change in changes:
        held = apply_change(held, change)
        states.append(held)
    return states
