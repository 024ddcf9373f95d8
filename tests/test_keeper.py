"""The score sheet of a game played with the real box: results entered turn by turn, the
rules applied by the engine (report_turn), undo/redo, storage form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino import i18n
from pickomino.core import GameState, IllegalAction, RecordError, Rules
from pickomino.core.rules import TILES
from pickomino.i18n.text import log_lines, ranking_lines
from pickomino.table.sheet import MOST_ENTRIES, ScoreSheet


def sheet_at(stacks, current=0, face_down=(), rules=None) -> ScoreSheet:
    """A sheet whose state is a given position (entries are not needed for these checks)."""
    sheet = ScoreSheet([f"P{n}" for n in range(len(stacks))], rules or Rules())
    sheet.state = GameState.from_position(stacks, face_down, current, rules)
    return sheet


def test_r11_only_face_up_grill_tiles_can_be_taken():
    sheet = sheet_at([[25], [30]], face_down=[36])
    for tile, why in ((36, "face down"), (30, "in a player's stack"), (25, "in a player's stack")):
        with pytest.raises(IllegalAction, match=why) as refused:
            sheet.enter(f"take {tile}")
        assert refused.value.rule == "R11"
    assert sheet.entries == [] and sheet.state.stacks == [[25], [30]]
    sheet.enter("take 35")
    assert sheet.state.stacks == [[25, 35], [30]] and 35 not in sheet.state.grill


def test_r14_only_the_top_tile_of_an_opponent_can_be_stolen():
    sheet = sheet_at([[22], [24, 31], [27]])
    offered = {o["entry"]: o["victim"] for o in sheet.options() if o["kind"] == "steal"}
    assert offered == {"steal 27": 2, "steal 31": 1}  # the seat each is stolen from
    for tile in (24, 22, 29):  # under a top, own top, on the grill
        with pytest.raises(IllegalAction) as refused:
            sheet.enter(f"steal {tile}")
        assert refused.value.rule == "R14"
    sheet.enter("steal 31")
    assert sheet.state.stacks == [[22, 31], [24], [27]] and sheet.state.current == 1


def test_r15_r16_a_bust_returns_the_top_tile_and_turns_the_highest_face_down():
    sheet = sheet_at([[22, 27], [25]])
    sheet.enter("bust")
    assert sheet.state.stacks == [[22], [25]]
    assert 27 in sheet.state.grill and sheet.state.face_down == (36,)
    assert log_lines(sheet.history(), sheet.names, i18n.words())[-3:] == [
        "  P0 busts",
        "  P0 puts 27 back on the grill",
        "  36 is turned face down",
    ]


def test_r16_a_bust_with_nothing_to_return_turns_nothing():
    sheet = sheet_at([[], [25]])
    grill = sheet.state.grill
    sheet.enter("bust")
    assert sheet.state.grill == grill and sheet.state.face_down == ()
    assert sheet.state.current == 1  # R17


def test_r16_the_returned_tile_is_not_turned_unless_the_short_rules_say_so():
    for rules, down in ((Rules(), ()), (Rules.preset("short"), (36,))):
        sheet = sheet_at([[36], []], rules=rules)
        sheet.enter("bust")
        assert sheet.state.face_down == down


def test_r18_the_game_ends_when_the_grill_is_empty_and_nothing_more_is_entered():
    last = [t for t in TILES if t != 30]
    sheet = sheet_at([last, []], current=1)
    sheet.enter("take 30")
    assert sheet.state.is_over and sheet.options() == []
    assert ranking_lines(sheet.state.ranking(), sheet.names, i18n.words())[0].startswith("1. P0: ")
    with pytest.raises(IllegalAction, match="over"):
        sheet.enter("bust")


def test_undo_and_redo_any_number_of_entries_and_a_new_entry_forgets_the_redo():
    sheet = ScoreSheet(["Ann", "Bob", "Cy"])
    entries = ["take 25", "take 30", "steal 30", "bust", "take 25", "steal 25"]
    for entry in entries:
        sheet.enter(entry)
    final = sheet.state.to_dict()
    for _ in entries:
        sheet.undo()
    assert (
        sheet.state == GameState(3) and log_lines(sheet.history(), sheet.names, i18n.words()) == []
    )
    with pytest.raises(IllegalAction, match="nothing to undo"):
        sheet.undo()
    for _ in entries:
        sheet.redo()
    assert sheet.state.to_dict() == final and sheet.entries == entries
    sheet.undo()
    sheet.enter("bust")
    with pytest.raises(IllegalAction, match="nothing to redo"):
        sheet.redo()


def test_words_that_are_no_result_are_refused():
    sheet = ScoreSheet(["Ann", "Bob"])
    for entry in ("fly", "take", "take 40", "keep W", "roll"):
        with pytest.raises(IllegalAction):
            sheet.enter(entry)
    assert sheet.entries == []


def test_a_sheet_survives_its_json_form_and_a_damaged_one_is_refused():
    sheet = ScoreSheet(["Ann", "Bob"], Rules.preset("bga"), 1, ["take 22", "bust"])
    sheet.undo()
    again = ScoreSheet.from_dict(json.loads(json.dumps(sheet.to_dict())))
    assert again.to_dict() == sheet.to_dict() and again.state == sheet.state
    damaged = [
        {**sheet.to_dict(), "format": "chess"},
        {**sheet.to_dict(), "names": ["Solo"]},
        {**sheet.to_dict(), "entries": ["take 22", "take 22"]},
        {**sheet.to_dict(), "start_player": 5},
        {**sheet.to_dict(), "rules": {"colour": "red"}},
        {**sheet.to_dict(), "undone": ["fly"]},  # what redo would enter must be an entry
        {**sheet.to_dict(), "undone": ["take 22"]},  # ... that can be entered then
    ]
    for data in damaged:
        with pytest.raises(RecordError):
            ScoreSheet.from_dict(data)
    with pytest.raises(RecordError) as refused:  # a reviewer: analyse's traceback
        ScoreSheet.from_dict({**sheet.to_dict(), "names": ["Ann", "\udcff"]})
    assert refused.value.code == "name_not_text" and refused.value.params == {"seat": 2}
    lacking = {key: value for key, value in sheet.to_dict().items() if key != "entries"}
    with pytest.raises(RecordError) as refused:
        ScoreSheet.from_dict(lacking)
    assert refused.value.code == "sheet_list" and refused.value.params == {"field": "entries"}


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.lists(st.integers(0, 1000), max_size=120))
def test_random_sheets_keep_every_tile_and_undo_is_replay(players, picks):
    """Any sequence of offered results: 16 tiles accounted for, worms = stacks, the game
    ends exactly when the grill is empty, and undoing everything is the empty sheet."""
    sheet = ScoreSheet([f"P{n}" for n in range(players)])
    for pick in picks:
        options = sheet.options()
        if not options:
            break
        sheet.enter(options[pick % len(options)]["entry"])
        state = sheet.state
        placed = [*state.grill, *state.face_down, *(t for s in state.stacks for t in s)]
        assert sorted(placed) == list(TILES)
        assert state.is_over == (not state.grill)
    replayed = ScoreSheet(sheet.names, sheet.rules, 0, list(sheet.entries))
    assert replayed.state == sheet.state


def test_a_sheet_takes_at_most_its_most_entries_and_a_longer_file_is_refused():
    """An audit: a tile stolen back and forth grew a sheet for ever, and every request on it
    cost more (100 ms at 6,000 entries). A sheet takes MOST_ENTRIES turns, no more."""
    cycle = ["take 36"] + ["steal 36"] * (MOST_ENTRIES - 1)
    sheet = ScoreSheet(["Ann", "Bob"], entries=cycle)
    with pytest.raises(IllegalAction) as full:
        sheet.enter("steal 36")
    assert full.value.code == "sheet_full" and full.value.params == {"most": MOST_ENTRIES}
    assert len(sheet.entries) == MOST_ENTRIES
    sheet.undo()
    too_long = {**sheet.to_dict(), "undone": ["steal 36", "steal 36"]}
    with pytest.raises(RecordError) as refused:
        ScoreSheet.from_dict(too_long)
    assert refused.value.code == "sheet_too_long"
