"""Games stored before the server spoke data: their header's meta holds the final result as
an English sentence (``result``) and no ``ranking``. They still load, replay and list; a
game finished now stores its ranking as data and no sentence (on SQLite and PostgreSQL)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord
from pickomino.core.events import log_entries, standing_dict
from pickomino.table import SeededDice, advance
from pickomino.web import create_app
from pickomino.web.db.store import Store, StoredSeat

from .clients import next_of
from .wire import check_message

#: What older versions kept in ``meta.result``.
OLD_RESULT = "1. Robo: 7 worms\n2. Ann: 3 worms"


def bots_game() -> Game:
    """A whole game of two bots, as the engine plays it."""
    game = Game(["Ann", "Robo"])
    advance(game, [make_bot("medium"), make_bot("medium", 1)], SeededDice(5))
    assert game.state.is_over
    return game


def store_old_game(database: str, game_id: str, moves: list[str], status: str) -> None:
    """A game as an older version stored it: its header's meta with the English result."""
    record = GameRecord(seats=["Ann", "Robo"])
    record.meta = {"seed": 7, "bots": ["medium", "medium"], "result": OLD_RESULT}
    header = record.to_json(indent=None)
    rows = [StoredSeat(0, "Ann", "medium", None, True), StoredSeat(1, "Robo", "medium", None, True)]
    store = Store(database)
    try:
        store.create_game(game_id, header, rows)
        store.append_moves(game_id, 0, moves)
        store.set_status(game_id, status, header)
    finally:
        store.close()


def stored_meta(database: str, game_id: str) -> dict:
    store = Store(database)
    try:
        stored = store.load(game_id)
        assert stored is not None
        return json.loads(stored.header)["meta"]
    finally:
        store.close()


def test_a_game_finished_by_an_older_version_loads_replays_and_lists(database):
    game = bots_game()
    store_old_game(database, "oldGame", game.record.moves, "over")
    with TestClient(create_app(database, bot_delay=0)) as client:
        [listed] = client.get("/api/games").json()
        assert (listed["id"], listed["status"]) == ("oldGame", "over")
        assert listed["ranking"] is None and listed["tie_break"] is None  # none was kept
        assert "result" not in listed
        record = client.get("/api/games/oldGame/record").json()
        replayed = Game.from_record(GameRecord.from_dict(record))
        assert replayed.state.is_over and replayed.record.moves == game.record.moves
        ranking = [standing_dict(standing) for standing in game.state.ranking()]
        frames = client.get("/api/games/oldGame/replay").json()["frames"]
        assert frames[-1]["table"]["ranking"] == ranking
        with client.websocket_connect("/ws/games/oldGame") as watcher:
            state = next_of(watcher, "state")
        assert state.pop("full_log") == state["log"] == log_entries(game.history)
        assert state["table"]["ranking"] == ranking
        check_message(state, {"Ann", "Robo", "oldGame"})  # the old sentence is not sent


def test_an_older_game_finished_now_keeps_its_ranking_as_data(database):
    game = bots_game()
    unfinished = game.record.moves[: len(game.record.moves) // 2]
    store_old_game(database, "oldGame", unfinished, "playing")
    with TestClient(create_app(database, bot_delay=0)) as client:  # the bots play on
        with client.websocket_connect("/ws/games/oldGame") as watcher:
            while not (state := next_of(watcher, "state"))["table"]["over"]:
                pass
        [listed] = client.get("/api/games").json()
    meta = stored_meta(database, "oldGame")
    assert "result" not in meta  # the sentence is gone, the ranking is data
    assert meta["ranking"] == listed["ranking"] == state["table"]["ranking"]
    assert meta["tie_break"] == listed["tie_break"] == state["table"]["tie_break"]
    assert (meta["seed"], meta["bots"]) == (7, ["medium", "medium"])  # the rest is kept
