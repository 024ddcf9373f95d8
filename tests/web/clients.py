"""What the in-process test clients do: create games, open sockets, and read messages while
keeping the log whole (states after the first bring only new entries, see
``pickomino.web.protocol.merge_log``); and how they read a refusal (a message id, its
parameters and rule, never a sentence: see ``pickomino.web.errors``)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import sqlalchemy as sa

from pickomino.i18n import catalogue
from pickomino.web.db.networks import Networks
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.store import Store, StoredGame
from pickomino.web.protocol import apply_change, merge_log

#: The refusals the pages can word: every ``error.*`` id of the English game catalogue.
ERROR_IDS = frozenset(
    key.removeprefix("error.") for key in catalogue("en", "game") if key.startswith("error.")
)


def where_running() -> str:
    """Where the caller runs: "on the event loop", else "in a worker thread, <pool>" (the
    pool's thread name prefix: ``asyncio`` for the event loop's own, ``looks`` for the API's)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return f"in a worker thread, {threading.current_thread().name.split('_')[0]}"
    return "on the event loop"


#: The seats' secrets as the test clients keep them, like a browser: a ``welcome`` that
#: brings a seat's new secret (the invite link that gave the seat is spent) is kept here, by
#: (game id, seat), and :func:`socket_path` opens the seat with it from then on.
HELD: dict[tuple[str, int], str] = {}


#: The secret the tests' profile stores hash networks under.
TEST_SECRET = b"pickomino tests " * 4


def follow(client: object, message: dict) -> dict:
    """A ``change`` applied to the state the client holds (kept on the client object; a
    version missed fails), giving the whole state it makes, as a page rebuilds it; a state's
    log entries merged into the client's copy, and the state given a ``full_log``; keep a
    seat's new secret (see :data:`HELD`); other messages pass unchanged."""
    if message["type"] == "welcome" and message.get("token"):
        HELD[(_game_of(client), message["seat"])] = message["token"]
    if message["type"] == "change":  # rebuilt on the state held, as the page does
        message = apply_change(client.held, message)  # type: ignore[attr-defined]
    if message["type"] == "state":
        client.held = message  # type: ignore[attr-defined]
        log: list[dict] = getattr(client, "log", [])
        assert merge_log(log, message), "a state skipped log entries"
        client.log = log  # type: ignore[attr-defined]
        message["full_log"] = list(log)
    return message


def refused(refusal: dict, code: str, rule: str | None = None, /, **params: Any) -> dict:
    """Check a refusal (a WebSocket ``error`` or an HTTP answer's ``detail``): its id, one
    the catalogue has words for, its rule, and ``params`` among its parameters."""
    assert refusal["id"] == code, refusal
    assert code in ERROR_IDS, f"no words for the refusal {code}"
    assert refusal["rule"] == rule, refusal
    for name, value in params.items():
        assert refusal["params"][name] == value, (name, refusal)
    return refusal


def refused_http(
    response: Any, status: int, code: str, rule: str | None = None, /, **params: Any
) -> dict:
    """An HTTP refusal: its status, and its ``detail`` as :func:`refused` checks it."""
    assert response.status_code == status, response.text
    return refused(response.json()["detail"], code, rule, **params)


def invalid(response: Any, kind: str, **fields: Any) -> dict:
    """A 422 whose first problem is of ``kind`` (pydantic's or ours, e.g. ``same_name``), with
    ``fields`` as given (e.g. ``loc``, or ``ctx``'s items as ``ctx={…}``): what the page
    words it from."""
    assert response.status_code == 422, response.text
    problem = response.json()["detail"][0]
    assert problem["type"] == kind, problem
    for name, value in fields.items():
        if name == "ctx":
            assert {k: problem["ctx"][k] for k in value} == value, problem
        else:
            assert problem[name] == value, problem
    return problem


def create(client, spec: dict) -> dict:
    """A new game through the lobby API (a Starlette TestClient)."""
    response = client.post("/api/games", json=spec)
    assert response.status_code == 201, response.text
    return response.json()


def _game_of(ws: Any) -> str:
    """The game id a socket (a TestClient's, or a real one) was opened on."""
    path = ws.scope["path"] if hasattr(ws, "scope") else ws.request.path
    return path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]


def socket_path(game: dict, seat: int | None) -> str:
    """The WebSocket path of a seat: with its secret as a browser keeps it (:data:`HELD`),
    else its invite link's; ``None`` to watch."""
    if seat is not None and (game["id"], seat) in HELD:
        return f"/ws/games/{game['id']}?token={HELD[(game['id'], seat)]}"
    link = game["seats"][seat]["link"] if seat is not None else f"/games/{game['id']}"
    return link.replace("/games/", "/ws/games/", 1)


def next_of(ws, kind: str) -> dict:
    """The next message of a kind, skipping the others (e.g. states after presence changes);
    states get ``full_log``, the log as a client following them all has it."""
    while True:
        message = follow(ws, ws.receive_json())
        if message["type"] == kind:
            return message


def age(database: str, game_id: str, seconds: float) -> None:
    """Move a game's last activity back in time, in the database itself."""
    store = Store(database)
    try:
        with store.engine.begin() as db:
            db.execute(
                sa.text("UPDATE games SET updated = updated - :s WHERE id = :id"),
                {"s": seconds, "id": game_id},
            )
    finally:
        store.close()


def stored_game(database: str, game_id: str) -> StoredGame:
    """A game as the database holds it (its status and moves, whatever memory says)."""
    store = Store(database)
    try:
        stored = store.load(game_id)
        assert stored is not None
        return stored
    finally:
        store.close()


def profile_store(store: Store) -> ProfileStore:
    """The profiles of ``store``'s database, for tests that read or record results (networks
    it hashed would be under a test secret, not checked against the app's)."""
    return ProfileStore(store, Networks(store.engine, TEST_SECRET, check=False))


class Reads:
    """The reads of a game a store makes (it still makes them: this only counts)."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[str] = []
        for name in ("load", "moves_from"):
            real = getattr(store, name)

            def counted(*args, _real=real, _name=name, **options):
                self.made.append(_name)
                return _real(*args, **options)

            monkeypatch.setattr(store, name, counted)
