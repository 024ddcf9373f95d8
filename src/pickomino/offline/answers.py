"""The score keeper's API answered in the browser: the offline app's pages ask what they ask
the server (``/api/options``, ``/api/sheets``…, see :mod:`pickomino.web.api.keeper`) and get
the same views and refusals, computed here by Pyodide with the same engine; the page keeps
each sheet in the browser's IndexedDB. Only the core, the table and the solver are imported
(no web framework, no NumPy).

A request is answered as JSON ``{"status", "data"}``, plus ``"keep": {"store", "id",
"data", "over", "view"}`` when a sheet (store ``sheets``) or a solo game (store ``games``, see
:mod:`pickomino.offline.solo`) changed and is to be stored: the page passes the stored sheet or
game the path names (``stored``) and keeps what comes back; the stored view lets the page show
a sheet at its next start while Python is still starting, and list the games.
A solo game's table speaks the game socket's protocol instead (:func:`play`).

>>> reply = json.loads(answer("POST", "/api/sheets", '{"names": ["Ann", "Bob"]}'))
>>> reply["status"], reply["data"]["names"], reply["data"]["link"] == "#" + reply["keep"]["id"]
(201, ['Ann', 'Bob'], True)
>>> sheet = reply["keep"]["data"]
>>> path = f"/api/sheets/{reply['keep']['id']}/entries"
>>> json.loads(answer("POST", path, '{"entry": "take 40", "count": 0}', sheet))["data"]
{'detail': {'id': 'not_a_result', 'rule': 'R11', 'params': {'action': 'take 40'}}}
"""

from __future__ import annotations

import json
import random
import re
import secrets
from typing import Any

from pickomino.core import GameRecord, PickominoError, RecordError, Rules
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS
from pickomino.offline.solo import LEVELS, SoloRefusal, SoloTable, new_game
from pickomino.solver.advice import advice_report
from pickomino.table.sheet import ScoreSheet
from pickomino.table.sheet_requests import SheetRefusal, advise, change, imported, open_sheet
from pickomino.table.view import replay_frames, sheet_view

#: ``/api/sheets/{id}`` and what follows it.
SHEET_PATH = re.compile(r"^/api/sheets/(?P<id>[^/]+)(?:/(?P<step>entries|undo|redo|dice|record))?$")
#: What the table page asks about a solo game (its end panel: the replay, the record).
GAME_PATH = re.compile(r"^/api/games/(?P<id>[^/]+)/(?P<step>replay|record)$")
#: The requests that only read a sheet.
READING = (None, "record")
#: A name as the server's form takes it: trimmed, 1 to 24 characters.
LONGEST_NAME = 24


class Invalid(Exception):
    """A request the server's form would answer with 422: its problems, as pydantic's."""

    def __init__(self, *problems: dict[str, Any]) -> None:
        super().__init__(problems)
        self.problems = list(problems)


def answer(method: str, path: str, body: str | None = None, stored: str | None = None) -> str:
    """One request of a page, answered as the server would (see the module's docstring)."""
    try:
        asked = json.loads(body) if body else {}
        if not isinstance(asked, dict):
            raise Invalid(_problem("dict_type", []))
        reply = _route(method, path, asked, stored)
    except json.JSONDecodeError:
        reply = {"status": 422, "data": {"detail": [_problem("json_invalid", [])]}}
    except Invalid as invalid:
        reply = {"status": 422, "data": {"detail": invalid.problems}}
    except SheetRefusal as refusal:
        reply = {"status": refusal.status, "data": {"detail": refusal.to_dict()}}
    except PickominoError as error:  # the rules text, say
        reply = {"status": 400, "data": {"detail": error.to_dict()}}
    return json.dumps(reply)


def _route(method: str, path: str, body: dict[str, Any], stored: str | None) -> dict[str, Any]:
    if (method, path) == ("GET", "/api/options"):
        return {"status": 200, "data": options()}
    if (method, path) == ("POST", "/api/sheets"):
        return _kept(secrets.token_urlsafe(6), _new_sheet(body), status=201)
    if (method, path) == ("POST", "/api/sheets/import"):
        sheet = imported(body)
        _new_sheet({"names": sheet.names, "start_player": sheet.start_player})  # the form's checks
        return _kept(secrets.token_urlsafe(6), sheet, status=201)
    if (method, path) == ("POST", "/api/games"):
        return _new_game(body)
    game = GAME_PATH.match(path)
    if game is not None and method == "GET":
        return _game_file(game["id"], game["step"], stored)
    match = SHEET_PATH.match(path)
    if match is None or (method == "GET") != (match["step"] in READING):
        raise SheetRefusal(404, "no_sheet")
    if stored is None:
        raise SheetRefusal(404, "no_sheet")
    sheet_id, step = match["id"], match["step"]
    count, revision = body.get("count"), body.get("revision")
    sheet = open_sheet(
        stored,
        count if type(count) is int else None,
        revision if isinstance(revision, str) else None,
    )
    if step is None:
        return {"status": 200, "data": sheet_view(sheet_id, sheet)}
    if step == "record":
        return {"status": 200, "data": sheet.to_dict()}
    if step == "dice":
        kept, rolled = body.get("kept") or "", body.get("rolled")
        for field, value in (("kept", kept), ("rolled", rolled)):
            if value is not None and not isinstance(value, str):
                raise Invalid(_problem("string_type", [field]))
        report = advise(sheet, kept, rolled, advice_report)
        return {"status": 200, "data": report}
    change(sheet, step, str(body.get("entry", "")))
    return _kept(sheet_id, sheet)


def options() -> dict[str, object]:
    """What the set-up forms offer: the presets, the rule options, the table sizes, the bots."""
    return {
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "rules": [option.to_dict() for option in Rules.options()],
        "players": [MIN_PLAYERS, MAX_PLAYERS],
        "levels": list(LEVELS),
    }


def play(stored: str, message: str, shown: int = 0) -> str:
    """A message of a solo game's table page (the socket protocol's ``join``, ``sync``,
    ``act``, ``hint``, ``step``) answered as ``{"messages": […]}``, plus ``"keep"`` when the
    game moved; ``shown``: how many log entries the page has. A stored game that cannot be
    read is answered with an error, and stays stored as it was."""
    try:
        table = _last_answered.pop(stored, None) or SoloTable(stored)
    except PickominoError as error:
        damaged = {"type": "error", **SoloRefusal("game_damaged", why=error).to_dict()}
        return json.dumps({"messages": [damaged]})
    try:
        asked = json.loads(message)
    except json.JSONDecodeError:
        asked = None
    if not isinstance(asked, dict):
        return json.dumps({"messages": []})
    seq = table.seq
    reply: dict[str, Any] = {"messages": table.answer(asked, shown)}
    if table.seq != seq:
        reply["keep"] = _kept_game(table)
    _last_answered.clear()
    _last_answered[reply["keep"]["data"] if "keep" in reply else stored] = table
    return json.dumps(reply)


#: The game answered last, by the stored record it stands for: the next message about that
#: record (a bot's next step) is answered without replaying the record (a long game's 700
#: moves take 8 ms natively, 20 ms in the browser).
_last_answered: dict[str, SoloTable] = {}


def _new_game(body: dict[str, Any]) -> dict[str, Any]:
    seats = body.get("seats")
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise Invalid(_problem("list_type", ["seats"]))
    names = _checked_names([seat.get("name") for seat in seats], "seats", "name")
    start = _check_start(body.get("start_player", 0), len(names))
    try:
        made = new_game({**body, "start_player": start}, names)
    except SoloRefusal as refusal:
        raise SheetRefusal.of(400, refusal) from None
    table = SoloTable(made.record.to_json())
    keep = _kept_game(table)
    return {
        "status": 201,
        "data": {"id": keep["id"], "link": f"play.html#{keep['id']}"},
        "keep": keep,
    }


def _kept_game(table: SoloTable) -> dict[str, Any]:
    record = table.game.record
    game_id = record.meta.setdefault("id", secrets.token_urlsafe(6))
    return {
        "store": "games",
        "id": game_id,
        "data": record.to_json(indent=None),
        "over": table.game.state.is_over,
        "view": table.summary(),
    }


def _game_file(game_id: str, step: str, stored: str | None) -> dict[str, Any]:
    if stored is None:
        raise SheetRefusal(404, "no_game", id=game_id)
    try:
        record = GameRecord.from_json(stored)
    except RecordError as error:
        raise SheetRefusal(500, "game_damaged", why=error) from None
    if step == "record":
        return {"status": 200, "data": record.to_dict()}
    return {"status": 200, "data": {"frames": replay_frames(record)}}


def _kept(sheet_id: str, sheet: ScoreSheet, status: int = 200) -> dict[str, Any]:
    view = sheet_view(sheet_id, sheet)
    data = {**view, "key": "", "link": f"#{sheet_id}"} if status == 201 else view
    keep = {
        "store": "sheets",
        "id": sheet_id,
        "data": json.dumps(sheet.to_dict()),
        "over": sheet.state.is_over,
        "view": view,  # shown at the next start, before Python is up
    }
    return {"status": status, "data": data, "keep": keep}


def _new_sheet(body: dict[str, Any]) -> ScoreSheet:
    """A new sheet from the set-up form, checked as the server's form checks the names (a
    sheet in one's own browser needs no guard against look-alike names)."""
    trimmed = _checked_names(body.get("names"), "names")
    rules = Rules.parse(str(body.get("rules") or "official"))
    start = _check_start(body.get("start_player", 0), len(trimmed))
    return ScoreSheet(trimmed, rules, start)


def _checked_names(names: Any, field: str, key: str | None = None) -> list[str]:
    """The players' names as the server's forms take them (trimmed, 1 to 24 characters, no
    name twice); a problem names ``field``, the seat's number and ``key`` (if the names are
    a field of each seat)."""
    limits = {"min_length": MIN_PLAYERS, "max_length": MAX_PLAYERS}
    if not isinstance(names, list):
        raise Invalid(_problem("list_type", [field]))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        too = "too_short" if len(names) < MIN_PLAYERS else "too_long"
        raise Invalid(_problem(too, [field], {**limits, "actual_length": len(names)}))
    trimmed = []
    for seat, name in enumerate(names):
        where = [field, seat] if key is None else [field, seat, key]
        if not isinstance(name, str):
            raise Invalid(_problem("string_type", where))
        name = name.strip()
        if not name:
            raise Invalid(_problem("string_too_short", where, {"min_length": 1}))
        if len(name) > LONGEST_NAME:
            raise Invalid(_problem("string_too_long", where, {"max_length": LONGEST_NAME}))
        trimmed.append(name)
    seen: dict[str, int] = {}
    for number, name in enumerate(trimmed, start=1):
        if name.casefold() in seen:
            first = seen[name.casefold()]
            group = [first, number]
            ctx: dict[str, Any] = {
                "players": group,
                "name": name,
                "group": group,
                "groups": [{"players": group, "name": name}],
            }
            raise Invalid(_problem("same_name", [], ctx))
        seen[name.casefold()] = number
    return trimmed


def _check_start(start: Any, players: int) -> int:
    """The start player's seat (``"random"``: one drawn), or the form's problem."""
    if start == "random":
        start = random.randrange(players)
    if type(start) is not int or not 0 <= start < players:
        raise Invalid(_problem("start_seat", ["start_player"], {"high": players - 1}))
    return start


def _problem(kind: str, where: list[Any], ctx: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": kind, "loc": ["body", *where], "ctx": ctx or {}}
