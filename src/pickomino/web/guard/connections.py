"""Every connection has a deadline and a share, before the app sees a byte of it: a stranger
opening hundreds of sockets that send nothing, or headers that never end (slowloris), must
not hold the server's file descriptors and lock everybody else out.

uvicorn closes a kept-alive connection that sends nothing after an answer
(``timeout_keep_alive``, 5 s), but a fresh connection, or one that sends a byte now and
then, may stay open for ever; its ``limit_concurrency`` answers words (not an id), counts
no address, and lets game sockets through. So ``serve`` runs uvicorn with
:class:`GuardedProtocol`, its httptools protocol with:

- a **request deadline**: a request, headers and body, must have arrived
  ``request_timeout`` seconds after the connection opened, or after the previous answer on
  a kept-alive connection; bytes arriving do not extend it. Past it, the connection is
  closed (the app sees a request only once it is whole: a page's requests have no body, the
  API's at most 16 KiB, see :class:`pickomino.web.guard.body_limit.BodyLimit`);
- a **header size**: at most ``MAX_HEADER_BYTES`` (as nginx's default buffers); beyond,
  431 ``headers_too_big`` and the connection closed (httptools sets no bound of its own,
  so within its deadline one connection could fill the memory with headers). Every byte the
  parser reads outside a body counts, also the next request's sent while the answer to the
  last is still going out (an audit: a client that never read a large answer then streamed
  300 MB of headers into the server's memory); such a connection is cut (a 431 would land in
  the middle of that answer). A body answered before it was read (413) is read to its end
  as a body, not counted as the next request's headers;
- a **cap per address**: one address holds at most ``per_address`` HTTP connections (not
  counting game sockets, which the app counts apart, see :mod:`pickomino.web.guard.limits`); one
  more is closed at once, before it costs anything. The /64s of one IPv6 /48 hold
  :data:`~pickomino.web.addresses.SITE_SHARE` times that together (anyone may be given a /48:
  65,536 /64s, each holding one connection, would fill any global limit). The proxies named by
  ``--forwarded-allow-ips`` are exempt: every visitor comes through them (the proxy limits
  its clients; the app's limits see the forwarded addresses);
- a **global limit**: beyond ``most`` open connections (HTTP and game sockets), a new one is
  accepted and answered 503 ``server_busy`` with ``Retry-After`` and closed, instead of the
  server running out of file descriptors and failing to accept at all;
- a **reserve for the others**: the last tenth of ``most`` is kept for addresses that hold
  at most ``FEW`` connections, the new one among them (a new visitor, a player coming back),
  and whose IPv6 site holds at most ``SITE_SHARE`` times that: one that holds more is
  answered 503 there. Each address's own caps are far below
  ``most``, but a few addresses holding all they may (an audit: seven, each with its HTTP
  connections and its players' and spectators' sockets) otherwise locked everyone else out.

httptools is uvicorn's faster parser and comes with ``uvicorn[standard]``; pinning it keeps
one tested code path (uvicorn's h11 protocol has the same hooks, its upgrade taking the
request event, should it ever be needed).

A game socket that says nothing for its own deadline is closed by the app (the page pings;
see :mod:`pickomino.web.api.play_socket`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pickomino.web.addresses import SITE_SHARE, Shares, network_of, site_of
from pickomino.web.errors import Refused

#: Where the app's lifespan state holds the :class:`ConnectionGuard` for the protocol.
GUARD = "pickomino.connection_guard"
#: The mark a connection over the global limit carries into its requests' scope state.
BUSY = "pickomino.busy"
#: The most bytes of one request's headers (a browser's are 1-2 KB, with cookies a few more).
MAX_HEADER_BYTES = 32 * 1024
#: Seconds a client refused for the global limit is asked to wait.
RETRY_AFTER = 5
#: Connections an address may hold and still use the reserve kept when the server is nearly
#: full (a browser opens up to six at once for a page's files, and the game's socket).
FEW = 8
#: The share of the global limit kept for addresses holding at most :data:`FEW`.
RESERVE = 0.1
#: Open files a process needs besides its connections: the database, logs, static files.
SPARE_FILES = 256


def open_files_for(most: int) -> int | None:
    """Let this process open enough files for ``most`` connections (raising its soft limit
    up to the hard one, as servers do), or say how many it may open if that is too few: a
    global limit above the file limit would fail to accept instead of answering 503."""
    try:
        import resource
    except ImportError:  # not on Unix: the system's own limits apply
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = most + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            return hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return None


def trusted_proxies(allowed: str | None) -> Callable[[str], bool]:
    """Whether an address is one of ``--forwarded-allow-ips`` (addresses or networks,
    separated by commas; ``serve`` refuses ``*``, and here it names no address).

    >>> trusted = trusted_proxies("127.0.0.1, 10.0.0.0/8")
    >>> trusted("10.1.2.3"), trusted("127.0.0.1"), trusted("192.0.2.1"), trusted("unknown")
    (True, True, False, False)
    >>> trusted_proxies(None)("127.0.0.1"), trusted_proxies("*")("192.0.2.1")
    (False, False)
    """
    names = [name.strip() for name in (allowed or "").split(",") if name.strip()]
    networks = []
    for name in names:  # a name that is no address (a Unix socket's path) matches no peer
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            continue

    def trusted(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)

    return trusted


@dataclass
class ConnectionGuard:
    """The limits of one server process, and its HTTP connections per address."""

    request_timeout: float
    per_address: int
    most: int
    trusted: Callable[[str], bool] = field(default=lambda address: False)
    open: Shares = field(default_factory=Shares)  #: HTTP connections, by network and site
    #: The game sockets an address (a network) holds (the app counts them: see
    #: :class:`pickomino.web.guard.limits.ConnectionLimits`).
    sockets: Callable[[str], int] = field(default=lambda network: 0)

    def busy(self, address: str, connections: int) -> bool:
        """Whether a new connection from ``address``, with ``connections`` open now (it
        among them), is answered 503: beyond the global limit, or in the reserve for those
        holding few while ``address`` holds more."""
        if connections > self.most:
            return True
        if connections <= self.most - max(1, int(self.most * RESERVE)):
            return False
        network = network_of(address)
        held = self.open[network] + self.sockets(network)
        many = held > FEW or self.open[site_of(network)] > SITE_SHARE * FEW
        return many and not self.trusted(address)

    def let_in(self, address: str) -> bool:
        """Count a new HTTP connection from ``address`` (by its network: an IPv6 /64 is one
        address; and by its IPv6 site), or say it is one too many."""
        network = network_of(address)
        if self.open.full(network, self.per_address) and not self.trusted(address):
            return False
        self.open.take(network)
        return True

    def let_go(self, address: str) -> None:
        """No longer an HTTP connection: closed, or a game socket from now on (the app
        counts those apart)."""
        self.open.give_back(network_of(address))


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the guard's deadline, cap and limit (see above)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.guard: ConnectionGuard = self.app_state[GUARD]
        self.deadline: asyncio.TimerHandle | None = None
        self.header_bytes = 0  # of the request awaited
        self.in_body = False  # the parser reads a request's body (from its headers' end on)
        self.counted: str | None = None  # the address counted for this connection
        address = self.client[0] if self.client else "unknown"
        if not self.guard.let_in(address):
            self.connections.discard(self)  # closing: it must not make others look busy
            transport.close()
            return
        self.counted = address
        if self.guard.busy(address, len(self.connections)):
            self.app_state = {**self.app_state, BUSY: True}  # read by ServerBusy
        self._wait_for_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._let_go()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.header_bytes > MAX_HEADER_BYTES:
            return  # refused: read and dropped until the deadline (see _refuse_headers)
        if not self.in_body:
            # a request's headers, the next one's too while the last is answered: counted
            # before the parser sees them (a chunk that ends them would otherwise pass whole,
            # however large), up to their end
            end = data.find(b"\r\n\r\n")
            self.header_bytes += len(data) if end < 0 else end + 4
            if self.header_bytes > MAX_HEADER_BYTES:
                self._refuse_headers()
                return
        super().data_received(data)
        cycle = self.cycle
        if cycle is not None and cycle.more_body:
            return  # a body arriving (the app may have answered already): within the deadline
        if cycle is not None and not cycle.response_complete:
            self._stop_waiting()  # the whole request has arrived: the app answers it

    def on_headers_complete(self) -> None:
        self.in_body, self.header_bytes = True, 0  # the next request's are counted anew
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.in_body = False  # also for a body answered (413) before it was read
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.cycle.response_complete and not self.transport.is_closing():
            self._wait_for_request()  # kept alive: the next request in time too

    def handle_websocket_upgrade(self) -> None:
        """A game socket from now on: the app's limits and deadline take over."""
        self._stop_waiting()
        self._let_go()
        super().handle_websocket_upgrade()

    def _wait_for_request(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.guard.request_timeout, self._too_slow)

    def _stop_waiting(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _refuse_headers(self) -> None:
        """Answer 431 and end the sending side, but go on reading: closing a socket with
        bytes unread would reset the connection, and the answer with it. While the answer to
        the request before is still going out, the 431 would land in its middle: cut."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            self.transport.abort()
            return
        self.transport.write(too_big_headers())
        self.transport.write_eof()

    def _too_slow(self) -> None:
        self.deadline = None
        self.transport.close()

    def _let_go(self) -> None:
        if self.counted is not None:
            self.guard.let_go(self.counted)
            self.counted = None


def too_big_headers() -> bytes:
    """The whole 431 answer, written before the request could reach the app."""
    body = json.dumps({"detail": Refused("headers_too_big", most=MAX_HEADER_BYTES).to_dict()})
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        b"content-type: application/json\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body.encode())
    )


class ServerBusy:
    """Answers a request of a connection over the global limit: 503 ``server_busy`` with
    ``Retry-After``, and the connection closed (a game socket is refused before it opens,
    with the same answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not scope.get("state", {}).get(BUSY):
            await self.app(scope, receive, send)
            return
        answer = JSONResponse(
            {"detail": Refused("server_busy").to_dict()},
            status_code=503,
            headers={"retry-after": str(RETRY_AFTER), "connection": "close"},
        )
        if scope["type"] == "http":
            await answer(scope, receive, send)
        else:
            await WebSocket(scope, receive, send).send_denial_response(answer)
