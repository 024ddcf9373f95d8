"""Connections from strangers against a real ``pickomino serve`` on loopback (and, where the
kernel decides, its protocol over a stand-in socket): every
connection has a deadline (its request's headers, a silent game socket), one address holds
only so many, the server as a whole answers 503 with an id beyond its limit instead of
failing to accept, and a game's WebSocket opens only from the server's own pages.

The attacker connects from 127.0.0.2 (or .3, .4), the visitor from 127.0.0.1: the whole of
127/8 is loopback, so the server sees two addresses on one machine. Deadlines are bounds to
poll against, never timings."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Close

from pickomino.web.addresses import SITE_SHARE, network_of
from pickomino.web.guard.connections import (
    FEW,
    GUARD,
    MAX_HEADER_BYTES,
    ConnectionGuard,
    GuardedProtocol,
)
from pickomino.web.guard.limits import ConnectionLimits
from pickomino.web.protocol import IDLE

from .clients import refused, refused_http
from .server_process import ServerProcess

pytestmark = pytest.mark.slow  # real server processes

ATTACKER, VISITOR = "127.0.0.2", "127.0.0.1"
BOT = {"name": "Robo", "bot": "easy"}
BOUND = 10.0  # seconds: far beyond every deadline the servers below are given


@pytest.fixture
def start(tmp_path: Path) -> Iterator:
    """Starts ``pickomino serve`` with the options given; stops them all after the test."""
    servers: list[ServerProcess] = []

    def started(*options: str) -> ServerProcess:
        database = tmp_path / f"games{len(servers)}.sqlite3"
        servers.append(ServerProcess(database, options=options).start())
        return servers[-1]

    yield started
    for server in servers:
        server.stop()


def raw(server: ServerProcess, source: str = ATTACKER) -> socket.socket:
    """A TCP connection to the server from ``source``, sending nothing yet."""
    return socket.create_connection(("127.0.0.1", server.port), BOUND, (source, 0))


def closed_within(sock: socket.socket, seconds: float = BOUND) -> bytes | None:
    """What the server sent before it closed the connection, or ``None`` if it is still
    open after ``seconds``."""
    deadline, received = time.monotonic() + seconds, b""
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            return None
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    return None


def get(sock: socket.socket, path: str = "/api/options") -> bytes:
    """A whole GET on a raw connection, kept alive; the answer's status line."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return whole_answer(sock)


def whole_answer(sock: socket.socket) -> bytes:
    """Read an answer to its end (by its length) on a raw connection; its status line."""
    sock.settimeout(BOUND)
    answer = b""

    def more() -> bytes:
        if not (chunk := sock.recv(65536)):
            raise ConnectionError("closed by the server before it answered")
        return chunk

    while b"\r\n\r\n" not in answer:
        answer += more()
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))  # fmt: skip
    while len(body) < length:
        body += more()
    return head.split(b"\r\n")[0]


def visitor_status(server: ServerProcess) -> int:
    transport = httpx.HTTPTransport(local_address=VISITOR)
    with httpx.Client(transport=transport, timeout=BOUND) as http:
        return http.get(server.url + "/api/options").status_code


def test_a_socket_that_sends_nothing_is_closed_at_the_header_deadline(start):
    server = start("--request-timeout", "1")
    with raw(server) as silent:
        assert closed_within(silent) == b""


def test_a_request_whose_headers_never_end_is_cut(start):
    """Slowloris: a header line now and then, never the blank line that ends them. Sending
    resets no deadline: the headers must be complete within it, however they trickle."""
    server = start("--request-timeout", "1")
    with raw(server) as slow:
        slow.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert_cut_while_trickling(slow, b"X-Slow: 1\r\n", "trickled headers")


def test_a_body_that_trickles_is_cut_at_the_same_deadline(start):
    """Complete headers, then a declared body sent a byte now and then: the whole request
    must arrive in time, not only its headers."""
    server = start("--request-timeout", "1")
    with raw(server) as slow:
        slow.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        assert_cut_while_trickling(slow, b" ", "a trickled body")


def assert_cut_while_trickling(slow: socket.socket, piece: bytes, what: str) -> None:
    """Send ``piece`` now and then (polling for the close between two) until the server
    cuts the connection; fail if it is still open after :data:`BOUND` seconds."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        try:
            slow.sendall(piece)
        except (BrokenPipeError, ConnectionResetError):
            return  # cut
        if closed_within(slow, 0.2) is not None:
            return
    pytest.fail(f"still open after {BOUND} s of {what}")


def test_headers_that_go_on_and_on_are_refused_once_too_big(start):
    """Within the deadline, as fast as the network goes: the headers are capped by size too
    (else one connection could fill the server's memory with them)."""
    server = start()
    with raw(server) as endless:
        endless.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            for _ in range(1000):  # up to 1 MB, far over the cap
                endless.sendall(b"X-Long: " + b"x" * 1000 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # cut while sending: read what it said
        answer = closed_within(endless)
    assert answer is not None, "still open after a megabyte of headers"
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431"), answer[:200]
    refused(json.loads(body)["detail"], "headers_too_big", most=32 * 1024)


def test_headers_too_big_in_one_piece_are_refused_too(start):
    """An audit: the bytes that ended the headers were never counted, so 96 KB of headers in
    one piece reached the app; now they are counted before the parser sees them."""
    server = start()
    with raw(server) as whole:
        long = b"".join(b"X-Long-%d: " % n + b"x" * 1000 + b"\r\n" for n in range(60))
        whole.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n" + long + b"\r\n")
        answer = closed_within(whole)
    assert answer is not None and answer.startswith(b"HTTP/1.1 431"), (answer or b"")[:200]
    with raw(server) as fitting:  # headers under the cap, in one piece, are answered
        long = b"".join(b"X-Long-%d: " % n + b"x" * 1000 + b"\r\n" for n in range(20))
        fitting.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n" + long + b"\r\n")
        assert fitting.recv(64).startswith(b"HTTP/1.1 200")


class NeverReadingClient(asyncio.Transport):
    """The socket of a client that never reads its answer: what the server writes stays
    (uvicorn's flow control keeps the answer from completing); it sees whether the server
    cut the connection. The one boundary these tests stand in for: the kernel's buffers
    decide when a real answer stalls, which a test cannot arrange."""

    def __init__(self) -> None:
        super().__init__()
        self.written, self.cut = b"", False

    def get_extra_info(self, name: str, default=None):
        return {"peername": (ATTACKER, 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data) -> None:
        self.written += bytes(data)

    def is_closing(self) -> bool:
        return self.cut

    def abort(self) -> None:
        self.cut = True

    close = abort

    def write_eof(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def answer_that_never_ends(scope, receive, send) -> None:
    """An answer started and never finished, as one the client never reads."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"x" * 1000, "more_body": True})
    await asyncio.Event().wait()


def test_headers_sent_while_an_answer_goes_out_are_counted_and_cut():
    """An audit: a client that never read a large answer (Swagger UI's 1.5 MB script) sent
    the next request's headers meanwhile; they were not counted while the answer went out,
    and 300 MB of them went into the server's memory. Now the connection is cut once they
    pass the cap (a 431 would land in the middle of the answer)."""

    async def send_headers_while_answered() -> tuple[int, NeverReadingClient]:
        config = uvicorn.Config(answer_that_never_ends, log_level="critical")
        config.load()
        guard = ConnectionGuard(request_timeout=10, per_address=50, most=1000)
        protocol = GuardedProtocol(config, ServerState(), {GUARD: guard})
        client = NeverReadingClient()
        protocol.connection_made(client)
        protocol.data_received(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        while b"x" not in client.written:  # the answer under way
            await asyncio.sleep(0)
        protocol.data_received(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sent = 0
        while not client.cut and sent < 10 * 2**20:  # 10 MB at most, far over the cap
            protocol.data_received(b"X-Long: " + b"x" * 1000 + b"\r\n")
            sent += 1010
        protocol.connection_lost(None)
        return sent, client

    sent, client = asyncio.run(send_headers_while_answered())
    assert client.cut and sent <= MAX_HEADER_BYTES + 1010
    assert b"431" not in client.written  # nothing written into the answer's middle


def test_a_body_refused_before_it_was_read_is_not_taken_for_the_next_headers(start):
    """An audit: a body over the API's 16 KiB is answered 413 as its length is declared;
    the body sent after that answer counted as the next request's headers, so the next
    request on the connection was answered 431. Now it is read as the body it is."""
    server = start()
    body = b"{" + b" " * 40_000 + b"}"
    with raw(server, VISITOR) as kept:
        kept.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body))  # fmt: skip
        assert whole_answer(kept).startswith(b"HTTP/1.1 413")
        kept.sendall(body)
        assert get(kept) == b"HTTP/1.1 200 OK"


def test_a_kept_alive_connection_that_starts_a_request_and_never_ends_it_is_cut(start):
    server = start("--request-timeout", "1")
    with raw(server, VISITOR) as kept:
        assert get(kept) == b"HTTP/1.1 200 OK"
        kept.sendall(b"GET /api/options HTTP/1.1\r\n")  # and nothing more
        assert closed_within(kept) == b""


def test_one_address_holds_only_so_many_http_connections_and_others_are_served(start):
    server = start("--http-connections-per-address", "3", "--request-timeout", "60")
    with ExitStack() as stack:
        held = [stack.enter_context(raw(server)) for _ in range(3)]
        with raw(server) as fourth:
            assert closed_within(fourth) == b""  # refused: closed at once, nothing read
        assert visitor_status(server) == 200  # another address is served meanwhile
        assert get(held[0]) == b"HTTP/1.1 200 OK"  # the three held are still open
        held.pop().close()
        deadline = time.monotonic() + BOUND  # the server notices the close soon
        while time.monotonic() < deadline:
            with raw(server) as again:
                try:
                    answered = get(again)
                except OSError:  # refused: the close not noticed yet
                    continue
                assert answered == b"HTTP/1.1 200 OK"
                return
        pytest.fail("a connection was refused after one of the three closed")


def test_a_trusted_proxy_is_not_capped_as_one_address(start):
    """Behind a proxy every visitor's connection comes from the proxy's address: the cap
    would lock them all out together. The proxies named are exempt (they limit their own
    clients)."""
    server = start(
        "--http-connections-per-address", "2", "--forwarded-allow-ips", ATTACKER,
        "--request-timeout", "60",
    )  # fmt: skip
    with ExitStack() as stack:
        held = [stack.enter_context(raw(server)) for _ in range(4)]
        assert [get(sock) for sock in held] == [b"HTTP/1.1 200 OK"] * 4


def test_beyond_the_global_limit_the_answer_is_503_with_an_id(start):
    server = start(
        "--max-connections", "4", "--http-connections-per-address", "2",
        "--request-timeout", "60",
    )  # fmt: skip
    with ExitStack() as stack:
        for source in ("127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"):
            stack.enter_context(raw(server, source))
        transport = httpx.HTTPTransport(local_address=VISITOR)
        with httpx.Client(transport=transport, timeout=BOUND) as http:
            busy = http.get(server.url + "/api/options")
        refused_http(busy, 503, "server_busy")
        assert busy.headers["retry-after"] and busy.headers["connection"] == "close"
        assert "frame-ancestors 'none'" in busy.headers["content-security-policy"]
        with pytest.raises(InvalidStatus) as denied:  # a game's socket is answered alike
            asyncio.run(first_message(f"{server.ws_url}/ws/games/nope"))
        assert denied.value.response.status_code == 503
        refused(json.loads(denied.value.response.body)["detail"], "server_busy")
    deadline = time.monotonic() + BOUND  # the four closed: served again once it notices
    while visitor_status(server) != 200:
        assert time.monotonic() < deadline, "still busy after the idle connections closed"


def test_the_last_connections_are_kept_for_addresses_holding_few(start):
    """An audit: seven addresses, each holding all its caps allow (HTTP connections, players'
    and spectators' sockets), filled the global limit: everybody else got 503. The last
    tenth of it is kept for addresses holding few: one holding more than that, its game
    sockets counted too, is answered 503 there, and a visitor is still served."""
    server = start(
        "--max-connections", "12", "--http-connections-per-address", "10",
        "--request-timeout", "60",
    )  # fmt: skip
    game = httpx.post(server.url + "/api/games", json={"seats": [{"name": "Ann"}, BOT]}).json()

    async def fill_and_ask() -> tuple[int, int]:
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(5):  # the attacker watches the game five times
                url = f"{server.ws_url}/ws/games/{game['id']}"
                watcher = await stack.enter_async_context(connect(url, local_addr=(ATTACKER, 0)))
                json.loads(await watcher.recv())  # in: counted by the app
            for source in [ATTACKER] * 4 + ["127.0.0.3"] * 2:  # eleven open with these
                stack.enter_context(raw(server, source))
            with raw(server) as heavy:  # the twelfth, from an address holding nine
                refused_by_reserve = get(heavy)
            return refused_by_reserve, visitor_status(server)

    heavy, visitor = asyncio.run(fill_and_ask())
    assert heavy == b"HTTP/1.1 503 Service Unavailable"
    assert visitor == 200


async def first_message(url: str, **options: object) -> dict:
    async with connect(url, **options) as ws:  # type: ignore[arg-type]
        return json.loads(await ws.recv())


async def read_until_closed(ws: ClientConnection, heard: list[dict] | None = None) -> Close | None:
    """Read (into ``heard``) until the server ends the connection, within ``BOUND``; the close
    frame it sent, or ``None`` where the connection was reset before it could be read."""
    try:
        async with asyncio.timeout(BOUND):
            while True:
                message = json.loads(await ws.recv())
                if heard is not None:
                    heard.append(message)
    except ConnectionClosed as closed:
        return closed.rcvd


async def silent_socket_closed(url: str, pings: int) -> tuple[int, str, list[dict]]:
    """Watch a game, sending ``pings`` pings (one each 0.3 s) then nothing; the close code
    and reason, and what was heard."""
    heard: list[dict] = []
    async with connect(url, ping_interval=None) as ws:
        for _ in range(pings):
            await ws.send(json.dumps({"type": "ping"}))
            await asyncio.sleep(0.3)  # the pace of a client's pings, not a measurement
        close = await read_until_closed(ws, heard)
    assert close is not None
    return close.code, close.reason, heard


def test_a_silent_game_socket_is_closed_but_a_pinging_one_stays(start):
    """The page pings every 25 s (static/socket.js); a socket that says nothing for
    --socket-idle-timeout is closed with IDLE (the page reconnects at once). Pings for
    three deadlines' worth keep it open meanwhile (each 0.3 s: a 2 s deadline leaves a busy
    machine 1.7 s of slack, where 1 s left it 0.7 s)."""
    server = start("--socket-idle-timeout", "2")
    game = httpx.post(server.url + "/api/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
    url = f"{server.ws_url}/ws/games/{game.json()['id']}"
    code, reason, heard = asyncio.run(silent_socket_closed(url, pings=20))
    assert (code, reason) == (IDLE, "idle")
    assert sum(message["type"] == "pong" for message in heard) == 20  # open for all twenty
    refused(heard[-1], "idle")


def test_a_game_socket_opens_only_from_the_servers_own_pages(start):
    """A page on another site cannot open a game's socket in a visitor's name (and so cannot
    use up the visitor's connections); the server's own pages, by the address they came to
    or by --public-url, can; a client that sends no Origin (not a browser) too."""
    server = start("--public-url", "https://dice.example.org")
    game = httpx.post(server.url + "/api/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
    url = f"{server.ws_url}/ws/games/{game.json()['id']}"
    for origin in ("http://evil.example", "null", "https://dice.example.org.evil.example"):
        with pytest.raises(InvalidStatus) as denied:
            asyncio.run(first_message(url, origin=origin))
        assert denied.value.response.status_code == 403, origin
        refused(json.loads(denied.value.response.body)["detail"], "foreign_origin")
    for origin in (server.url, "https://dice.example.org", None):
        welcome = asyncio.run(first_message(url, origin=origin))
        assert welcome["type"] == "welcome", origin
    # DNS rebinding (an audit): another site's name made to point here sends that name as
    # its Origin and its Host; with --public-url, only addresses count as the Host.
    port = urlsplit(server.url).port
    rebound = url.replace("127.0.0.1", "evil.example")
    with pytest.raises(InvalidStatus) as denied:
        asyncio.run(first_message(rebound, origin=f"http://evil.example:{port}", host="127.0.0.1"))
    assert denied.value.response.status_code == 403


async def oversized_message_closed(url: str, message: str | list[str]) -> int | None:
    """Send ``message`` on a game's socket (a list: one frame per item); the close code the
    server ends the connection with, or ``None`` where it was reset before its close frame
    could be read (the server closing with the rest of the message still unread resets it,
    and the client's sending then fails)."""
    async with connect(url, max_size=None) as ws:
        await ws.recv()  # the welcome: the socket is in
        with contextlib.suppress(ConnectionClosed):
            await ws.send(message)
        close = await read_until_closed(ws)
    return close.code if close is not None else None


def test_a_message_beyond_the_socket_limit_closes_that_socket_alone(start):
    """A stranger sending a megabyte on a game's socket is cut off at 64 KiB (close code
    1009, message too big, before the app reads any of it), and so is one sending it in
    fragments each under the limit; the game goes on for the others."""
    server = start()
    game = httpx.post(server.url + "/api/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
    url = f"{server.ws_url}/ws/games/{game.json()['id']}"
    for message in ("x" * 1024 * 1024, ["x" * 40_000] * 25):
        code = asyncio.run(oversized_message_closed(url, message))
        assert code in (1009, None), (code, type(message))  # ended by the server
    assert asyncio.run(first_message(url))["type"] == "welcome"  # watching still works


def test_the_http_connections_of_one_ipv6_network_are_counted_together():
    guard = ConnectionGuard(request_timeout=10, per_address=2, most=100)
    assert guard.let_in("2001:db8::1") and guard.let_in("2001:db8::ffff:2")
    assert not guard.let_in("2001:db8::3")  # a third address of the same /64
    assert guard.let_in("2001:db8:0:1::1") and guard.let_in("203.0.113.7")  # other networks
    guard.let_go("2001:db8::1")
    assert guard.let_in("2001:db8::4")


def test_the_connections_of_one_ipv6_site_share_a_few_addresses_worth():
    """A stranger may be given a /48 (65,536 /64s): one connection from each of a thousand
    /64s would fill any global limit and its reserve. A site holds SITE_SHARE addresses'
    worth of HTTP connections and of game sockets, and past SITE_SHARE times FEW it is no
    new visitor for the reserve; one of its /64s past its own cap takes nothing from it."""
    guard = ConnectionGuard(request_timeout=10, per_address=2, most=1000)
    greedy = "2001:db8:5:ffff::1"
    assert [guard.let_in(greedy) for _ in range(3)] == [True, True, False]  # its own cap
    site = [f"2001:db8:5:{n}::1" for n in range(SITE_SHARE * 2)]
    allowed = [guard.let_in(address) for address in site]  # the site: 2 × SITE_SHARE in all
    assert allowed == [True] * (2 * SITE_SHARE - 2) + [False] * 2
    assert guard.let_in("2001:db8:6::1") and guard.let_in("203.0.113.7")  # other sites
    guard.let_go(site[0])
    assert guard.let_in(site[-1])
    reserve = ConnectionGuard(request_timeout=10, per_address=50, most=1000)
    for n in range(SITE_SHARE * FEW + 1):
        assert reserve.let_in(f"2001:db8:7:{n}::1")
    assert reserve.busy("2001:db8:7:ffff::1", 950)  # each /64 holds one: the site, many
    assert not reserve.busy("2001:db8:8::1", 950) and not reserve.busy("2001:db8:7::1", 800)
    sockets = ConnectionLimits(per_address=2, watchers_per_game=10**6)
    with contextlib.ExitStack() as held:
        for n in range(SITE_SHARE * 2):
            address = network_of(f"2001:db8:9:{n}::1")
            assert sockets.refusal(address, 0, seated=False) is None
            held.enter_context(sockets.held(address, seated=False))
        refused(sockets.refusal(network_of("2001:db8:9:ffff::1"), 0, False).to_dict(),
                "too_many_connections")  # fmt: skip
        assert sockets.refusal(network_of("2001:db8:9:ffff::1"), 0, seated=True) is None
        assert sockets.refusal(network_of("2001:db8:a::1"), 0, seated=False) is None
    assert not sockets.open[False].held
