"""``GET /api/games/{id}/analysis``: the review of a finished game as data, refused for a
game that is missing or not over, computed without changing the record (an older version's
too), one at a time, kept in memory and shared by concurrent askers."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fastapi import HTTPException
from fastapi.testclient import TestClient

from pickomino.analysis import LABEL_NAMES, LABELS, review
from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord
from pickomino.table import SeededDice, advance
from pickomino.web import analysis_api, create_app
from pickomino.web.analysis_api import Reviews, verdict
from pickomino.web.store import SeatRow, Store

from .clients import refused_http
from .wire import words_in

OLD_WEB_GAME = Path(__file__).parents[1] / "data" / "record-web-before-i18n.json"
#: The rounding of the chances sent (4 places), summed over an account's five terms.
ROUNDING = 5e-4


def bots_game(seed: int = 5) -> Game:
    game = Game(["Ann", "Robo"])
    advance(game, [make_bot("medium", seed), make_bot("hard", seed)], SeededDice(seed))
    return game


def store_game(database: str, game_id: str, record: GameRecord, status: str) -> None:
    """A game in the database as the server keeps it (bots in every seat)."""
    bots = record.meta.get("bots") or ["medium"] * len(record.seats)
    rows = [SeatRow(n, name, bots[n] or "hard", None, True) for n, name in enumerate(record.seats)]
    header = json.dumps({**record.to_dict(), "moves": []})
    store = Store(database)
    try:
        store.create_game(game_id, header, rows)
        store.append_moves(game_id, 0, record.moves)
        store.set_status(game_id, status, header)
    finally:
        store.close()


@pytest.fixture
def client(database: str):
    with TestClient(create_app(database, bot_delay=0)) as test_client:
        yield test_client


def test_a_finished_game_is_reviewed_as_data(client, database):
    game = bots_game()
    store_game(database, "done", game.record, "over")
    answer = client.get("/api/games/done/analysis")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["seats"] == ["Ann", "Robo"]
    assert data["thresholds"] == dict(LABELS)
    assert words_in(data, {"Ann", "Robo"}) == []  # ids and numbers: the page words them

    moves = game.record.moves
    assert len(data["chances"]) == len(data["turns"]) == len(moves) + 1
    assert all(len(cs) == 2 and all(0 <= c <= 1 for c in cs) for cs in data["chances"])
    results = [player["result"] for player in data["players"]]
    assert data["chances"][-1] == results and sorted(results) in ([0, 1], [0.5, 0.5])

    for decision in data["decisions"]:
        choices = decision["choices"]
        assert decision["action"] == moves[decision["move"]]
        assert decision["label"] in LABEL_NAMES and decision["cost"] >= 0
        assert decision["forced"] == (len(choices) == 1)
        values = [choice["value"] for choice in choices]
        assert values == sorted(values, reverse=True)  # the best first
        chosen = next(c["value"] for c in choices if c["action"] == decision["action"])
        assert decision["cost"] == pytest.approx(values[0] - chosen, abs=2e-4)
        if decision["action"].startswith("keep "):  # kept from the roll shown
            assert decision["action"][-1] in decision["roll"]
        else:
            assert decision["roll"] == ""
        assert len(decision["kept"]) <= 8 and decision["total"] >= 0

    expected = review(game.record).to_dict()
    for player, exact in zip(data["players"], expected["players"], strict=True):  # type: ignore[arg-type]
        assert player["accuracy"] == pytest.approx(exact["accuracy"], abs=1e-3)
        assert player["labels"] == exact["labels"] and sum(player["labels"].values()) > 0
        assert player["verdict"] == verdict(player["luck"], player["skill"], player["others"])
        terms = player["skill"] + player["luck"] + player["others"] + player["drift"]
        assert player["result"] - player["start"] == pytest.approx(terms, abs=ROUNDING)


@pytest.mark.parametrize(
    ("luck", "skill", "others", "said"),
    [
        (0.40, -0.10, 0.05, "luck"),  # the dice moved the chance over twice as much
        (0.20, -0.05, -0.05, "luck"),  # exactly twice: still mostly luck
        (0.10, -0.15, 0.05, "skill"),
        (0.10, -0.05, 0.02, "both"),
        (0.0, 0.0, 0.0, "both"),  # nothing moved it
    ],
)
def test_a_result_is_said_to_be_mostly_luck_mostly_skill_or_both(luck, skill, others, said):
    assert verdict(luck, skill, others) == said


def test_analysing_changes_neither_the_record_nor_the_stored_game(client, database):
    game = bots_game(8)
    store_game(database, "done", game.record, "over")
    before = client.get("/api/games/done/record").json()
    assert client.get("/api/games/done/analysis").status_code == 200
    assert client.get("/api/games/done/record").json() == before
    store = Store(database)
    try:
        stored = store.load("done")
        assert stored is not None and stored.moves == game.record.moves
    finally:
        store.close()


def test_a_game_recorded_by_an_older_version_is_analysed(client, database):
    record = GameRecord.from_json(OLD_WEB_GAME.read_text())
    assert "result" in record.meta  # the English sentence older versions kept
    store_game(database, "oldGame", record, "over")
    data = client.get("/api/games/oldGame/analysis").json()
    assert data["seats"] == ["Ann", "Robo", "Cy"]
    assert len(data["chances"]) == len(record.moves) + 1
    assert sum(data["chances"][-1]) == pytest.approx(1)


def test_a_missing_or_unfinished_game_has_no_analysis(client, database):
    refused_http(client.get("/api/games/nothing/analysis"), 404, "no_game", id="nothing")
    game = bots_game()
    half = GameRecord(seats=game.seats, moves=game.record.moves[: len(game.record.moves) // 2])
    store_game(database, "halfway", half, "playing")
    store_game(database, "given_up", half, "abandoned")
    refused_http(client.get("/api/games/halfway/analysis"), 409, "game_not_over")
    refused_http(client.get("/api/games/given_up/analysis"), 409, "game_abandoned")


# --------------------------------------------------------------- the reviews kept
@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reviews computed (each a record's first seat), in place of the real ones."""
    computed: list[str] = []

    def review_data(record: GameRecord) -> dict:
        computed.append(record.seats[0])
        return {"seats": record.seats}

    monkeypatch.setattr(analysis_api, "review_data", review_data)
    return computed


def records(*names: str) -> dict[str, GameRecord]:
    return {name: GameRecord(seats=[name, "Robo"]) for name in names}


def test_concurrent_askers_share_one_review_and_later_ones_get_it_kept(counted):
    games = records("a", "b")

    async def ask() -> list[dict]:
        reviews = Reviews(per_minute=60)
        asked = [reviews.get(name, games[name], "1.2.3.4") for name in ("a", "a", "b", "a")]
        first = await asyncio.gather(*asked)
        return [*first, await reviews.get("b", games["b"], "1.2.3.4")]

    answers = asyncio.run(ask())
    assert [answer["seats"][0] for answer in answers] == ["a", "a", "b", "a", "b"]
    assert sorted(counted) == ["a", "b"]


def test_only_the_last_reviews_are_kept(counted):
    games = records("a", "b", "c")

    async def ask() -> None:
        reviews = Reviews(per_minute=60, kept=2)
        for name in ("a", "b", "a", "c", "a", "b"):  # b is the oldest when c comes
            await reviews.get(name, games[name], "1.2.3.4")

    asyncio.run(ask())
    assert counted == ["a", "b", "c", "b"]


def test_an_address_may_have_only_so_many_reviews_computed(counted):
    games = records(*"abcdefghijkl")

    async def ask() -> HTTPException:
        reviews = Reviews(per_minute=1)  # ten at once, then one a minute
        for name in "abcdefghij":
            await reviews.get(name, games[name], "1.2.3.4")
        await reviews.get("a", games["a"], "1.2.3.4")  # kept: free
        await reviews.get("k", games["k"], "5.6.7.8")  # another address
        with pytest.raises(HTTPException) as refusal:
            await reviews.get("l", games["l"], "1.2.3.4")
        return refusal.value

    refusal = asyncio.run(ask())
    assert refusal.status_code == 429 and refusal.detail["id"] == "too_many_analyses"
    assert len(counted) == 11
