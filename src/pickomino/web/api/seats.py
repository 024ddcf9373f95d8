"""Getting back into one's seat from another device, through what the person holds, never
through a link others know.

A seat's secret belongs to whoever holds the seat: when a person takes a seat (by its invite
link, from the lobby, as a profile or not), the server replaces its secret by one only that
browser receives (the WebSocket's ``welcome``, or the answer that gave the seat); the invite
link, which its sender knows, is spent (refused as ``seat_link_used``). The creator's own
seat is taken at creation: its secret was only ever in the creator's answer. So another
device gets into a seat by one of two ways:

- ``POST /api/games/{id}/seat`` (header ``Profile-Key``): the seat a profile plays in the
  game, with a new secret → ``{"seat", "name", "token", "link"}`` (403 ``bad_profile_key``,
  404 ``profile_not_seated``);
- ``POST /api/games/{id}/transfer`` (header ``Seat-Token``: the seat's current secret) →
  ``{"seat", "link"}``: a one-time link for the holder to open on the other device (a new one
  replaces the last). Opening it gives the seat a new secret there (in the ``welcome``); the
  link is spent (``seat_link_used``).

Either way the seat's connections on the old device watch from then on, told so by an
``error`` ``seat_moved``, and its old secret opens nothing (``bad_token``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Depends, Request

from pickomino.web.api.profiles import ProfileKey, SeatToken, must_open, played_from, seat_of
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.store import Store
from pickomino.web.errors import Refused, refusal, refused
from pickomino.web.game.room import Room


def seats_router(
    profiles: ProfileStore,
    store: Store,
    room_of: Callable[[str], Awaitable[Room]],
    link: Callable[[str, str], str],
    limit: Callable[[Request], None],
) -> APIRouter:
    """``room_of(id)`` gives a game (or refuses: unknown, damaged); ``link(id, secret)`` is
    the page's address that opens a seat with ``secret``; ``store`` checks a seat's secret
    before the game is read."""
    router = APIRouter(tags=["games"])

    @router.post("/api/games/{game_id}/seat", dependencies=[Depends(limit)])
    async def profile_seat(
        game_id: str, request: Request, profile_key: ProfileKey = None
    ) -> dict[str, object]:
        profile = must_open(profiles, profile_key, request)
        if profiles.seated_in(game_id, profile) is False:  # the game is not read
            raise refused(404, "profile_not_seated", name=profile.name)
        room = await room_of(game_id)
        if profile.id not in room.profiles():
            raise refused(404, "profile_not_seated", name=profile.name)
        seat = room.profiles().index(profile.id)
        try:
            secret = room.new_secret(seat, room.seats[seat].token or "")
        except Refused as moved:  # replaced meanwhile (another process): ask again
            raise refusal(409, moved) from None
        played_from(profiles, room, seat, request)
        await room.tell_moved()
        return {
            "seat": seat, "name": room.seats[seat].name, "token": secret,
            "link": link(room.id, secret),
        }  # fmt: skip

    @router.post("/api/games/{game_id}/transfer", dependencies=[Depends(limit)])
    async def transfer(game_id: str, seat_token: SeatToken = None) -> dict[str, object]:
        opens = seat_token and store.opens_a_seat(game_id, seat_token)
        if not opens and store.status_of(game_id) is not None:  # the game is not read
            raise refused(403, "bad_token")
        room = await room_of(game_id)
        seat = seat_of(room, seat_token)
        try:
            secret = room.transfer(seat)
        except Refused as moved:
            raise refusal(403, moved) from None
        return {"seat": seat, "link": link(room.id, secret)}

    return router
