"""The games a browser holds seats in: the "My games" page asks with the seat tokens it keeps.

- ``POST /api/mine`` ``{"seats": [{"game": "Ab3x9Q", "token": "…"}, …]}`` (at most
  :data:`MOST_SEATS`; in the body, never in the address, which logs keep) → one row per game
  whose token opens a seat (a browser keeps one seat per game): ``{"id", "seat", "status",
  "your_turn", "to_move", "seats", "start_player", "turns", "updated", "ranking",
  "tie_break"}``
  (``to_move``: the seat whose decision it is in a game being played, else ``null``). Your
  turn first, then the games waiting (for a move or for people), then the ended ones, the
  latest activity first within each. A token that opens no seat is left out without a
  word: a forged one learns nothing.

The server stays the authority on whose turn it is: a game held in memory says so itself;
one that is not (let go while it waited on a person: :meth:`.Rooms.unload_dormant`) says so
by its stored turn (stored with the move that starts it: seats take turns in order from the
start player), never replayed for this; the ended ones are read from the games table.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from pickomino.web.db.store import Store
from pickomino.web.game.room import Room

#: Seats one request may ask about (a browser keeps one token per game it sat in).
MOST_SEATS = 100
Token = Annotated[str, StringConstraints(max_length=64)]


class HeldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Token
    token: Token


class HeldSeats(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: Annotated[list[HeldSeat], Field(max_length=MOST_SEATS)]


def mine_router(
    store: Store, room_in_play: Callable[[str], Room | None], limit: Callable[[Request], None]
) -> APIRouter:
    """``room_in_play(id)``: an unfinished game (in memory), else ``None``."""
    router = APIRouter(tags=["games"])

    @router.post("/api/mine", dependencies=[Depends(limit)])
    async def my_games(body: HeldSeats) -> list[dict[str, object]]:
        """The stored seats and games read in a worker thread (2–6 ms for a hundred seats:
        an audit's flood of them ran on the event loop), whose turn it is on the loop."""
        seat_of, games = await asyncio.to_thread(held_games, store, body)
        rows = [{**game, **turn_of(game, seat_of[str(game["id"])], room_in_play)} for game in games]
        return sorted(rows, key=_order)

    return router


def held_games(store: Store, body: HeldSeats) -> tuple[dict[str, int], list[dict[str, object]]]:
    """The seat each held token opens, by game, and those games as the lobby lists them."""
    held: dict[str, list[bytes]] = {}
    for seat in body.seats:
        held.setdefault(seat.game, []).append(seat.token.encode())
    seat_of = {
        game: seat
        for (game, seat), token in store.seat_tokens(held).items()
        if any(secrets.compare_digest(given, token.encode()) for given in held[game])
    }
    return seat_of, store.listing(limit=MOST_SEATS, only=seat_of)


def turn_of(
    game: dict[str, object], seat: int, room_in_play: Callable[[str], Room | None]
) -> dict[str, object]:
    """Whose decision it is, as the game in memory says, else as its stored turn does (an
    ended game: nobody's)."""
    to_move = None
    if game["status"] == "playing":
        room = room_in_play(str(game["id"]))
        turns, start, seats = game["turns"], game["start_player"], game["seats"]
        if room is not None:
            room.store_pending()  # the game as stored
            if room.status == "playing" and not room.game.state.is_over:
                to_move = room.game.state.current
        elif isinstance(turns, int) and isinstance(start, int) and isinstance(seats, list):
            to_move = (start + turns - 1) % len(seats)  # turns: the turn being played, from 1
    return {"seat": seat, "to_move": to_move, "your_turn": to_move == seat}


def _order(row: dict[str, object]) -> tuple[int, float]:
    group = 0 if row["your_turn"] else 1 if row["status"] in ("open", "playing") else 2
    return group, -float(row["updated"])  # type: ignore[arg-type]
