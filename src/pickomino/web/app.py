"""The web app: lobby and game pages, a small JSON API and one WebSocket per player or
spectator. ``create_app`` builds it for any database; ``pickomino serve`` runs it.

HTTP:
- ``GET /`` lobby, ``GET /games/{id}`` the table (``?token=…`` sits you in your seat);
- ``GET /api/options``: presets, rule options and bot levels for the lobby form;
- ``POST /api/games`` ``{"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Guest",
  "open": true}, {"name": "Bot", "bot": "hard"}], "rules": "official",
  "start_player": 0 | "random", "clock": null | {"per_turn": 60} | {"bank": 300,
  "increment": 10}, "takeover": "medium"}`` → the game's id and an invite link per invited
  person (the links hold the seats' secret tokens: only the creator gets them). The first
  invited person is the creator, seated at once; an ``open`` seat has no link: anyone may
  take it from the lobby. ``clock``: the people's time (none by default), in seconds, at
  least the server's ``clock_minimum`` (400 ``clock_too_short`` otherwise); ``takeover``:
  the bot that plays for a person who is away or out of time;
- ``GET /api/games``: games for the lobby, newest activity first (no secrets);
- ``POST /api/games/{id}/join`` ``{"name": "Cy"}`` → the first free open seat and a link for
  it (409 when no open seat is free: the invited seats are never given away);
- a person taking a seat gets a new secret for it (the invite link is spent), and gets back
  in from another device with their profile's key or a transfer link: see
  :mod:`pickomino.web.api.seats`;
- ``GET /api/games/{id}/record`` the game record (its ``meta.seed`` only once the game has
  ended); ``GET /api/games/{id}/replay`` frames; ``GET /api/games/{id}/analysis`` the review
  of a finished game (:mod:`pickomino.web.api.analysis`);
- ``POST /api/mine``: the games of the seat tokens a browser holds ("My games", see
  :mod:`pickomino.web.api.mine`); ``/api/games/{id}/rematch``: a finished game's rematch
  (:mod:`pickomino.web.api.rematch`);
- ``GET /keeper`` the score keeper for a game with the real box (API in
  :mod:`pickomino.web.api.keeper`).
- ``GET /api/docs``: this API in Swagger UI, served offline (:mod:`pickomino.web.api.docs`).

A refusal is a 4xx or 5xx whose ``detail`` is ``{"id", "params", "rule"}`` (see
:mod:`pickomino.web.errors`; an address with no route too: ``no_page``); a request of the
wrong shape is a 422 with FastAPI's list of problems (``type``, ``loc``, ``ctx``).

WebSocket ``/ws/games/{id}?token=…``: see :mod:`pickomino.web.protocol`.

On PostgreSQL any number of processes (``serve --workers N``, or on several hosts) share the
games: :mod:`pickomino.web.cluster.bridge`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi import HTTPException as FastAPIHTTPException
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from pickomino.bots import BOTS, DIFFICULTIES
from pickomino.core import GameRecord, PickominoError, RecordError
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from pickomino.web.addresses import own_origin
from pickomino.web.api.analysis import Reviews, analysis_router
from pickomino.web.api.docs import add_api_docs
from pickomino.web.api.keeper import keeper_router
from pickomino.web.api.mine import mine_router
from pickomino.web.api.profiles import (
    ProfileKey,
    profile_of,
    profiles_router,
    refuse_profile_names,
    seat_name,
)
from pickomino.web.api.rematch import rematch_router
from pickomino.web.api.seats import seats_router
from pickomino.web.api.words import words_router
from pickomino.web.cluster.bridge import Cluster
from pickomino.web.db.ids import shown_id
from pickomino.web.db.profiles import ProfileStore
from pickomino.web.db.results import ESTABLISHED_OPPONENTS, has_results
from pickomino.web.db.store import POOL, Store
from pickomino.web.errors import Refused, refusal_message, refused
from pickomino.web.forms import (
    CLOCK_MINIMUM,
    CLOCK_PRESETS,
    ClockSpec,
    GameSetup,
    Name,
    address_limit,
    client_address,
    creation_limit,
    name_keys,
    parse_rules,
    start_seat,
)
from pickomino.web.game.outbox import Outbox
from pickomino.web.game.rematch import RematchStore
from pickomino.web.game.room import Room, new_game_id
from pickomino.web.game.rooms import Rooms
from pickomino.web.game.seating import AWAY_AFTER, DEFAULT_TAKEOVER
from pickomino.web.game.view import replay_frames
from pickomino.web.guard.connections import GUARD, ConnectionGuard, ServerBusy, trusted_proxies
from pickomino.web.guard.headers import SecurityHeaders
from pickomino.web.guard.limits import ConnectionLimits
from pickomino.web.protocol import (
    BAD_TOKEN,
    IDLE,
    NO_GAME,
    TOO_MANY,
    Act,
    Back,
    BadMessage,
    CoachRequest,
    Hint,
    RateLimit,
    Sync,
    Vote,
    parse_message,
)
from pickomino.web.stopping import stop_within

STATIC = Path(str(files("pickomino.web") / "static"))
log = logging.getLogger("pickomino.web")
BOT_NAMES = (*DIFFICULTIES, *BOTS)
#: Record fields kept secret until the game has ended (the bots' seeds follow from it).
SECRET_META = ("seed",)
#: The pages (ES modules do the rest) by path; a path's parameters are read by the page.
PAGES = {
    "/": "index.html",
    "/games/{game_id}": "game.html",
    "/keeper": "keeper.html",
    "/keeper/{sheet_id}": "keeper.html",
    "/rules": "rules.html",
    "/leaderboard": "leaderboard.html",
    "/profiles/{player}": "profile.html",
    "/mine": "mine.html",
}


class SeatSpec(BaseModel):
    """A seat: a person invited by a secret link (the default), a person's ``open`` seat
    that anyone may take from the lobby, or a ``bot``."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    bot: Literal[BOT_NAMES] | None = None  # type: ignore[valid-type]
    open: StrictBool = False

    @model_validator(mode="after")
    def _bots_are_not_open(self) -> SeatSpec:
        if self.bot is not None and self.open:
            raise PydanticCustomError("bot_not_open", "a bot's seat cannot be open")
        return self


class NewGame(GameSetup):
    seats: Annotated[list[SeatSpec], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
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


def create_app(
    database: str | Path,
    bot_delay: float = 0.8,
    message_rate: float = 20.0,
    new_games_per_minute: float = 10.0,
    abandon_after: float = 7 * 24 * 3600,
    connections_per_address: int = 50,
    watchers_per_game: int = 500,
    public_url: str | None = None,
    away_after: float = AWAY_AFTER,
    clock_minimum: float = CLOCK_MINIMUM,
    db_pool: int = POOL,
    request_timeout: float = 10.0,
    http_connections_per_address: int = 50,
    max_connections: int = 1000,
    socket_idle_timeout: float = 90.0,
    forwarded_allow_ips: str | None = None,
) -> FastAPI:
    """The app on ``database`` (an SQLite path or a PostgreSQL URL); bots wait
    ``bot_delay`` seconds before each step so people can follow them; a client sending
    more than ``message_rate`` messages a second (after a burst) is cut off as a flood, and
    one creating more than ``new_games_per_minute`` games or sheets (or taking as many seats
    from the lobby) is refused (429); an unfinished game nobody touches for
    ``abandon_after`` seconds is abandoned (0: never). One address may hold
    ``connections_per_address`` WebSockets at once, one game have ``watchers_per_game``
    spectators. Invite links are absolute on ``public_url`` (e.g. ``https://dice.example``)
    when it is given, else paths on the address the creator used. A bot plays for the
    person to move once they are disconnected for ``away_after`` seconds (0: never) while
    somebody else at the table is connected; a game's clock gives at least
    ``clock_minimum`` seconds a turn or a bank (tests use less). The store holds at most
    ``db_pool`` connections to the database.

    Connections (:mod:`pickomino.web.guard.connections`, when served by ``serve``): a whole
    request within ``request_timeout`` seconds, ``http_connections_per_address`` HTTP
    connections at once from one address (the proxies of ``forwarded_allow_ips`` exempt),
    503 beyond ``max_connections`` in all; a game's socket that sends nothing for
    ``socket_idle_timeout`` seconds is closed (the page pings every 25 s), and one opened
    by a page of another site (its ``Origin`` neither the address asked nor ``public_url``)
    is refused (403 ``foreign_origin``)."""
    store = Store(database, db_pool)
    limit_creations = creation_limit(new_games_per_minute)
    limit_joins = address_limit(new_games_per_minute, "too_many_joins")
    connection_limits = ConnectionLimits(connections_per_address, watchers_per_game)
    guard = ConnectionGuard(
        request_timeout, http_connections_per_address, max_connections,
        trusted_proxies(forwarded_allow_ips),
    )  # fmt: skip
    base_url = (public_url or "").rstrip("/")
    rooms = Rooms(store, bot_delay, away_after)
    profiles = ProfileStore(store)
    rooms.on_finish = lambda room: _record_results(profiles, room)
    reviews = Reviews(new_games_per_minute)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[dict[str, object]]:
        tasks = [asyncio.create_task(_checkpoints(store))]
        if abandon_after:
            rooms.abandon_idle(abandon_after)  # before the start replays them all
            tasks.append(asyncio.create_task(_abandon_idle(rooms, abandon_after)))
        cluster = Cluster(rooms) if store.shared else None
        if cluster is not None:  # from now on, a game's bots play under its lease only
            await cluster.start()
        rooms.resume_all()
        profiles.settle()  # games that ended just before a stop or a crash
        yield {GUARD: guard}  # for serve's protocol, on every connection
        for task in tasks:
            task.cancel()
        if cluster is not None:
            await cluster.stop()  # each of its parts within a deadline
        await stop_within(rooms.stop(), "the games' bots and clocks")
        reviews.close()
        store.close()

    app = FastAPI(title="pickomino", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit)
    app.add_middleware(ServerBusy)  # before reading a body; its answer has the headers below
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_refusal)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)
    app.state.rooms = rooms
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_api_docs(app, STATIC / "apidocs.html")  # /api/docs, offline

    for path, file in PAGES.items():  # GET and HEAD (a link checker, a monitor)
        app.add_api_route(path, _page(file), methods=["GET", "HEAD"], include_in_schema=False)

    app.include_router(keeper_router(store, limit_creations))
    lookups_per_minute = 6 * new_games_per_minute  # My games polls: a few a minute per tab
    limit_lookups = address_limit(lookups_per_minute, "too_many_lookups")
    app.include_router(mine_router(store, rooms.rooms.get, limit_lookups))
    app.include_router(
        rematch_router(
            RematchStore(store),
            lambda game_id: _room(rooms, game_id, keep=False),
            rooms.add,
            profiles.expect_results,
            limit_joins,
        )
    )
    app.include_router(words_router())
    app.include_router(analysis_router(lambda game_id: _room(rooms, game_id, keep=False), reviews))

    def secret_link(game_id: str, secret: str) -> str:
        return f"{base_url}/games/{game_id}?token={secret}"

    app.include_router(
        profiles_router(
            profiles,
            lambda game_id: _room(rooms, game_id),
            address_limit(new_games_per_minute, "too_many_profiles"),
            secret_link,
        )
    )
    app.include_router(
        seats_router(profiles, lambda game_id: _room(rooms, game_id), secret_link, limit_joins)
    )

    @app.get("/api/options")
    async def options() -> dict[str, object]:
        return {
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "rules": [option.to_dict() for option in Rules.options()],  # their description
            "bots": list(BOT_NAMES),
            "difficulties": DIFFICULTIES,
            "players": [MIN_PLAYERS, MAX_PLAYERS],
            "clocks": [c for c in CLOCK_PRESETS if ClockSpec(**c).shortest() >= clock_minimum],
            "takeover": DEFAULT_TAKEOVER,
            "established_opponents": ESTABLISHED_OPPONENTS,  # see .profiles
        }

    @app.post("/api/games", status_code=201, dependencies=[Depends(limit_creations)])
    async def create_game(spec: NewGame, profile_key: ProfileKey = None) -> dict[str, object]:
        names, creator = spec.player_names(), spec.creator_seat()
        profile = profile_of(profiles, profile_key)  # the creator plays as this profile
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
        start = start_seat(spec.start_player, len(names))
        record = GameRecord(names, parse_rules(spec.rules), start, meta=meta)
        if spec.clock is not None and spec.clock.shortest() < clock_minimum:
            raise refused(400, "clock_too_short", least=clock_minimum)
        bots = [seat.bot for seat in spec.seats]
        game_id = new_game_id()
        if has_results({**meta, "bots": bots}, len(names)):
            profiles.expect_results(game_id)  # before the game exists: never missed
        room = Room.create(
            store, record, bots, rooms.bot_delay, spec.open_seats(), creator, game_id,
            clock=spec.clock.control() if spec.clock else None, takeover=spec.takeover,
            away_after=rooms.away_after,
        )  # fmt: skip
        rooms.add(room)
        await rooms.start_bots(room)  # a game of bots (or bots and the creator) starts at once
        return {
            "id": room.id,
            "url": f"{base_url}/games/{room.id}",
            "seats": [
                {
                    "seat": n,
                    "name": s.name,
                    "bot": s.bot,
                    "open": s.open,
                    "link": _link(room, n, base_url),
                }
                for n, s in enumerate(room.seats)
            ],
        }

    @app.get("/api/games")
    async def list_games() -> list[dict[str, object]]:
        return store.listing()

    @app.post("/api/games/{game_id}/join", dependencies=[Depends(limit_joins)])
    async def join(game_id: str, body: Join, profile_key: ProfileKey = None) -> dict[str, object]:
        profile = profile_of(profiles, profile_key)  # to play as this profile
        room = _room(rooms, game_id, keep=False)  # an ended game need not stay in memory
        if room.status == "abandoned":
            raise refused(409, "game_abandoned")
        seat = room.free_open_seat()
        if seat is None:
            raise refused(409, "no_open_seat")
        name = seat_name(profiles, room, seat, body.name, profile)
        try:
            room.claim(seat, name, profile=profile.id if profile else None)
        except Refused:  # another process gave it meanwhile
            raise refused(409, "no_open_seat") from None
        await room.broadcast()
        room.wake_bots()
        return {"seat": seat, "name": name, "link": _link(room, seat, base_url)}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> dict[str, object]:
        room = _room(rooms, game_id, keep=False)
        record = room.game.record.to_dict()
        if not room.ended:
            record["meta"] = {k: v for k, v in record["meta"].items() if k not in SECRET_META}
        return record

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str) -> dict[str, object]:
        room = _room(rooms, game_id, keep=False)
        return {"seats": room.game.seats, "frames": replay_frames(room.game.record)}

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        origin = websocket.headers.get("origin")  # a browser's; other clients send none
        if origin is not None and not own_origin(
            origin, websocket.headers.get("host"), base_url or None
        ):
            foreign = {"detail": Refused("foreign_origin").to_dict()}
            await websocket.send_denial_response(JSONResponse(foreign, status_code=403))
            return
        if not token:  # a spectator
            await connection_limits.spectators_one_at_a_time()
        await websocket.accept()
        try:
            room = rooms.get(game_id)
        except RecordError as error:
            await _refuse(websocket, Refused("game_damaged", why=error), 1011)
            return
        if room is None:
            await _refuse(websocket, Refused("no_game", id=shown_id(game_id)), NO_GAME)
            return
        try:
            seat = room.seat_of(token)
        except Refused as refusal:
            await _refuse(websocket, refusal, BAD_TOKEN)
            return
        address = client_address(websocket.client)
        too_many = connection_limits.refusal(address, room.watchers, seat is not None)
        if too_many:
            await _refuse(websocket, too_many, TOO_MANY)
            return
        with connection_limits.held(address, seat is not None):
            try:  # an invite or transfer link gives the seat a secret for this browser
                fresh = room.take(seat, token) if seat is not None and token else None
            except Refused as refusal:
                await _refuse(websocket, refusal, BAD_TOKEN)
                return
            await room.tell_moved()
            limit = RateLimit(message_rate)
            await _serve_client(websocket, room, seat, limit, fresh, socket_idle_timeout)

    return app


class BodyLimit:
    """Refuses a request whose body is over ``limit`` bytes (413): at once when the declared
    length says so, else while reading it (a chunked body declares none), so the app never
    holds more than ``limit`` bytes of one request; the API's bodies are a few hundred bytes."""

    def __init__(self, app: ASGIApp, limit: int = 16 * 1024) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        body, replayed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = Refused("body_too_big", most=self.limit).to_dict()
        too_big = JSONResponse({"detail": detail}, status_code=413)
        await too_big(scope, receive, send)


def _record_results(profiles: ProfileStore, room: Room) -> None:
    """A game ended: its results and ratings, if it has any (if the database fails now, the
    next start records them: the game is still pending)."""
    try:
        profiles.record(room.id, room.game.record.meta, len(room.seats))
    except Exception:
        log.exception("could not record the results of game %s", room.id)


async def _checkpoints(store: Store, every: float = 2.0) -> None:
    """Fold SQLite's write-ahead log into the database now and then, in a worker thread."""
    while store.needs_checkpoints:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(store.checkpoint)
        except Exception:  # the next one will try again; the moves are safe in the log
            log.exception("SQLite checkpoint failed")


async def _abandon_idle(rooms: Rooms, idle: float) -> None:
    """Look for idle games a few times per ``idle`` period (at least once an hour)."""
    while True:
        await asyncio.sleep(min(idle / 4, 3600))
        try:
            rooms.abandon_idle(idle)
        except Exception:  # the database away? the next round will try again
            log.exception("could not look for idle games")


def _page(file: str) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        return FileResponse(STATIC / file)

    return page


def _link(room: Room, seat: int, base_url: str) -> str | None:
    """A seat's secret link (on ``base_url``, the public address, if any); ``None`` for a
    bot and for an open seat nobody took yet."""
    token = room.seats[seat].token
    return f"{base_url}/games/{room.id}?token={token}" if token else None


def _room(rooms: Rooms, game_id: str, keep: bool = True) -> Room:
    try:
        room = rooms.get(game_id, keep)
    except RecordError as error:
        raise refused(500, "game_damaged", why=error) from None
    if room is None:
        raise refused(404, "no_game", id=shown_id(game_id))
    return room


async def _invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    """422 with what is wrong where (FastAPI's form) but not the values sent: they may be
    huge, or not JSON at all (NaN and Infinity, which Python's parser reads, cannot be sent
    back: the default answer failed with a 500 and a traceback)."""
    problems = [
        {key: value for key, value in problem.items() if key != "input"}
        for problem in error.errors()
    ]
    return JSONResponse({"detail": jsonable_encoder(problems)}, status_code=422)


async def _http_refusal(request: Request, error: HTTPException) -> Response:
    """Starlette's own refusals (no route for the address, a method it does not take)
    carry English words: they become ids like the app's own (those pass as they are)."""
    if isinstance(error.detail, str):
        refusal = (
            Refused("no_page") if error.status_code == 404
            else Refused("method_not_allowed") if error.status_code == 405
            else Refused("http_status", status=error.status_code)
        )  # fmt: skip
        error = FastAPIHTTPException(error.status_code, refusal.to_dict(), error.headers)
    return await http_exception_handler(request, error)


async def _server_error(_request: Request, _error: Exception) -> JSONResponse:
    """A bug's 500 as an id too (the error itself is logged, and goes to no client)."""
    return JSONResponse({"detail": Refused("server_error").to_dict()}, status_code=500)


async def _refuse(websocket: WebSocket, refusal: Refused, code: int) -> None:
    """Say why, then close with ``code`` (the reason's id as the close reason)."""
    await websocket.send_text(refusal_message(refusal))
    await websocket.close(code, refusal.code)


async def _say_and_close(websocket: WebSocket, outbox: Outbox, refusal: Refused, code: int) -> None:
    """Say why after what is queued, then close with ``code`` (the reason's id as reason)."""
    await outbox.send(refusal_message(refusal))
    await outbox.drain()
    await websocket.close(code, refusal.code)


async def _serve_client(
    websocket: WebSocket,
    room: Room,
    seat: int | None,
    limit: RateLimit,
    fresh: str | None,
    idle: float,
) -> None:
    """One client's messages, until it leaves, floods, sends something too big or nothing
    for ``idle`` seconds; ``fresh``: the seat's new secret, when this client just took the
    seat (for it alone)."""
    outbox = Outbox(websocket)
    send = outbox.send
    name = room.seats[seat].name if seat is not None else None
    welcome = {"type": "welcome", "seat": seat, "name": name}
    try:
        await send(json.dumps({**welcome, "token": fresh} if fresh else welcome))
        await room.connect(send, seat, claiming=fresh is not None)
        while True:
            try:
                async with asyncio.timeout(idle):
                    message = await websocket.receive()
            except TimeoutError:
                await _say_and_close(websocket, outbox, Refused("idle"), IDLE)
                return
            seat = room.connections.get(send)  # a seat moved to another device: watching
            if message["type"] == "websocket.disconnect":
                return
            if not limit.allow():
                await _say_and_close(websocket, outbox, Refused("flood"), 1008)
                return
            text = message.get("text")
            if text is None:
                await send(refusal_message(Refused("binary_message")))
                continue
            try:
                parsed = parse_message(text)
            except BadMessage as error:
                await send(refusal_message(error))
                continue
            if isinstance(parsed, Act):
                try:
                    await room.act(seat, parsed.action, parsed.seq)
                except PickominoError as refusal:  # the room's, or the engine's
                    await send(refusal_message(refusal))
            elif isinstance(parsed, Hint):
                try:
                    await send(json.dumps(room.hint(seat)))
                except Refused as refusal:
                    await send(refusal_message(refusal))
            elif isinstance(parsed, CoachRequest):
                try:
                    await send(json.dumps(await room.coach_advice(seat)))
                except Refused as refusal:
                    await send(refusal_message(refusal))
            elif isinstance(parsed, Sync):
                await room.send_full(send)
            elif isinstance(parsed, Vote | Back):
                try:
                    await (room.vote(seat, parsed.seat) if isinstance(parsed, Vote)
                           else room.come_back(seat))  # fmt: skip
                except Refused as refusal:
                    await send(refusal_message(refusal))
            else:
                await send(json.dumps({"type": "pong"}))
    except (WebSocketDisconnect, ConnectionError):  # gone, or too far behind
        return
    finally:
        await room.disconnect(send, seat)
        await outbox.stop()
