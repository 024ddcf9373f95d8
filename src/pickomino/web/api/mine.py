"""The games a browser holds seats in: the "My games" page asks with the seat tokens it keeps.

- ``POST /api/mine`` ``{"seats": [{"game": "Ab3x9Q", "token": "…"}, …]}`` (at most
  :data:`MOST_SEATS`; in the body, never in the address, which logs keep) → one row per game
  whose token opens a seat (a browser keeps one seat per game): ``{"id", "seat", "status",
  "your_turn", "to_move", "seats", "turns", "updated", "ranking", "tie_break"}``
  (``to_move``: the seat whose decision it is in a game being played, else ``null``). Your
  turn first, then the games waiting (for a move or for people), then the ended ones, the
  latest activity first within each. A token that opens no seat is left out without a
  word: a forged one learns nothing.

The server stays the authority on whose turn it is: the games being played are in memory
(they are all loaded at start), the ended ones are read from the games table, never replayed.
"""

from __future__ import annotations

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
        held: dict[str, list[bytes]] = {}
        for seat in body.seats:
            held.setdefault(seat.game, []).append(seat.token.encode())
        seat_of = {
            game: seat
            for (game, seat), token in store.seat_tokens(held).items()
            if any(secrets.compare_digest(given, token.encode()) for given in held[game])
        }
        rows = [
            {**game, **turn_of(game, seat_of[str(game["id"])], room_in_play)}
            for game in store.listing(limit=MOST_SEATS, only=seat_of)
        ]
        return sorted(rows, key=_order)

    return router


def turn_of(
    game: dict[str, object], seat: int, room_in_play: Callable[[str], Room | None]
) -> dict[str, object]:
    """Whose decision it is, as the game in play says (an ended game: nobody's)."""
    room = room_in_play(str(game["id"])) if game["status"] == "playing" else None
    if room is not None:
        room.store_pending()  # the game as stored
    to_move = None
    if room is not None and room.status == "playing" and not room.game.state.is_over:
        to_move = room.game.state.current
    return {"seat": seat, "to_move": to_move, "your_turn": to_move == seat}


def _order(row: dict[str, object]) -> tuple[int, float]:
    group = 0 if row["your_turn"] else 1 if row["status"] in ("open", "playing") else 2
    return group, -float(row["updated"])  # type: ignore[arg-type]
