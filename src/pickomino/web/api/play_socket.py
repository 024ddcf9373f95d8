"""The WebSocket of a game's page, ``/ws/games/{id}``: a player's (a seat's secret opens a
seat) or a spectator's (none). The page sends the secret among the socket's subprotocols
(``Sec-WebSocket-Protocol: pickomino, seat.<secret>``; the server answers ``pickomino``), so
that no access log keeps it; ``?token=<secret>`` in the address is understood too (scripts,
an invite link). What is said on it: :mod:`pickomino.web.protocol`.

Before a socket is let in: one opened by a page of another site (its ``Origin`` neither the
address asked nor the public address) is refused (403 ``foreign_origin``); spectators come in
one at a time; an unknown or damaged game, a token of no seat, or one address or game over
its share of sockets (:mod:`pickomino.web.guard.limits`) is told why and closed.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from functools import partial
from typing import cast

from fastapi import APIRouter, HTTPException, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from pickomino.core import PickominoError, RecordError
from pickomino.web.addresses import own_origin
from pickomino.web.db.ids import shown_id
from pickomino.web.errors import Refused, refusal_message
from pickomino.web.forms import client_address
from pickomino.web.game.advisor import Run
from pickomino.web.game.outbox import Outbox
from pickomino.web.game.room import Room
from pickomino.web.game.rooms import Rooms
from pickomino.web.guard.idle import IdleWatch
from pickomino.web.guard.limits import ConnectionLimits
from pickomino.web.guard.searches import Searches
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
    RateLimits,
    Sync,
    Vote,
    parse_message,
)

log = logging.getLogger("pickomino.web")


def play_socket_router(
    rooms: Rooms,
    limits: ConnectionLimits,
    public_url: str | None,
    message_rate: float,
    idle: float,
    loads: RateLimits,
    opens: RateLimits,
    played_from: Callable[[str, int, str], None],
    searches: Searches,
) -> APIRouter:
    """A client sending more than ``message_rate`` messages a second (after a burst) is cut
    off as a flood; one that sends nothing for ``idle`` seconds is closed (the page pings
    every 25 s). ``public_url``: the public address, whose pages may open sockets too. A
    socket for a game this process does not hold (read from the store and replayed whole)
    counts among its address's ``loads``, as a record's look does (unless it opens a person's
    own seat), and every socket among its
    ``opens`` (each coming and going is told to the whole table: an audit opened and closed
    a seat's socket 195 times a second, 2,000 presence messages to each watcher); beyond
    either, the page tries again later (4429). ``played_from(game, seat, address)`` keeps the
    network a person's seat of a rated game is played from. The Hint's and the coach's
    valuations wait their turn among the server's ``searches`` (an address's share, a bound
    in all)."""
    router = APIRouter()

    @router.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        origin = websocket.headers.get("origin")  # a browser's; other clients send none
        if origin is not None and not own_origin(origin, websocket.headers.get("host"), public_url):
            foreign = {"detail": Refused("foreign_origin").to_dict()}
            await websocket.send_denial_response(JSONResponse(foreign, status_code=403))
            return
        offered = websocket.scope.get("subprotocols") or []
        token = secret_offered(offered) or token
        if not token:  # a spectator
            await limits.spectators_one_at_a_time()
        await websocket.accept(subprotocol=PROTOCOL if PROTOCOL in offered else None)
        address = client_address(websocket.client)
        loading = rooms.held(game_id) is None  # read and replayed, as a look costs
        opening = opens.allow(address)  # the seats read only for an opening allowed:
        looking = opening and loading and not _seated(rooms, game_id, token)  # not their game
        if not opening or (looking and not loads.allow(address)):
            await _refuse(websocket, Refused("too_many_lookups"), TOO_MANY)
            return
        try:  # ``loaded``: taken into play for this socket, let go if refused
            room, loaded = await rooms.load_here(game_id)
        except RecordError as error:
            await _refuse(websocket, Refused("game_damaged", why=error), 1011)
            return
        if room is None:
            await _refuse(websocket, Refused("no_game", id=shown_id(game_id)), NO_GAME)
            return
        try:
            seat = room.seat_of(token, moving=True)  # a transfer link moves the seat here
        except Refused as refusal:
            await _refuse(websocket, refusal, BAD_TOKEN, room if loaded else None)
            return
        too_many = limits.refusal(address, room.watchers, seat is not None)
        if too_many:
            await _refuse(websocket, too_many, TOO_MANY, room if loaded else None)
            return
        with limits.held(address, seat is not None):
            try:  # an invite or transfer link gives the seat a secret for this browser
                fresh = room.take(seat, token) if seat is not None and token else None
            except Refused as refusal:
                await _refuse(websocket, refusal, BAD_TOKEN, room if loaded else None)
                return
            if seat is not None and room.game.record.meta.get("rated") and not room.ended:
                try:  # asked for rated (its profiles may come later): where it is played from
                    played_from(room.id, seat, address)
                except Exception:  # the game plays on; only this network is not kept
                    log.exception("game %s: seat %d's network could not be kept", room.id, seat)
            await room.tell_moved()
            limit = RateLimit(message_rate)
            search = partial(searches.run, address)  # the Hint's and the coach's valuations
            secret = fresh or token  # what this socket holds its seat by
            await _serve_client(websocket, room, seat, limit, fresh, idle, search, secret)

    return router


def _seated(rooms: Rooms, game_id: str, token: str | None) -> bool:
    """Whether ``token`` is the secret of a person's seat of the game (a person coming back
    to their resting game, a school's class after the break behind one address: not a look),
    from the seats' row alone."""
    if not token:
        return False
    given = token.encode()
    tokens = rooms.store.seat_tokens([game_id]).values()
    return any(secrets.compare_digest(given, secret.encode()) for secret in tokens)


#: The WebSocket subprotocol the game's page asks for, beside ``seat.<its secret>``: the
#: server answers with this one alone, so the secret is never sent back.
PROTOCOL = "pickomino"
SECRET_PREFIX = "seat."


def secret_offered(subprotocols: list[str]) -> str | None:
    """The seat's secret a page sends among its socket's subprotocols (``seat.<secret>``, in
    the ``Sec-WebSocket-Protocol`` header): headers, unlike the address's query, are not
    written to proxies' and servers' access logs.

    >>> secret_offered(["pickomino", "seat.Ab-9_x"]), secret_offered(["pickomino"])
    ('Ab-9_x', None)
    """
    for offered in subprotocols:
        if offered.startswith(SECRET_PREFIX):
            return offered.removeprefix(SECRET_PREFIX)
    return None


async def _refuse(
    websocket: WebSocket, refusal: Refused, code: int, room: Room | None = None
) -> None:
    """Say why, then close with ``code`` (the reason's id as the close reason). The ``room``
    loaded for this socket is let go if ended and unwatched: a refused socket (a forged
    token, say) must not keep a finished game in memory. (Not one held before, nor one
    another socket's load read: that socket may be joining it.)"""
    if room is not None:
        room.on_idle(room)
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
    search: Run,
    secret: str | None,
) -> None:
    """One client's messages, until it leaves, floods, sends something too big or nothing
    for ``idle`` seconds; ``fresh``: the seat's new secret, when this client just took the
    seat (for it alone); ``secret``: the one it holds its seat by (its moves and votes are
    stored only while that holds the seat)."""
    outbox = Outbox(websocket)
    send = outbox.send
    watch = IdleWatch(idle)
    name = room.seats[seat].name if seat is not None else None
    welcome = {"type": "welcome", "seat": seat, "name": name}
    try:
        await send(json.dumps({**welcome, "token": fresh} if fresh else welcome))
        await room.connect(send, seat, claiming=fresh is not None)
        whole_state = outbox.queued  # the last whole state queued for it (a sync asks one)
        while True:
            try:
                message = await watch.receive(websocket.receive())
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
                    await room.act(seat, parsed.action, parsed.seq, secret)
                except PickominoError as refusal:  # the room's, or the engine's
                    await send(refusal_message(refusal))
            elif isinstance(parsed, Hint | CoachRequest):
                ask = room.hint if isinstance(parsed, Hint) else room.coach_advice
                try:
                    await send(json.dumps(await ask(seat, search)))
                except Refused as refusal:
                    await send(refusal_message(refusal))
                except HTTPException as busy:  # the searches': too many asked, or busy
                    await send(
                        json.dumps({"type": "error", **cast(dict[str, object], busy.detail)})
                    )
            elif isinstance(parsed, Sync):  # unless a whole state is still on its way to it
                if not outbox.still_writing(whole_state):
                    await room.send_full(send)
                    whole_state = outbox.queued
            elif isinstance(parsed, Vote | Back):
                try:
                    await (room.vote(seat, parsed.seat, secret) if isinstance(parsed, Vote)
                           else room.come_back(seat, secret))  # fmt: skip
                except Refused as refusal:
                    await send(refusal_message(refusal))
            else:
                await send(json.dumps({"type": "pong"}))
    except (WebSocketDisconnect, ConnectionError):  # gone, or too far behind
        return
    finally:
        watch.stop()
        await room.disconnect(send, seat)
        await outbox.stop()
