"""Two apps on one PostgreSQL database, in this process: a notice of moves carries them, so
the other process plays them in without reading the database (issue 29, part 4); a notice
after one it missed makes it read what it lacks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from fastapi.testclient import TestClient

from pickomino.web.cluster import notify
from pickomino.web.db.notices import CHANNEL, NOT_A_MOVE, notice

from .clients import Reads, create, follow, next_of, refused, socket_path
from .server_process import TemporaryPostgres
from .test_analysis_api import bots_game, store_game
from .test_clocks import ANN_BOB, app, claim, hears, until, wait_until, waiting_clock
from .test_protocol import fast_app
from .test_rematch import finished, rematch, seat

pytestmark = pytest.mark.slow


def play_a_turn(ws, state: dict) -> dict:
    """Ann rolls, keeps and stops (a bust, or a tile): her turn ends. Each state after an
    action of hers is returned by ``until``."""
    turn = state["table"]["turn"]
    while state["table"]["turn"] == turn:
        action = "stop" if "stop" in state["actions"] else state["actions"][0]
        ws.send_json({"type": "act", "action": action, "seq": state["seq"]})
        seq = state["seq"]
        state = until(ws, lambda s, seq=seq: s["seq"] > seq)
    return state


@pytest.mark.parametrize("clock", [None, {"per_turn": 600}], ids=["untimed", "timed"])
def test_moves_a_notice_carries_are_played_in_without_reading_the_database(
    postgres_cluster: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch, clock: dict | None
):
    database = postgres_cluster.new_database()
    spec = {"seats": ANN_BOB, "start_player": 0} | ({"clock": clock} if clock else {})
    with TestClient(app(database)) as here, TestClient(app(database)) as there:
        game = create(here, spec)
        claim(here, game, 1)
        with (
            there.websocket_connect(socket_path(game, None)) as watcher,
            here.websocket_connect(socket_path(game, 0)) as ann,
        ):
            started = until(ann, lambda s: s["status"] == "playing")
            until(watcher, lambda s: s["status"] == "playing")
            reads = Reads(there.app.state.rooms.store, monkeypatch)
            ended = play_a_turn(ann, started)
            seen = until(watcher, lambda s: s["seq"] == ended["seq"])
            assert reads.made == []  # every move came with its notice
            assert seen["table"] == ended["table"] and seen["clock"] == ended["clock"]
            if clock:  # the clock moved to Bob with the turn's end: carried too
                assert seen["clock"]["seat"] == 1 != started["clock"]["seat"]

            # A notice after one this process missed: it reads what it lacks (nothing new).
            room = there.app.state.rooms.rooms[game["id"]]
            gap = notice("elsewhere", game["id"], room.seq + 2, ["keep 5"])
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, gap))
            wait_until(lambda: bool(reads.made), "the other process reads the moves it lacks")
            assert reads.made == (["load"] if clock else ["moves_from"])
            assert room.seq == ended["seq"]  # and plays in none that is not stored

            # A notice carrying a move the engine refuses (not of ours): the game is read.
            reads.made.clear()
            forged = notice("elsewhere", game["id"], room.seq + 1, ["keep 9"])
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, forged))
            wait_until(lambda: bool(reads.made), "the other process reads the stored game")
            assert reads.made == ["load"] and room.seq == ended["seq"]
            watcher.send_json({"type": "sync"})
            assert until(watcher, lambda s: True)["table"] == ended["table"]


def test_an_ended_game_only_looked_at_hears_that_another_process_changed_it(
    postgres_cluster: TemporaryPostgres,
):
    database = postgres_cluster.new_database()
    store_game(database, "done", bots_game().record, "over", humans=True)
    with TestClient(app(database)) as there:
        recent, room = there.app.state.rooms.recent, None
        for _ in range(5):  # (the listener's start forgets the recent ones: then look again)
            assert there.get("/api/games/done/record").status_code == 200
            looked = recent.get("done")
            if looked is None or looked.behind:
                continue
            changed = notice("elsewhere", "done", NOT_A_MOVE)  # a seat's secret, say
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, changed))
            wait_until(
                lambda looked=looked: looked.behind or "done" not in recent,
                "marked behind, or forgotten",
            )
            if looked.behind:
                room = looked
                break
        assert room is not None, "the notice reached the look's memory"
        assert there.get("/api/games/done/record").status_code == 200 and not room.behind


def test_a_vote_on_a_process_not_yet_told_of_a_move_is_judged_on_the_move(
    postgres_cluster: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch
):
    """An audit: Ann kept the game waiting, then rolled on one process; Bob's vote on the
    other, not yet told of her roll, took her seat (and her own roll counted as the bot's).
    A vote first reads the moves stored elsewhere: her roll ended the wait."""
    database = postgres_cluster.new_database()
    clock = waiting_clock(monkeypatch)
    with TestClient(app(database)) as here, TestClient(app(database)) as there:
        game = create(here, {"seats": ANN_BOB, "start_player": 0})
        claim(here, game, 1)
        with (
            there.websocket_connect(socket_path(game, 0)) as ann,
            here.websocket_connect(socket_path(game, 1)) as bob,
        ):
            started = until(ann, lambda s: s["status"] == "playing")
            hears(bob, 0)  # "here" knows Ann is connected (to "there"): a presence message
            clock.now += 121  # Ann has kept the game waiting --away-after (120 s)
            held: list[tuple[object, str, str]] = []
            deliver = notify.Listener._deliver

            async def held_back(listener, channel: str, payload: str) -> None:
                owner = getattr(listener.channels.get(channel), "__self__", None)
                if channel == CHANNEL and getattr(owner, "rooms", None) is here.app.state.rooms:
                    held.append((listener, channel, payload))  # "here" hears of no move
                    return  # (who is connected it still hears: that would expire)
                await deliver(listener, channel, payload)

            monkeypatch.setattr(notify.Listener, "_deliver", held_back)
            ann.send_json({"type": "act", "action": "roll", "seq": started["seq"]})
            until(ann, lambda s: s["seq"] > started["seq"])
            wait_until(lambda: bool(held), "the roll's notice reaches the other process")
            bob.send_json({"type": "vote", "seat": 0})
            while (answer := follow(bob, bob.receive_json()))["type"] != "error":
                assert not (answer["type"] == "state" and answer["seats"][0]["away"]), answer
            refused(answer, "vote_seat_waiting", name="Ann", count=120)


# ---------------------------------------------------------------- rematches
def test_a_rematch_offered_on_one_process_is_heard_and_started_on_another(
    postgres_cluster: TemporaryPostgres,
):
    """An audit (three processes): Ann's "Play again" was told only to the pages on her
    process: Bob's page on another never saw the offer, and once he accepted there, hers
    never heard that the new game had started (her seat in it waited for her)."""
    database = postgres_cluster.new_database()
    game = finished(database)
    with (
        TestClient(fast_app(database)) as here,
        TestClient(fast_app(database)) as there,
        here.websocket_connect(socket_path(game, 0)) as ann,
        there.websocket_connect(socket_path(game, 1)) as bob,
    ):
        next_of(ann, "state"), next_of(bob, "state")
        assert rematch(here, game, 0).json()["offer"]["status"] == "offered"
        heard = next_of(bob, "rematch")["offer"]  # told through the notice
        assert heard["status"] == "offered" and heard["waiting_for"] == [1] and heard["seat"] == 1
        accepted = rematch(there, game, 1).json()["offer"]
        assert accepted["status"] == "started"
        told = next_of(ann, "rematch")["offer"]
        while told["status"] == "offered":  # her own offer, told by her process first
            told = next_of(ann, "rematch")["offer"]
        assert told["status"] == "started" and told["game"] == accepted["game"]
        assert told["seat"] == 0 and told["token"]  # her seat's secret in the new game
        with here.websocket_connect(f"/ws/games/{told['game']}?token={told['token']}") as ws:
            assert next_of(ws, "welcome")["seat"] == 0


def test_play_again_clicked_at_once_on_two_processes_starts_one_game_without_an_error(
    postgres_cluster: TemporaryPostgres,
):
    """An audit: "Play again" on two processes at the same moment, each finding the offer
    complete, both started the new game: one click got a server error (the game created
    twice, or its seat taken by the other). Forced here: the games table is locked while
    both are on their way to create the game, then let go."""
    database = postgres_cluster.new_database()
    game = finished(database)
    with (
        TestClient(fast_app(database)) as here,
        TestClient(fast_app(database)) as there,
        psycopg.connect(database) as lock,
        ThreadPoolExecutor(2) as pool,
    ):
        assert rematch(here, game, 0).json()["offer"]["status"] == "offered"
        lock.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # reads go on, a new game waits
        bob = pool.submit(rematch, there, game, 1)  # the offer complete: he starts it
        with psycopg.connect(database, autocommit=True) as look:
            accepted = "SELECT accepted FROM rematches WHERE game_id = %s"
            wait_until(lambda: "1" in look.execute(accepted, (game["id"],)).fetchone()[0],
                       "Bob's acceptance is stored")  # fmt: skip
            ann = pool.submit(here.get, f"/api/games/{game['id']}/rematch", headers=seat(game, 0))
            waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            wait_until(lambda: look.execute(waiting).fetchone()[0] == 2,
                       "both processes wait to create the game")  # fmt: skip
        lock.commit()
        answers = [bob.result(), ann.result()]
        assert [answer.status_code for answer in answers] == [200, 200], answers[1].text
        offers = [answer.json()["offer"] for answer in answers]
        assert [offer["status"] for offer in offers] == ["started", "started"]
        assert offers[0]["game"] == offers[1]["game"]
        assert offers[0]["token"] and offers[1]["token"]  # each seat's secret in it
