"""Nothing the server sends is English (or any language): over the WebSocket and in every
JSON answer it sends data and message ids, and serves the catalogues the pages word them
from (issue 15)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from pickomino.core import Rules
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.web import create_app

from .clients import create, follow, refused_http
from .server_process import ServerProcess
from .wire import check_entry, check_message, check_ranking, check_refusal, check_table, words_in

DEADLINE = 60  # seconds to wait for one message from a live server (a bound, not a timing)
#: One of each mistake a page (or a script) can make, and the refusal it gets.
MISTAKES = [
    ({"type": "act", "action": "stop", "seq": 0}, "no_stop_now"),
    ({"type": "act", "action": "roll", "seq": 7}, "stale"),
    ({"type": "act", "action": "dice WWWWWWWW", "seq": 0}, "dice_not_typed"),
    ({"type": "act", "action": "fly", "seq": 0}, "not_an_action"),
    ({"type": "act", "action": "roll"}, "bad_message"),
    ({"type": "dance"}, "unknown_message"),
    ("[1, 2]", "not_json_object"),
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "games.sqlite3", bot_delay=0, new_games_per_minute=1e6)
    with TestClient(app) as test_client:
        yield test_client


class Listener:
    """A WebSocket client that keeps every message it hears (and its log whole)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws, self.heard = ws, []

    def send(self, message: dict | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def next(self, kind: str) -> dict:
        """The next message of ``kind``, a change given as the state it makes."""
        while True:
            heard = json.loads(self.ws.recv(timeout=DEADLINE))
            self.heard.append(heard)  # as it came: the wire format is checked on these
            message = follow(self, dict(heard))
            if message["type"] == kind:
                return message


@pytest.mark.slow  # a real server process
def test_a_whole_game_over_a_real_socket_is_data_and_ids_only(instant_bots: ServerProcess):
    seats = [{"name": "Ann"}, {"name": "Robo", "bot": "hard"}]
    spec = {"seats": seats, "start_player": 0}
    game = httpx.post(instant_bots.url + "/api/games", json=spec).json()
    link = instant_bots.ws_url + game["seats"][0]["link"].replace("/games/", "/ws/games/", 1)
    with (
        connect(link, open_timeout=10) as ann_socket,
        connect(f"{instant_bots.ws_url}/ws/games/{game['id']}", open_timeout=10) as watcher_socket,
    ):
        ann, watcher = Listener(ann_socket), Listener(watcher_socket)
        state = ann.next("state")
        for mistake, code in MISTAKES:  # each answered, in Ann's turn at the first roll
            ann.send(mistake)
            assert ann.next("error")["id"] == code
        for message, answer in [({"type": "sync"}, "state"), ({"type": "ping"}, "pong")]:
            ann.send(message)
            ann.next(answer)
        sent = -1
        while not state["table"]["over"]:
            if state["actions"] and state["table"]["current"] == 0 and state["seq"] != sent:
                ann.send({"type": "hint"})
                ann.next("hint")
                ann.send({"type": "act", "action": state["actions"][0], "seq": state["seq"]})
                sent = state["seq"]
            state = ann.next("state")
        while not (seen := watcher.next("state"))["table"]["over"]:
            pass
    assert seen["full_log"] == state["full_log"] and state["full_log"][-1]["type"] == "game_over"
    allowed = {"Ann", "Robo", game["id"]}
    for message in ann.heard + watcher.heard:
        check_message({k: v for k, v in message.items() if k != "full_log"}, allowed)
    for entry in state["full_log"]:
        check_entry(entry)
    kinds = {message["type"] for message in ann.heard}
    assert kinds == {"welcome", "state", "change", "error", "hint", "pong"}

    listed = httpx.get(instant_bots.url + "/api/games").json()
    assert words_in(listed, allowed) == [] and "result" not in listed[0]
    check_ranking(listed[0]["ranking"], listed[0]["tie_break"])
    frames = httpx.get(f"{instant_bots.url}/api/games/{game['id']}/replay").json()["frames"]
    for frame in frames:
        check_table(frame["table"])
        for entry in frame["log"]:
            check_entry(entry)
    assert words_in(frames, allowed) == []


def test_every_route_family_refuses_with_an_id_and_no_words(client: TestClient, tmp_path: Path):
    seats = [{"name": "Ann"}, {"name": "Guest", "open": True}, {"name": "Bob"}]
    game = create(client, {"seats": seats})
    sheet = client.post("/api/sheets", json={"names": ["Ann", "Bob"]}).json()
    key, path = {"Sheet-Key": sheet["key"]}, f"/api/sheets/{sheet['id']}"
    client.post(f"{path}/entries", json={"entry": "take 25"}, headers=key)
    two = [{"name": "A"}, {"name": "B"}]
    entry = f"{path}/entries"
    refusals = [
        (client.post("/api/games", json={"seats": two, "rules": "chess"}), 400, "unknown_preset"),
        (client.post("/api/games/nope/join", json={"name": "Cy"}), 404, "no_game"),
        (client.post(f"/api/games/{game['id']}/join", json={"name": "bob"}), 409, "name_taken"),
        (client.get("/api/games/nope/record"), 404, "no_game"),
        (client.get("/api/games/nope/replay"), 404, "no_game"),
        (client.get(path), 404, "no_sheet"),  # no key
        (client.get(path, headers={"Sheet-Key": "guess"}), 404, "no_sheet"),
        (client.post(f"{path}/undo", json={"count": 0}, headers=key), 409, "sheet_changed"),
        (client.post(f"{path}/redo", headers=key), 409, "nothing_to_redo"),
        (client.post(entry, json={"entry": "take 25"}, headers=key), 400, "take_from_stack"),
        (client.post(entry, json={"entry": "fly"}, headers=key), 400, "not_a_result"),
        (client.post(f"{path}/dice", json={"kept": "X"}, headers=key), 400, "not_a_face"),
        (client.post(f"{path}/dice", json={"rolled": "12"}, headers=key), 400, "rolled_count"),
        (client.post("/api/games", content=b"{" * 20_000), 413, "body_too_big"),
        (client.get("/i18n/tlh/game.json"), 404, "no_language"),
        (client.get("/api/nope"), 404, "no_page"),
        (client.delete("/api/games"), 405, "method_not_allowed"),
    ]  # fmt: skip
    join = f"/api/games/{game['id']}/join"
    assert client.post(join, json={"name": "Cy"}).status_code == 200
    refusals.append((client.post(join, json={"name": "Di"}), 409, "no_open_seat"))
    with TestClient(create_app(tmp_path / "limited.sqlite3", new_games_per_minute=1)) as limited:
        answers = [limited.post("/api/games", json={"seats": two}) for _ in range(11)]
        refusals.append((answers[-1], 429, "too_many_new_games"))
    for response, status, code in refusals:
        assert response.status_code == status, response.text
        detail = response.json()["detail"]
        assert detail["id"] == code, detail
        check_refusal(detail)
        assert words_in(detail, {"bob", "X"}) == [], detail  # what was sent, quoted back


def test_the_catalogues_and_the_rules_are_served_in_every_language(client: TestClient):
    languages = client.get("/i18n/languages.json")
    assert languages.json() == LANGUAGES and set(LANGUAGES) == {"en", "de", "fr", "nl", "fi", "da"}
    for kind in ("game", "web"):
        words = client.get(f"/i18n/en/{kind}.json")
        assert words.status_code == 200 and words.json() == catalogue("en", kind)
        assert "max-age" in words.headers["cache-control"]
    for language in LANGUAGES:
        rules = client.get(f"/i18n/{language}/rules.html")
        assert rules.status_code == 200 and rules.headers["content-type"].startswith("text/html")
        assert 'id="R7"' in rules.text and 'id="R21"' in rules.text, language
    german = client.get("/i18n/de/game.json").json()  # each edition's own name
    assert german == catalogue("de", "game") and german["game.name"] == "Heckmeck am Bratwurmeck"


@pytest.mark.parametrize(
    "path", ["/i18n/tlh/game.json", "/i18n/xx/rules.html", "/i18n/%2E%2E/game.json"]
)
def test_an_unknown_language_is_a_404_with_an_id(client: TestClient, path: str):
    refused_http(client.get(path), 404, "no_language")


def test_an_unknown_language_is_quoted_with_nothing_invisible(client: TestClient):
    """An audit: the language asked for came back as sent, a right-to-left mark included."""
    answer = client.get("/i18n/e%E2%80%AEn/game.json")
    assert refused_http(answer, 404, "no_language")["params"]["language"] == "e\ufffdn"


@pytest.mark.parametrize(
    "path",
    [
        "/i18n/en/terminal.json",  # a catalogue the pages have no use for
        "/i18n/en/../x.json",
        "/i18n/en/%2E%2E%2F__init__.json",
        "/i18n/en/..%2F..%2Fweb%2F__init__.json",
        "/i18n/..%2Fen/game.json",
        "/i18n/en/rules.md",
        "/i18n/en/game.json%00",
    ],
)
def test_no_other_file_is_served_from_the_catalogues(client: TestClient, path: str):
    response = client.get(path)
    assert response.status_code in (404, 422), (path, response.text)
    if response.status_code == 404:
        check_refusal(response.json()["detail"])
    else:
        assert response.json()["detail"][0]["type"] == "literal_error"
    terminal = catalogue("en", "terminal")
    assert not any(text in response.text for text in list(terminal.values())[:20])
    assert "LANGUAGES" not in response.text and "import" not in response.text


def test_the_keepers_answers_and_the_options_hold_no_words(client: TestClient):
    names = ["Ann", "Bob"]
    sheet = client.post("/api/sheets", json={"names": names}).json()
    key, path = {"Sheet-Key": sheet.pop("key")}, f"/api/sheets/{sheet['id']}"
    allowed = {*names, sheet["id"], sheet.pop("link")}
    answers = [sheet]
    for entry in ("take 25", "steal 25", "bust", "take 30"):
        answers.append(client.post(f"{path}/entries", json={"entry": entry}, headers=key).json())
    answers.append(client.post(f"{path}/undo", headers=key).json())
    views = [*answers, client.get(path, headers=key).json()]
    for view in views:  # its revision is a fingerprint (data), as its id is
        assert words_in(view, {*allowed, view["revision"]}) == [], view
        check_table(view["table"])
        for entry in view["log"]:
            check_entry(entry)
        assert {option["kind"] for option in view["options"]} <= {"take", "steal", "bust"}
    reports = [
        client.post(f"{path}/dice", json=dice, headers=key).json()
        for dice in ({"kept": ""}, {"rolled": "1234WW55"}, {"kept": "W", "rolled": "WWWWWWW"})
    ]
    assert [report["phase"] for report in reports] == ["roll", "keep", "bust"]
    assert (reports[-1]["reason"], reports[-1]["rule"]) == ("no_new_face", "R7")
    assert words_in(reports) == []
    message_ids = [option.key for option in Rules.options()]  # ids the page words itself
    assert words_in(client.get("/api/options").json(), message_ids) == []
