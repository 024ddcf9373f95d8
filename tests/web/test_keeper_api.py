"""The score keeper's API on the real app and a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pickomino.analysis.hint import Hints
from pickomino.core import GameState
from pickomino.solver.advice import rank_choices
from pickomino.table.sheet import ScoreSheet
from pickomino.web import create_app
from pickomino.web.addresses import SITE_SHARE
from pickomino.web.api import keeper as keeper_api
from pickomino.web.db.database import database_url
from pickomino.web.db.store import Store

from .clients import invalid, refused_http, where_running
from .server_process import wait_until


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
    """``entry`` made on the sheet as ``sheet`` (a view) shows it, as the page sends it."""
    seen = {"count": sheet["count"], "revision": sheet["revision"]}
    response = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": entry, **seen})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(
    ("spec", "kind", "fields"),
    [
        ({"names": ["Ann"]}, "too_short", {"ctx": {"min_length": 2}}),
        ({"names": ["Mary  Lou", "Bob", "mary lou"]}, "same_name", {"ctx": {"players": [1, 3]}}),
        (
            {"names": ["Mum", "Bob", "Cy", "  mum "]},
            "same_name",
            {"ctx": {"players": [1, 4], "name": "Mum"}},
        ),
        ({"names": ["Ann", "Bob"], "start_player": 9}, "start_seat", {"ctx": {"high": 1}}),
    ],
)
def test_bad_set_ups_are_refused(client, spec, kind, fields):
    invalid(client.post("/api/sheets", json=spec), kind, **fields)


def test_unknown_rules_are_refused_with_the_presets(client):
    response = client.post("/api/sheets", json={"names": ["Ann", "Bob"], "rules": "nope"})
    refused_http(response, 400, "unknown_preset", given="nope")


def test_a_name_used_twice_names_the_players_so_the_form_can_mark_their_rows(client):
    response = client.post("/api/sheets", json={"names": ["Ann", "Mum", "Bob", "MUM", "mum"]})
    assert len(response.json()["detail"]) == 1
    invalid(response, "same_name", ctx={"players": [2, 4, 5], "name": "Mum", "group": [2, 4, 5]})


def test_a_kept_game_offers_only_legal_results_and_applies_the_rules(client):
    sheet = new_sheet(client, rules="official", start_player=0)
    assert [o["entry"] for o in sheet["options"]] == [f"take {t}" for t in range(21, 37)] + ["bust"]
    sheet = enter(client, sheet, "take 27")
    sheet = enter(client, sheet, "steal 27")  # Bob steals Ann's top tile
    assert sheet["table"]["stacks"] == [[], [27], []]
    assert "steal 27" in [o["entry"] for o in sheet["options"]]  # Cy may steal it in turn
    refused = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "steal 30"})
    refused_http(refused, 400, "steal_not_top", "R14", tile=30, tops=[27])
    refused = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "take 27"})
    refused_http(refused, 400, "take_from_stack", "R11", tile=27)
    refused = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "keep W"})
    refused_http(refused, 400, "not_a_result", "R11", action="keep W")
    assert client.get(f"/api/sheets/{sheet['id']}").json() == sheet  # nothing was changed
    sheet = enter(client, sheet, "bust")  # Cy has nothing to return: nothing turned
    sheet = enter(client, sheet, "take 22")
    sheet = enter(client, sheet, "bust")  # Bob returns 27; 36 is turned face down
    grill = {t["tile"]: t["where"] for t in sheet["table"]["grill"]}
    assert grill[27] == "grill" and grill[36] == "down" and grill[22] == "taken"
    assert sheet["table"]["worms"] == [1, 0, 0] and sheet["table"]["current"] == 2
    assert sheet["log"][-4:] == [
        {"type": "turn", "turn": 5, "seat": 1},
        {"type": "bust", "seat": 1, "reason": "reported", "total": 0},
        {"type": "returned", "seat": 1, "tile": 27},
        {"type": "turned", "tile": 36},
    ]
    assert sheet["log"][:2] == [
        {"type": "turn", "turn": 1, "seat": 0},
        {"type": "took", "seat": 0, "tile": 27, "total": 0},  # a reported turn: no total
    ]


def test_double_taps_undo_redo_and_resume(client):
    sheet = new_sheet(client)
    first = enter(client, sheet, "take 25")
    stale = client.post(f"/api/sheets/{sheet['id']}/entries", json={"entry": "take 26", "count": 0})
    refused_http(stale, 409, "sheet_changed")  # the same tap again, on a view out of date
    second = enter(client, first, "take 26")
    undone = client.post(f"/api/sheets/{sheet['id']}/undo").json()
    assert undone["table"] == first["table"] and undone["can_redo"]
    assert client.post(f"/api/sheets/{sheet['id']}/redo").json()["table"] == second["table"]
    refused_http(client.post(f"/api/sheets/{sheet['id']}/redo"), 409, "nothing_to_redo")
    stale_undo = client.post(f"/api/sheets/{sheet['id']}/undo", json={"count": 1})
    refused_http(stale_undo, 409, "sheet_changed")  # that page had not seen the second entry
    stale_dice = client.post(f"/api/sheets/{sheet['id']}/dice", json={"count": 0})
    refused_http(stale_dice, 409, "sheet_changed")
    resumed = client.get(f"/api/sheets/{sheet['id']}").json()
    assert (resumed["count"], resumed["table"]) == (2, second["table"])
    refused_http(client.get("/api/sheets/nope"), 404, "no_sheet")


def test_a_page_out_of_date_is_refused_even_with_as_many_entries_as_it_shows(client):
    """An audit: a page's only check was its number of entries. Another phone undid the last
    entry and made another: the same number, and a stale page's Undo removed a correction it
    had never seen. The page sends the sheet it shows (``revision``)."""
    sheet = new_sheet(client)
    for entry in ("take 21", "take 22", "take 25"):
        sheet = enter(client, sheet, entry)
    path, stale = f"/api/sheets/{sheet['id']}", {"count": 3, "revision": sheet["revision"]}
    undone = client.post(path + "/undo", json=stale).json()
    corrected = enter(client, undone, "take 26")  # Cy took 26, not 25
    assert corrected["count"] == 3 and corrected["revision"] != sheet["revision"]
    refused_http(client.post(path + "/undo", json=stale), 409, "sheet_changed")
    refused_http(
        client.post(path + "/entries", json={"entry": "bust", **stale}), 409, "sheet_changed"
    )
    refused_http(
        client.post(path + "/dice", json={"rolled": "1135WW44", **stale}), 409, "sheet_changed"
    )
    assert client.get(path).json() == corrected  # nothing changed


def test_a_change_is_stored_only_over_the_sheet_it_was_made_to(client, database):
    """An audit (four processes on PostgreSQL): two phones changing a sheet at the same moment
    on two processes were both answered 200, and one change was lost: each process stored the
    sheet whole as it had changed it. A sheet is stored only over the one it was read as."""
    sheet = new_sheet(client)
    store = Store(database)
    read = store.sheets.load(sheet["id"])
    here, there = (ScoreSheet.from_dict(json.loads(read.data)) for _ in range(2))
    here.enter("take 21")
    there.enter("bust")
    assert store.sheets.save(sheet["id"], json.dumps(here.to_dict()), "playing", was=read.data)
    assert not store.sheets.save(sheet["id"], json.dumps(there.to_dict()), "playing", was=read.data)
    assert [entry["type"] for entry in client.get(f"/api/sheets/{sheet['id']}").json()["log"]] == [
        "turn",
        "took",
    ]


def test_the_dice_helper_agrees_with_the_solver_on_the_current_players_position(client):
    sheet = enter(client, new_sheet(client), "take 30")  # Bob to play, Ann holds 30
    advice = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "", "rolled": "1135WW44"})
    assert advice.status_code == 200
    body = advice.json()
    position = GameState.from_text("30/-/- - 1 1 keep - 1135WW44 official")
    expected = rank_choices(position)
    assert body["phase"] == "keep" and body["best_worms"] == expected[0].action.name
    assert {c["action"] for c in body["choices"]} == {c.action.name for c in expected}
    hint = Hints().rows(position)  # ranked by win chance, as the game's Hint ranks them
    assert [(c["action"], c["win"]) for c in body["choices"]] == [(r.action, r.win) for r in hint]
    assert body["best"] == hint[0].action
    assert body["grill"] == [t for t in range(21, 37) if t != 30]
    after = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "WW", "rolled": None})
    assert {c["action"] for c in after.json()["choices"]} == {"roll", "stop"}
    bust = client.post(f"/api/sheets/{sheet['id']}/dice", json={"kept": "WW", "rolled": "WWWWWW"})
    assert {k: bust.json()[k] for k in ("phase", "reason", "rule")} == {
        "phase": "bust",
        "reason": "no_new_face",
        "rule": "R7",
    }
    for dice, code, rule, params in [
        ({"kept": "WW", "rolled": "12"}, "rolled_count", "R5", {"given": 2, "count": 6}),
        ({"kept": "X"}, "not_a_face", "R2", {"char": "X"}),
        ({"kept": "12345W"}, "turn_already_over", "R8", {}),
    ]:
        refused = client.post(f"/api/sheets/{sheet['id']}/dice", json=dice)
        refused_http(refused, 400, code, rule, **params)
    too_many = client.post(f"/api/sheets/{sheet['id']}/dice", json={"rolled": "1234512345"})
    invalid(too_many, "string_too_long", loc=["body", "rolled"])


def test_a_sheet_opens_only_with_its_key_and_no_request_lists_sheets(client):
    created = client.post("/api/sheets", json={"names": ["Ann", "Bob"]})
    sheet = created.json()
    key, path = sheet["key"], f"/api/sheets/{sheet['id']}"
    assert len(key) >= 20 and sheet["link"] == f"/keeper/{sheet['id']}#{key}"
    assert client.get(path, headers={"Sheet-Key": key}).json()["names"] == ["Ann", "Bob"]

    # Without the key, or with another one, the sheet is not there: the same 404 as a sheet
    # that does not exist, and nothing is changed.
    missing = client.get("/api/sheets/nope", headers={"Sheet-Key": key})
    refused_http(missing, 404, "no_sheet")
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


@pytest.mark.empty_database  # the old version's tables are made here
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
        db.exec_driver_sql(  # seats and moves came with games, from the first version on
            "CREATE TABLE seats (game_id VARCHAR(32) NOT NULL REFERENCES games (id), "
            "seat INTEGER NOT NULL, name VARCHAR(64) NOT NULL, bot VARCHAR(32), "
            "token VARCHAR(64), claimed BOOLEAN NOT NULL, PRIMARY KEY (game_id, seat))"
        )
        db.exec_driver_sql(
            "CREATE TABLE moves (game_id VARCHAR(32) NOT NULL REFERENCES games (id), "
            "seq INTEGER NOT NULL, move VARCHAR(32) NOT NULL, PRIMARY KEY (game_id, seq))"
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


def test_a_sheet_saved_as_a_file_goes_on_as_a_new_sheet_with_its_turns(client):
    sheet = new_sheet(client, rules="short", start_player=2)
    for entry in ("take 25", "steal 25", "bust"):
        sheet = enter(client, sheet, entry)
    client.post(f"/api/sheets/{sheet['id']}/undo").raise_for_status()
    record = client.get(f"/api/sheets/{sheet['id']}/record").json()
    assert ScoreSheet.from_dict(record).undone == ["bust"]

    key = client.headers.pop("Sheet-Key")
    refused_http(client.get(f"/api/sheets/{sheet['id']}/record"), 404, "no_sheet")  # no key
    copy = client.post("/api/sheets/import", json={**record, "names": [" Ann ", "Bob", "Cy"]})
    assert copy.status_code == 201, copy.text
    made = copy.json()
    assert made["id"] != sheet["id"] and made["key"] != key
    client.headers["Sheet-Key"] = made["key"]
    shown = client.get(f"/api/sheets/{made['id']}").json()
    original = ScoreSheet.from_dict(record)
    assert shown["table"]["stacks"] == original.state.stacks and shown["count"] == 2
    assert shown["names"] == ["Ann", "Bob", "Cy"]  # trimmed as the form trims them
    assert client.post(f"/api/sheets/{made['id']}/redo").json()["count"] == 3


def test_a_file_that_is_not_a_sheet_is_refused_and_nothing_is_made(client, database):
    good = ScoreSheet(["Ann", "Bob"]).to_dict()
    refused_http(
        client.post("/api/sheets/import", json={**good, "format": "pickomino-game"}),
        400, "not_a_sheet_file",
    )  # fmt: skip
    refused_http(
        client.post("/api/sheets/import", json={**good, "entries": ["take 40"]}),
        400, "not_a_sheet_file",
    )  # fmt: skip
    invalid(client.post("/api/sheets/import", json=[good]), "dict_type")
    invalid(
        client.post("/api/sheets/import", json={**good, "names": ["Ann", "B" * 25]}),
        "string_too_long",
    )
    invalid(client.post("/api/sheets/import", json={**good, "names": ["Ann", "ann"]}), "same_name")
    hidden = {**good, "names": ["Ann", "Bo\u200bb"]}  # a zero-width space: two Bobs in a log
    invalid(client.post("/api/sheets/import", json=hidden), "unprintable_name")
    engine = sa.create_engine(database_url(database))
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM sheets")).scalar() == 0
    engine.dispose()


def test_the_dice_helper_and_the_changes_are_limited_per_address(database: str):
    """An audit's flood: the dice helper (a search, up to half a second at a big table) and
    entries (each storing the whole sheet) had no limit. Ten at once, then at a pace."""
    with TestClient(create_app(database, new_games_per_minute=1)) as client:
        sheet = new_sheet(client)
        dice = f"/api/sheets/{sheet['id']}/dice"
        asked = [client.post(dice, json={"rolled": "1135WW44"}) for _ in range(11)]
        assert [answer.status_code for answer in asked[:10]] == [200] * 10
        refused_http(asked[10], 429, "too_many_lookups")
        changes = [
            client.post(f"/api/sheets/{sheet['id']}/{step}", json=body)
            for step, body in [("entries", {"entry": "bust"}), ("undo", {})] * 5
        ]
        assert [answer.status_code for answer in changes] == [200] * 10
        refused_http(
            client.post(f"/api/sheets/{sheet['id']}/redo", json={}), 429, "too_many_lookups"
        )
        elsewhere = TestClient(client.app, client=("198.51.100.4", 50000))
        elsewhere.headers["Sheet-Key"] = client.headers["Sheet-Key"]
        assert elsewhere.post(dice, json={"rolled": "1135WW44"}).status_code == 200
        # An audit: reading a sheet of a thousand entries (milliseconds to replay) from 40
        # connections of one address, unlimited, made every other page wait most of a second.
        reads = [
            client.get(f"/api/sheets/{sheet['id']}" + ("/record" if n % 2 else ""))
            for n in range(11)
        ]
        assert [answer.status_code for answer in reads[:10]] == [200] * 10
        refused_http(reads[10], 429, "too_many_lookups")
        assert elsewhere.get(f"/api/sheets/{sheet['id']}").status_code == 200


def test_one_address_makes_so_many_sheets_a_day(database: str):
    """An audit: twenty addresses imported sheets of a thousand entries (12 KB each, kept for
    good) at the creations' pace: 177 MB a day from one address. One network makes
    ``sheets_per_address`` sheets a day, new or imported, refused before the import is
    replayed; another address is not held back, and the day after counts anew."""
    with TestClient(create_app(database, sheets_per_address=2)) as client:
        first = new_sheet(client)
        record = client.get(f"/api/sheets/{first['id']}/record").json()
        assert client.post("/api/sheets/import", json=record).status_code == 201
        more = {"names": ["Ann", "Bob"]}
        refused_http(client.post("/api/sheets", json=more), 429, "too_many_sheets", most=2)
        refused_http(client.post("/api/sheets/import", json={}), 429, "too_many_sheets", most=2)
        elsewhere = TestClient(client.app, client=("198.51.100.4", 50000))
        assert elsewhere.post("/api/sheets", json=more).status_code == 201
        engine = sa.create_engine(database_url(database))
        with engine.begin() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM sheets")).scalar() == 3
            connection.execute(sa.text("UPDATE sheets SET created = created - 86401"))
        engine.dispose()
        assert client.post("/api/sheets", json=more).status_code == 201


def test_sheets_asked_for_at_once_pass_the_cap_no_further_and_are_made_off_the_loop(
    database: str, monkeypatch
):
    """A review: ten requests at once from one address made six sheets where one was allowed
    (counted, then stored apart, in worker threads: making or importing a sheet replays it,
    22 ms for 1,000 entries, never on the event loop)."""
    with TestClient(create_app(database, sheets_per_address=1)) as client:
        sheets = client.app.state.rooms.store.sheets
        real_create, real_count = sheets.create, sheets.made_from
        made_in: list[str] = []
        monkeypatch.setattr(
            sheets, "create", lambda *a: made_in.append(where_running()) or real_create(*a)
        )
        counted = threading.Barrier(10, timeout=20)  # each request has counted before any stores

        def count_then_wait(*args):
            made = real_count(*args)
            counted.wait()
            return made

        monkeypatch.setattr(sheets, "made_from", count_then_wait)
        answers: list[int] = []

        def ask() -> None:
            answers.append(client.post("/api/sheets", json={"names": ["A", "B"]}).status_code)

        asking = [threading.Thread(target=ask) for _ in range(10)]
        for request in asking:
            request.start()
        for request in asking:
            request.join()
        assert sorted(answers) == [201] + [429] * 9
        monkeypatch.setattr(sheets, "made_from", real_count)
        record = ScoreSheet(["Ann", "Bob"]).to_dict()
        elsewhere = TestClient(client.app, client=("198.51.100.4", 50000))
        assert elsewhere.post("/api/sheets/import", json=record).status_code == 201
    assert set(made_in) == {"in a worker thread, AnyIO worker thread"}, made_in


def test_the_addresses_of_one_ipv6_site_share_a_few_addresses_worth_of_sheets(database: str):
    """An audit: 2,000 /64s of one /48 (anyone may be given one: 65,536 /64s) made 20,000
    sheets where one address makes 10 a minute; at 100 a day each, sheets of 12 KB kept for
    good. A site's /64s share SITE_SHARE addresses' worth, a minute and a day."""
    with TestClient(create_app(database, sheets_per_address=1)) as client:
        more = {"names": ["Ann", "Bob"]}
        made = [
            TestClient(client.app, client=(f"2001:db8:9:{n}::1", 50000)).post(
                "/api/sheets", json=more
            )
            for n in range(SITE_SHARE + 1)
        ]
        assert [answer.status_code for answer in made] == [201] * SITE_SHARE + [429]
        refused_http(made[-1], 429, "too_many_sheets", most=1)
        elsewhere = TestClient(client.app, client=("2001:db8:a::1", 50000))
        assert elsewhere.post("/api/sheets", json=more).status_code == 201
    with TestClient(create_app(database, new_games_per_minute=1)) as client:
        asked = [  # ten at once from an address, its site's eight addresses' worth
            TestClient(client.app, client=(f"2001:db8:b:{n}::1", 50000)).post(
                "/api/sheets", json=more
            )
            for n in range(10 * SITE_SHARE + 1)
        ]
        statuses = [answer.status_code for answer in asked]
        assert statuses == [201] * 10 * SITE_SHARE + [429], statuses
        refused_http(asked[-1], 429, "too_many_new_games")


def test_the_dice_helper_reads_the_sheet_in_its_turn_off_the_event_loop(client, monkeypatch):
    """An audit: a dice request replayed its sheet (10 ms for 1,000 entries) on the event
    loop before its turn among the searches, requests then refused as too many included
    (another player's ping p99 240 ms). It is read in the searches' thread, once its turn
    comes; a request refused before then reads nothing, and a wrong key waits for no turn."""
    read_in: list[str] = []
    real_open, real_advise = keeper_api.open_sheet, keeper_api.advise
    monkeypatch.setattr(
        keeper_api, "open_sheet", lambda *a: read_in.append(where_running()) or real_open(*a)
    )
    release = threading.Event()
    monkeypatch.setattr(keeper_api, "advise", lambda *a: release.wait(20) and real_advise(*a))
    sheet = new_sheet(client)  # the client carries its key
    dice = f"/api/sheets/{sheet['id']}/dice"
    answers: list[int] = []
    asking = [
        threading.Thread(target=lambda: answers.append(client.post(dice, json={}).status_code))
        for _ in range(2)  # as many as one address may have asked
    ]
    searches = client.app.state.searches
    try:
        for n, request in enumerate(asking, 1):
            request.start()
            wait_until(lambda n=n: searches._asked.total() == n, "the search asked")
        refused_http(client.post(dice, json={}), 429, "too_many_lookups")
        assert read_in == ["in a worker thread, searches"]  # the first, in its turn
        # a review: a wrong key waited for the search under way, then 503 (404 before)
        wrong = client.post(dice, json={}, headers={"Sheet-Key": "wrong"})
        refused_http(wrong, 404, "no_sheet")
    finally:
        release.set()
        for request in asking:
            request.join()
    assert answers == [200, 200] and read_in == ["in a worker thread, searches"] * 2


def test_a_sheet_read_again_unchanged_is_not_replayed_again(client, monkeypatch):
    """An audit: a 1,000-entry sheet replayed on every read (14 ms each, on the event loop)
    slowed everyone's moves. Read again unchanged, its view is the one made; changed, it is
    replayed."""
    replays = []
    real = keeper_api.open_sheet
    monkeypatch.setattr(keeper_api, "open_sheet", lambda *a: replays.append(1) or real(*a))
    sheet = new_sheet(client)  # the client carries its key
    path = f"/api/sheets/{sheet['id']}"
    views = [client.get(path).json() for _ in range(3)]
    assert views[0] == views[1] == views[2] and len(replays) == 1
    enter(client, sheet, "bust")
    assert client.get(path).json()["count"] == 1
