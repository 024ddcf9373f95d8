"""The API of profiles, ratings and a game's creator.

A request acts as a profile by carrying its recovery code in the ``Profile-Key`` header
(headers stay out of access logs); a code that opens no profile is refused (403
``bad_profile_key``), whether forged, mistyped or replaced by a newer key.

- ``POST /api/profiles`` ``{"name": "Ann"}`` → ``{"id", "name", "code"}``: claims the name
  (409 ``profile_name_taken`` if it, or a name differing only in case or spaces or looking
  alike, is claimed);
  the recovery code is shown only here: the browser keeps it;
- ``GET /api/profiles/me`` → ``{"id", "name"}``: whose the code is (to import it on another
  device); ``POST /api/profiles/me/key`` → a new code, the old one stops working;
- ``GET /api/profiles/{player}``: a profile's (or ``bot-easy`` … ``bot-expert``'s) rating,
  games, share of wins, mean worms and results, rated ones with the rating after them;
- ``GET /api/leaderboard``: the rated players, best conservative rating (μ − 3σ) first;
- ``POST /api/games/{id}/claim`` (headers ``Seat-Token``, ``Profile-Key``): takes the seat
  of an invite link as the profile, renamed to it (before anyone took it) → ``{"seat",
  "name", "profile", "token", "link"}``: the seat's new secret, for this browser alone (the
  invite link is spent: 403 ``seat_link_used`` from now on); again with the seat's secret by
  the same profile: nothing changes (no ``token``). A rated game's seat only with the header
  ``Play-Rated: yes`` (409 ``claim_rated`` without: the page asks the person first);
- ``POST /api/games/{id}/remove`` ``{"seat": 2, "bot": "medium" | null, "name": "Bot 3"?}``
  (header ``Seat-Token``: the creator's): a person's seat nobody took goes to the bot, or
  (``null``) is reopened for anyone to take from the lobby; its invite link stops working.
  Only the game's creator may, only for a seat not taken, only while the game waits;
- ``POST /api/games/{id}/cancel`` (header ``Seat-Token``: the creator's): calls off a game
  that waits for players (409 ``game_started`` once it started): it is abandoned before its
  first move, with no results, and no longer counts against its address's games waiting.

A name may not pass for a profile: an invited person's name at creation and a name joining
from the lobby are refused (409 ``name_is_profile``; a seat the creator invites somebody
else to, 409 ``invited_name_is_profile``, whose advice is for the one inviting) when they
are a profile's name (as :func:`~pickomino.web.forms.name_keys` compares them), unless that
profile is the one playing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Header, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from pickomino.web.api.shared_answers import SharedAnswers
from pickomino.web.db.profile_keys import recovery_code
from pickomino.web.db.profiles import NameClaimed, Profile, ProfileStore, TooManyProfiles
from pickomino.web.errors import Refused, refusal, refused
from pickomino.web.forms import BOT_NAMES, Name, client_address, name_keys
from pickomino.web.game.room import Room

ProfileKey = Annotated[str | None, Header(alias="Profile-Key", max_length=100)]
SeatToken = Annotated[str | None, Header(alias="Seat-Token", max_length=100)]
#: ``Play-Rated: yes``: the person agreed to play a rated game's seat as their profile (the
#: page asks first: an audit's links, opened, put profiles into rated games they then left,
#: a loss each).
PlayRated = Annotated[str | None, Header(alias="Play-Rated", max_length=10)]


class NewProfile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class Removal(BaseModel):
    """Who takes an absent person's seat: a ``bot``, or (``None``) anyone from the lobby."""

    model_config = ConfigDict(extra="forbid")
    seat: Annotated[StrictInt, Field(ge=0)]
    bot: Literal[BOT_NAMES] | None = None  # type: ignore[valid-type]
    name: Name | None = None


def profile_of(
    profiles: ProfileStore, code: str | None, request: Request | None = None
) -> Profile | None:
    """The profile a request acts as: ``None`` when it sends no code; refused when the code
    opens none."""
    return None if code is None else must_open(profiles, code, request)


def played_from(profiles: ProfileStore, room: Room, seat: int, request: Request) -> None:
    """A profile's seat of a rated game comes to the device of ``request``: its network is
    kept for the check that two profiles' seats were not played from one site (see
    :meth:`~pickomino.web.db.results.ResultStore._fair`). Every way counts (made, joined,
    claimed, taken to a new device, a socket opened), not only the socket: an audit's spare
    profile joined from home, never opened one, and the stand-in played its seat."""
    if room.game.record.meta.get("rated"):
        profiles.seat_played_from(room.id, seat, client_address(request.client))


def must_open(profiles: ProfileStore, code: str | None, request: Request | None = None) -> Profile:
    """The profile the code opens; refused without one. With the ``request`` (a route that
    shows or seats the profile), a profile claimed before the server's secret from the
    request's network gets its keyed hash (:meth:`.Networks.upgrade`)."""
    address = client_address(request.client) if request is not None else None
    profile = profiles.open(code, address)
    if profile is None:
        raise refused(403, "bad_profile_key")
    return profile


def refuse_profile_names(profiles: ProfileStore, names: list[str], invited: bool = False) -> None:
    """Refuses the first of ``names`` that is a profile's name (someone else's: the caller
    leaves out the names of the profiles playing); ``invited``: names the creator gives the
    seats of others, refused with advice for them (the friend takes the seat as their
    profile from the link), not for the person named."""
    claimed = profiles.claimed(names)
    for name in names:
        if name in claimed:
            if invited:
                raise refused(409, "invited_name_is_profile", name=name)
            raise refused(409, "name_is_profile", name=name)


def seat_name(
    profiles: ProfileStore, room: Room, seat: int, name: str, profile: Profile | None
) -> str:
    """The name a person takes ``seat`` under (the profile's, if playing as one), refused if
    another seat has it, if it passes for a profile, or if the profile plays here already."""
    if profile is not None:
        if profile.id in room.profiles():
            raise refused(409, "profile_seated", name=profile.name)
        name = profile.name
    if name_keys(name) & other_names(room, seat):
        raise refused(409, "name_taken", name=name)
    if profile is None:
        refuse_profile_names(profiles, [name])
    else:
        profiles.expect_results(room.id)  # before the seat is the profile's
    return name


def profiles_router(
    profiles: ProfileStore,
    room_of: Callable[[str], Awaitable[Room]],
    held: Callable[[str], Room | None],
    limit_claims: Callable[[Request], None],
    link: Callable[[str, str], str],
    limit_keys: Callable[[Request], None],
    limit_looks: Callable[[Request], None],
    answers: SharedAnswers,
) -> APIRouter:
    """``room_of(id)`` gives a game in play (or refuses: unknown, damaged), ``held(id)`` one
    this process holds (``None``: it does not); ``link(id,
    secret)`` is a seat's link; ``limit_keys`` counts new keys per address (each looks
    through the games in play for the profile's seats), and the checks of a key (each a read
    on the event loop: an audit's flood of wrong keys slowed every other request);
    ``limit_looks`` counts the requests about a game read from the store; ``answers``: the
    pages kept for everyone (the leaderboard, the players': :mod:`.shared_answers`)."""
    router = APIRouter(tags=["profiles"])

    @router.post("/api/profiles", status_code=201, dependencies=[Depends(limit_claims)])
    async def claim_name(body: NewProfile, request: Request) -> dict[str, object]:
        try:
            profile, key = profiles.claim(body.name, client_address(request.client))
        except NameClaimed:
            raise refused(409, "profile_name_taken", name=body.name) from None
        except TooManyProfiles:
            raise refused(429, "too_many_names", most=profiles.per_address) from None
        return {"id": profile.id, "name": profile.name, "code": recovery_code(profile.id, key)}

    @router.get("/api/profiles/me", dependencies=[Depends(limit_keys)])
    async def whose(request: Request, profile_key: ProfileKey = None) -> dict[str, object]:
        profile = must_open(profiles, profile_key, request)
        return {"id": profile.id, "name": profile.name}

    @router.post("/api/profiles/me/key", dependencies=[Depends(limit_keys)])
    async def replace_key(profile_key: ProfileKey = None) -> dict[str, object]:
        """A new key; the profile's seats get new secrets too, which nobody holds: a seat
        moved with a leaked code is taken back from every device (its owner opens it again
        with "Play my seat here" and the new code), in ended games as well (an audit: a
        device that had the seat of an ended rated game went on starting rated rematches in
        the profile's name after its key was replaced)."""
        profile = must_open(profiles, profile_key)
        key = profiles.replace_key(profile_key or "")
        if key is None:  # replaced meanwhile, with the same code (elsewhere)
            raise refused(403, "bad_profile_key")
        code = recovery_code(profile.id, key)
        for game_id in profiles.unfinished_games(profile):
            with contextlib.suppress(HTTPException, Refused, ValueError):  # gone, moved meanwhile
                room = await room_of(game_id)
                seat = room.profiles().index(profile.id)
                room.new_secret(seat, room.seats[seat].token or "")
                await room.tell_moved()
        for game_id in await asyncio.to_thread(profiles.take_back_ended_seats, profile):
            ended = held(game_id)
            if ended is not None:  # memory follows the database
                await ended.refresh()
        return {"id": profile.id, "name": profile.name, "code": code}

    # The two pages below are read in a worker thread (plain ``def`` routes): a player's
    # latest results are a query of milliseconds that no game on the event loop waits for.
    @router.get("/api/profiles/{player}", dependencies=[Depends(answers.limit)])
    async def player_page(player: str) -> Response:
        if len(player) > 32:
            raise refused(404, "no_profile")

        def read() -> dict[str, object]:
            page = profiles.player(player)
            if page is None:
                raise refused(404, "no_profile")
            return page

        return await answers.answer(("player", player), read)

    @router.get("/api/leaderboard", dependencies=[Depends(answers.limit)])
    async def leaderboard() -> Response:
        return await answers.answer("leaderboard", profiles.leaderboard)

    @router.post("/api/games/{game_id}/claim", dependencies=[Depends(limit_looks)])
    async def claim_seat(
        game_id: str,
        request: Request,
        seat_token: SeatToken = None,
        profile_key: ProfileKey = None,
        play_rated: PlayRated = None,
    ) -> dict[str, object]:
        profile = must_open(profiles, profile_key, request)
        room = open_room(await room_of(game_id))
        seat = seat_of(room, seat_token)
        if room.profiles()[seat] == profile.id:
            return {"seat": seat, "name": room.seats[seat].name, "profile": profile.id}
        if room.seats[seat].claimed:
            raise refused(409, "seat_taken")
        if room.game.record.meta.get("rated") and play_rated != "yes":
            raise refused(409, "claim_rated", name=profile.name)  # asked first
        name = seat_name(profiles, room, seat, profile.name, profile)
        try:
            secret = room.claim(seat, name, profile=profile.id)
        except Refused as taken:  # another process gave it meanwhile
            raise refusal(409, taken) from None
        played_from(profiles, room, seat, request)
        await room.broadcast()
        room.wake_bots()
        return {
            "seat": seat, "name": name, "profile": profile.id, "token": secret,
            "link": link(room.id, secret),
        }  # fmt: skip

    @router.post("/api/games/{game_id}/remove", dependencies=[Depends(limit_looks)])
    async def remove_absent(
        game_id: str, body: Removal, seat_token: SeatToken = None
    ) -> dict[str, object]:
        room = open_room(await room_of(game_id))
        must_be_creator(room, seat_token)
        if body.seat >= len(room.seats):
            raise refused(404, "no_seat", seat=body.seat, high=len(room.seats) - 1)
        seat = room.seats[body.seat]
        if not seat.is_person:
            raise refused(409, "seat_is_bot")
        if seat.claimed:
            raise refused(409, "seat_taken")
        if body.bot is None and seat.open:
            raise refused(409, "seat_open_already")
        if body.name is not None and name_keys(body.name) & other_names(room, body.seat):
            raise refused(409, "name_taken", name=body.name)
        try:
            room.replace_absent(body.seat, body.bot, body.name)
        except Refused as taken:  # the database had it taken already
            raise refusal(409, taken) from None
        await room.broadcast()
        room.wake_bots()
        return {"seat": body.seat, "name": room.seats[body.seat].name, "bot": body.bot}

    @router.post("/api/games/{game_id}/cancel", dependencies=[Depends(limit_looks)])
    async def cancel_waiting(game_id: str, seat_token: SeatToken = None) -> dict[str, object]:
        room = open_room(await room_of(game_id))
        must_be_creator(room, seat_token)
        try:
            room.call_off()
        except Refused as started:
            raise refusal(409, started) from None
        profiles.forget_pending(room.id)  # nothing was played: no results
        await room.broadcast()
        return {"id": room.id, "status": room.status}

    return router


def must_be_creator(room: Room, seat_token: str | None) -> None:
    """Refuses (403 ``not_creator``) unless ``seat_token`` opens the creator's seat."""
    creator = room.game.record.meta.get("creator")
    if creator is None or seat_of(room, seat_token) != creator:
        raise refused(403, "not_creator")


def other_names(room: Room, seat: int) -> set[str]:
    """The keys of the names of every seat but ``seat`` (see :func:`.forms.name_keys`)."""
    return set().union(*(name_keys(s.name) for n, s in enumerate(room.seats) if n != seat))


def open_room(room: Room) -> Room:
    """A game whose seats may still change hands: not abandoned, not over."""
    if room.status == "abandoned":
        raise refused(409, "game_abandoned")
    if room.ended:
        raise refused(409, "game_over", "R18")
    return room


def seat_of(room: Room, token: str | None) -> int:
    """The seat a ``Seat-Token`` opens; refused without one (``bad_token``) or with one
    that opens none (why: ``bad_token``, ``seat_link_used``)."""
    try:
        seat = room.seat_of(token) if token else None
    except Refused as wrong:
        raise refusal(403, wrong) from None
    if seat is None:
        raise refused(403, "bad_token")
    return seat
