"""A profile's accuracy over its last games (issue 27): a game with results is reviewed by
the server as it ends, or at the next start when a stop left it without a review, and each
seat's decisions, their cost and its luck join its results; the profile's page gives the
accuracy of its last games' decisions together. The app in process, on SQLite and PostgreSQL,
the store on its own."""

from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient

from pickomino.analysis import ACCURACY_SCALE
from pickomino.web import lifespan
from pickomino.web.db import player_pages
from pickomino.web.db.store import Store

from .clients import next_of, profile_store, socket_path
from .test_clocks import pick
from .test_profiles import as_profile, claim, finish_offline
from .test_protocol import fast_app

#: The API rounds a review's costs to 4 places: an accuracy recomputed from a game's rounded
#: cost is off by at most 100·e^(-c/n/s)·(0.00005/n/s), a relative 0.0025/n for n decisions.
CLOSE = 1e-3

AGAINST_A_BOT = {"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}]}


def play_to_the_end(ws) -> None:
    """Seat 0 plays as a quick player (:func:`pick`) whenever it is to move, until the game
    is over."""
    while not (state := next_of(ws, "state"))["table"]["over"]:
        if state["actions"] and state["table"]["current"] == 0:
            ws.send_json({"type": "act", "action": pick(state), "seq": state["seq"]})


def pooled(costs_and_counts: list[tuple[float, int]]) -> float:
    """The accuracy of several games' decisions together, from the formula in the docs."""
    cost = sum(cost for cost, _ in costs_and_counts)
    count = sum(count for _, count in costs_and_counts)
    return 100 * math.exp(-cost / count / ACCURACY_SCALE)


def test_a_profile_shows_the_accuracy_and_luck_of_its_reviewed_games(database):
    with TestClient(fast_app(database, review_results=True)) as client:
        ann = claim(client, "Ann")
        live = client.post("/api/games", json=AGAINST_A_BOT, headers=as_profile(ann)).json()
        with client.websocket_connect(socket_path(live, 0)) as ws:
            play_to_the_end(ws)
        # The server's own review of the game is under way: asking for it shares it, and a
        # review is kept with the results before anyone has it.
        reviews = [client.get(f"/api/games/{live['id']}/analysis").json()]
        page = client.get(f"/api/profiles/{ann['id']}").json()
        strangers = {"seats": [{"name": "Cy"}, {"name": "Robo", "bot": "easy"}]}
        stranger = client.post("/api/games", json=strangers).json()
        with client.websocket_connect(socket_path(stranger, 0)) as ws:
            play_to_the_end(ws)
        reviewed = list(client.app.state.reviews.computed)
        later = client.post("/api/games", json=AGAINST_A_BOT, headers=as_profile(ann)).json()
        with client.websocket_connect(socket_path(later, 0)) as ws:
            next_of(ws, "state")
    assert reviewed == [live["id"]]  # a game without results is reviewed only when asked
    own = reviews[0]["players"][0]
    (result,) = page["results"]
    assert result["accuracy"] == pytest.approx(own["accuracy"], rel=CLOSE)
    assert result["luck"] == pytest.approx(own["luck"])
    assert page["accuracy"] == {
        "value": pytest.approx(own["accuracy"], rel=CLOSE),
        "games": 1,
        "decisions": own["decisions"],
        "luck": pytest.approx(own["luck"]),
    }

    finish_offline(database, later)  # ended while no server ran: reviewed at the next start
    with TestClient(fast_app(database, review_results=True)) as client:
        reviews.append(client.get(f"/api/games/{later['id']}/analysis").json())
        page = client.get(f"/api/profiles/{ann['id']}").json()
        bot_page = client.get("/api/profiles/bot-easy").json()
        assert client.app.state.reviews.computed[0] == later["id"]  # by the start itself
    mine = [review["players"][0] for review in reviews]
    assert [row["accuracy"] for row in page["results"]] == [
        pytest.approx(account["accuracy"], rel=CLOSE) for account in mine
    ]
    together = pooled([(account["cost"], account["decisions"]) for account in mine])
    assert page["accuracy"]["value"] == pytest.approx(together, rel=CLOSE)
    low, high = sorted(account["accuracy"] for account in mine)
    assert low * (1 - CLOSE) <= page["accuracy"]["value"] <= high * (1 + CLOSE)
    assert page["accuracy"]["games"] == 2
    assert page["accuracy"]["decisions"] == sum(account["decisions"] for account in mine)
    assert page["accuracy"]["luck"] == pytest.approx(sum(a["luck"] for a in mine) / 2)
    robo = [review["players"][1] for review in reviews]  # the bot level's rated games too
    assert bot_page["accuracy"]["decisions"] == sum(account["decisions"] for account in robo)


def test_the_accuracy_is_over_the_last_reviewed_games_and_a_review_is_kept_once(
    database, monkeypatch
):
    monkeypatch.setattr(player_pages, "ACCURACY_GAMES", 2)
    store = Store(database)
    profiles = profile_store(store)
    try:
        ann, _ = profiles.claim("Ann", "198.51.100.1")
        ranking = [{"seat": 0, "rank": 1, "worms": 3}, {"seat": 1, "rank": 2, "worms": 1}]
        # oldest first: (decisions, cost, luck) of Ann's seat, the last game not reviewed
        accounts = [(10, 0.5, 0.1), (20, 0.2, -0.3), (5, 0.0, 0.2), None]
        for n, account in enumerate(accounts):
            profiles.expect_results(f"g{n}")
            assert profiles.record(f"g{n}", {"profiles": [ann.id, None], "ranking": ranking}, 2)
            if account is not None:
                decisions, cost, luck = account
                players = [
                    {"seat": 0, "decisions": decisions, "cost": cost, "luck": luck},
                    {"seat": 1, "decisions": 7, "cost": 1.0, "luck": -luck},  # no results row
                ]
                assert profiles.note_review(f"g{n}", {"players": players}) == 1
        assert profiles.unreviewed() == ["g3"]
        again = {"players": [{"seat": 0, "decisions": 1, "cost": 9.0, "luck": 0.9}]}
        assert profiles.note_review("g1", again) == 0  # another process reviewed it too
        page = profiles.player(ann.id)
    finally:
        store.close()
    assert page is not None
    assert page["accuracy"] == {
        "value": pytest.approx(pooled([(0.0, 5), (0.2, 20)])),
        "games": 2,
        "decisions": 25,
        "luck": pytest.approx((0.2 - 0.3) / 2),
    }
    shown = [(row["accuracy"], row["luck"]) for row in page["results"]]  # oldest first
    assert shown == [
        (pytest.approx(pooled([(0.5, 10)])), 0.1),
        (pytest.approx(pooled([(0.2, 20)])), -0.3),
        (100.0, 0.2),
        (None, None),
    ]


def test_games_ending_faster_than_reviews_are_reviewed_at_the_next_start(database, monkeypatch):
    """And a server told not to review results (``--no-review-results``) reviews none."""
    with monkeypatch.context() as patch:
        patch.setattr(lifespan, "OWN_WAITING", 0)  # as if many reviews of the server's waited
        with TestClient(fast_app(database, review_results=True)) as client:
            ann = claim(client, "Ann")
            game = client.post("/api/games", json=AGAINST_A_BOT, headers=as_profile(ann)).json()
            with client.websocket_connect(socket_path(game, 0)) as ws:
                play_to_the_end(ws)
            page = client.get(f"/api/profiles/{ann['id']}").json()
            assert list(client.app.state.reviews.computed) == []
    assert page["games"] == 1 and page["accuracy"] is None
    assert page["results"][0]["accuracy"] is None
    with TestClient(fast_app(database, review_results=False)) as client:
        assert client.get(f"/api/profiles/{ann['id']}").json()["accuracy"] is None
        assert list(client.app.state.reviews.computed) == []  # not even at start
    with TestClient(fast_app(database, review_results=True)) as client:
        account = client.get(f"/api/games/{game['id']}/analysis").json()["players"][0]
        page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["accuracy"]["decisions"] == account["decisions"]
