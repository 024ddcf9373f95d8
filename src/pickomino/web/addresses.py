"""Where people reach the server, for ``pickomino serve``'s start lines: "0.0.0.0" is an
address to listen on, not one to open; and invite links are only as good as the address
they are built on (``--public-url``, else the one the game's creator opened).

Each line is a message id of the terminal catalogue with its parameters (the command line
words it):

>>> start_lines("127.0.0.1", 8000, None)
[('cli.serve.open', {'url': 'http://127.0.0.1:8000/'})]
>>> start_lines("0.0.0.0", 8080, "https://dice.example.org")
[('cli.serve.open_public', {'url': 'https://dice.example.org/'})]
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections import Counter
from typing import NamedTuple
from urllib.parse import urlsplit

from pickomino.core import BadInput

#: What ``--host`` says when the server listens on every interface.
ALL_INTERFACES = ("0.0.0.0", "::")


def http_url(host: str, port: int) -> str:
    """``http://host:port/``, with an IPv6 address in brackets."""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    return f"http://{host}:{port}/"


#: The one address every text that is no address counts as (see :func:`network_of`).
UNREADABLE = "unreadable"


def network_of(address: str) -> str:
    """The network an address stands for, as limits count it (and profiles tell people
    apart): an IPv4 address itself, an IPv6 address's /64 (what one household or phone is
    given: one machine may use any address in it), an IPv4-mapped IPv6 address's IPv4
    address; a network written out as it is. Text that is neither (a test client's name, or
    what a proxy forwarded amiss: an audit found that each such text had a budget of its
    own) counts as one address, :data:`UNREADABLE`, whatever it says.

    >>> network_of("203.0.113.7"), network_of("::ffff:203.0.113.7")
    ('203.0.113.7/32', '203.0.113.7/32')
    >>> network_of("2001:db8:1:2:aaaa::1") == network_of("[2001:db8:1:2:ffff::9] ")
    True
    >>> network_of("2001:db8:1:2::1"), network_of("2001:db8::/48")
    ('2001:db8:1:2::/64', '2001:db8::/48')
    >>> {network_of(text) for text in ("testclient", "01.2.3.4", "1.2.3.4:80", "")}
    {'unreadable'}
    """
    address = address.strip().removeprefix("[").removesuffix("]")
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        try:  # a network written out ("2001:db8::/48")
            return str(ipaddress.ip_network(address, strict=False))
        except ValueError:
            return UNREADABLE
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ipaddress.ip_network(ip.ipv4_mapped))
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ipaddress.ip_network(ip))


def site_of(address: str) -> str:
    """The site an address stands for when profiles are told apart for ratings (one person's
    spare profiles must not rate each other): an IPv6 address's /48, what one site (or anyone
    asking a free tunnel broker) is given: an audit played spare profiles from two /64s of one
    home's /56. Limits still count by :func:`network_of` (a phone carrier's /48 holds
    thousands of people). Else as :func:`network_of`.

    >>> site_of("2001:db8:77:1::5") == site_of("2001:db8:77:2::9") != site_of("2001:db8:78::1")
    True
    >>> site_of("203.0.113.7"), site_of("::ffff:203.0.113.7"), site_of("testclient")
    ('203.0.113.7/32', '203.0.113.7/32', 'unreadable')
    >>> site_of(network_of("2001:db8:77:1::5"))  # a network as limits count it
    '2001:db8:77::/48'
    """
    named = network_of(address)
    try:
        network = ipaddress.ip_network(named, strict=False)
    except ValueError:  # no address (see network_of)
        return named
    if network.version == 6 and network.prefixlen > 48:
        return str(network.supernet(new_prefix=48))
    return str(network)


def rating_site_of(address: str) -> str:
    """The site by which profiles are told apart for ratings: as :func:`site_of` (an IPv6
    address's /48), and an IPv4 address's /24. An audit claimed spare profiles each from an
    address of its own in one /24 and played them, busting on purpose, from there: its main
    profile topped the leaderboard in five games. People of one /24 (a provider's neighbours)
    do not rate each other; their games with everyone else count. Limits still count an IPv4
    address alone (one /24 holds many households).

    >>> rating_site_of("203.0.113.7") == rating_site_of("203.0.113.200") != rating_site_of(
    ...     "203.0.114.7")
    True
    >>> rating_site_of("::ffff:203.0.113.7"), rating_site_of("2001:db8:77:1::5")
    ('203.0.113.0/24', '2001:db8:77::/48')
    """
    site = site_of(address)
    try:
        network = ipaddress.ip_network(site, strict=False)
    except ValueError:  # a name (a test client's)
        return site
    if network.version == 4 and network.prefixlen > 24:
        return str(network.supernet(new_prefix=24))
    return site


#: How many addresses' budgets one IPv6 site (:func:`site_of`) has in all, for every limit
#: per address: an address counts as its /64 (one household's, or one phone's), but anyone
#: may be given a /48 (a free tunnel broker's), 65,536 /64s (an audit's 2,000 /64s of one /48
#: made 20,000 score sheets where one address makes 10).
SITE_SHARE = 8


class Counted(NamedTuple):
    """What an address made (games, sheets, …), counted by its network and by its site (the
    same for an IPv4 address).

    >>> Counted(network=3, site=3).reaches(3), Counted(network=1, site=24).reaches(3)
    (True, True)
    >>> Counted(network=2, site=23).reaches(3)
    False
    """

    network: int
    site: int

    def reaches(self, most: int) -> bool:
        """Whether the address has ``most`` already, or its site :data:`SITE_SHARE` times
        that."""
        return self.network >= most or self.site >= SITE_SHARE * most


class Shares:
    """What addresses hold at once of something bounded (searches, reviews waiting), by
    address and by IPv6 site, which holds :data:`SITE_SHARE` addresses' worth together.

    >>> shares = Shares()
    >>> for n in range(SITE_SHARE * 2):
    ...     shares.take(f"2001:db8:0:{n}::/64")
    >>> shares.full("2001:db8:0:ffff::/64", 2), shares.full("2001:db8:1::/64", 2)
    (True, False)
    >>> shares.full("2001:db8:0:1::/64", 1), shares.total()
    (True, 16)
    >>> for n in range(SITE_SHARE * 2):
    ...     shares.give_back(f"2001:db8:0:{n}::/64")
    >>> shares.held, shares.total()
    (Counter(), 0)
    """

    def __init__(self) -> None:
        self.held: Counter[str] = Counter()  # by address, and by IPv6 site
        self._total = 0

    def full(self, address: str, most: int) -> bool:
        """Whether ``address`` holds ``most`` already, or its site :data:`SITE_SHARE` times
        that."""
        return Counted(self.held[address], self.held[site_of(address)]).reaches(most)

    def take(self, address: str) -> None:
        self._total += 1
        for key in {address, site_of(address)}:
            self.held[key] += 1

    def give_back(self, address: str) -> None:
        self._total -= 1
        for key in {address, site_of(address)}:
            self.held[key] -= 1
            if not self.held[key]:
                del self.held[key]

    def total(self) -> int:
        """How many are held, by everyone."""
        return self._total

    def __getitem__(self, address: str) -> int:
        return self.held[address]


def network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from), or
    ``None`` without a network. Connecting a UDP socket sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never a real host
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def start_lines(host: str, port: int, public_url: str | None) -> list[tuple[str, dict[str, str]]]:
    """What ``serve`` says about where to open the lobby (and, listening everywhere without
    a public address, a warning that invite links follow the creator's address)."""
    if public_url:
        return [("cli.serve.open_public", {"url": f"{public_url}/"})]
    if host not in ALL_INTERFACES:
        return [("cli.serve.open", {"url": http_url(host, port)})]
    here, lan = http_url("127.0.0.1", port), network_address()
    if lan is None:
        return [("cli.serve.open_here", {"here": here}), ("cli.serve.no_network", {})]
    there = http_url(lan, port)
    return [
        ("cli.serve.open_here_there", {"here": here, "there": there}),
        ("cli.serve.warn_links", {"there": there, "url": there.rstrip("/")}),
    ]


def check_public_url(text: str) -> str:
    """``--public-url`` without its trailing slash; :class:`BadInput` says what is wrong.

    >>> check_public_url("http://192.168.1.20:8080/")
    'http://192.168.1.20:8080'
    >>> check_public_url("dice.example.org")
    Traceback (most recent call last):
    ...
    pickomino.core.errors.BadInput: 'dice.example.org' is not an http:// or https:// address, e.g. http://192.168.1.20:8080
    """
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadInput("public_url_scheme", given=text[:80])
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise BadInput("public_url_root", given=text[:80])
    return text.rstrip("/")


#: The port a browser leaves out of an origin or a Host, by scheme.
DEFAULT_PORTS = {"http": 80, "https": 443}


def _an_address(hostname: str | None) -> bool:
    """An IP address or ``localhost`` (not a name anyone's DNS could point here)."""
    if hostname == "localhost":
        return True
    try:
        ipaddress.ip_address(hostname or "")
    except ValueError:
        return False
    return True


def own_origin(origin: str, host: str | None, public_url: str | None) -> bool:
    """Whether a browser's ``Origin`` is the server's own: the address the request came to
    (its ``Host``, as a page of this server opened on it sends it) or ``--public-url``.
    Only browsers send an ``Origin``, and a page cannot forge it. With ``--public-url``, a
    ``Host`` counts only as an address (an IP, ``localhost``), not as a name: a page of
    another site whose name was made to point at this server (DNS rebinding) sends its own
    name as both.

    >>> own_origin("http://127.0.0.1:8000", "127.0.0.1:8000", None)
    True
    >>> own_origin("https://dice.example.org", "dice.example.org", None)  # port 443 implied
    True
    >>> own_origin("https://dice.example.org", "127.0.0.1:8080", "https://dice.example.org")
    True
    >>> own_origin("http://evil.example", "127.0.0.1:8000", "https://dice.example.org")
    False
    >>> own_origin("null", "127.0.0.1:8000", None)  # a sandboxed frame, a file
    False
    >>> own_origin("http://evil.example:8000", "evil.example:8000", "https://dice.example.org")
    False
    >>> own_origin("http://192.168.1.20:8000", "192.168.1.20:8000", "https://dice.example.org")
    True
    """
    try:
        parts = urlsplit(origin)
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
            return False
        if public_url is not None:
            public = urlsplit(public_url)
            if (parts.scheme, parts.hostname, port) == (
                public.scheme, public.hostname, public.port or DEFAULT_PORTS[public.scheme],
            ):  # fmt: skip
                return True
        if host is None:
            return False
        asked = urlsplit(f"{parts.scheme}://{host}")
        if public_url is not None and not _an_address(asked.hostname):
            return False  # a name other than the public one: see above
        return (asked.hostname, asked.port or DEFAULT_PORTS[parts.scheme]) == (
            parts.hostname, port,
        )  # fmt: skip
    except ValueError:  # a port out of range, brackets that do not close
        return False
