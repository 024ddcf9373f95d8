"""The game record: JSON round trip, replay, undo, and refusal of corrupt records."""

import json
import random
from pathlib import Path

import pytest

from pickomino.bots import make_bot
from pickomino.core import Game, GameRecord, IllegalAction, RecordError, Rules
from pickomino.i18n import Words
from pickomino.i18n.text import log_lines, ranking_lines


def played_game(seed: int = 5, seats=("Ann", "Bob", "Cy"), rules=None) -> Game:
    game = Game(list(seats), rules or Rules.preset("bga"), start_player=1)
    bot, rng = make_bot("simple"), random.Random(seed)
    while not game.state.is_over:
        if game.state.is_chance():
            game.roll_random(rng)
        else:
            game.play(bot.choose(game.state))
    return game


def record_dict(**changes):
    data = json.loads(played_game().to_json())
    data.update(changes)
    return data


def test_record_round_trip_reproduces_the_final_state():
    game = played_game()
    loaded = Game.from_json(game.to_json())
    assert loaded.state == game.state
    assert loaded.record.to_dict() == game.record.to_dict()
    assert loaded.state.is_over and loaded.state.ranking() == game.state.ranking()


def test_record_json_is_the_documented_form():
    data = json.loads(played_game().to_json())
    assert data["format"] == "pickomino-record" and data["version"] == 1
    assert data["rules"] == {
        "flip_returned_highest": False,
        "exact_match_mandatory": True,
        "lower_tile": "any",
    }
    assert data["seats"] == ["Ann", "Bob", "Cy"] and data["start_player"] == 1
    assert data["moves"][0].startswith("dice ") and data["moves"][1].startswith("keep ")


def test_dice_in_a_record_may_be_written_in_any_order():
    game = Game(2)
    game.push("dice W5W3321W")
    assert game.record.moves == ["dice 12335WWW"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "not a Pickomino file"),
        ({"version": 99}, "version 99 is not supported"),
        ({"version": "1"}, 'version "1" is not supported'),  # not "version 1 is not supported"
        ({"seats": ["Solo"]}, "R1"),
        ({"seats": ["A", "B", "C", "D", "E", "F", "G", "H"]}, "R1"),
        ({"seats": ["A", ""]}, "non-empty names"),
        ({"seats": ["A", "\udcff"]}, "player 2 is not text"),  # an audit: a traceback on show
        ({"start_player": 3}, "start player"),
        ({"start_player": True}, "start player"),
        ({"rules": {"lower_tile": "far"}}, "lower_tile"),
        ({"rules": {"house_rule": True}}, "unknown rule option house_rule"),
        ({"rules": {"flip_returned_highest": "yes"}}, "true or false"),
        ({"moves": "keep W"}, "list of texts"),
        ({"moves": [1, 2]}, "list of texts"),
        ({"meta": []}, "meta"),
        ({"extra": 1}, "unknown keys"),
    ],
)
def test_a_malformed_record_is_refused_with_a_clear_error(change, message):
    with pytest.raises(RecordError, match=message):
        Game.from_json(json.dumps(record_dict(**change)))


def test_a_record_missing_a_key_is_refused():
    data = record_dict()
    del data["moves"]
    with pytest.raises(RecordError, match="lacks moves"):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    "text",
    ["", "{", "[1, 2]", "null", b"\xff\xfe", "[" * 100_000, '{"seed": ' + "9" * 5000 + "}"],
    ids=["empty", "cut", "list", "null", "not UTF-8", "too deep", "too long a number"],
)
def test_text_that_is_not_a_record_is_refused(text):
    """An audit: nesting too deep and a number of 5,000 digits were tracebacks."""
    with pytest.raises(RecordError):
        Game.from_json(text)


def test_a_tampered_move_names_the_move_and_the_rule():
    data = record_dict()
    data["moves"][1] = "take 36"
    with pytest.raises(RecordError, match=r"R11: move 2 \(take 36\) cannot be played"):
        Game.from_json(json.dumps(data))


def test_tampered_dice_are_refused():
    data = record_dict()
    data["moves"][0] = "dice 123"
    with pytest.raises(RecordError, match="R5: move 1 "):
        Game.from_json(json.dumps(data))
    data["moves"][0] = "dice 1234567X"
    with pytest.raises(RecordError, match="not a die face"):
        Game.from_json(json.dumps(data))


def test_moves_after_the_game_ended_are_refused():
    data = record_dict()
    data["moves"].append("dice 12345WWW")
    with pytest.raises(RecordError, match="no roll is due now"):
        Game.from_json(json.dumps(data))


def test_undo_takes_back_the_last_decision_and_the_rolls_after_it():
    game = Game(2)
    game.roll("123WWW55")
    game.play("keep W")
    before = game.state.copy()
    game.play("roll")
    game.roll("11111")
    game.play("keep 1")
    assert game.undo() == ["keep 1"]
    assert game.undo() == ["roll", "dice 11111"]
    assert game.state == before
    assert game.record.moves == ["dice 12355WWW", "keep W"]


def test_undo_with_no_decision_is_refused_and_changes_nothing():
    game = Game(2)
    game.roll("123WWW55")
    with pytest.raises(IllegalAction, match="nothing|no decision"):
        game.undo()
    assert game.record.moves == ["dice 12355WWW"]


def test_turns_group_the_moves_by_player():
    game = played_game(seats=("Ann", "Bob"))
    turns = game.turns()
    assert [t.number for t in turns] == list(range(1, len(turns) + 1))
    assert [t.seat for t in turns[:4]] == [1, 0, 1, 0]
    assert sum(len(t.moves) for t in turns) == len(game.record.moves)
    words = Words("en")
    log = log_lines(game.history, game.seats, words)
    ranking = ranking_lines(game.state.ranking(), game.seats, words)
    assert log[0] == "Turn 1 – Bob"
    assert log[-len(ranking) - 1 :] == ["  Game over.", *("  " + line for line in ranking)]


def test_the_documented_examples_of_a_record_load_and_play_as_written():
    """The example in docs/record.md and the one in the module's docstring are records
    that load: Ann keeps both worms, then three fives, and stops on 25, taking it."""
    import pickomino.core.record as module

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "record.md").read_text(encoding="utf-8")
    docstring = module.__doc__.split("::", 1)[1].split("\n\n``moves``", 1)[0]
    for text in (page.split("```json", 1)[1].split("```", 1)[0], docstring):
        game = Game.from_json(text)
        assert game.state.stacks == [[25], []] and game.state.current == 1
