"""The keeper's API as the offline app answers it in the browser (:mod:`pickomino.offline.
answers`), run here natively: the same views as the server's router, the same refusals with
the same statuses, and nothing stored when something is refused."""

from __future__ import annotations

import json

import pytest

from pickomino.offline.answers import answer
from pickomino.table.sheet import ScoreSheet
from pickomino.table.view import sheet_view


def ask(method: str, path: str, body: dict | None = None, stored: str | None = None) -> dict:
    return json.loads(answer(method, path, json.dumps(body) if body is not None else None, stored))


def new_sheet(*names: str, **spec: object) -> tuple[str, str]:
    reply = ask("POST", "/api/sheets", {"names": list(names), **spec})
    assert reply["status"] == 201, reply
    return reply["keep"]["id"], reply["keep"]["data"]


def test_a_sheet_is_made_entered_undone_and_shown_as_the_server_shows_it():
    sheet_id, stored = new_sheet("Ann", "Bob", "Cy", rules="short", start_player=1)
    path = f"/api/sheets/{sheet_id}"
    for body in ({"entry": "take 27", "count": 0}, {"entry": "steal 27"}, {"entry": "bust"}):
        reply = ask("POST", f"{path}/entries", body, stored)
        assert reply["status"] == 200, reply
        stored = reply["keep"]["data"]
    undone = ask("POST", f"{path}/undo", {"count": 3}, stored)
    redone = ask("POST", f"{path}/redo", None, undone["keep"]["data"])
    shown = ask("GET", path, None, undone["keep"]["data"])

    native = ScoreSheet(["Ann", "Bob", "Cy"], ScoreSheet.from_dict(json.loads(stored)).rules, 1)
    for entry in ("take 27", "steal 27", "bust"):
        native.enter(entry)
    native.undo()
    assert shown == {"status": 200, "data": sheet_view(sheet_id, native)}
    assert shown["data"]["table"]["stacks"] == [[], [], [27]]  # Bob started: Cy stole it
    assert redone["data"]["count"] == 3 and not redone["data"]["can_redo"]


def test_the_dice_helper_advises_the_player_whose_turn_it_is():
    sheet_id, stored = new_sheet("Ann", "Bob")
    reply = ask("POST", f"/api/sheets/{sheet_id}/dice", {"kept": "", "rolled": "1135WW44"}, stored)
    assert reply["status"] == 200 and "keep" not in reply  # advice changes nothing
    report = reply["data"]
    assert report["phase"] == "keep" and report["best"] == report["choices"][0]["action"]
    assert {c["action"] for c in report["choices"]} == {f"keep {f}" for f in "1345W"}
    assert all("win" not in choice for choice in report["choices"])  # no network offline


@pytest.mark.parametrize(
    ("body", "kind", "where"),
    [
        ({"names": ["Ann"]}, "too_short", ["body", "names"]),
        ({"names": [f"P{n}" for n in range(8)]}, "too_long", ["body", "names"]),
        ({"names": "Ann, Bob"}, "list_type", ["body", "names"]),
        ({"names": ["Ann", "  "]}, "string_too_short", ["body", "names", 1]),
        ({"names": ["Ann", "B" * 25]}, "string_too_long", ["body", "names", 1]),
        ({"names": ["Ann", 7]}, "string_type", ["body", "names", 1]),
        ({"names": ["Ann", " ann "]}, "same_name", ["body"]),
        ({"names": ["Ann", "Bob"], "start_player": 2}, "start_seat", ["body", "start_player"]),
        ({"names": ["Ann", "Bob"], "start_player": True}, "start_seat", ["body", "start_player"]),
    ],
)
def test_a_form_the_server_would_refuse_gets_the_servers_422(body, kind, where):
    reply = ask("POST", "/api/sheets", body)
    assert reply["status"] == 422 and "keep" not in reply
    (problem,) = reply["data"]["detail"]
    assert (problem["type"], problem["loc"]) == (kind, where)


def test_refusals_carry_the_servers_status_and_store_nothing():
    sheet_id, stored = new_sheet("Ann", "Bob")
    path = f"/api/sheets/{sheet_id}"
    cases = [
        ("POST", "/api/sheets", {"names": ["Ann", "Bob"], "rules": "nonsense"}, None, 400),
        ("GET", path, None, None, 404),  # not in this browser
        ("GET", "/api/games", None, None, 404),
        ("POST", f"{path}/entries", {"entry": "take 40"}, stored, 400),
        ("POST", f"{path}/entries", {"entry": "take 27", "count": 3}, stored, 409),
        ("POST", f"{path}/entries", {"entry": "take 27", "revision": "0" * 16}, stored, 409),
        ("POST", f"{path}/undo", None, stored, 409),  # nothing to undo
        ("POST", f"{path}/dice", {"kept": "", "rolled": "123"}, stored, 400),  # 3 dice of 8
        ("GET", path, None, "{not json", 500),
        ("GET", path, None, json.dumps({"format": "chess"}), 500),
    ]
    for method, where, body, sheet, status in cases:
        reply = ask(method, where, body, sheet)
        assert reply["status"] == status, (where, body, reply)
        assert "keep" not in reply
        assert set(reply["data"]["detail"]) == {"id", "rule", "params"}, reply
    assert json.loads(answer("POST", path + "/entries", "{oops", stored))["status"] == 422
    for dice in ({"rolled": 11234555}, {"kept": ["W"], "rolled": "1"}):
        reply = ask("POST", f"{path}/dice", dice, stored)
        assert reply["status"] == 422 and reply["data"]["detail"][0]["type"] == "string_type"


def test_a_finished_game_takes_no_advice():
    sheet_id, stored = new_sheet("Ann", "Bob")
    for tile in range(21, 37):
        stored = ask("POST", f"/api/sheets/{sheet_id}/entries", {"entry": f"take {tile}"}, stored)[
            "keep"
        ]["data"]
    reply = ask("POST", f"/api/sheets/{sheet_id}/dice", {"rolled": "12345WW1"}, stored)
    assert (reply["status"], reply["data"]["detail"]["id"]) == (409, "game_over")


def test_a_sheet_saved_as_a_file_opens_as_a_new_sheet_with_its_turns():
    sheet_id, stored = new_sheet("Ann", "Bob")
    stored = ask("POST", f"/api/sheets/{sheet_id}/entries", {"entry": "take 30"}, stored)["keep"][
        "data"
    ]
    record = ask("GET", f"/api/sheets/{sheet_id}/record", None, stored)
    assert record["status"] == 200 and "keep" not in record
    assert ScoreSheet.from_dict(record["data"]).entries == ["take 30"]
    copy = ask("POST", "/api/sheets/import", record["data"])
    assert copy["status"] == 201 and copy["keep"]["id"] != sheet_id
    assert copy["data"]["table"]["stacks"] == [[30], []]

    not_a_sheet = ask("POST", "/api/sheets/import", {**record["data"], "version": 99})
    assert (not_a_sheet["status"], not_a_sheet["data"]["detail"]["id"]) == (400, "not_a_sheet_file")
    twins = ask("POST", "/api/sheets/import", {**record["data"], "names": ["Ann", " ann"]})
    assert twins["status"] == 422 and twins["data"]["detail"][0]["type"] == "same_name"
    assert "keep" not in not_a_sheet and "keep" not in twins
