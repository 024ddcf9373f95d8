"""``POST /api/positions/explore``, the Analysis's "what if" (issue 27 part 6): a choice
played from a decision's position has the chance the review lists for it; exploring on rolls
and chooses by the rules; a bad position or move is refused with the engine's reason."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from pickomino.analysis import review
from pickomino.bots import make_bot
from pickomino.core import Game, GameState, PickominoError, Rules
from pickomino.table import SeededDice, advance
from pickomino.web import create_app

from .clients import refused_http

EXPLORE = "/api/positions/explore"


@pytest.fixture
def client(database: str):
    """An app whose look-ups are not limited (the tests below explore many positions)."""
    with TestClient(create_app(database, bot_delay=0, new_games_per_minute=10_000)) as test_client:
        yield test_client


def played(bots: list[str], rules: str, seed: int) -> Game:
    game = Game(bots, Rules.preset(rules))
    advance(game, [make_bot(bot, seed + n) for n, bot in enumerate(bots)], SeededDice(seed))
    return game


@pytest.mark.parametrize(
    ("bots", "rules", "every"),
    [(["expected", "random"], "official", 9), (["simple", "random", "expected"], "short", 25)],
)
def test_a_choice_explored_has_the_chance_the_review_lists_for_it(client, bots, rules, every):
    game = played(bots, rules, 3)
    decisions = {d.move: d for d in review(game.record).decisions if not d.forced}
    replay = Game(bots, Rules.preset(rules))
    for number, move in enumerate(game.record.moves):
        decision = decisions.get(number)
        if decision is not None and number % every == 0:
            position = replay.state.to_text()
            for choice in decision.choices:
                answer = client.post(EXPLORE, json={"position": position, "move": choice.action})
                assert answer.status_code == 200, answer.text
                chances = answer.json()["chances"]
                assert chances[decision.seat] == pytest.approx(choice.value, abs=1e-12)
                assert sum(chances) == pytest.approx(1, abs=1e-9)
        replay.push(move)


def test_exploring_on_rolls_and_chooses_by_the_rules_until_the_turn_passes(client):
    start = client.post(EXPLORE, json={"position": GameState(2).to_text()}).json()
    assert start["phase"] == "roll" and start["choices"] == [] and start["dice_left"] == 8
    assert sum(start["chances"]) == pytest.approx(1)
    rolled = client.post(EXPLORE, json={"position": start["position"], "move": "dice 12334455"})
    rolled = rolled.json()
    assert rolled["phase"] == "keep" and rolled["roll"] == "12334455"
    wins = [choice["win"] for choice in rolled["choices"]]
    assert {c["action"] for c in rolled["choices"]} == {"keep 1", "keep 2", "keep 3", "keep 4",
                                                         "keep 5"}  # fmt: skip
    assert wins == sorted(wins, reverse=True) and rolled["chances"][0] == pytest.approx(wins[0])
    kept = client.post(EXPLORE, json={"position": rolled["position"], "move": "keep 5"}).json()
    assert kept["phase"] == "roll_or_stop" and (kept["kept"], kept["total"]) == ("55", 10)
    assert {c["action"] for c in kept["choices"]} == {"roll", "stop"}
    busted = client.post(EXPLORE, json={"position": kept["position"], "move": "stop"}).json()
    assert busted["current"] == 1 and busted["phase"] == "roll"  # no worm: Bob's turn (R9)


def test_a_bad_position_or_move_is_refused_with_the_engine_s_reason(client):
    for position, move in [("nonsense", None), (GameState(2).to_text(), "take 36"),
                           (GameState(2).to_text(), "dice 123")]:  # fmt: skip
        try:
            state = GameState.from_text(position)
            if move and move.startswith("dice "):
                state.apply_roll(move[5:])
            elif move:
                state.apply(move)
        except PickominoError as error:
            expected = error.to_dict()
        refused_http(client.post(EXPLORE, json={"position": position, "move": move}), 400,
                     expected["id"], expected["rule"])  # fmt: skip
    extra = client.post(EXPLORE, json={"position": GameState(2).to_text(), "seat": 1})
    assert extra.status_code == 422


def test_an_address_explores_as_often_as_it_may_look_games_up(database):
    with TestClient(create_app(database, bot_delay=0)) as client:
        codes = [client.post(EXPLORE, json={"position": "nonsense"}).status_code for _ in range(30)]
    assert codes[0] == 400 and codes[-1] == 429  # ten at once, then a few a second
