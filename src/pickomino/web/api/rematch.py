"""The API of rematches (see :mod:`pickomino.web.game.rematch`); a seat acts by its token in
the ``Seat-Token`` header.

- ``GET /api/games/{id}/rematch`` → ``{"offer": null}`` or ``{"offer": {status, offered_by,
  accepted, waiting_for, declined_by, start_player, game, seat, token}}``: anyone may look
  (spectators see the offer); with a seat's token, ``seat`` is theirs and, once the new game
  started, ``token`` is their seat's first secret in it (``null`` once that seat moved to
  another device: the finished game's secret no longer follows it);
- ``POST /api/games/{id}/rematch``: offers a rematch of a finished game, or accepts the offer
  there is (a second click joins it: one rematch per game);
- ``POST /api/games/{id}/rematch/decline``: cancels the offer for everyone.

Every change goes to the finished game's clients as ``{"type": "rematch", "offer": …}``, on
every server process (a notice tells the others: :func:`tell_elsewhere`).
Refusals: 409 ``rematch_not_over`` (the game is not finished), 403 ``rematch_seated_only``
(no seat token: a spectator), 403 ``bad_token`` (a token of no seat here) or
``seat_link_used`` (an invite link whose seat its person took: only the seat's current
secret answers for it, which its holder alone has), 409
``rematch_declined`` (accepting a declined offer), 404 ``no_rematch`` (declining no offer),
409 ``rematch_started`` (declining a game already started, or one every person accepted:
it starts).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable

import sqlalchemy as sa
from fastapi import APIRouter, Depends, HTTPException, Request

from pickomino.web.api.profiles import SeatToken, seat_of
from pickomino.web.db.results import has_results
from pickomino.web.errors import Refused, refused
from pickomino.web.game.rematch import (
    Offer,
    RematchStore,
    first_secret,
    next_start,
    rematch_record,
)
from pickomino.web.game.room import Room, new_game_id
from pickomino.web.game.seat_holders import same
from pickomino.web.game.seating import DEFAULT_TAKEOVER, TimeControl

#: The way to a game by its id (or a refusal): :func:`~pickomino.web.api.games.room_finder`.
RoomOf = Callable[[str], Awaitable[Room]]


async def seen(room: Room, offer: Offer | None, room_of: RoomOf) -> Callable[[int | None], dict]:
    """The offer as each seat sees it (``None``: a spectator): once the new game started,
    their seat's first secret in it, while that seat has not moved to another device."""
    started = offer is not None and offer.status == "started"
    new = await room_of(offer.new_game_id) if offer is not None and started else None

    def as_seen(seat: int | None) -> dict[str, object]:
        if offer is None:
            return {"offer": None}
        token = None
        held = room.seats[seat].token if seat is not None else None
        if new is not None and seat is not None and held:
            first = first_secret(held, offer.new_game_id, seat)
            if same(new.seats[seat].token, first):  # not moved on
                token = first
        return {"offer": offer.view(next_start(room), seat, token)}

    return as_seen


async def tell(room: Room, offer: Offer | None, room_of: RoomOf) -> None:
    """Every client of the finished game here hears the offer as its seat sees it."""
    as_seen = await seen(room, offer, room_of)
    await room.send_each(lambda seat: json.dumps({"type": "rematch", **as_seen(seat)}))


async def tell_elsewhere(offers: RematchStore, room_of: RoomOf, room: Room) -> None:
    """Another process changed the offer (an audit: pages on other processes never heard of
    an offer, an acceptance or the new game): tell this one's clients as it is stored."""
    if room.status == "over":
        await tell(room, offers.get(room), room_of)


def rematch_router(
    offers: RematchStore,
    room_of: RoomOf,
    held: Callable[[str], Room | None],
    add_room: Callable[[Room], None],
    expect_results: Callable[[str], None],
    limit: Callable[[Request], None],
    limit_looks: Callable[[Request], None],
) -> APIRouter:
    """``room_of(id)`` gives a game (or refuses: unknown, damaged), ``held(id)`` one held here
    (``None``: not held); ``add_room`` puts a new
    game in play; ``expect_results(id)`` marks a new game whose end will be recorded;
    ``limit_looks`` counts every request about a game read from the store."""
    router = APIRouter(tags=["rematch"], dependencies=[Depends(limit_looks)])

    async def start(room: Room, offer: Offer) -> Offer:
        """Every person accepted: the new game, its people's seats taken, starts now (a
        crash between creating it and taking its seats: the next look takes them)."""
        new = await room_of_or_none(offer.new_game_id)
        if new is None:
            record, bots = rematch_record(room)
            if has_results({**record.meta, "bots": bots}, len(bots)):
                expect_results(offer.new_game_id)  # before the game exists: never missed
            old = room.game.record.meta  # the same time control and stand-in bot
            try:
                new = Room.create(
                    room.store, record, bots, room.bot_delay, game_id=offer.new_game_id,
                    clock=TimeControl.from_dict(old.get("clock")),
                    takeover=old.get("takeover", DEFAULT_TAKEOVER), away_after=room.away_after,
                    turn_limit=room.turn_limit,
                    dice_seed=old["seed"] + 1 if old.get("dice") == "seeded" else None,
                )  # fmt: skip
                add_room(new)
            except sa.exc.IntegrityError:  # started at the same moment by another process
                new = await room_of(offer.new_game_id)
        for seat in offer.persons:  # each opens with a secret of the finished game's seat
            if not new.seats[seat].claimed:
                held = room.seats[seat].token  # a person's seat of an ended game has one
                with contextlib.suppress(Refused):  # taken by another process starting it too,
                    # with the same secret (nobody else knows the new game's seats)
                    new.claim(seat, token=first_secret(held, new.id, seat) if held else None)
        new.wake_bots()
        return offers.started(room) or offer

    async def room_of_or_none(game_id: str) -> Room | None:
        try:
            return await room_of(game_id)
        except HTTPException:  # not created yet
            return None

    def unfinished(game_id: str) -> bool:
        """Whether the game is not over, as held here or else as stored: nothing of it is read
        for its rematch (an audit's looks woke long unfinished games, each held in memory a
        minute or more)."""
        room = held(game_id)
        status = room.status if room is not None else offers.store.status_of(game_id)
        return status not in (None, "over")

    async def finished(game_id: str) -> Room:
        if unfinished(game_id):
            raise refused(409, "rematch_not_over")
        room = await room_of(game_id)
        if room.status != "over":
            raise refused(409, "rematch_not_over")
        return room

    def seated(room: Room, token: str | None) -> int:
        """The seat of the seat's current secret (a spent invite link opens none)."""
        if not token:
            raise refused(403, "rematch_seated_only")
        return seat_of(room, token)

    @router.get("/api/games/{game_id}/rematch")
    async def look(game_id: str, seat_token: SeatToken = None) -> dict[str, object]:
        if unfinished(game_id):
            return {"offer": None}
        room = await room_of(game_id)
        seat = seated(room, seat_token) if seat_token else None
        offer = offers.get(room) if room.status == "over" else None
        if offer is not None and offer.complete:  # a start a crash interrupted
            offer = await start(room, offer)
        return (await seen(room, offer, room_of))(seat)

    @router.post("/api/games/{game_id}/rematch", dependencies=[Depends(limit)])
    async def offer_or_accept(game_id: str, seat_token: SeatToken = None) -> dict[str, object]:
        room = await finished(game_id)
        seat = seated(room, seat_token)
        offer = offers.get(room)
        if offer is None:
            bots = {n for n, s in enumerate(room.seats) if not s.is_person}
            new = Offer(room.id, new_game_id(), seat, frozenset({seat, *bots}))
            offer = offers.offer(new, room)
        if offer.status == "declined":
            raise refused(409, "rematch_declined")
        if offer.status == "offered":
            offer = offers.accept(room, seat) or offer
        if offer.complete:
            offer = await start(room, offer)
        await tell(room, offer, room_of)
        return (await seen(room, offer, room_of))(seat)

    @router.post("/api/games/{game_id}/rematch/decline", dependencies=[Depends(limit)])
    async def decline(game_id: str, seat_token: SeatToken = None) -> dict[str, object]:
        room = await finished(game_id)
        seat = seated(room, seat_token)
        offer = offers.get(room)
        if offer is None:
            raise refused(404, "no_rematch")
        if offer.status == "offered":
            offer = offers.decline(room, seat) or offer
            if offer.status == "declined":
                await tell(room, offer, room_of)
        if offer.complete:  # every person accepted: it starts (a crash cut its start short?)
            await tell(room, await start(room, offer), room_of)
        if offer.status != "declined":
            raise refused(409, "rematch_started")
        return (await seen(room, offer, room_of))(seat)

    return router
