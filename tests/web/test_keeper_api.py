"""The score keeper's API on the real app and a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from pickomino.situation import situation_at
from pickomino.solver.advice import rank_choices
from pickomino.web import create_app


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database)) as test_client:
        yield test_client


def new_sheet(client: TestClient, **spec) -> dict:
    response = client.post("/api/sheets", json={"names": ["Ann", "Bob", "Cy"], **spec})
    assert response.status_code == 201, response.text
    return response.json()


def enter(client: TestClient, sheet: dict, entry: str) -> dict:
    response = client.post(
        f"/api/sheets/{sheet['id']}/entries", json={"entry": entry, "count": sheet["count"]}
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"names": ["Ann"]}, "at least 2"),
        ({"names": ["Mary  Lou", "Bob", "mary lou"]}, "players 1 and 3 have the same name"),
        ({"names": ["Mum", "Bob", "Cy", "  mum "]}, "players 1 and 4 have the same name 'Mum'"),
        ({"names": ["Ann", "Bob"], "start_player": 9}, "seat from 0 to 1"),
        ({"names": ["Ann", "Bob"], "rules": "nope"}, "unknown rule preset"),
    ],
)
def test_bad_set_ups_are_refused(client, spec, words):
    response = client.post("/api/sheets", json=spec)
    assert response.status_code in (400, 422) and words in response.text
    assert client.get("/api/sheets").json() == []


def test_a_name_used_twice_names_the_players_so_the_form_can_mark_their_rows(client):
    response = client.post("/api/sheets", json={"names": ["Ann", "Mum", "Bob", "MUM", "mum"]})
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["msg"] == "players 2, 4 and 5 have the same name 'Mum'"
    assert error["ctx"]["players"] == [2, 4, 5]


def test_a_kept_game_offers_only_legal_results_and_applies_the_rules(client):
    sheet = new_sheet(client, rules="official", start_player=0)
    assert [o["entry"] for o in sheet["options"]] == [f"take {t}" for t in range(21, 37)] + ["bust"]
    sheet = enter(client, sheet, "take 27")
    sheet = enter(client, sheet, "steal 27")  # Bob steals Ann's top tile
    assert sheet["table"]["stacks"] == [[], [27], []]
    assert "steal 27" in [o["entry"] for o in sheet["options"]]  # Cy may steal it in turn
    refused = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "steal 30"})
    assert refused.status_code == 400 and refused.json()["rule"] == "R14"
    assert "not on top" in refused.json()["detail"]
    refused = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "take 27"})
    assert refused.status_code == 400 and refused.json()["rule"] == "R11"
    assert client.get(f"/api/sheets/{sheet['id']}").json() == sheet  # nothing was changed
    sheet = enter(client, sheet, "bust")  # Cy has nothing to return: nothing turned
    sheet = enter(client, sheet, "take 22")
    sheet = enter(client, sheet, "bust")  # Bob returns 27; 36 is turned face down
    grill = {t["tile"]: t["where"] for t in sheet["table"]["grill"]}
    assert grill[27] == "grill" and grill[36] == "down" and grill[22] == "taken"
    assert sheet["table"]["worms"] == [1, 0, 0] and sheet["table"]["current"] == 2
    assert sheet["log"][-3:] == [
        "  Bob busts",
        "  Bob's 27 goes back to the grill",
        "  36 is turned face down",
    ]


def test_double_taps_undo_redo_and_resume(client):
    sheet = new_sheet(client)
    first = enter(client, sheet, "take 25")
    stale = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "take 26", "count": 0})
    assert stale.status_code == 409  # the same tap again, on a view that is out of date
    second = enter(client, first, "take 26")
    undone = client.post(f"/api/sheets/{sheet['id']}/undo").json()
    assert undone["table"] == first["table"] and undone["can_redo"]
    assert client.post(f"/api/sheets/{sheet['id']}/redo").json()["table"] == second["table"]
    assert client.post(f"/api/sheets/{sheet['id']}/redo").status_code == 409
    stale_undo = client.post(f"/api/sheets/{sheet['id']}/undo", json={"count": 1})
    assert stale_undo.status_code == 409  # that page had not seen the second entry
    stale_dice = client.post(f"/api/sheets/{sheet['id']}/dice", json={"count": 0})
    assert stale_dice.status_code == 409
    listed = client.get("/api/sheets").json()
    assert [(s["id"], s["entries"], s["status"]) for s in listed] == [(sheet["id"], 2, "playing")]
    assert client.get("/api/sheets/nope").status_code == 404


def test_the_dice_helper_agrees_with_the_solver_on_the_current_players_position(client):
    sheet = enter(client, new_sheet(client), "take 30")  # Bob to play, Ann holds 30
    advice = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "", "rolled": "1135WW44"})
    assert advice.status_code == 200
    body = advice.json()
    expected = rank_choices(situation_at([[30], [], []], [], 1, None, "", "1135WW44"))
    assert body["phase"] == "keep" and body["best"] == expected[0].action.name
    assert [c["action"] for c in body["choices"]] == [c.action.name for c in expected]
    assert body["grill"] == [t for t in range(21, 37) if t != 30]
    after = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "WW", "rolled": None})
    assert {c["action"] for c in after.json()["choices"]} == {"roll", "stop"}
    bust = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "WW", "rolled": "WWWWWW"})
    assert bust.json()["phase"] == "bust"
    for dice in ({"kept": "WW", "rolled": "12"}, {"kept": "X"}):
        refused = client.post(f"/api/sheets/{sheet['id']}/dice", json=dice)
        assert refused.status_code in (400, 422) and refused.json()["detail"]
