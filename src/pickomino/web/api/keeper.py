"""The score keeper's API: sheets of games played with the real box, stored whole after
every change, and the dice helper for the real dice (see :mod:`pickomino.table.sheet`).

A sheet is reached by its link, ``/keeper/{id}#{key}``: every request about a sheet carries
the key in the ``Sheet-Key`` header (the part after ``#`` never reaches a server, and headers
stay out of access logs). Without the right key a sheet answers 404, as one that does not
exist, and no request lists sheets: a browser remembers the sheets it created or opened.

- ``POST /api/sheets`` ``{"names": ["Ann", "Bob"], "rules": "official", "start_player": 0}``
  → the sheet with its ``key`` and ``link`` (shown only here); 429 ``too_many_sheets`` past
  the sheets one address may make a day
- ``GET /api/sheets/{id}``, and ``GET /api/sheets/{id}/record``: the sheet as a file
  (``ScoreSheet.to_dict()``, what ``pickomino analyse`` reads); limited per address (a sheet
  of a thousand entries costs milliseconds to replay)
- ``POST /api/sheets/import`` with such a record (saved here or by the offline app): a new
  sheet with its entries, answered as ``POST /api/sheets`` is
- ``POST /api/sheets/{id}/entries`` ``{"entry": "take 26" | "steal 27" | "bust", "count": n,
  "revision": "…"}`` (``count``: the number of entries the client saw, so a double tap is not
  entered twice; ``revision``: the view's, so a page out of date is refused even when the
  count is the same: another phone undid an entry and made another)
- ``POST /api/sheets/{id}/undo`` and ``/redo`` (optional body ``{"count": n, "revision": "…"}``)
- ``POST /api/sheets/{id}/dice`` ``{"kept": "WW4", "rolled": "1145W", "count": n, "revision":
  "…"}``: what to keep, and whether to roll or stop, for the current player: each choice with
  its win chance (best first) and the turn's odds
  (:func:`pickomino.analysis.hint.advice_with_chances`).

Every answer about a sheet is its whole view, as data (its log as events, the results a
turn can have); a refusal is a 4xx whose ``detail`` is ``{"id", "params", "rule"}`` (see
:mod:`pickomino.web.errors`), and nothing was changed. The page words it all.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Header, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pickomino.analysis.hint import advice_with_chances
from pickomino.core import Rules
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS
from pickomino.table.sheet import ScoreSheet
from pickomino.table.sheet_requests import SheetRefusal, advise, change, imported, open_sheet
from pickomino.table.view import sheet_view
from pickomino.web.addresses import Counted
from pickomino.web.db.networks import Origin
from pickomino.web.db.sheets import StoredSheet
from pickomino.web.db.store import Store
from pickomino.web.errors import refusal, refused
from pickomino.web.forms import (
    GameSetup,
    Name,
    client_address,
    parse_rules,
    start_seat,
)
from pickomino.web.guard.searches import Searches

T = TypeVar("T")

#: The request header that carries a sheet's key.
SheetKey = Annotated[str | None, Header(alias="Sheet-Key")]


class NewSheet(GameSetup):
    names: Annotated[list[Name], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]

    def player_names(self) -> list[str]:
        return self.names


class Seen(BaseModel):
    """``count``: the number of entries the client's page shows, ``revision`` the sheet it
    shows (both optional); a request made on a page that is out of date is refused with 409
    instead of acting on another state."""

    model_config = ConfigDict(extra="forbid")
    count: Annotated[int, Field(ge=0)] | None = None
    revision: Annotated[str, Field(max_length=32)] | None = None


class Entry(Seen):
    entry: Annotated[str, Field(min_length=1, max_length=20)]


class Dice(Seen):
    kept: Annotated[str, Field(max_length=8)] = ""
    rolled: Annotated[str, Field(max_length=8)] | None = None


#: Score sheets one network may make (or import) a day (``serve --sheets-per-address``): a
#: club's evening of games behind one address fits many times; an audit's imports of sheets
#: of a thousand entries (12 KB each, kept for good) at the creations' pace stored 177 MB a
#: day from one address.
SHEETS_PER_ADDRESS = 100


def keeper_router(
    store: Store,
    limit_creations: Callable[[Request], None],
    limit_changes: Callable[[Request], None],
    limit_advice: Callable[[Request], None],
    limit_reads: Callable[[Request], None],
    searches: Searches,
    origin_of: Callable[[str], Origin],
    sheets_per_address: int = SHEETS_PER_ADDRESS,
) -> APIRouter:
    """``limit_creations`` per address for new sheets, ``limit_changes`` for entries, undo
    and redo (each stores the whole sheet), ``limit_reads`` for a sheet read (a page opened
    or woken up), ``limit_advice`` for the dice helper, whose
    search takes a core for up to half a second at a big table: one at a time in the server
    (``searches``, shared with the position explorer, in a bounded queue). One address
    (``origin_of`` it: its network and site, hashed) makes at most ``sheets_per_address``
    sheets a day, its site :data:`.SITE_SHARE` times that (429 ``too_many_sheets``)."""
    router = APIRouter(prefix="/api/sheets", tags=["score keeper"])

    def made_from(request: Request) -> Origin:
        """Where the asker is, refused if it made its day's sheets already."""
        origin = origin_of(client_address(request.client))
        if store.sheets.made_from(origin).reaches(sheets_per_address):
            raise too_many_sheets()
        return origin

    def too_many_sheets() -> HTTPException:
        return refused(429, "too_many_sheets", most=sheets_per_address)

    def opened(sheet_id: str, key: str | None) -> StoredSheet:
        stored = store.sheets.load(sheet_id)
        if stored is None or not _opens(stored.secret, key):
            # the same answer for both: a stranger cannot even learn which sheets exist
            raise refused(404, "no_sheet")
        return stored

    def load(sheet_id: str, key: str | None, seen: Seen | None = None) -> ScoreSheet:
        return read(opened(sheet_id, key), seen)

    def changed(
        sheet_id: str, key: str | None, seen: Seen | None, step: str, entry: str = ""
    ) -> dict[str, object]:
        """The sheet changed (see :func:`.change`), stored only if nobody else changed it
        since it was read (another process's request), else refused as out of date."""
        stored = opened(sheet_id, key)
        sheet = read(stored, seen)
        answering(change, sheet, step, entry)
        data = json.dumps(sheet.to_dict())
        if not store.sheets.save(sheet_id, data, _status(sheet), was=stored.data):
            raise refused(409, "sheet_changed")
        return sheet_view(sheet_id, sheet)

    @router.post("", status_code=201, dependencies=[Depends(limit_creations)])
    def create(spec: NewSheet, request: Request) -> dict[str, object]:
        rules: Rules = parse_rules(spec.rules)
        start = start_seat(spec.start_player, len(spec.names))
        return new(ScoreSheet(spec.names, rules, start), made_from(request))

    def new(sheet: ScoreSheet, origin: Origin) -> dict[str, object]:
        sheet_id, key = secrets.token_urlsafe(6), secrets.token_urlsafe(16)
        data = json.dumps(sheet.to_dict())
        full = partial(Counted.reaches, most=sheets_per_address)
        if not store.sheets.create(sheet_id, key, data, _status(sheet), (origin, full)):
            raise too_many_sheets()  # others made meanwhile (at the same moment)
        return {**sheet_view(sheet_id, sheet), "key": key, "link": f"/keeper/{sheet_id}#{key}"}

    @router.post("/import", status_code=201, dependencies=[Depends(limit_creations)])
    def import_sheet(record: dict[str, Any], request: Request) -> dict[str, object]:
        origin = made_from(request)  # before the sheet is replayed
        sheet = answering(imported, record)
        try:  # the names as the form takes them (a file may hold anything)
            names = NewSheet(names=sheet.names, start_player=sheet.start_player).names
        except ValidationError as invalid:
            raise RequestValidationError(invalid.errors()) from None
        entries = (sheet.entries, sheet.undone)
        return new(ScoreSheet(names, sheet.rules, sheet.start_player, *entries), origin)

    # Making, reading and changing a sheet replays it (14 ms for a 1,000-entry one, 22 ms an
    # undo or an import): in the server's worker threads, not on its event loop (plain
    # functions: FastAPI runs them there), and a sheet read again unchanged is not replayed
    # again. The dice helper's reads it in the searches' thread, once its turn comes.
    @router.get("/{sheet_id}", dependencies=[Depends(limit_reads)])
    def show(sheet_id: str, key: SheetKey = None) -> dict[str, object]:
        return _view(sheet_id, opened(sheet_id, key).data)

    @router.get("/{sheet_id}/record", dependencies=[Depends(limit_reads)])
    def record(sheet_id: str, key: SheetKey = None) -> dict[str, object]:
        return load(sheet_id, key).to_dict()

    @router.post("/{sheet_id}/entries", dependencies=[Depends(limit_changes)])
    def enter(sheet_id: str, body: Entry, key: SheetKey = None) -> dict[str, object]:
        return changed(sheet_id, key, body, "entries", body.entry)

    @router.post("/{sheet_id}/dice", dependencies=[Depends(limit_advice)])
    async def dice(
        sheet_id: str, body: Dice, request: Request, key: SheetKey = None
    ) -> dict[str, object]:
        stored = await asyncio.to_thread(opened, sheet_id, key)  # a wrong key waits for nothing
        address = client_address(request.client)  # the win chances may take a search
        return await searches.run(address, advised, stored, body)

    def advised(stored: StoredSheet, body: Dice) -> dict[str, object]:
        """The dice helper's answer, the sheet replayed first, in its turn (an audit's dice
        requests on sheets of 1,000 entries replayed each on the event loop before their
        turn, those then refused as too many included: another player's ping p99 240 ms)."""
        sheet = read(stored, body)
        return answering(advise, sheet, body.kept, body.rolled, advice_with_chances)

    # After /dice: this path would match it too.
    @router.post("/{sheet_id}/{step}", dependencies=[Depends(limit_changes)])
    def undo_or_redo(
        sheet_id: str, step: Literal["undo", "redo"], body: Seen | None = None, key: SheetKey = None
    ) -> dict[str, object]:
        return changed(sheet_id, key, body, step)

    return router


def answering(ask: Callable[..., T], *args: Any) -> T:
    """``ask(*args)``, with a refusal about the sheet made an HTTP refusal."""
    try:
        return ask(*args)
    except SheetRefusal as refusal_:
        raise refusal(refusal_.status, refusal_) from None


@lru_cache(maxsize=64)
def _view(sheet_id: str, data: str) -> dict[str, object]:
    """A stored sheet's view (not to be changed: the last 64 read are shared)."""
    return sheet_view(sheet_id, answering(open_sheet, data))


def read(stored: StoredSheet, seen: Seen | None) -> ScoreSheet:
    """The stored sheet, refused if it is not the one the request ``seen`` saw."""
    return answering(open_sheet, stored.data, *((seen.count, seen.revision) if seen else ()))


def _opens(secret: str | None, key: str | None) -> bool:
    """Whether a request's key opens a sheet; a sheet from before keys (no secret) opens by
    its id alone, as it did then."""
    if secret is None:
        return True
    return key is not None and secrets.compare_digest(secret.encode(), key.encode())


def _status(sheet: ScoreSheet) -> str:
    return "over" if sheet.state.is_over else "playing"
