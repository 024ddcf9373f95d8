"""Clocks and absent players over the API and the WebSocket, the app in process on SQLite
and PostgreSQL: a game's time control, a bot playing for a person out of time or away, the
votes to hand a seat over, taking it back, and all of it after a restart.

Bots here wait ``bot_delay`` before each step: 60 s where a test needs them to stand still
(nothing a stand-in bot would do then happens during the test), a few milliseconds where a
test follows what they do. Clocks are short (``clock_minimum=0``) so time runs out at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pickomino.table import session as session_module
from pickomino.web import create_app
from pickomino.web.db.store import Store
from pickomino.web.game import absence as absence_module
from pickomino.web.game import state_message
from pickomino.web.game.alarms import Alarm

from .clients import Reads, create, follow, invalid, next_of, refused, refused_http, socket_path
from .server_process import wait_until
from .wire import check_message

STILL = 60.0  #: a bot delay that keeps bots from moving during a test
ANN_ROBO = [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]
ANN_BOB = [{"name": "Ann"}, {"name": "Bob"}]
THREE = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}, {"name": "Robo", "bot": "easy"}]


def app(database: str, bot_delay: float = STILL, **options: object):
    return create_app(
        database, bot_delay=bot_delay, message_rate=1000, new_games_per_minute=1e6,
        clock_minimum=0, **options,
    )  # fmt: skip


def until(ws, holds: Callable[[dict], bool]) -> dict:
    """The first state that ``holds`` (every message on the way checked against the wire
    format)."""
    while True:
        message = next_of(ws, "state")
        sent = {key: value for key, value in message.items() if key != "full_log"}
        check_message(sent, {"Ann", "Bob", "Cy", "Dan", "Robo", message["id"]})
        if holds(message):
            return message


def hears(ws, seat: int, online: bool = True) -> None:
    """Read on until ``ws`` hears that the person of ``seat`` is (not) connected: a player
    coming or going is a presence message, unless it changes more."""
    while True:
        message = follow(ws, ws.receive_json())
        if message["type"] == "presence" and message["online"][seat] == online:
            return
        if message["type"] == "state" and message["seats"][seat]["online"] == online:
            return


def entries(state: dict, kind: str) -> list[dict]:
    """The log's entries of ``kind``, a vote's hand-over and a return without their times
    (since when the person was gone, when they came back: checked to be the server's time
    now, give or take a test's length)."""
    found = [dict(entry) for entry in state["full_log"] if entry["type"] == kind]
    for entry in found:
        timed = "at" if kind == "back" else "since" if entry.get("why") == "vote" else None
        assert set(entry) & {"at", "since"} == ({timed} if timed else set()), entry
        if timed:
            assert abs(entry.pop(timed) - time.time()) < 600, entry
    return found


def claim(client: TestClient, game: dict, *seats: int) -> None:
    """The people of ``seats`` open their links once (the game starts when all have)."""
    for seat in seats:
        with client.websocket_connect(socket_path(game, seat)) as ws:
            next_of(ws, "state")


# ------------------------------------------------------------------ creation
NAN = '{"seats": [{"name": "A"}, {"name": "B"}], "clock": {"per_turn": NaN}}'


@pytest.mark.parametrize(
    ("clock", "kind", "where"),
    [
        ({}, "clock_kind", ["body", "clock"]),
        ({"per_turn": 60, "bank": 300}, "clock_kind", ["body", "clock"]),
        ({"per_turn": 60, "increment": 5}, "clock_kind", ["body", "clock"]),
        ({"per_turn": True}, "float_type", ["body", "clock", "per_turn"]),
        ({"per_turn": "60"}, "float_type", ["body", "clock", "per_turn"]),
        ({"per_turn": 0}, "greater_than", ["body", "clock", "per_turn"]),
        ({"per_turn": 1e9}, "less_than_equal", ["body", "clock", "per_turn"]),
        ({"bank": 300, "increment": -1}, "greater_than_equal", ["body", "clock", "increment"]),
        ({"bank": 300, "moves": 40}, "extra_forbidden", ["body", "clock", "moves"]),
        ("60", "model_attributes_type", ["body", "clock"]),
    ],
)
def test_a_malformed_clock_is_refused_with_what_is_wrong_where(database, clock, kind, where):
    with TestClient(app(database)) as client:
        response = client.post("/api/games", json={"seats": ANN_ROBO, "clock": clock})
        invalid(response, kind, loc=where)
        nan = client.post("/api/games", content=NAN, headers={"content-type": "application/json"})
        invalid(nan, "finite_number", loc=["body", "clock", "per_turn"])
        invalid(client.post("/api/games", json={"seats": ANN_ROBO, "takeover": "god"}),
                "literal_error", loc=["body", "takeover"])  # fmt: skip
        assert client.get("/api/games").json() == []


def test_a_clock_under_the_servers_minimum_is_refused_and_the_lobby_offers_none(database):
    """By default the server accepts exactly what the lobby offers at the shortest (30 s a
    turn), however a game is created: the lobby offers every speed the server allows."""
    with TestClient(create_app(database, new_games_per_minute=1e6)) as client:
        for clock in ({"bank": 5, "increment": 30}, {"per_turn": 29}):
            short = {"seats": ANN_ROBO, "clock": clock}
            refused_http(client.post("/api/games", json=short), 400, "clock_too_short", least=30)
        offered = client.get("/api/options").json()
        assert offered["clocks"][0] == {"per_turn": 30} and offered["takeover"] == "medium"
        create(client, {"seats": ANN_ROBO, "clock": offered["clocks"][0]})
    with TestClient(create_app(database, clock_minimum=100)) as client:
        assert all(
            clock.get("per_turn", clock.get("bank")) >= 100
            for clock in client.get("/api/options").json()["clocks"]
        )


def test_the_clock_runs_for_the_person_to_move_and_a_bank_keeps_what_is_left(database):
    with TestClient(app(database, bot_delay=0.001)) as client:
        spec = {"seats": ANN_ROBO, "clock": {"bank": 300, "increment": 10}, "takeover": "hard"}
        game = create(client, spec)
        record = client.get(f"/api/games/{game['id']}/record").json()
        assert record["meta"]["clock"] == {"bank": 300, "increment": 10}
        assert record["meta"]["takeover"] == "hard"
        with client.websocket_connect(socket_path(game, 0)) as ann:
            state = until(ann, lambda s: True)
            clock = state["clock"]
            assert (clock["bank"], clock["increment"], clock["per_turn"]) == (300, 10, None)
            assert clock["seat"] == 0 and clock["banks"] == [300, 300]
            assert 0 < clock["deadline"] - state["now"] <= 310  # the server's own times
            assert state["takeover"] == "hard"
            while state["table"]["current"] == 0:  # Ann plays her turn: roll, keep, stop
                ann.send_json({"type": "act", "action": pick(state), "seq": state["seq"]})
                state = until(ann, lambda s, seq=state["seq"]: s["seq"] > seq)
            bank = state["clock"]["banks"][0]
            assert 0 < bank <= 310 and state["clock"]["banks"][1] == 300  # Robo has no clock
            assert state["clock"]["seat"] is None  # Robo's turn: no clock runs
            back = until(ann, lambda s: s["table"]["current"] == 0 and s["clock"]["seat"] == 0)
            assert back["clock"]["banks"][0] == bank  # the bank as at the turn's start
            assert bank < back["clock"]["deadline"] - back["now"] <= bank + 10


def pick(state: dict) -> str:
    """A quick player's choice: a tile if one is offered, else worms or the highest face,
    stopping once a worm is kept."""
    actions = state["actions"]
    claims = [a for a in actions if a.startswith(("take", "steal"))]
    if claims:
        return claims[0]
    if "stop" in actions and "W" in state["table"]["kept"]:
        return "stop"
    keeps = [a for a in actions if a.startswith("keep")]
    return max(keeps, key=lambda a: "12345W".index(a[-1])) if keeps else actions[0]


# ------------------------------------------------------------------ out of time
def test_out_of_time_a_bot_plays_the_rest_of_the_turn_then_the_person_plays_on(database):
    with TestClient(app(database, bot_delay=0.001)) as client:
        spec = {"seats": ANN_ROBO, "clock": {"per_turn": 1}, "takeover": "easy"}
        game = create(client, spec)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            timed_out = until(ann, lambda s: entries(s, "timeout"))
            assert entries(timed_out, "timeout") == [
                {"type": "timeout", "seat": 0, "turn": 1, "bot": "easy"}
            ]
            assert timed_out["seats"][0]["stand_in"] and not timed_out["seats"][0]["away"]
            assert timed_out["clock"]["seat"] is None and timed_out["actions"] == []
            # The bot ends Ann's turn, Robo plays, and Ann has a clock and her turn again.
            again = until(ann, lambda s: s["table"]["turn"] == 3 and s["actions"])
            assert again["clock"]["seat"] == 0 and not again["seats"][0]["stand_in"]
            log = again["full_log"]
            turn_2 = log.index({"type": "turn", "turn": 2, "seat": 1})
            bot_for_ann = log[log.index(entries(again, "timeout")[0]) : turn_2]
            assert {"type": "rolled", "seat": 0} in [
                {"type": e["type"], "seat": e.get("seat")} for e in bot_for_ann
            ]  # the bot rolled for Ann (and ended her turn: turn 2 is Robo's)
            ann.send_json({"type": "act", "action": "roll", "seq": again["seq"]})
            rolled = until(ann, lambda s: s["seq"] > again["seq"])
            assert rolled["table"]["phase"] == "keep" and rolled["table"]["current"] == 0


@pytest.mark.parametrize("rated", [True, False])
def test_in_a_rated_game_the_stand_in_is_no_stronger_than_the_default(database, rated):
    """An audit: with an `expert` stand-in, a rated profile let its clock run out at every
    other hard decision (never twice in a row: never away); the expert played 44% of its
    moves and it won, rated. In a rated game the stand-in is at most `medium`."""
    with TestClient(app(database, bot_delay=0.001)) as client:
        code = client.post("/api/profiles", json={"name": "Ann"}).json()["code"]
        spec = {"seats": ANN_ROBO, "clock": {"per_turn": 1}, "takeover": "expert", "rated": rated}
        game = client.post("/api/games", json=spec, headers={"Profile-Key": code}).json()
        with client.websocket_connect(socket_path(game, 0)) as ws:
            while not entries(timed_out := next_of(ws, "state"), "timeout"):
                pass  # (the profile's id in the states: not the words until checks)
    level = "medium" if rated else "expert"
    assert timed_out["rated"] is rated and timed_out["takeover"] == level
    assert entries(timed_out, "timeout") == [
        {"type": "timeout", "seat": 0, "turn": 1, "bot": level}
    ]


def test_out_of_time_the_person_cannot_act_and_a_client_says_nothing_about_time(database):
    with TestClient(app(database)) as client:  # the stand-in bot stands still
        # 2 s: time to connect before the clock runs out, even on a machine under load
        game = create(client, {"seats": ANN_BOB, "clock": {"per_turn": 2.0}})
        claim(client, game, 1)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            first = until(ann, lambda s: True)
            ann.send_json({"type": "act", "action": "roll", "seq": 0, "deadline": 1e12})
            refused(next_of(ann, "error"), "bad_message", kind="act", field="deadline")
            ann.send_json({"type": "clock", "deadline": 1e12})
            refused(next_of(ann, "error"), "unknown_message", given="clock")
            out = until(ann, lambda s: entries(s, "timeout"))
            assert first["clock"]["deadline"] is not None and out["seq"] == 0
            ann.send_json({"type": "act", "action": "roll", "seq": 0})
            refused(next_of(ann, "error"), "time_up")
            ann.send_json({"type": "back"})
            refused(next_of(ann, "error"), "not_away")  # only the rest of the turn is the bot's
        assert client.get(f"/api/games/{game['id']}/record").json()["moves"] == []


@pytest.mark.slow  # two clocks run out, and the bots play three turns: 2 s
def test_out_of_time_twice_in_a_row_a_person_is_away_until_they_come_back(database):
    with TestClient(app(database, bot_delay=0.02)) as client:
        game = create(client, {"seats": ANN_ROBO, "clock": {"per_turn": 0.5}, "takeover": "easy"})
        with client.websocket_connect(socket_path(game, 0)) as ann:
            away = until(ann, lambda s: entries(s, "away"))
            assert [(e["seat"], e["turn"]) for e in entries(away, "timeout")] == [(0, 1), (0, 3)]
            assert entries(away, "away") == [
                {"type": "away", "seat": 0, "why": "timeouts", "bot": "easy"}
            ]
            assert away["seats"][0]["away"] and away["seats"][0]["stand_in"]
            # The bot plays Ann's next turn too, with no clock and no timeout.
            later = until(ann, lambda s: s["table"]["turn"] >= 6)
            assert len(entries(later, "timeout")) == 2 and later["clock"]["seat"] is None
            ann.send_json({"type": "back"})
            back = until(ann, lambda s: not s["seats"][0]["away"])
            assert entries(back, "back") == [{"type": "back", "seat": 0}]
            mine = until(ann, lambda s: s["actions"])  # Ann's next decision is hers
            assert mine["clock"]["seat"] == 0 and not mine["seats"][0]["stand_in"]
            ann.send_json({"type": "act", "action": mine["actions"][0], "seq": mine["seq"]})
            until(ann, lambda s: s["seq"] > mine["seq"])


# ------------------------------------------------------------------ votes
@pytest.mark.parametrize("clock", [None, {"per_turn": 3600}], ids=["untimed", "timed"])
def test_every_wrong_vote_is_refused_and_a_majority_of_the_games_people_hands_over(
    database, monkeypatch, clock
):
    """A vote refused reads nothing from the store (an audit: spectators' votes, refused,
    each read the whole timed game on the event loop first, and held a server for seconds);
    one that may be cast reads the moves stored since (another process's)."""
    with TestClient(app(database)) as client:
        game = create(client, {"seats": THREE, "start_player": 2, "clock": clock})
        with client.websocket_connect(socket_path(game, 1)) as bob:
            until(bob, lambda s: True)
            with client.websocket_connect(socket_path(game, 0)) as ann:
                ann.send_json({"type": "vote", "seat": 1})
                refused(next_of(ann, "error"), "not_started", names=["Cy"])
                claim(client, game, 2)  # Cy comes, the game starts, Cy goes
                until(ann, lambda s: s["status"] == "playing")
                hears(ann, 2, online=False)
                reads = Reads(client.app.state.rooms.store, monkeypatch).made
                with client.websocket_connect(socket_path(game, None)) as watcher:
                    watcher.send_json({"type": "vote", "seat": 2})
                    refused(next_of(watcher, "error"), "spectators_cannot_vote")
                    watcher.send_json({"type": "back"})
                    refused(next_of(watcher, "error"), "spectators_cannot_play")
                for seat, code, params in [
                    (0, "vote_own_seat", {}),
                    (3, "vote_bot_seat", {"name": "Robo"}),
                    (1, "vote_seat_online", {"name": "Bob"}),
                    (7, "no_seat", {"seat": 7, "high": 3}),
                ]:
                    ann.send_json({"type": "vote", "seat": seat})
                    refused(next_of(ann, "error"), code, **params)
                for text, field in [('"2"', "seat"), ("-1", "seat"), ("true", "seat")]:
                    ann.send_text(f'{{"type": "vote", "seat": {text}}}')
                    refused(next_of(ann, "error"), "bad_message", kind="vote", field=field)
                assert reads == []
                ann.send_json({"type": "vote", "seat": 2})
                one = until(ann, lambda s: s["seats"][2]["votes"])
                assert reads  # read as stored before it is cast
                assert one["seats"][2]["votes"] == [0] and not one["seats"][2]["away"]  # 1 of 3
                assert one["seats"][2]["votes_needed"] == 2
                ann.send_json({"type": "vote", "seat": 2})
                refused(next_of(ann, "error"), "voted_already", name="Cy")
                bob.send_json({"type": "vote", "seat": 2})
                handed = until(ann, lambda s: s["seats"][2]["away"])
                assert entries(handed, "away") == [
                    {"type": "away", "seat": 2, "why": "vote", "bot": "medium"}
                ]
                assert handed["seats"][2]["votes"] == [] and handed["seats"][2]["stand_in"]
                ann.send_json({"type": "vote", "seat": 2})
                refused(next_of(ann, "error"), "vote_seat_away", name="Cy")
                ann.send_json({"type": "back"})
                refused(next_of(ann, "error"), "not_away")
            # Cy comes back: connecting shows the seat still away; "back" takes it.
            with client.websocket_connect(socket_path(game, 2)) as cy:
                state = until(cy, lambda s: True)
                assert state["seats"][2]["away"] and state["table"]["current"] == 2
                cy.send_json({"type": "act", "action": "roll", "seq": state["seq"]})
                refused(next_of(cy, "error"), "seat_away")
                cy.send_json({"type": "back"})
                back = until(cy, lambda s: not s["seats"][2]["away"])
                assert back["actions"] == ["roll"] and back["seq"] == state["seq"]
                cy.send_json({"type": "back"})
                refused(next_of(cy, "error"), "not_away")  # a second tab's: one seat holder
                cy.send_json({"type": "act", "action": "roll", "seq": back["seq"]})
                until(cy, lambda s: s["seq"] > back["seq"])


def test_votes_end_when_the_person_comes_and_a_voter_alone_is_no_majority(database):
    with TestClient(app(database)) as client:
        game = create(client, {"seats": THREE})
        claim(client, game, 1, 2)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            with client.websocket_connect(socket_path(game, 1)):
                hears(ann, 1)
                ann.send_json({"type": "vote", "seat": 2})
                assert until(ann, lambda s: s["seats"][2]["votes"])["seats"][2]["votes"] == [0]
                with client.websocket_connect(socket_path(game, 2)):  # Cy comes: votes end
                    until(ann, lambda s: not s["seats"][2]["votes"])
                ann.send_json({"type": "vote", "seat": 2})
                until(ann, lambda s: s["seats"][2]["votes"])
            # Bob leaves: Ann alone is all the people present, but one of the game's three,
            # and Cy has not been gone ``away_after`` seconds: her vote waits.
            hears(ann, 1, online=False)
            cy = still(ann)["seats"][2]
            assert (cy["votes"], cy["votes_needed"], cy["away"]) == ([0], 2, False)


def still(ws) -> dict:
    """The state as it is once everything sent before has arrived (a sync's answer comes
    after any state the server sent first)."""
    ws.send_json({"type": "sync"})
    return until(ws, lambda s: True)


def test_one_person_alone_cannot_hand_over_the_seat_of_a_person_who_just_left(database):
    """Bob left a moment ago; Ann votes alone: one of the game's two people is no
    majority, and Bob has not been gone ``away_after`` seconds (120 here): the vote waits."""
    with TestClient(app(database)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        claim(client, game, 1)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            until(ann, lambda s: s["status"] == "playing")
            ann.send_json({"type": "vote", "seat": 1})
            voted = until(ann, lambda s: s["seats"][1]["votes"] or s["seats"][1]["away"])
            assert voted["seats"][1]["votes"] == [0] and not voted["seats"][1]["away"]
            assert voted["seats"][1]["votes_needed"] == 2  # both: Bob will not vote
            assert not entries(still(ann), "away")


def test_a_vote_hands_over_the_seat_of_a_person_gone_away_after_seconds(database):
    """The legitimate way for one person alone: Bob has been gone ``away_after`` seconds
    (0.2 here; it is Ann's turn, so Bob is not marked away by himself): Ann's vote carries
    then, without anybody coming or going."""
    with TestClient(app(database, away_after=0.2)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        claim(client, game, 1)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            until(ann, lambda s: s["status"] == "playing")
            ann.send_json({"type": "vote", "seat": 1})
            handed = until(ann, lambda s: s["seats"][1]["away"])
            assert entries(handed, "away") == [
                {"type": "away", "seat": 1, "why": "vote", "bot": "medium"}
            ]


class WallClock:
    """The wall clock as the votes see it, set by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


def test_votes_counted_a_moment_before_they_ripen_are_counted_again(database, monkeypatch):
    """The votes' alarm may ring a moment early (uvloop rings up to a millisecond before its
    time): the count finds Bob not yet gone long enough, and by the time the alarms are set
    again the wall clock has passed that time. The wait is still to come for the votes, so
    the alarm rings again at once, instead of never (Ann's vote then waited forever)."""
    clock = WallClock()
    monkeypatch.setattr(absence_module, "time", clock)
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        claim(client, game, 1)  # Bob came and went: gone from now on
        gone_since = clock.now
        with client.websocket_connect(socket_path(game, 0)) as ann:
            until(ann, lambda s: s["status"] == "playing")
            ann.send_json({"type": "vote", "seat": 1})
            voted = until(ann, lambda s: s["seats"][1]["votes"] or s["seats"][1]["away"])
            assert voted["seats"][1]["votes"] == [0] and not voted["seats"][1]["away"]
            room = client.app.state.rooms.rooms[game["id"]]
            ripe = gone_since + 60
            assert client.portal.call(room.votes_ripen) == ripe
            clock.now = ripe - 0.001  # the alarm rang a millisecond early: not yet
            assert not client.portal.call(room.count_votes)
            clock.now = ripe + 0.001  # and the room sets its alarms a moment later
            assert client.portal.call(room.votes_ripen) == ripe  # due: it rings at once


def test_a_seat_just_taken_from_the_lobby_is_not_long_gone(database, monkeypatch):
    """An audit: the creator waited on the socket while the open seat waited in the lobby
    longer than ``away_after``; Bob took it over HTTP and, before his page connected, the
    creator's vote alone carried (17 ms later), Bob counted as gone since the game was loaded.
    A seat's new holder is gone from when they hold it at the earliest."""
    clock = WallClock()
    for module in (absence_module, state_message):  # the votes, and what the states say
        monkeypatch.setattr(module, "time", clock)
    spec = {"seats": [{"name": "Ann"}, {"name": "Cy", "open": True}], "start_player": 0}
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, spec)
        with client.websocket_connect(socket_path(game, 0)) as ann:
            until(ann, lambda s: s["status"] == "open")
            clock.now += 600  # the seat waited ten minutes in the lobby
            joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"})
            assert joined.status_code == 200, joined.text
            until(ann, lambda s: s["status"] == "playing")
            ann.send_json({"type": "vote", "seat": 1})
            voted = until(ann, lambda s: s["seats"][1]["votes"] or s["seats"][1]["away"])
            assert voted["seats"][1]["votes"] == [0] and not voted["seats"][1]["away"]
            assert voted["seats"][1]["votes_needed"] == 2  # both: Bob is not long gone
            clock.now += 61  # gone as long now: Ann's vote alone carries, since his joining
            room = client.app.state.rooms.rooms[game["id"]]
            assert client.portal.call(room.count_votes) and room.seating.away[1]
            (away,) = [e.entry for e in room.store.table_events(room.id)]
            assert away["why"] == "vote" and away["since"] == pytest.approx(clock.now - 61)


# --------------------------------------------------- who keeps the game waiting
def waiting_clock(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    """The votes' and the states' clock, set by the test."""
    clock = WallClock()
    for module in (absence_module, state_message):
        monkeypatch.setattr(module, "time", clock)
    return clock


@contextlib.contextmanager
def ann_and_bob(database: str, **options: object) -> Iterator[tuple[TestClient, dict, Any, Any]]:
    """Ann (to move first) and Bob at a new game, each on their socket (``options``: the
    app's)."""
    with TestClient(app(database, **options)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        with (
            client.websocket_connect(socket_path(game, 0)) as ann,
            client.websocket_connect(socket_path(game, 1)) as bob,
        ):
            yield client, game, ann, bob


def test_a_person_here_who_keeps_a_game_without_a_clock_waiting_can_be_voted_away(
    database, monkeypatch
):
    """An audit: a connected player who never moved held a game without a clock for ever (a
    person here could not be voted away, and a game with somebody here is not abandoned).
    Once Ann has kept the game waiting on her turn ``away_after`` seconds (60 here), she
    counts as gone that long: Bob's vote alone hands her seat over, and the hand-over keeps
    since when the game waited on her (what tells whether she left it). Before that, the
    vote is refused, saying how long."""
    clock = waiting_clock(monkeypatch)
    with ann_and_bob(database, away_after=60) as (client, game, ann, bob):
        started = until(bob, lambda s: s["status"] == "playing" and s["seats"][0]["online"])
        assert not started["seats"][0]["waited_on"]
        waiting_since = clock.now
        clock.now += 59
        bob.send_json({"type": "vote", "seat": 0})
        refused(next_of(bob, "error"), "vote_seat_waiting", name="Ann", count=60)
        clock.now += 2
        bob.send_json({"type": "vote", "seat": 0})
        handed = until(bob, lambda s: s["seats"][0]["away"])
        assert entries(handed, "away") == [
            {"type": "away", "seat": 0, "why": "vote", "bot": "medium"}
        ]
        room = client.app.state.rooms.rooms[game["id"]]
        (away,) = [e.entry for e in room.store.table_events(room.id)]
        assert away["since"] == pytest.approx(waiting_since)
        mine = until(ann, lambda s: s["seats"][0]["away"])
        assert "roll" not in mine["actions"]  # the bot's decision now, for this turn
        ann.send_json({"type": "back"})
        refused(next_of(ann, "error"), "back_after_turn", bot="medium")


def test_a_turn_of_moves_each_just_inside_the_wait_can_be_voted_away_all_the_same(
    database, monkeypatch
):
    """An audit: a connected player who made each decision just inside the wait (59 s of 60)
    held one turn as long as they liked, and every vote was refused. A whole turn may keep
    the others waiting ``TURN_WAITS`` waits at most: after three such moves (177 s), a vote
    4 s after the last one hands the seat over."""
    clock = waiting_clock(monkeypatch)
    with ann_and_bob(database, away_after=60, dice_seed=3) as (client, game, ann, bob):
        state = until(ann, lambda s: s["status"] == "playing" and s["seats"][0]["online"])
        began = clock.now
        for _ in range(absence_module.TURN_WAITS):
            clock.now += 59
            action = "roll" if "roll" in state["actions"] else state["actions"][0]
            ann.send_json({"type": "act", "action": action, "seq": state["seq"]})
            state = until(ann, lambda s, seq=state["seq"]: s["seq"] > seq)
            assert state["table"]["current"] == 0  # still her turn (these dice: no bust)
        clock.now = began + absence_module.TURN_WAITS * 60 - 1
        bob.send_json({"type": "vote", "seat": 0})
        refused(next_of(bob, "error"), "vote_seat_waiting", name="Ann", count=60)
        clock.now += 2  # 4 s after her last move, 181 s into her turn
        bob.send_json({"type": "vote", "seat": 0})
        handed = until(bob, lambda s: s["seats"][0]["away"])
        assert entries(handed, "away") == [
            {"type": "away", "seat": 0, "why": "vote", "bot": "medium"}
        ]


def test_a_move_ends_the_votes_against_who_kept_the_game_waiting(database, monkeypatch):
    """Ann kept the game waiting: Bob voted (one of the two votes needed), then Ann rolled.
    Her move ends Bob's vote: when she keeps the game waiting again, Cy's vote is one of
    two, not the second (the vote before would have handed her seat over)."""
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, {"seats": THREE, "start_player": 0})
        with (
            client.websocket_connect(socket_path(game, 0)) as ann,
            client.websocket_connect(socket_path(game, 1)) as bob,
            client.websocket_connect(socket_path(game, 2)) as cy,
        ):
            state = until(
                ann, lambda s: s["status"] == "playing" and all(x["online"] for x in s["seats"][:3])
            )
            clock.now += 61
            bob.send_json({"type": "vote", "seat": 0})
            voted = until(ann, lambda s: s["seats"][0]["votes"])
            assert voted["seats"][0]["votes"] == [1] and voted["seats"][0]["votes_needed"] == 2
            ann.send_json({"type": "act", "action": "roll", "seq": state["seq"]})
            rolled = until(ann, lambda s: s["seq"] > state["seq"])
            assert rolled["seats"][0]["votes"] == [] and not rolled["seats"][0]["waited_on"]
            clock.now += 61
            cy.send_json({"type": "vote", "seat": 0})
            again = until(ann, lambda s: s["seats"][0]["votes"] or s["seats"][0]["away"])
            assert again["seats"][0]["votes"] == [2] and not again["seats"][0]["away"]
            assert not entries(still(bob), "away")


def test_a_person_here_with_time_on_their_clock_cannot_be_voted_away(database, monkeypatch):
    """In a game with a clock, the clock ends a wait: a person here with time left keeps
    their seat however long the others wait."""
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database, away_after=60)) as client:
        spec = {"seats": ANN_BOB, "start_player": 0, "clock": {"per_turn": 3600}}
        game = create(client, spec)
        with (
            client.websocket_connect(socket_path(game, 0)),
            client.websocket_connect(socket_path(game, 1)) as bob,
        ):
            until(bob, lambda s: s["status"] == "playing" and s["seats"][0]["online"])
            clock.now += 600
            bob.send_json({"type": "vote", "seat": 0})
            refused(next_of(bob, "error"), "vote_seat_online", name="Ann")
            assert not still(bob)["seats"][0]["waited_on"]


def voted_away(client: TestClient, game: dict, bob, clock: WallClock) -> dict:
    """Ann has kept the game waiting ``away_after`` seconds (60): Bob's vote hands her seat
    to the bot; the state that says so."""
    clock.now += 61
    bob.send_json({"type": "vote", "seat": 0})
    return until(bob, lambda s: s["seats"][0]["away"])


def test_who_kept_the_game_waiting_takes_the_seat_back_once_the_turn_is_over(database, monkeypatch):
    """An audit: voted away for keeping the game waiting, Ann came back at once (her page
    does so when reloaded), before the bot's first step, and her wait began again: the game
    never moved. The bot plays the rest of that turn; "back" is hers once it is over."""
    clock = waiting_clock(monkeypatch)
    with ann_and_bob(database, bot_delay=0.3, away_after=60) as (client, game, ann, bob):
        until(bob, lambda s: s["status"] == "playing" and s["seats"][0]["online"])
        voted_away(client, game, bob, clock)
        until(ann, lambda s: s["seats"][0]["away"])
        ann.send_json({"type": "back"})
        refused(next_of(ann, "error"), "back_after_turn", bot="medium")
        over = until(ann, lambda s: s["table"]["turn"] == 2)  # the bot ended her turn
        assert over["seats"][0]["away"] and over["table"]["current"] == 1
        ann.send_json({"type": "back"})
        until(ann, lambda s: not s["seats"][0]["away"])


def test_moving_the_seat_to_another_device_does_not_start_the_wait_again(database, monkeypatch):
    """An audit: Ann moved her seat to "another device" every 100 s and was never waited
    on long enough: the seat's new secret started the wait again. Her holder is the same
    person: the wait goes on."""
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        path = f"/api/games/{game['id']}"
        with client.websocket_connect(socket_path(game, 1)) as bob:
            until(bob, lambda s: s["status"] == "playing")
            with client.websocket_connect(socket_path(game, 0)):
                hears(bob, 0)  # a presence message: waiting for a state took a minute
                clock.now += 50
                secret = game["seats"][0]["link"].split("token=")[1]
                moved = client.post(f"{path}/transfer", headers={"Seat-Token": secret})
                assert moved.status_code == 200, moved.text
                link = moved.json()["link"]
            with client.websocket_connect(link.replace("/games/", "/ws/games/", 1)) as again:
                until(again, lambda s: s["seats"][0]["online"])
                clock.now += 20  # 70 s since her turn began, 20 since her seat moved
                bob.send_json({"type": "vote", "seat": 0})
                handed = until(bob, lambda s: s["seats"][0]["away"])
                assert entries(handed, "away")[0]["why"] == "vote"


def test_nobody_waits_while_nobody_else_is_here(database, monkeypatch):
    """An audit: Bob left, Ann waited ten minutes for him on her turn; back, his vote alone
    handed her seat over at once (and her page told her she kept the game waiting). The
    wait begins when somebody else is here to wait."""
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        with client.websocket_connect(socket_path(game, 0)) as ann:
            with client.websocket_connect(socket_path(game, 1)) as bob:
                until(bob, lambda s: s["status"] == "playing")
            hears(ann, 1, online=False)
            clock.now += 600
            assert not still(ann)["seats"][0]["waited_on"]  # a reviewer: she was told so
            with client.websocket_connect(socket_path(game, 1)) as bob:
                back = until(bob, lambda s: s["seats"][0]["online"])
                assert not back["seats"][0]["waited_on"]
                bob.send_json({"type": "vote", "seat": 0})
                refused(next_of(bob, "error"), "vote_seat_waiting", name="Ann", count=60)
                voted_away(client, game, bob, clock)  # waited on as long since he came


def test_a_voter_s_page_reloading_does_not_start_the_wait_again(database, monkeypatch):
    """An audit (three processes): Bob reloaded his page as Ann's wait ripened, and his
    vote was refused: nobody else being there for the moment of the reload had started the
    whole wait again (120 s by default, at every reload or phone lock). A moment alone is
    not the others leaving; a long one still is (the test above)."""
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database, away_after=60)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 0})
        with client.websocket_connect(socket_path(game, 0)) as ann:
            with client.websocket_connect(socket_path(game, 1)) as bob:
                until(bob, lambda s: s["status"] == "playing" and s["seats"][0]["online"])
                clock.now += 50
            hears(ann, 1, online=False)  # Bob's page reloads: gone for a moment
            clock.now += 5
            with client.websocket_connect(socket_path(game, 1)) as bob:
                until(bob, lambda s: s["seats"][1]["online"])
                clock.now += 6  # 61 s since the wait began, 5 of them alone
                bob.send_json({"type": "vote", "seat": 0})
                while (answer := bob.receive_json())["type"] != "error":  # not refused:
                    seats = answer.get("set", answer).get("seats")  # a state, or a change
                    if seats and seats[0]["away"]:
                        break  # handed over
                assert answer["type"] != "error", answer


def test_the_others_are_shown_who_keeps_the_game_waiting_as_the_wait_ripens(database):
    """Nobody comes or goes and nothing moves: the wait's alarm tells both that Ann has kept
    the game waiting ``away_after`` seconds (0.2 here); her move ends it."""
    with ann_and_bob(database, away_after=0.2) as (client, game, ann, bob):
        waited = until(bob, lambda s: s["seats"][0]["waited_on"])
        assert not waited["seats"][1]["waited_on"] and waited["seats"][0]["votes_needed"] == 1
        mine = until(ann, lambda s: s["seats"][0]["waited_on"])
        ann.send_json({"type": "act", "action": "roll", "seq": mine["seq"]})
        rolled = until(bob, lambda s: s["seq"] > mine["seq"])
        assert not rolled["seats"][0]["waited_on"]


def test_once_a_person_has_been_gone_long_enough_a_majority_of_those_present_suffices(database):
    """Four people; Dan left. Ann's vote is one of the three the game's four need; once Dan
    has been gone ``away_after`` seconds, two of the three present suffice (the state says
    so as the wait ends), and Bob's vote hands Dan's seat over."""
    four = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}, {"name": "Dan"}]
    with TestClient(app(database, away_after=0.2)) as client:
        game = create(client, {"seats": four, "start_player": 0})
        claim(client, game, 1, 2, 3)
        with (
            client.websocket_connect(socket_path(game, 1)) as bob,
            client.websocket_connect(socket_path(game, 2)),
            client.websocket_connect(socket_path(game, 0)) as ann,
        ):
            until(ann, lambda s: s["seats"][1]["online"] and s["seats"][2]["online"])
            ann.send_json({"type": "vote", "seat": 3})
            fewer = until(ann, lambda s: s["seats"][3]["votes_needed"] == 2)
            assert fewer["seats"][3]["votes"] == [0] and not fewer["seats"][3]["away"]
            bob.send_json({"type": "vote", "seat": 3})
            handed = until(ann, lambda s: s["seats"][3]["away"])
            assert entries(handed, "away")[0] == {
                "type": "away",
                "seat": 3,
                "why": "vote",
                "bot": "medium",
            }


@pytest.mark.parametrize("clock", [{"per_turn": 600}, {"bank": 600, "increment": 30}])
def test_away_and_back_in_the_same_turn_gives_no_time(database, clock):
    """Ann's clock runs; she leaves, Bob comes and waits for her, so she is marked away
    ``away_after`` seconds later; she takes her seat back in the same turn: her clock goes
    on from what was left (the time she was gone is spent), never from a new turn's."""
    with TestClient(app(database, away_after=0.2)) as client:
        game = create(client, {"seats": ANN_BOB, "clock": clock, "start_player": 0})
        with client.websocket_connect(socket_path(game, 0)) as ann:
            claim(client, game, 1)  # Bob takes his seat while Ann is here: her clock starts
            first = until(ann, lambda s: s["status"] == "playing")
        with client.websocket_connect(socket_path(game, 1)) as bob:  # Bob waits for Ann
            until(bob, lambda s: s["seats"][0]["away"])
            with client.websocket_connect(socket_path(game, 0)) as ann:
                until(ann, lambda s: True)
                ann.send_json({"type": "back"})
                back = until(ann, lambda s: not s["seats"][0]["away"])
        assert back["clock"]["seat"] == 0 and back["table"]["turn"] == 1
        # Gone 0.2 s at least (the away alarm may ring a moment early: 0.1 s is ample).
        left_before = first["clock"]["deadline"] - first["now"]
        assert back["clock"]["deadline"] - back["now"] <= left_before - 0.1


# ------------------------------------------------------------------ absence
def test_a_person_disconnected_on_their_turn_is_away_while_others_wait(database):
    with TestClient(app(database, away_after=0.2)) as client:
        game = create(client, {"seats": ANN_BOB, "start_player": 1})
        claim(client, game, 1)  # Bob took his seat, and is gone
        room = client.app.state.rooms.rooms[game["id"]]
        assert room.alarms.away.when is None  # nobody waits for Bob: no alarm
        with client.websocket_connect(socket_path(game, 0)) as ann:
            away = until(ann, lambda s: s["seats"][1]["away"])
            assert entries(away, "away") == [
                {"type": "away", "seat": 1, "why": "absent", "bot": "medium"}
            ]
            assert away["seats"][1]["stand_in"] and away["table"]["current"] == 1


def test_a_person_taking_the_seat_back_while_the_bot_thinks_drops_the_bots_step(
    database, monkeypatch
):
    """The bot's step is thought out on a copy of the state in a worker thread; the person
    takes the seat back meanwhile: the step is dropped, and the person's move is played."""
    thinking, go_on = threading.Event(), threading.Event()
    real_next_step = session_module.next_step

    def slow_next_step(*args):
        thinking.set()
        go_on.wait(30)
        return real_next_step(*args)

    monkeypatch.setattr(session_module, "next_step", slow_next_step)
    try:
        with TestClient(app(database, bot_delay=0, away_after=0.2)) as client:
            game = create(client, {"seats": ANN_BOB, "start_player": 1})
            claim(client, game, 1)
            with client.websocket_connect(socket_path(game, 0)) as ann:
                until(ann, lambda s: s["status"] == "playing")
                ann.send_json({"type": "vote", "seat": 1})
                until(ann, lambda s: s["seats"][1]["away"])
                assert thinking.wait(30)  # the bot is thinking out Bob's roll
                with client.websocket_connect(socket_path(game, 1)) as bob:
                    until(bob, lambda s: True)
                    bob.send_json({"type": "back"})
                    back = until(bob, lambda s: not s["seats"][1]["away"])
                    go_on.set()  # the bot's roll comes now: too late
                    bots = client.app.state.rooms.rooms[game["id"]].bots.task
                    wait_until(bots.done, "the bot's step is over")
                    bob.send_json({"type": "sync"})
                    assert until(bob, lambda s: True)["seq"] == back["seq"] == 0  # dropped
                    bob.send_json({"type": "act", "action": "roll", "seq": 0})
                    rolled = follow(bob, bob.receive_json())  # Bob's roll, not a refusal
                    while rolled["type"] == "presence" or rolled.get("seq") == 0:  # Ann's dot,
                        rolled = follow(bob, bob.receive_json())  # or that he keeps her waiting
                    assert (rolled["type"], rolled["seq"], rolled["table"]["current"]) == (
                        "state",
                        1,
                        1,
                    )
                    assert rolled["actions"] and rolled["actions"] != ["roll"]  # Bob keeps
    finally:
        go_on.set()


def test_an_alarm_that_rang_a_moment_early_rings_again_when_set_to_its_time_again():
    """The event loop's clock is not the wall clock (uvloop's timers ring up to a
    millisecond early): a clock's alarm may ring just before its deadline, and the room then
    sets it to the same deadline again, which must ring again (else the turn never ends)."""

    async def rings_twice() -> list[float]:
        rang: list[float] = []
        again = asyncio.Event()

        def ring() -> None:
            rang.append(time.time())
            if len(rang) == 1:
                alarm.set(deadline)  # "not yet": the same time again
            else:
                again.set()

        alarm = Alarm(ring)
        deadline = time.time() + 0.01
        alarm.set(deadline)
        await asyncio.wait_for(again.wait(), 10)
        return rang

    assert len(asyncio.run(rings_twice())) == 2


# ------------------------------------------------------------------ restarts
def test_a_restart_keeps_the_deadline_the_away_seats_and_the_votes(database):
    with TestClient(app(database)) as client:
        game = create(client, {"seats": THREE, "clock": {"per_turn": 600}})
        claim(client, game, 1, 2)
        with client.websocket_connect(socket_path(game, 1)) as bob:
            hears(bob, 1)
            with client.websocket_connect(socket_path(game, 0)) as ann:
                hears(ann, 1)
                ann.send_json({"type": "vote", "seat": 2})  # one of two
                before = until(ann, lambda s: s["seats"][2]["votes"])
            # Ann leaves first: her vote no longer counts, and is kept.
    with TestClient(app(database)) as client:
        with client.websocket_connect(socket_path(game, None)) as watcher:  # changes nothing
            after = until(watcher, lambda s: True)
            assert after["clock"] == before["clock"] and after["clock"]["seat"] == 0
            assert after["seats"][2]["votes"] == [0] and after["full_log"] == before["full_log"]
        # Ann comes back first, alone: a restart never makes her vote a majority.
        with client.websocket_connect(socket_path(game, 0)) as ann:
            until(ann, lambda s: True)
            assert still(ann)["seats"][2] == after["seats"][2]  # Ann's vote waits
            with client.websocket_connect(socket_path(game, 1)) as bob:
                hears(ann, 1)
                bob.send_json({"type": "vote", "seat": 2})  # two of the game's three
                assert entries(until(ann, lambda s: s["seats"][2]["away"]), "away")[0]["seat"] == 2


def test_a_deadline_that_passed_while_the_server_was_down_runs_out_at_the_start(database):
    with TestClient(app(database)) as client:
        game = create(client, {"seats": ANN_ROBO, "clock": {"per_turn": 600}})
    store = Store(database)
    try:
        seating = json.loads(store.load(game["id"]).seating)
        seating["deadline"] = time.time() - 1  # as if the server had been down 10 minutes
        store.change_seating(game["id"], lambda stored: (json.dumps(seating), []))
    finally:
        store.close()
    with TestClient(app(database)) as client, client.websocket_connect(socket_path(game, 0)) as ann:
        out = until(ann, lambda s: entries(s, "timeout"))
        assert out["seats"][0]["stand_in"] and out["actions"] == []
        assert out["full_log"][:2] == [
            {"type": "turn", "turn": 1, "seat": 0},
            {"type": "timeout", "seat": 0, "turn": 1, "bot": "medium"},
        ]


def test_an_alarm_put_later_rings_once_at_the_later_time_and_one_put_earlier_at_the_earlier():
    """The wait's alarm moves on at every move: a time put later keeps the handle of the
    earlier one, which must then set itself again rather than ring early; a time put earlier
    must ring then; one put later and then cancelled never rings (another alarm, set after
    both times, is what the test waits for)."""

    async def rings() -> dict[str, list[float]]:
        rang: dict[str, list[float]] = {"later": [], "earlier": [], "cancelled": [], "end": []}
        done = asyncio.Event()
        alarms = {name: Alarm(lambda name=name: rang[name].append(time.time())) for name in rang}
        alarms["end"].ring = lambda: (rang["end"].append(time.time()), done.set())
        now = time.time()
        alarms["later"].set(now + 0.02)
        alarms["later"].set(now + 0.06)
        alarms["later"].set(now + 0.15)  # later again, before its first handle rang
        alarms["earlier"].set(now + 30)
        alarms["earlier"].set(now + 0.05)
        alarms["cancelled"].set(now + 0.02)
        alarms["cancelled"].set(now + 0.08)
        alarms["cancelled"].cancel()
        alarms["end"].set(now + 0.3)
        await asyncio.wait_for(done.wait(), 10)
        return {"now": [now], **rang}

    rang = asyncio.run(rings())
    now = rang["now"][0]
    early = 0.005  # the event loop's clock may ring a moment before the wall clock's time
    assert len(rang["later"]) == 1 and rang["later"][0] >= now + 0.15 - early
    assert len(rang["earlier"]) == 1 and rang["earlier"][0] < now + 30
    assert rang["cancelled"] == []
