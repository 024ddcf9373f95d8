"""A person who does not play their game gains nothing by it and escapes nothing (the web
audit's two rating findings): a seat a stand-in bot played for the most part counts as left
(last, whatever the bot achieved; its decisions not in the person's accuracy), and a rated
game abandoned unfinished counts every person in it as having left. The rules on a played
game's history, then the app in process on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic import command
from fastapi.testclient import TestClient

from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord
from pickomino.table import SeededDice, advance
from pickomino.web.db import migrations
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.results import counted_ranks
from pickomino.web.db.store import Store, TableEvent
from pickomino.web.game.stand_ins import (
    LEFT_SHARE,
    MOSTLY_SHARE,
    VOTE_GRACE,
    left_seats,
    stand_in_moves,
)

from .clients import age, next_of, profile_store, socket_path, stored_game
from .server_process import wait_until
from .test_abandon import WEEK, start_playing, statuses
from .test_clocks import app, pick, until
from .test_clocks import claim as open_links
from .test_profiles import as_profile, claim, engine_of, establish, from_address, home, sql, token
from .test_protocol import fast_app


def played_game(seed: int = 4) -> Game:
    game = Game(["Ann", "Bob", "Cy"])
    advance(game, [make_bot("simple", seed + n) for n in range(3)], SeededDice(seed))
    return game


def seat_moves(game: Game, seat: int) -> list[int]:
    return [number for number, (_, mover, _, _) in enumerate(game.history) if mover == seat]


def test_the_moves_a_stand_in_played_follow_from_the_timeouts_away_and_back():
    game = played_game()
    history = game.history
    bob = seat_moves(game, 1)
    turns = sorted({history[n][0] for n in bob})
    first_turn = [n for n in bob if history[n][0] == turns[0]]
    later_turn = [n for n in bob if history[n][0] == turns[2]]
    back_turn = [n for n in bob if history[n][0] == turns[4]]
    assert len(first_turn) >= 2 and len(back_turn) >= 1
    timed_out_at = first_turn[1]  # Bob's time ran out after his first move of his first turn
    events = [
        TableEvent(timed_out_at, {"type": "timeout", "seat": 1, "turn": turns[0], "bot": "easy"}),
        TableEvent(later_turn[0], {"type": "away", "seat": 1, "why": "absent", "bot": "easy"}),
        TableEvent(back_turn[0], {"type": "back", "seat": 1}),
    ]
    runs = stand_in_moves(history, events)
    by_bot = sorted(n for seat, first, end in runs for n in range(first, end))
    expected = [n for n in first_turn if n >= timed_out_at] + [
        n for n in bob if later_turn[0] <= n < back_turn[0]
    ]
    assert by_bot == expected
    assert all(seat == 1 for seat, _, _ in runs)
    # Runs are whole: no run ends where the next of the same seat starts.
    assert all(a[2] != b[1] or a[0] != b[0] for a, b in zip(runs, runs[1:], strict=False))


def test_a_person_left_when_the_stand_in_played_more_than_the_share_or_most_of_the_seat():
    game = played_game()
    ann = seat_moves(game, 0)
    # A history up to where Ann has made a multiple of 4 moves: a quarter and a half of them
    # are whole, so playing exactly the share is told from playing one move more.
    count = len(ann) - len(ann) % 4
    history = game.history[: ann[count - 1] + 1]
    people, away, back = [True, True, False], [True, False, False], [False, False, False]

    def by_bot(moves: int) -> list[list[int]]:
        return [[0, n, n + 1] for n in ann[:moves]]

    quarter, half = count // 4, count // 2
    assert quarter == LEFT_SHARE * count and half == MOSTLY_SHARE * count
    assert left_seats(history, by_bot(quarter), people, away) == []  # the share: still hers
    assert left_seats(history, by_bot(quarter + 1), people, away) == [0]
    assert left_seats(history, by_bot(quarter + 1), [False, True, False], away) == []  # a bot's
    # Back before the end: the audit's race (a dropped connection while the others played on
    # fast) gave the stand-in more than a quarter; who came back did not leave ...
    assert left_seats(history, by_bot(half), people, back) == []
    # ... unless the stand-in played most of the seat (back for the last decision, say).
    assert left_seats(history, by_bot(half + 1), people, back) == [0]


def test_a_stand_in_the_others_voted_in_counts_only_for_an_absence_as_long_as_the_grace():
    """The audit's race, left over: a connection drops, the others (a majority of the game's
    people) vote a bot in at once and race it through Ann's last third before she is back:
    she was away at the end and the bot played more than a quarter of her moves. A vote's
    stand-in now counts only for an absence of VOTE_GRACE seconds or more."""
    game = played_game()
    ann = seat_moves(game, 0)
    history, gone = game.history, ann[len(ann) * 2 // 3]  # the bot plays her last third
    people, away, back = [True, True, True], [True, False, False], [False, False, False]

    def left(why: str, at: float | None, end: float) -> list:
        """Who left when Ann was handed over so (``at``: since when she was gone, for a
        vote) until the end."""
        entry = {"type": "away", "seat": 0, "why": why, "bot": "easy"}
        events = [TableEvent(gone, entry if at is None else {**entry, "since": at})]
        counted = stand_in_moves(history, events, ended_at=end)
        return left_seats(history, counted, people, away)

    start = 1_000_000.0
    assert left("vote", start, start + VOTE_GRACE - 1) == []  # raced to the end: not left
    assert left("vote", start, start + VOTE_GRACE) == [0]  # gone as long: left
    assert left("absent", None, start + 1) == [0]  # no vote: her own absence, as before
    assert left("vote", None, start + 1) == [0]  # stored before votes kept their time
    # Back for her last move, the bot having played most of the seat: the same grace for
    # the absence, from the vote to her return (the game ended long after).
    vote = {"type": "away", "seat": 0, "why": "vote", "bot": "easy", "since": start}
    for returned, expected in ((start + 60, []), (start + VOTE_GRACE + 60, [0])):
        events = [
            TableEvent(ann[len(ann) // 3], vote),
            TableEvent(ann[-1], {"type": "back", "seat": 0, "at": returned}),
        ]
        counted = stand_in_moves(history, events, ended_at=start + 10 * VOTE_GRACE)
        assert left_seats(history, counted, people, back) == expected
        assert stand_in_moves(history, events)  # kept in the record all the same


def test_a_person_the_others_voted_away_and_raced_to_the_end_did_not_leave(database):
    """The race through the real vote: Ann's connection is gone, Bob and Cy (a majority)
    vote a bot in at once and race it to the end within seconds. The bot played her seat
    from then on (``stood_in``); she did not leave (``left``), as the grace asks."""
    spec = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "start_player": 1}
    with TestClient(app(database, bot_delay=0)) as client:
        game = client.post("/api/games", json=spec).json()
        open_links(client, game, 1, 2)  # Ann never connects after creating it
        with (
            client.websocket_connect(socket_path(game, 1)) as bob,
            client.websocket_connect(socket_path(game, 2)) as cy,
        ):
            sockets = {1: bob, 2: cy}
            until(bob, lambda s: s["status"] == "playing")
            for voter in sockets.values():
                voter.send_json({"type": "vote", "seat": 0})
            state = until(bob, lambda s: s["seats"][0]["away"])
            while state["status"] != "over":  # the two race: each move as soon as it may
                mover = state["table"]["current"]
                if mover in sockets and state["actions"]:
                    move = {"type": "act", "action": pick(state), "seq": state["seq"]}
                    sockets[mover].send_json(move)
                state = until(bob, lambda s, seq=state["seq"]: s["seq"] > seq)
        record = client.get(f"/api/games/{game['id']}/record").json()
    meta = record["meta"]
    assert any(seat == 0 for seat, _, _ in meta["stood_in"])  # the bot played for her
    assert "left" not in meta  # within two minutes of her going: no leaving


def test_who_left_ranks_after_the_others_and_only_an_unfinished_games_standings_order_them():
    ranking = [
        {"seat": 3, "rank": 1},
        {"seat": 1, "rank": 2},
        {"seat": 0, "rank": 2},
        {"seat": 2, "rank": 4},
    ]
    assert counted_ranks(ranking, set()) == {3: 1, 1: 2, 0: 2, 2: 4}
    # Two left a finished game: what their bots achieved does not order them.
    assert counted_ranks(ranking, {3, 0}) == {3: 3, 1: 1, 0: 3, 2: 2}
    assert counted_ranks(ranking, {0, 1, 2, 3}) == {3: 1, 1: 1, 0: 1, 2: 1}
    # An unfinished game they all left: the standings when they left order them.
    assert counted_ranks(ranking, {3, 0}, unfinished=True) == {3: 3, 1: 1, 0: 4, 2: 2}
    assert counted_ranks(ranking, {0, 1, 2, 3}, unfinished=True) == {3: 1, 1: 2, 0: 2, 2: 4}


def watch_to_the_end(client: TestClient, game: dict) -> dict:
    """A spectator's last state: the game over."""
    with client.websocket_connect(socket_path(game, None)) as ws:
        while (state := next_of(ws, "state"))["status"] != "over":
            pass
    return state


@pytest.mark.slow  # the bots play a whole game after two short clocks: 2–5 s
def test_a_profile_whose_game_a_stand_in_played_is_last_and_gains_nothing(database):
    """The audit: a rated game against bots with a clock and an expert stand-in, never
    opened: the stand-in played it all and the profile was rated on its play. (A stand-in
    plays only while somebody is at the table: here Bob, connected, who never moves.)"""
    with TestClient(app(database, bot_delay=0.001, review_results=True)) as client:
        ann, bob = claim(client, "Ann"), claim(client, "Bob")
        establish(engine_of(client), ann["id"])  # a player of standing: bots' ratings move
        spec = {
            "seats": [{"name": "A"}, {"name": "B"}, {"name": "R1", "bot": "easy"},
                      {"name": "R2", "bot": "easy"}],
            "rated": True, "clock": {"per_turn": 0.05}, "takeover": "expert",
        }  # fmt: skip
        at_anns, at_bobs = from_address(client, home("Ann")), from_address(client, home("Bob"))
        game = at_anns.post("/api/games", json=spec, headers=as_profile(ann)).json()
        taken = at_bobs.post(f"/api/games/{game['id']}/claim",
                             headers={"Seat-Token": token(game, 1), **as_profile(bob)})  # fmt: skip
        with at_bobs.websocket_connect(taken.json()["link"].replace("/games/", "/ws/games/")) as ws:
            while next_of(ws, "state")["status"] != "over":
                pass
        record = client.get(f"/api/games/{game['id']}/record").json()
        review = client.get(f"/api/games/{game['id']}/analysis").json()
        page = client.get(f"/api/profiles/{ann['id']}").json()
        board = {row["player"]: row for row in client.get("/api/leaderboard").json()}
    meta = record["meta"]
    assert meta["left"] == [0, 1]
    by_bot = sorted(n for seat, first, end in meta["stood_in"] if seat == 0
                    for n in range(first, end))  # fmt: skip
    assert by_bot == seat_moves_of(record, 0)  # her time ran out before her first move
    (result,) = page["results"]
    assert result["left"] and result["rank"] == 3 and result["rated"]
    assert page["win_share"] == 0
    # The stand-in's worms are not hers either (the record's ranking keeps the bot's).
    assert result["worms"] == 0 == page["mean_worms"]
    assert board[ann["id"]]["rating"]["mu"] < 25 < board["bot-easy"]["rating"]["mu"]
    # The bot's decisions are not hers: no accuracy from a game she did not play.
    bots_decisions = [d for d in review["decisions"] if d["seat"] == 0 and not d["forced"]]
    assert bots_decisions and result["accuracy"] is None and page["accuracy"] is None


def test_with_nobody_at_the_table_a_stand_in_waits_for_somebody(database):
    """An audit: games of a person and bots with a clock that nobody opened were played to
    their end by the stand-in, past the cap on games of bots alone. The stand-in plays only
    while somebody is at the table: the game rests on her turn, and goes on as she comes."""
    with TestClient(app(database, bot_delay=0.001)) as client:
        spec = {"seats": [{"name": "A"}, {"name": "R1", "bot": "easy"}], "start_player": 0,
                "clock": {"per_turn": 0.05}}  # fmt: skip
        game = client.post("/api/games", json=spec).json()
        wait_until(lambda: timed_out(database, game["id"]), "her time runs out")
        with client.websocket_connect(socket_path(game, None)) as watcher:  # watching is not
            state = next_of(watcher, "state")  # being at the table
        assert state["seq"] == 0 and state["table"]["current"] == 0  # resting on her turn
        assert stored_game(database, game["id"]).moves == []
        with client.websocket_connect(socket_path(game, 0)) as ann:  # she comes
            while not (state := next_of(ann, "state"))["seq"]:
                pass  # the stand-in plays the rest of her timed-out turn
    assert stored_game(database, game["id"]).moves


def timed_out(database: str, game_id: str) -> bool:
    """Whether a clock of the game ran out (its table's log, as stored)."""
    store = Store(database)
    try:
        return any(event.entry["type"] == "timeout" for event in store.table_events(game_id))
    finally:
        store.close()


def seat_moves_of(record: dict, seat: int) -> list[int]:
    """The move numbers of ``seat``'s turns in a record (replayed)."""
    game = Game(record["seats"])
    numbers = []
    for number, move in enumerate(record["moves"]):
        if game.state.current == seat:
            numbers.append(number)
        game.push(move)
    return numbers


RATED_DUEL = {"seats": [{"name": "A"}, {"name": "Robo", "bot": "easy"}], "rated": True}


def test_a_rated_game_left_unfinished_counts_as_left_when_abandoned(database):
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        establish(engine_of(client), ann["id"])  # a player of standing: the bot's moves
        left = client.post("/api/games", json=RATED_DUEL, headers=as_profile(ann)).json()
        start_playing(client, left)  # a roll, and gone
        unplayed = {"seats": [{"name": "A"}, {"name": "B"}], "rated": True}
        never = client.post("/api/games", json=unplayed, headers=as_profile(ann)).json()
    for game in (left, never):
        age(database, game["id"], WEEK + 60)
    with TestClient(fast_app(database)) as client:  # abandoned at the start
        assert statuses(client) == {left["id"]: "abandoned"}  # never: nothing to replay
        assert stored_game(database, never["id"]).status == "abandoned"
        page = client.get(f"/api/profiles/{ann['id']}").json()
        robo = client.get("/api/profiles/bot-easy").json()
    (result,) = page["results"]  # the game nobody started has no results
    assert result["game"] == left["id"] and result["left"] and result["rated"]
    assert result["rank"] == 2 and page["win_share"] == 0
    assert page["rating"]["mu"] < 25 < robo["rating"]["mu"]
    store = Store(database)
    try:  # no review to wait for: it does not take a place among those made at a start
        assert profile_store(store).unreviewed() == []
    finally:
        store.close()


def test_an_idle_sweep_while_serving_reads_its_games_out_of_the_event_loop(database, games_read):
    """The results of a game the sweep abandons while the server serves are recorded from it
    read in a worker thread (it was replayed on the event loop: everybody's moves waited)."""
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        establish(engine_of(client), ann["id"])
        left = client.post("/api/games", json=RATED_DUEL, headers=as_profile(ann)).json()
        start_playing(client, left)  # a roll, and gone
        rooms = client.app.state.rooms
        assert client.portal.call(rooms.unload_dormant, 0) == [left["id"]]  # let go
        age(database, left["id"], WEEK + 60)
        assert client.portal.call(rooms.abandon_idle, WEEK) == [left["id"]]  # as the task does
        path = f"/api/profiles/{ann['id']}"
        page = wait_until(lambda: client.get(path).json()["results"] and client.get(path).json(),
                          "the results recorded")  # fmt: skip
    (result,) = page["results"]
    assert result["game"] == left["id"] and result["left"] and result["rank"] == 2
    assert games_read == ["in a worker thread, asyncio"]


def test_games_abandoned_before_this_version_are_not_scored_now(database):
    """The version before left an abandoned game pending until its next start forgot it: the
    upgrade forgets it too, rather than score a game abandoned under other rules."""
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        game = client.post("/api/games", json=RATED_DUEL, headers=as_profile(ann)).json()
        start_playing(client, game)
    sql(database, "UPDATE games SET status = 'abandoned' WHERE id = :id", id=game["id"])
    store = Store(database)
    try:
        with store.engine.begin() as db:
            command.downgrade(migrations.alembic_config(db), "0005")  # the version before
        migrations.upgrade(store.engine)
    finally:
        store.close()
    assert sql(database, "SELECT game_id FROM pending") == []
    with TestClient(fast_app(database)) as client:
        assert client.get(f"/api/profiles/{ann['id']}").json()["games"] == 0


def test_an_abandoned_game_a_stop_left_unscored_is_scored_at_the_next_start(database, monkeypatch):
    with TestClient(fast_app(database)) as client:
        ann = claim(client, "Ann")
        game = client.post("/api/games", json=RATED_DUEL, headers=as_profile(ann)).json()
        start_playing(client, game)
    age(database, game["id"], WEEK + 60)

    def crash(*args: object) -> None:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setattr(ProfileStore, "record", crash)
        with TestClient(fast_app(database)) as client:  # abandoned at the start
            assert statuses(client) == {game["id"]: "abandoned"}
            assert client.get(f"/api/profiles/{ann['id']}").json()["games"] == 0
    with TestClient(fast_app(database)) as client:
        page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["games"] == 1 and page["results"][0]["left"]


def test_between_people_who_all_left_an_unfinished_game_the_standings_decide(database):
    """The audit: both players of a rated duel gone, the game abandoned at nine tenths: it
    was counted a draw, so the one behind (and weaker) gained rating by leaving."""
    with TestClient(fast_app(database)) as client:
        ann, bob = claim(client, "Ann"), claim(client, "Bob")
        spec = {"seats": [{"name": "A"}, {"name": "B"}], "rated": True}
        at_anns = from_address(client, home("Ann"))  # two people, each at home
        game = at_anns.post("/api/games", json=spec, headers=as_profile(ann)).json()
        taken = from_address(client, home("Bob")).post(
            f"/api/games/{game['id']}/claim",
            headers={"Seat-Token": token(game, 1), **as_profile(bob)},
        )
        taken.raise_for_status()
    store = Store(database)
    try:  # nine tenths of a game, as if Ann and Bob played them
        stored = store.load(game["id"])
        played = Game.from_record(GameRecord.from_json(stored.header))
        advance(played, [make_bot("simple", 1), make_bot("simple", 2)], SeededDice(3))
        moves = played.record.moves[: len(played.record.moves) * 9 // 10]
        store.append_moves(game["id"], 0, moves)
    finally:
        store.close()
    left_at = Game.from_record(GameRecord.from_json(stored.header))
    for move in moves:
        left_at.push(move)
    (ahead, first), (behind, second) = ((s.seat, s.rank) for s in left_at.state.ranking())
    assert first < second  # one of them was ahead
    age(database, game["id"], WEEK + 60)
    with TestClient(fast_app(database)) as client:  # abandoned at the start
        pages = [client.get(f"/api/profiles/{p['id']}").json() for p in (ann, bob)]
    assert [pages[seat]["results"][0]["rank"] for seat in (ahead, behind)] == [1, 2]
    assert all(page["results"][0]["left"] and page["win_share"] == 0 for page in pages)
    assert pages[ahead]["rating"]["mu"] > 25 > pages[behind]["rating"]["mu"]
