"""What the in-process test clients do: create games, open sockets, and read messages while
keeping the log whole (states after the first bring only new lines, see
``pickomino.web.protocol.merge_log``)."""

from __future__ import annotations

import sqlalchemy as sa

from pickomino.web.protocol import merge_log
from pickomino.web.store import Store


def follow(client: object, message: dict) -> dict:
    """Merge a state's log lines into the client's copy (kept on the client object) and
    give the state a ``full_log``; other messages pass unchanged."""
    if message["type"] == "state":
        log: list[str] = getattr(client, "log", [])
        assert merge_log(log, message), "a state skipped log lines"
        client.log = log  # type: ignore[attr-defined]
        message["full_log"] = list(log)
    return message


def create(client, spec: dict) -> dict:
    """A new game through the lobby API (a Starlette TestClient)."""
    response = client.post("/api/games", json=spec)
    assert response.status_code == 201, response.text
    return response.json()


def socket_path(game: dict, seat: int | None) -> str:
    """The WebSocket path of a seat's invite link; ``None`` to watch."""
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
