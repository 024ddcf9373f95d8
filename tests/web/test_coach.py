"""The coach over the WebSocket (``{"type": "coach"}``): for the player to move only, like a
hint; the values the game's review gives the choices (:class:`pickomino.analysis.TurnView`,
made at the turn's start), each choice's cost and label, and which choices bust at once."""

from __future__ import annotations

import asyncio
import random

import pytest
from fastapi.testclient import TestClient

from pickomino.analysis import TurnView, evaluator_for, label_of
from pickomino.core import Game, Rules
from pickomino.web import create_app
from pickomino.web.db.store import Store
from pickomino.web.game.advisor import Advisor

from .clients import create, next_of, refused, socket_path
from .test_analysis_api import bots_game
from .wire import check_message

ANN_AND_BOB = {"seats": [{"name": "Ann"}, {"name": "Bob"}], "start_player": 0}
#: Ann rolled and kept the fives: 10, no worm, six dice left.
NO_WORM = ["dice 12334455", "keep 5"]


def app(database: str):
    return create_app(database, bot_delay=0, message_rate=1000, new_games_per_minute=1e6)


def game_with_moves(database: str, moves: list[str], table: dict = ANN_AND_BOB) -> dict:
    """A game of Ann and Bob (or ``table``'s people, all seated) whose first ``moves`` were
    played (stored while no server ran: the next one replays them)."""
    with TestClient(app(database)) as client:
        game = create(client, table)
        for seat in range(1, len(table["seats"])):  # Bob (and the others) take their seats
            with client.websocket_connect(socket_path(game, seat)) as other:
                next_of(other, "welcome")  # and keep their new secrets
    if moves:
        store = Store(database)
        try:
            store.append_moves(game["id"], 0, moves)
        finally:
            store.close()
    return game


def coach(ws) -> dict:
    ws.send_json({"type": "coach"})
    message = next_of(ws, "coach")
    check_message(message, set())
    return message


def test_only_the_player_to_move_hears_the_coach(database):
    game = game_with_moves(database, NO_WORM)
    with (
        TestClient(app(database)) as client,
        client.websocket_connect(socket_path(game, 0)) as ann,
        client.websocket_connect(socket_path(game, 1)) as bob,
        client.websocket_connect(socket_path(game, None)) as watcher,
    ):
        for ws in (bob, watcher):
            next_of(ws, "state")
            ws.send_json({"type": "coach"})
            refused(next_of(ws, "error"), "coach_not_yours")
        assert next_of(ann, "state")["seq"] == 2
        assert [choice["action"] for choice in coach(ann)["choices"]] in (
            ["roll", "stop"],
            ["stop", "roll"],
        )


def test_the_coach_values_the_choices_as_the_review_does(database):
    game = game_with_moves(database, NO_WORM)
    with TestClient(app(database)) as client, client.websocket_connect(socket_path(game, 0)) as ann:
        next_of(ann, "state")
        advice = coach(ann)
        played = Game(["Ann", "Bob"], start_player=0)
        view = TurnView(played.state, evaluator_for(played.state))  # as a review makes it
        for move in NO_WORM:
            played.push(move)
        expected = {a.name: view.after(played.state, a)[0] for a in played.state.legal_actions()}
    assert advice["seq"] == 2 and advice["best"] == "roll"
    assert {c["action"]: c["value"] for c in advice["choices"]} == pytest.approx(expected)
    roll, stop = advice["choices"]
    assert roll["cost"] == 0 and roll["label"] == "best" and roll["busts"] is None
    assert stop["cost"] == pytest.approx(roll["value"] - stop["value"]) and stop["cost"] > 0
    stake = advice["choices"][0]["value"] - advice["choices"][-1]["value"]
    assert stop["label"] == label_of(stop["cost"], stake) and stop["busts"] == "no_worm"


def test_the_coach_labels_as_the_review_does_at_the_table_size(database):
    # At three, Ann kept a 5 and no worm at the start: stopping busts with nothing to return,
    # a cost the table's size makes a mistake where at two it would be an inaccuracy
    table = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "start_player": 0}
    game = game_with_moves(database, ["dice 25131444", "keep 5"], table)
    with TestClient(app(database)) as client, client.websocket_connect(socket_path(game, 0)) as ann:
        next_of(ann, "state")
        advice = coach(ann)
    stop = next(choice for choice in advice["choices"] if choice["action"] == "stop")
    stake = advice["choices"][0]["value"] - advice["choices"][-1]["value"]
    assert stop["label"] == label_of(stop["cost"], stake, players=3)
    assert label_of(stop["cost"], stake, players=3) != label_of(stop["cost"], stake, players=2)


def test_the_coach_follows_the_turn_and_keeps_quiet_when_there_is_no_choice(database):
    game = game_with_moves(database, [])
    with TestClient(app(database)) as client, client.websocket_connect(socket_path(game, 0)) as ann:
        next_of(ann, "state")
        assert coach(ann) == {"type": "coach", "seq": 0, "best": None, "choices": []}  # a roll
        ann.send_json({"type": "act", "action": "roll", "seq": 0})
        state = next_of(ann, "state")
        advice = coach(ann)
        assert advice["seq"] == 1
        assert sorted(c["action"] for c in advice["choices"]) == sorted(state["actions"])
        assert all(c["cost"] >= 0 for c in advice["choices"])
        assert advice["choices"][0]["cost"] == 0


def test_after_the_game_the_coach_has_nothing_to_say(database):
    finished = bots_game().record.moves
    game = game_with_moves(database, finished)
    with TestClient(app(database)) as client, client.websocket_connect(socket_path(game, 0)) as ann:
        assert next_of(ann, "state")["table"]["over"]
        assert coach(ann) == {"type": "coach", "seq": len(finished), "best": None, "choices": []}


def test_the_advisor_remembers_only_the_turn_being_played():
    """An audit: a game's advisor kept every position it had valued for the game's life (a
    seven-player game under other rules grew 100–500 MB of memory). At each turn it now holds
    what a fresh advisor asked about that turn alone holds."""
    game, rng = Game(["Ann", "Bob", "Cy"], rules=Rules.parse("bga")), random.Random(3)
    advisor = Advisor()

    def remembered(one: Advisor) -> int:
        planner = one._views.planner
        return len(planner._leaves) + len(planner._endings) + len(planner._memo)

    for _ in range(6):
        while game.state.is_chance():
            game.roll_random(rng)
        state = game.state
        asyncio.run(advisor.advice(state, 0))
        fresh = Advisor()
        asyncio.run(fresh.advice(state, 0))
        assert remembered(advisor) == remembered(fresh) > 0
        turn = state.turn
        while not game.state.is_over and game.state.turn == turn:  # the turn plays out
            if game.state.is_chance():
                game.roll_random(rng)
            else:
                game.play(rng.choice(game.state.legal_actions()))
