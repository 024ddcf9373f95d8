"""The score keeper's API on the real app and a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pickomino.keeper import ScoreSheet
from pickomino.situation import situation_at
from pickomino.solver.advice import rank_choices
from pickomino.web import create_app
from pickomino.web.store import database_url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database)) as test_client:
        yield test_client


def new_sheet(client: TestClient, **spec) -> dict:
    """A new sheet; the client carries its key from now on, as the sheet's page does."""
    response = client.post("/api/sheets", json={"names": ["Ann", "Bob", "Cy"], **spec})
    assert response.status_code == 201, response.text
    sheet = response.json()
    client.headers["Sheet-Key"] = sheet.pop("key")
    return sheet


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
    resumed = client.get(f"/api/sheets/{sheet['id']}").json()
    assert (resumed["count"], resumed["table"]) == (2, second["table"])
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


def test_a_sheet_opens_only_with_its_key_and_no_request_lists_sheets(client):
    created = client.post("/api/sheets", json={"names": ["Ann", "Bob"]})
    sheet = created.json()
    key, path = sheet["key"], f"/api/sheets/{sheet['id']}"
    assert len(key) >= 20 and sheet["link"] == f"/keeper/{sheet['id']}#{key}"
    assert client.get(path, headers={"Sheet-Key": key}).json()["names"] == ["Ann", "Bob"]

    # Without the key, or with another one, the sheet is not there: the same 404 as a sheet
    # that does not exist, and nothing is changed.
    missing = client.get("/api/sheets/nope", headers={"Sheet-Key": key})
    assert missing.status_code == 404 and "key" in missing.json()["detail"]
    for headers in ({}, {"Sheet-Key": key[:-1]}, {"Sheet-Key": ""}):
        for method, url, body in [
            ("GET", path, None),
            ("POST", f"{path}/entries", {"entry": "take 25"}),
            ("POST", f"{path}/undo", None),
            ("POST", f"{path}/dice", {"kept": "", "rolled": "12345WW1"}),
        ]:
            refused = client.request(method, url, json=body, headers=headers)
            assert (refused.status_code, refused.json()) == (404, missing.json()), (method, url)
    assert client.get(path, headers={"Sheet-Key": key}).json()["count"] == 0

    # No request lists the sheets of the server, and the key is in no answer but the first.
    assert client.get("/api/sheets").status_code == 405
    taken = client.post(f"{path}/entries", json={"entry": "take 25"}, headers={"Sheet-Key": key})
    assert taken.status_code == 200 and key not in taken.text


def test_a_sheet_from_before_keys_still_opens_by_its_old_link(database: str):
    """A database made by the previous version: no key column for sheets, no turn count for
    games. The server adds them at start; the old sheet opens by its id alone, as it did
    then, and the old game is listed without a turn count."""
    old = sa.create_engine(database_url(database))
    columns = "id VARCHAR(32) PRIMARY KEY, status VARCHAR(16) NOT NULL, created FLOAT NOT NULL"
    with old.begin() as db:
        for table, text in (("sheets", "data"), ("games", "header")):
            db.exec_driver_sql(
                f"CREATE TABLE {table} ({columns}, updated FLOAT NOT NULL, {text} TEXT NOT NULL)"
            )
        db.execute(
            sa.text("INSERT INTO sheets VALUES ('oldSheet', 'playing', 0, 0, :data)"),
            {"data": json.dumps(ScoreSheet(["Ann", "Bob"], entries=["take 25"]).to_dict())},
        )
        db.execute(
            sa.text("INSERT INTO games VALUES ('oldGame', 'over', 0, 0, :header)"),
            {"header": json.dumps({"rules": {}, "meta": {}})},
        )
    old.dispose()
    with TestClient(create_app(database)) as client:
        sheet = client.get("/api/sheets/oldSheet")
        assert sheet.status_code == 200 and sheet.json()["table"]["stacks"] == [[25], []]
        bust = client.post("/api/sheets/oldSheet/entries", json={"entry": "bust"})
        assert bust.status_code == 200
        new = new_sheet(client)  # new sheets get a key in the same database
        assert client.get(f"/api/sheets/{new['id']}", headers={"Sheet-Key": "x"}).status_code == 404
        [game] = client.get("/api/games").json()
        assert (game["id"], game["turns"]) == ("oldGame", None)
