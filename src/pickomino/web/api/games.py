"""The API of games: the lobby's form, creating a game, the lobby's list, taking an open
seat, and a game's record and replay.

- ``GET /api/options``: presets, rule options and bot levels for the lobby form;
- ``POST /api/games`` ``{"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Guest",
  "open": true}, {"name": "Bot", "bot": "hard"}], "rules": "official",
  "start_player": 0 | "random", "clock": null | {"per_turn": 60} | {"bank": 300,
  "increment": 10}, "takeover": "medium"}`` → the game's id and an invite link per invited
  person (the links hold the seats' secret tokens: only the creator gets them). The first
  invited person is the creator, seated at once; an ``open`` seat has no link: anyone may
  take it from the lobby. ``clock``: the people's time (none by default), in seconds, at
  least the server's ``clock_minimum`` (400 ``clock_too_short`` otherwise); ``takeover``:
  the bot that plays for a person who is away or out of time. One address may have
  ``open_games_per_address`` games waiting for players created or joined in the last day
  (429 ``too_many_open_games`` for one more that would wait), and ``bot_games_per_address``
  games of bots alone in play (429 ``too_many_bot_games``: each plays to its end, watched or
  not, and its bots' thinking is the server's), and ``games_per_address`` unfinished games
  of any kind (429 ``too_many_games``: each is stored, and held in memory while played);
- ``GET /api/games``: games for the lobby, newest activity first (no secrets), the 100 most
  recent of each list (waiting for players, in play, ended);
- ``POST /api/games/{id}/join`` ``{"name": "Cy"}`` → the first free open seat and a link for
  it (409 when no open seat is free: the invited seats are never given away);
- ``GET /api/games/{id}/record`` the game record (its ``meta.seed`` only once the game has
  ended); ``GET /api/games/{id}/replay`` frames (both limited per address for games read
  from the store: 429 ``too_many_lookups``; an ended game's replay is made once).

A person taking a seat gets a new secret for it (the invite link is spent), and gets back in
from another device with their profile's key or a transfer link: see
:mod:`pickomino.web.api.seats`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Annotated, Literal

import orjson
import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator
from pydantic_core import PydanticCustomError

from pickomino.bots import DIFFICULTIES
from pickomino.core import GameRecord, RecordError
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from pickomino.table.view import replay_frames
from pickomino.web.api.profiles import (
    ProfileKey,
    played_from,
    profile_of,
    refuse_profile_names,
    seat_name,
)
from pickomino.web.api.shared_answers import SharedAnswers
from pickomino.web.db.ids import shown_id
from pickomino.web.db.player_pages import ESTABLISHED_OPPONENTS
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.results import has_results
from pickomino.web.errors import Refused, refusal, refused
from pickomino.web.forms import (
    BOT_NAMES,
    CLOCK_PRESETS,
    ClockSpec,
    GameSetup,
    Name,
    client_address,
    name_keys,
    parse_rules,
    start_seat,
)
from pickomino.web.game.room import Room, new_game_id
from pickomino.web.game.rooms import Rooms
from pickomino.web.game.seating import DEFAULT_TAKEOVER

#: Record fields kept secret until the game has ended (the bots' seeds follow from it).
SECRET_META = ("seed",)


class SeatRequest(BaseModel):
    """A seat the lobby asks for: a person invited by a secret link (the default), a
    person's ``open`` seat that anyone may take from the lobby, or a ``bot``."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    bot: Literal[BOT_NAMES] | None = None  # type: ignore[valid-type]
    open: StrictBool = False

    @model_validator(mode="after")
    def _bots_are_not_open(self) -> SeatRequest:
        if self.bot is not None and self.open:
            raise PydanticCustomError("bot_not_open", "a bot's seat cannot be open")
        return self


class NewGame(GameSetup):
    seats: Annotated[list[SeatRequest], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    #: Whether the game's end moves the ratings of its profiles and bots (see .profiles).
    rated: StrictBool = True
    clock: ClockSpec | None = None
    takeover: Literal[BOT_NAMES] = DEFAULT_TAKEOVER  # type: ignore[valid-type]

    def player_names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def open_seats(self) -> frozenset[int]:
        return frozenset(n for n, seat in enumerate(self.seats) if seat.open)

    def creator_seat(self) -> int | None:
        """The creator's own seat: the first invited person's (``None``: every person's
        seat is open, so the creator only watches or joins like anybody)."""
        invited = (n for n, s in enumerate(self.seats) if s.bot is None and not s.open)
        return next(invited, None)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


#: The thread the API's looks read long games in (a join, a seat, a rematch, a record, a replay,
#: an analysis): its own, so that a stranger's flood of them waits for itself, not in front of
#: the games read for people's sockets and the lobby's lists (the default pool), and one long
#: replay at a time competes with the event loop for the interpreter. An audit's five
#: addresses flooding looks on games of 14,000 moves: another player's ping median 30–44 ms,
#: p95 186–317 ms with them in the shared pool; 12, 65–72 ms in two threads; 7–8, 22–27 ms in one.
LOOKS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="looks")
#: Games of more turns than this are long (read in :data:`LOOKS`); the others, people's games
#: (40 to 130 turns), are read in the shared pool: a person's own look (a claim before their
#: socket, a rematch's new game) does not wait behind a stranger's flood of long games.
LONG_GAME = 300


def threads_for(rooms: Rooms, game_id: str) -> Executor | None:
    """The threads a look reads the game in, if it must be read: :data:`LOOKS` for a long game
    (or one of unknown length), else the shared ones."""
    if rooms.held(game_id) is not None:
        return None
    turns = rooms.store.turns_of(game_id)
    return LOOKS if turns is None or turns > LONG_GAME else None


def room_finder(rooms: Rooms, keep: bool = True) -> Callable[[str], Awaitable[Room]]:
    """The API's way to a game by its id: the game (one not held here replayed in a worker
    thread), or a refusal (404 ``no_game``, 500 ``game_damaged``); ``keep=False`` for a look
    that need not keep an ended game in memory (see :meth:`~.Rooms.get`)."""

    async def room_of(game_id: str) -> Room:
        try:
            room = await rooms.load(game_id, keep, threads_for(rooms, game_id))
        except RecordError as error:
            raise refused(500, "game_damaged", why=error) from None
        return _found(room, game_id)

    return room_of


def _found(room: Room | None, game_id: str) -> Room:
    if room is None:
        raise refused(404, "no_game", id=shown_id(game_id))
    room.store_pending()  # nothing is shown before it is stored
    return room


def limited_finder(
    rooms: Rooms,
    limit: Callable[[Request], None],
    held: Callable[[Request], None] | None = None,
) -> Callable[[str, Request], Awaitable[Room]]:
    """The way to a game for a look (a record, a replay, an analysis) that replays it (in a
    worker thread) when it must be read from the store: ``limit`` per address then, before
    the work (a game held here costs nothing to look at again, or ``held``); an ended game is
    not kept in memory for it."""

    async def look_limited(game_id: str, request: Request) -> Room:
        if rooms.held(game_id) is None:  # to be read from the store: replayed move by move
            limit(request)
        elif held is not None:
            held(request)
        try:
            room = await rooms.load(game_id, keep=False, threads=threads_for(rooms, game_id))
        except RecordError as error:
            raise refused(500, "game_damaged", why=error) from None
        return _found(room, game_id)

    return look_limited


def looks_limited(rooms: Rooms, limit: Callable[[Request], None]) -> Callable[[Request], None]:
    """A route's dependency counting ``limit`` per address, before the work, when the route's
    ``{game_id}`` is a game this process does not hold, as :func:`limited_finder` does (an
    audit: a stranger's flood of rematch looks, or of a creator's calls on ended games, each
    replaying a game from the store, stalled every game on the server)."""

    def count(request: Request) -> None:
        _count_unless_held(rooms, limit, request.path_params.get("game_id", ""), request)

    return count


def _count_unless_held(
    rooms: Rooms, limit: Callable[[Request], None], game_id: str, request: Request
) -> None:
    if rooms.held(game_id) is None:  # to be read from the store: replayed move by move
        limit(request)


#: How many games waiting for players one address may hold at once (``serve
#: --open-games-per-address``): a class's tables from one school's address fit, a script's
#: hundred do not.
OPEN_GAMES_PER_ADDRESS = 20
#: Games of bots alone one network may have in play at once: to watch, a few are plenty. An
#: audit's five addresses started 350 of seven expert bots each (creating as fast as allowed):
#: the server's core went to them, and everybody's dice helper took a second.
BOT_GAMES_PER_ADDRESS = 5
#: Unfinished games one network may have created, of any kind: a game against bots starts at
#: once (no other cap counts it), and each is stored until it is abandoned a week later (held
#: in memory, 13 KB, only while played: :meth:`.Rooms.unload_dormant`).
GAMES_PER_ADDRESS = 100
#: Seconds a game waiting for players counts against its address (a day): one person behind a
#: shared address (a school's, a phone carrier's) cannot hold everyone's out for the week an
#: idle game waits before it is abandoned.
OPEN_GAMES_COUNTED_FOR = 24 * 3600.0


def secret_link(base_url: str, game_id: str, secret: str) -> str:
    """The game's page that opens a seat with its ``secret`` (on ``base_url``, the public
    address, if any: else a path on the address the asker used)."""
    return f"{base_url}/games/{game_id}?token={secret}"


def games_router(
    rooms: Rooms,
    profiles: ProfileStore,
    limit_creations: Callable[[Request], None],
    limit_joins: Callable[[Request], None],
    limit_lookups: Callable[[Request], None],
    base_url: str,
    clock_minimum: float,
    answers: SharedAnswers,
    open_games_per_address: int = OPEN_GAMES_PER_ADDRESS,
    bot_games_per_address: int = BOT_GAMES_PER_ADDRESS,
    games_per_address: int = GAMES_PER_ADDRESS,
) -> APIRouter:
    """``base_url``: the public address invite links are made on (``""``: paths);
    ``clock_minimum``: the fewest seconds a game's clock may give a turn or a bank;
    ``open_games_per_address``: how many games waiting for players one address may hold
    (429 ``too_many_open_games`` for one more: the lobby's list of them is for everyone);
    ``bot_games_per_address``: how many games of bots alone in play (429
    ``too_many_bot_games``); ``games_per_address``: how many unfinished games of any kind
    (429 ``too_many_games``);
    ``limit_lookups``: how often one address may ask for records and replays of games not
    held here (each replays a whole game from its stored moves); ``answers``: the lobby's
    lists, kept for everyone (:mod:`.shared_answers`)."""
    router = APIRouter(tags=["games"])
    look = room_finder(rooms, keep=False)  # an ended game need not stay in memory

    def link(room: Room, seat: int) -> str | None:
        """A seat's secret link; ``None`` for a bot and for an open seat nobody took yet."""
        token = room.seats[seat].token
        return secret_link(base_url, room.id, token) if token else None

    @router.get("/api/options")
    async def options() -> dict[str, object]:
        return {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "rules": [option.to_dict() for option in Rules.options()],  # their description
            "bots": list(BOT_NAMES),
            "difficulties": DIFFICULTIES,
            "players": [MIN_PLAYERS, MAX_PLAYERS],
            "clocks": [c for c in CLOCK_PRESETS if ClockSpec(**c).shortest() >= clock_minimum],
            "takeover": DEFAULT_TAKEOVER,
            "established_opponents": ESTABLISHED_OPPONENTS,  # see player_pages
        }

    @router.post("/api/games", status_code=201, dependencies=[Depends(limit_creations)])
    async def create_game(
        spec: NewGame, request: Request, profile_key: ProfileKey = None
    ) -> dict[str, object]:
        names, creator = spec.player_names(), spec.creator_seat()
        profile = profile_of(profiles, profile_key, request)  # the creator plays as it
        invited = [n for n, s in enumerate(spec.seats) if s.bot is None and not s.open]
        meta: dict[str, object] = {"rated": spec.rated, "creator": creator}
        if profile is not None:
            if creator is None:
                raise refused(400, "no_seat_for_profile")
            names[creator] = profile.name
            others = names[:creator] + names[creator + 1 :]
            if name_keys(profile.name) & set().union(*map(name_keys, others)):
                raise refused(409, "name_taken", name=profile.name)
            meta["profiles"] = [profile.id if n == creator else None for n in range(len(names))]
            invited.remove(creator)
        refuse_profile_names(profiles, [names[n] for n in invited if n == creator])
        refuse_profile_names(profiles, [names[n] for n in invited if n != creator], invited=True)
        start = start_seat(spec.start_player, len(names), rooms.dice_seed)
        record = GameRecord(names, parse_rules(spec.rules), start, meta=meta)
        if spec.clock is not None and spec.clock.shortest() < clock_minimum:
            raise refused(400, "clock_too_short", least=clock_minimum)
        bots = [seat.bot for seat in spec.seats]
        origin = profiles.networks.origin(client_address(request.client))
        waits = any(bot is None for n, bot in enumerate(bots) if n != creator)  # for players
        alone = all(bot is not None for bot in bots)

        def refuse_beyond_caps(db: sa.Connection | None = None) -> None:
            """What the origin made refuses one more (``db``: as the game is stored)."""
            store = rooms.store
            held = partial(store.open_games_from, origin, OPEN_GAMES_COUNTED_FOR, db)
            if waits and held().reaches(open_games_per_address):
                raise refused(429, "too_many_open_games", most=open_games_per_address)
            if store.unfinished_games_from(origin, db).reaches(games_per_address):
                raise refused(429, "too_many_games", most=games_per_address)
            if alone and store.bot_games_from(origin, db).reaches(bot_games_per_address):
                raise refused(429, "too_many_bot_games", most=bot_games_per_address)

        refuse_beyond_caps()  # before anything is made; again as it is stored
        game_id = new_game_id()
        if has_results({**meta, "bots": bots}, len(names)):
            profiles.expect_results(game_id)  # before the game exists: never missed
        room = Room.create(
            rooms.store, record, bots, rooms.bot_delay, spec.open_seats(), creator, game_id,
            clock=spec.clock.control() if spec.clock else None, takeover=spec.takeover,
            away_after=rooms.away_after, turn_limit=rooms.turn_limit, dice_seed=rooms.dice_seed,
            origin=origin, check=refuse_beyond_caps,
        )  # fmt: skip
        rooms.add(room)
        if profile is not None and creator is not None:
            played_from(profiles, room, creator, request)
        await rooms.start_bots(room)  # a game of bots (or bots and the creator) starts at once
        return {
            "id": room.id,
            "url": f"{base_url}/games/{room.id}",
            "seats": [
                {"seat": n, "name": s.name, "bot": s.bot, "open": s.open, "link": link(room, n)}
                for n, s in enumerate(room.seats)
            ],
        }

    @router.get("/api/games", dependencies=[Depends(answers.limit)])
    async def list_games() -> Response:
        return await answers.answer("games", rooms.store.listing)

    @router.post("/api/games/{game_id}/join", dependencies=[Depends(limit_joins)])
    async def join(
        game_id: str, body: Join, request: Request, profile_key: ProfileKey = None
    ) -> dict[str, object]:
        profile = profile_of(profiles, profile_key, request)  # to play as this profile
        status = rooms.store.status_of(game_id)  # a game with no seat to take is not read
        if status == "abandoned":
            raise refused(409, "game_abandoned")
        if status is not None and not rooms.store.has_free_open_seat(game_id):
            raise refused(409, "no_open_seat")
        room = await look(game_id)
        if room.status == "abandoned":
            raise refused(409, "game_abandoned")
        seat = room.free_open_seat()
        if seat is None:
            raise refused(409, "no_open_seat")
        name = seat_name(profiles, room, seat, body.name, profile)
        try:
            room.claim(seat, name, profile=profile.id if profile else None)
        except Refused as taken:  # another process gave it, or the profile a seat, meanwhile
            if taken.code == "profile_seated":
                raise refusal(409, taken) from None
            raise refused(409, "no_open_seat") from None
        if profile is not None:
            played_from(profiles, room, seat, request)
        await room.broadcast()
        room.wake_bots()
        return {"seat": seat, "name": name, "link": link(room, seat)}

    # A game held here is counted too, among the pages' looks (a club's ends fit): an audit's
    # replays of a game of 10,000 moves, each made on the event loop, held everyone's moves
    # 1.8 s; they are made once for each length now, in a worker thread, and counted.
    look_counted = limited_finder(rooms, limit_lookups, held=answers.limit)

    @router.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> dict[str, object]:
        room = await look_counted(game_id, request)
        record = room.game.record.to_dict()
        if not room.ended and "meta" in record:  # optional in a record
            record["meta"] = {k: v for k, v in record["meta"].items() if k not in SECRET_META}
        return record

    @router.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> Response:
        room = await look_counted(game_id, request)
        return Response(await replay_of(room), media_type="application/json")

    return router


async def replay_of(room: Room) -> bytes:
    """The game's replay, encoded: made in a worker thread (a long game's frames take tens of
    milliseconds, which the event loop gives the other games meanwhile) once for each length
    of its record and names of its seats, and shared by every request for those."""
    record = room.game.record
    made = room.replay
    drawn = (len(record.moves), tuple(record.seats))  # a seat taken renames it, no move made
    if made is None or made[0] != drawn:
        still = GameRecord(
            list(record.seats), record.rules, record.start_player, list(record.moves)
        )
        made = room.replay = (drawn, asyncio.ensure_future(_encoded_replay(still)))

        def forget_failed(making: asyncio.Future[bytes]) -> None:
            if not making.cancelled() and making.exception() is not None and room.replay is made:
                room.replay = None  # asked again, it is made again

        made[1].add_done_callback(forget_failed)
    return await asyncio.shield(made[1])  # a request given up does not stop the making


#: The replays' own thread: a stranger's replays of many long games wait for each other, not
#: in front of the games read for people's sockets and the lobby's lists (the default one).
REPLAYS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replays")


async def _encoded_replay(record: GameRecord) -> bytes:
    frames = await asyncio.get_running_loop().run_in_executor(REPLAYS, replay_frames, record)
    return orjson.dumps({"seats": record.seats, "frames": frames})
