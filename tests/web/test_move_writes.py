"""The moves of one pass of the event loop are stored in one transaction, each action's
outcome its own (:mod:`pickomino.web.db.move_writes`), on a real database: SQLite's own
trace counts the commits; a game the database refuses is a real foreign-key error."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator

import psycopg
import pytest
import sqlalchemy as sa

from pickomino.core import GameRecord
from pickomino.web.api.games import room_finder
from pickomino.web.db.move_writes import GameMoves, StaleMoves
from pickomino.web.db.notices import CHANNEL, parse_notice
from pickomino.web.db.store import Store, StoredSeat
from pickomino.web.errors import Refused
from pickomino.web.game.room import Room
from pickomino.web.game.rooms import Rooms

HEADER = '{"seats": ["Ann", "Bob"]}'


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    store = Store(database)
    for game_id in ("a", "b", "c"):
        store.create_game(game_id, HEADER, [StoredSeat(0, "Ann", None, "t0")])
    yield store
    store.close()


def commits_seen(store: Store) -> list[str]:
    """Every ``COMMIT`` SQLite runs on the store's connections from now on, as SQLite's
    trace reports it (an SQLite file only)."""
    statements: list[str] = []
    store.engine.dispose()  # new connections, each traced
    sa.event.listen(
        store.engine,
        "connect",
        lambda connection, _record: connection.set_trace_callback(statements.append),
    )
    return statements


class Outcome:
    """What an action's ``kept`` and ``taken_back`` were told."""

    def __init__(self) -> None:
        self.kept = False
        self.error: Exception | None = None

    def keep(self) -> None:
        self.kept = True

    def take_back(self, error: Exception) -> BaseException:
        self.error = error
        return error


def in_one_pass(store: Store, *writes: tuple[str, int, list[str]] | GameMoves) -> list[object]:
    """Each write's outcome (``None``, or what it raised), all begun in one pass of the
    event loop (no ``await`` between them), as the actions of sockets read together are."""
    actions = [write if isinstance(write, GameMoves) else GameMoves(*write) for write in writes]

    async def run() -> list[object]:
        futures = [
            store.move_writes.at_tick_end(action, o.keep, o.take_back)
            for action, o in zip(actions, outcomes, strict=True)
        ]
        assert all(not future.done() for future in futures)  # stored after the pass, not now
        return await asyncio.gather(*futures, return_exceptions=True)

    outcomes = [Outcome() for _ in writes]
    results = asyncio.run(run())
    for outcome, result in zip(outcomes, results, strict=True):
        assert outcome.kept == (result is None)  # memory follows what was stored
        assert outcome.error is (None if result is None else result)
    return results


def stored(store: Store, game_id: str) -> list[str]:
    game = store.load(game_id)
    assert game is not None
    return game.moves


def test_the_moves_of_one_pass_are_stored_in_one_transaction(store, database):
    if not database.endswith(".sqlite3"):
        pytest.skip("the commits are counted by SQLite's trace")
    statements = commits_seen(store)
    assert in_one_pass(store, ("a", 0, ["roll"]), ("b", 0, ["roll"]), ("c", 0, ["roll"])) == [
        None,
        None,
        None,
    ]
    assert [s for s in statements if s.upper().startswith("COMMIT")] == ["COMMIT"]
    assert all(stored(store, game) == ["roll"] for game in "abc")


def test_moves_another_process_stored_first_fail_alone(store):
    store.append_moves("a", 0, ["roll"])  # the other process
    results = in_one_pass(store, ("a", 0, ["roll", "dice 11112222"]), ("b", 0, ["roll"]))
    assert isinstance(results[0], StaleMoves) and results[1] is None
    assert stored(store, "a") == ["roll"] and stored(store, "b") == ["roll"]


def test_moves_after_a_taken_number_leave_nothing_of_theirs(store):
    """The other process has move 1 but not 0 (it cannot, moves go in order; the write is
    made safe all the same): move 0 written first goes again when move 1 is found taken."""
    with store.engine.begin() as db:
        db.execute(sa.text("INSERT INTO moves (game_id, seq, move) VALUES ('a', 1, 'keep 2')"))
    results = in_one_pass(store, ("a", 0, ["roll", "dice 11112222"]), ("b", 0, ["roll"]))
    assert isinstance(results[0], StaleMoves) and results[1] is None
    with store.engine.connect() as db:
        rows = db.execute(sa.text("SELECT seq, move FROM moves WHERE game_id = 'a'")).all()
    assert [tuple(row) for row in rows] == [(1, "keep 2")]


def test_a_later_action_of_a_game_refused_in_the_pass_is_refused_too(store):
    """Its moves follow the refused ones: stored alone they would leave a gap."""
    store.append_moves("a", 0, ["roll"])
    results = in_one_pass(store, ("a", 0, ["roll"]), ("a", 1, ["dice 11112222"]))
    assert all(isinstance(result, StaleMoves) for result in results)
    assert stored(store, "a") == ["roll"]


def test_of_a_pass_only_the_actions_stored_are_announced_and_counted(store, database):
    """PostgreSQL's pass writes the notices and the games' turns as if every action were
    stored, in the round trip that writes the moves: a refused action's go back (here its
    number was taken by another process), the others' are sent and kept."""
    if not store.shared:
        pytest.skip("notices: a PostgreSQL database, which processes share")
    store.append_moves("a", 0, ["roll"])  # the other process
    with psycopg.connect(database, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        results = in_one_pass(
            store, GameMoves("a", 0, ["roll"], turns=7), GameMoves("b", 0, ["roll"], turns=3)
        )
        assert isinstance(results[0], StaleMoves) and results[1] is None
        with psycopg.connect(database, autocommit=True) as after:  # told after the pass's
            after.execute("SELECT pg_notify(%s, 'the end')", (CHANNEL,))  # (in commit order)
        told = []
        for notice in listener.notifies():
            if notice.payload == "the end":
                break
            told.append(parse_notice(notice.payload))
    assert [(one.game_id, one.seq, one.moves) for one in told] == [("b", 1, ("roll",))]
    with store.engine.connect() as db:
        turns = dict(db.execute(sa.text("SELECT id, turns FROM games")).all())
    assert turns["b"] == 3 and turns["a"] != 7


def test_a_transaction_the_database_refuses_is_tried_again_action_by_action(store):
    """A game the database does not have (its foreign key) fails the pass's transaction:
    the other actions are stored each alone, and only the faulty one is refused."""
    results = in_one_pass(store, ("a", 0, ["roll"]), ("ghost", 0, ["roll"]), ("b", 0, ["roll"]))
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], store.engine.dialect.loaded_dbapi.IntegrityError)
    assert stored(store, "a") == ["roll"] and stored(store, "b") == ["roll"]


def test_a_room_shows_nothing_before_it_is_stored(database):
    """An action's moves wait for the end of the pass. A socket arriving meanwhile gets the
    state once they are stored and told to the others (so it holds that version, and what
    follows comes as changes); so does one arriving after a page's look stored them, before
    the action told anyone."""
    store = Store(database)
    try:
        room = Room.create(
            store, GameRecord(["Ann", "Bob"], start_player=0), [None, None], 0, creator=0
        )
        room.claim(1)
        rooms = Rooms(store, bot_delay=0)
        rooms.add(room)
        sent: dict[str, list[dict]] = {"first": [], "second": [], "third": []}

        def spectator(name: str) -> Callable[[str], Awaitable[None]]:
            async def send(message: str) -> None:
                sent[name].append(json.loads(message))

            return send

        async def act_and_look() -> None:
            await room.connect(spectator("first"), None)
            entries = len(room.table_log.entries)
            acting = asyncio.ensure_future(room.act(0, "roll", 0))
            await asyncio.sleep(0)  # the action runs up to its wait for the pass's end
            assert room.seq == 1 and stored(store, room.id) == []
            assert len(room.table_log.entries) == entries  # the log waits for the store
            await room.connect(spectator("second"), None)  # a socket arrives meanwhile
            assert stored(store, room.id) == room.game.record.moves
            assert len(room.table_log.entries) > entries
            await acting
            keep = room.game.state.legal_actions()[0].name
            acting = asyncio.ensure_future(room.act(0, keep, 1))
            await asyncio.sleep(0)
            assert stored(store, room.id) == room.game.record.moves[:1]
            await room_finder(rooms)(room.id)  # a page's look stores it at once
            assert stored(store, room.id) == room.game.record.moves[:2]
            await room.connect(spectator("third"), None)  # before the action told anyone
            await acting

        asyncio.run(act_and_look())
        kinds = {name: [(m["type"], m.get("seq")) for m in got] for name, got in sent.items()}
        assert kinds == {
            "first": [("state", 0), ("change", None), ("change", None)],
            "second": [("state", 1), ("change", None)],
            "third": [("state", 2)],
        }
        assert sent["second"][0]["v"] == sent["first"][1]["v"]  # it holds the version sent
        assert sent["third"][0]["v"] == sent["first"][2]["v"]
    finally:
        store.close()


def test_a_move_that_cannot_be_stored_is_taken_back_before_anything_looks(database):
    store = Store(database)
    try:
        room = Room.create(
            store, GameRecord(["Ann", "Bob"], start_player=0), [None, None], 0, creator=0
        )
        room.claim(1)
        store.append_moves(room.id, 0, ["dice 11223345"])  # another process rolled first

        async def act() -> None:
            with pytest.raises(Refused) as refusal:
                await room.act(0, "roll", 0)
            assert refusal.value.code == "stale"

        asyncio.run(act())
        assert room.game.record.moves == stored(store, room.id)  # caught up on the other's
    finally:
        store.close()


def test_an_action_whose_follow_up_fails_does_not_stop_the_others(store):
    """What a game does once its moves are stored or refused raising (a bug, a failing
    write of its status) is raised to that action alone; the pass's others are settled."""
    store.append_moves("a", 0, ["roll"])  # another process: a's action is refused

    def broken(*_: object) -> BaseException:
        raise RuntimeError("the follow-up failed")

    async def run() -> list[object]:
        kept: list[str] = []
        writes = store.move_writes
        futures = [
            writes.at_tick_end(GameMoves("a", 0, ["roll"]), kept.clear, broken),
            writes.at_tick_end(GameMoves("b", 0, ["roll"]), broken, lambda e: e),
            writes.at_tick_end(GameMoves("c", 0, ["roll"]), lambda: kept.append("c"), broken),
        ]
        # (unsettled, they would wait for ever: a bound turns that into a failure)
        results = await asyncio.wait_for(asyncio.gather(*futures, return_exceptions=True), 30)
        assert kept == ["c"]
        return results

    refused, failed, fine = asyncio.run(run())
    assert isinstance(refused, RuntimeError) and isinstance(failed, RuntimeError)
    assert fine is None
    assert all(stored(store, game) == ["roll"] for game in "abc")


def test_a_game_s_second_action_in_a_pass_refused_leaves_the_first_stored(store):
    """(Not made by the server today: a game's action stores the one before it first.) The
    first action's moves and clock stay, the second alone is refused, on either database."""
    with store.engine.begin() as db:
        db.execute(sa.text("INSERT INTO moves (game_id, seq, move) VALUES ('a', 1, 'keep 2')"))

    async def run() -> list[object]:
        writes = store.move_writes
        futures = [
            writes.at_tick_end(
                GameMoves("a", 0, ["roll"], 1, '{"s": 1}'), lambda: None, lambda e: e
            ),
            writes.at_tick_end(GameMoves("a", 1, ["keep 3"]), lambda: None, lambda e: e),
        ]
        return await asyncio.gather(*futures, return_exceptions=True)

    first, second = asyncio.run(run())
    assert first is None and isinstance(second, StaleMoves)
    assert stored(store, "a") == ["roll", "keep 2"]
    game = store.load("a")
    assert game is not None and game.seating == '{"s": 1}'


def test_an_action_cancelled_while_its_moves_wait_is_stored_before_anyone_sees_it(database):
    """(A server stopping cancels its tasks.) A socket arriving still waits for the moves to
    be stored before it is shown them."""
    store = Store(database)
    try:
        room = Room.create(
            store, GameRecord(["Ann", "Bob"], start_player=0), [None, None], 0, creator=0
        )
        room.claim(1)
        shown: list[dict] = []

        async def spectator(message: str) -> None:
            shown.append(json.loads(message))
            assert stored(store, room.id) == room.game.record.moves  # stored before shown

        async def act_cancel_look() -> None:
            acting = asyncio.ensure_future(room.act(0, "roll", 0))
            await asyncio.sleep(0)
            acting.cancel()
            await room.connect(spectator, None)

        asyncio.run(act_cancel_look())
        assert [(m["type"], m["seq"]) for m in shown] == [("state", 1)]
    finally:
        store.close()
