"""Solo games in the offline app (:mod:`pickomino.offline.solo`, through
:mod:`pickomino.offline.answers` as the browser's worker asks), run here natively: set up and
refused as the forms are, played through the socket protocol's messages, stored as a record
the engine replays, and deterministic given the seed and the person's choices."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pickomino.bots import make_bot
from pickomino.core import Game
from pickomino.core.events import log_entries
from pickomino.offline.answers import answer, play
from pickomino.solver.advice import rank_choices, turn_outlook
from pickomino.table.view import replay_frames, table_view


def ask(method: str, path: str, body: dict | None = None, stored: str | None = None) -> dict:
    return json.loads(answer(method, path, json.dumps(body) if body is not None else None, stored))


def new_game(*bots: str, **spec: object) -> dict[str, Any]:
    seats = [{"name": " Ann "}, *({"name": f"Bot {n}", "bot": b} for n, b in enumerate(bots, 2))]
    reply = ask("POST", "/api/games", {"seats": seats, **spec})
    assert reply["status"] == 201, reply
    return reply


def send(stored: str, message: dict, shown: int = 0) -> tuple[list[dict], str]:
    """The messages answered, and the game as stored after them."""
    reply = json.loads(play(stored, json.dumps(message), shown))
    return reply["messages"], reply["keep"]["data"] if "keep" in reply else stored


def test_a_game_is_set_up_as_a_record_with_its_bots_and_seed():
    made = new_game("hard", "easy", rules="short", start_player="random", seed=11)
    keep = made["keep"]
    assert made["data"] == {"id": keep["id"], "link": f"play.html#{keep['id']}"}
    game = Game.from_json(keep["data"])  # what `pickomino play --resume` and analyse read
    assert game.record.seats == ["Ann", "Bot 2", "Bot 3"]  # the name trimmed
    assert game.record.meta == {"seed": 11, "bots": [None, "hard", "easy"], "id": keep["id"]}
    assert (
        game.record.start_player in range(3)
        and game.record.rules.to_dict() == (ask("GET", "/api/options")["data"]["presets"]["short"])
    )
    assert (keep["store"], keep["over"], keep["view"]["names"]) == (
        "games",
        False,
        ["Ann", "Bot 2", "Bot 3"],
    )


@pytest.mark.parametrize(
    ("seats", "status", "refusal"),
    [
        ([{"name": "Ann"}, {"name": "Bob"}], 400, "solo_one_person"),
        ([{"name": "A", "bot": "easy"}, {"name": "B", "bot": "hard"}], 400, "solo_one_person"),
        ([{"name": "Ann"}, {"name": "Robo", "bot": "expert"}], 400, "solo_bot"),
        ([{"name": "Ann"}, *({"name": f"B{n}", "bot": "easy"} for n in range(7))], 422, "too_long"),
        ([{"name": "Ann"}, {"name": "ann", "bot": "easy"}], 422, "same_name"),
        ([{"name": "Ann"}, {"name": "  ", "bot": "easy"}], 422, "string_too_short"),
        ("Ann", 422, "list_type"),
    ],
)
def test_a_game_the_form_cannot_set_up_is_refused_and_nothing_is_kept(seats, status, refusal):
    reply = ask("POST", "/api/games", {"seats": seats})
    assert reply["status"] == status and "keep" not in reply
    detail = reply["data"]["detail"]
    assert (detail["id"] if status == 400 else detail[0]["type"]) == refusal


def test_a_start_seat_that_is_no_seat_is_refused():
    reply = ask(
        "POST",
        "/api/games",
        {"seats": [{"name": "A"}, {"name": "B", "bot": "easy"}], "start_player": 2},
    )
    assert reply["status"] == 422 and reply["data"]["detail"][0]["type"] == "start_seat"


def person_choice(state: dict) -> str:
    """A quick person: the worms or the highest face, stop at 25 with a worm, else roll."""
    actions = state["actions"]
    keeps = [a for a in actions if a.startswith("keep ")]
    if keeps:
        return "keep W" if "keep W" in keeps else max(keeps)
    claims = [a for a in actions if a.startswith(("take", "steal"))]
    if claims and state["table"]["total"] >= 25:
        return claims[0]
    return "roll" if "roll" in actions else actions[0]


def test_a_whole_game_played_by_messages_is_the_engines_game_with_seeded_bots():
    """Each bot step is the seat's bot, seeded from the game's seed and the moves made, on
    the state of the stored record; the log comes in pieces that add up to the whole log."""
    stored = new_game("hard", "medium", seed=5)["keep"]["data"]
    (welcome, state), _ = send(stored, {"type": "join"})
    assert welcome == {"type": "welcome", "seat": 0, "token": None}
    log, steps = state["log"], 0
    while not state["table"]["over"]:
        before = Game.from_json(stored)
        if state["bot_turn"]:
            message = {"type": "step", "seq": state["seq"]}
        else:
            message = {"type": "act", "action": person_choice(state), "seq": state["seq"]}
        (state,), stored = send(stored, message, shown=len(log))
        assert state["type"] == "state" and state["log_start"] == len(log)
        log += state["log"]
        after = Game.from_json(stored)
        if message["type"] == "step" and not before.state.is_chance():
            seed = before.record.meta["seed"] + len(before.record.moves)
            bot = make_bot(
                before.record.meta["bots"][before.state.current], seed + before.state.current
            )
            assert after.record.moves[-1] == bot.choose(before.state).name
            steps += 1
    game = Game.from_json(stored)
    assert game.state.is_over and steps > 20
    assert state["table"] == table_view(game.state)
    assert log == log_entries(game.history)
    assert state["actions"] == [] and state["status"] == "over"
    frames = ask("GET", "/api/games/x/replay", None, stored)["data"]["frames"]
    assert frames == json.loads(json.dumps(replay_frames(game.record)))
    assert ask("GET", "/api/games/x/record", None, stored)["data"] == game.record.to_dict()


def test_a_stale_or_out_of_turn_message_changes_nothing():
    stored = new_game("easy", seed=2, start_player=1)["keep"]["data"]  # the bot starts
    (error,), kept = send(stored, {"type": "act", "action": "roll", "seq": 0})
    assert (error["type"], error["id"], kept) == ("error", "bots_turn", stored)
    (error,), kept = send(stored, {"type": "step", "seq": 3})
    assert (error["id"], kept) == ("stale", stored)
    (state,), stepped = send(stored, {"type": "step", "seq": 0})
    assert state["seq"] == 1 and stepped != stored
    (error,), kept = send(stepped, {"type": "step", "seq": 0})  # the same step asked twice
    assert (error["id"], kept) == ("stale", stepped)
    assert send(stored, {"type": "vote", "seat": 1}) == ([], stored)  # what only a server has
    assert send(stored, {"type": "ping"}) == ([], stored)
    assert json.loads(play(stored, "[1, 2")) == {"messages": []}


def test_the_hint_ranks_the_choices_by_the_solvers_expected_worms():
    stored = new_game("easy", seed=9)["keep"]["data"]
    (hint,), _ = send(stored, {"type": "hint"})
    outlook = turn_outlook(Game.from_json(stored).state)
    assert hint["rows"] == [
        {"action": "roll", "tile": outlook.success, "worms": outlook.value, "bust": outlook.bust}
    ]
    (state,), stored = send(stored, {"type": "act", "action": "roll", "seq": 0})
    (hint,), _ = send(stored, {"type": "hint"})
    expected = rank_choices(Game.from_json(stored).state)
    assert [row["action"] for row in hint["rows"]] == [choice.action.name for choice in expected]
    assert [row["worms"] for row in hint["rows"]] == sorted(
        (row["worms"] for row in hint["rows"]), reverse=True
    )
    assert all("win" not in row for row in hint["rows"])


def test_a_damaged_or_foreign_stored_game_is_said_and_kept_as_it_is():
    for stored, why in [
        ("{not json", "record_not_json"),
        (Game(["Ann", "Bob"]).to_json(), "solo_one_person"),  # a record with no bots in it
    ]:
        (error,) = json.loads(play(stored, '{"type": "join"}'))["messages"]
        assert error["id"] == "game_damaged" and error["params"]["why"]["id"] == why
        assert "keep" not in json.loads(play(stored, '{"type": "join"}'))
    assert ask("GET", "/api/games/x/record", None, "{not json")["status"] == 500
    missing = ask("GET", "/api/games/x/replay")
    assert missing["status"] == 404 and missing["data"]["detail"]["params"] == {"id": "x"}
