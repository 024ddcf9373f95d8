"""How many WebSockets the server lets one address hold open, how many spectators one game
may have, and how fast spectators are let in: a storm of connections from a script must not
starve the players."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from pickomino.web.addresses import Shares
from pickomino.web.errors import Refused


class ConnectionLimits:
    """``per_address`` connections at once from one address as a player, as many again as a
    spectator, and ``watchers_per_game`` spectators at once in one game (players are never
    refused for it: their seats are theirs however many watch).

    Players and spectators are counted apart so that nobody can lock a player out by
    opening spectators' sockets from the player's address (a script behind the same NAT, a
    page elsewhere that got past the Origin check): a player's socket needs the seat's
    secret, so only people holding seats use the players' share. The /64s of one IPv6 /48
    hold :data:`~pickomino.web.addresses.SITE_SHARE` addresses' worth together (anyone may
    be given a /48)."""

    def __init__(self, per_address: int, watchers_per_game: int) -> None:
        self.per_address, self.watchers_per_game = per_address, watchers_per_game
        self.open = {True: Shares(), False: Shares()}  # by seated, by address and site
        self._spectator_door = asyncio.Lock()

    async def spectators_one_at_a_time(self) -> None:
        """Wait for a turn of the event loop of one's own. asyncio runs what is ready in
        the order it became ready: hundreds of spectators arriving at once would each put
        their join before a player's next message, at every step of its way (read, play,
        send). Let in one per turn, they take turns with the players instead."""
        async with self._spectator_door:
            await asyncio.sleep(0)

    def refusal(self, address: str, watchers: int, seated: bool) -> Refused | None:
        """Why a new connection is refused, or ``None`` to let it in."""
        if self.open[seated].full(address, self.per_address):
            return Refused("too_many_connections")
        if not seated and watchers >= self.watchers_per_game:
            return Refused("too_many_watchers")
        return None

    def of(self, address: str) -> int:
        """The sockets ``address`` holds, as a player and as a spectator."""
        return self.open[True][address] + self.open[False][address]

    @contextmanager
    def held(self, address: str, seated: bool) -> Iterator[None]:
        """Counts a connection from ``address`` (and its IPv6 site) while it is open."""
        self.open[seated].take(address)
        try:
            yield
        finally:
            self.open[seated].give_back(address)
