"""One search at a time in the server (the dice helper's and the "what if"'s: one at a big
table takes a core for up to a second), in a bounded queue. An audit sent bursts of searches
from five addresses, each within its rate limit: the queue had no bound, requests waited up to
5 s in it, and everybody's dice helper with them (p99 0.6 → 2.6 s). An address may have
:attr:`Searches.per_address` searches asked (waiting or running), beyond them 429
``too_many_lookups``; the server :attr:`Searches.most` in all, and none waits longer than
:attr:`Searches.patience` seconds: beyond, 503 ``server_busy`` with ``Retry-After``.

A second audit filled the queue from one IPv6 /48 (its eight /64s, each within its share; eight
IPv4 addresses did as well) and everybody else's searches were refused four times in ten. The
sites waiting now take turns, and a newcomer to a full queue takes the place of the newest
search of the site holding most, if that site would still hold more than the newcomer's: to
keep everyone else out, an attacker needs as many sites as the queue has places.

>>> import asyncio
>>> searches = Searches(per_address=1)
>>> async def two_at_once():
...     return await asyncio.gather(*(searches.run("198.51.100.7", sum, [1, 2]) for _ in "ab"))
>>> try:
...     asyncio.run(two_at_once())
... except HTTPException as refusal:
...     print(refusal.status_code, refusal.detail["id"])
429 too_many_lookups
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from fastapi import HTTPException

from pickomino.web.addresses import Shares, site_of
from pickomino.web.errors import Refused, refused

T = TypeVar("T")

#: Seconds a client asked to wait when the queue is full or was waited on too long.
RETRY_AFTER = 5


class Searches:
    """The server's one search at a time, and who waits for it: in turn by site (each site
    with searches waiting has the next turn in its order, however many it asked), and, the
    queue full, a newcomer takes the place of the newest search of the site holding most,
    when that site would still hold more than the newcomer's."""

    def __init__(self, per_address: int = 2, most: int = 16, patience: float = 10.0) -> None:
        self.per_address, self.most, self.patience = per_address, most, patience
        self._asked = Shares()  #: searches asked (waiting or running), by address and site
        #: the searches waiting, by site, the sites in the order of their next turn
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._running = False
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="searches")

    async def run(self, address: str, search: Callable[..., T], *args: Any) -> T:
        """``search(*args)`` for a request from ``address``, in the searches' own thread
        when its turn comes (never behind the bots' thinking, which has threads of its own)."""
        async with self._turn(address):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, partial(search, *args))

    @asynccontextmanager
    async def _turn(self, address: str) -> AsyncIterator[None]:
        if self._asked.full(address, self.per_address):
            raise refused(429, "too_many_lookups")
        site = site_of(address)
        if self._asked.total() >= self.most and not self._make_room(site):
            raise _busy()
        self._asked.take(address)
        try:
            await self._wait_for_turn(site)
            try:
                yield
            finally:
                self._pass_turn()
        finally:
            self._asked.give_back(address)

    async def _wait_for_turn(self, site: str) -> None:
        """Until the searches' turn is this one's (at once when nobody has it or waits)."""
        if not self._running and not self._waiting:
            self._running = True
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(site, deque()).append(turn)
        try:
            async with asyncio.timeout(self.patience):
                await turn
        except BaseException as error:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._pass_turn()  # given the turn as it stopped waiting: the next's
            elif site in self._waiting and turn in self._waiting[site]:
                self._waiting[site].remove(turn)
                if not self._waiting[site]:
                    del self._waiting[site]
            if isinstance(error, TimeoutError):
                raise _busy() from None
            raise

    def _pass_turn(self) -> None:
        """The turn to the next site's oldest search waiting (that site then goes last)."""
        self._running = False
        while self._waiting and not self._running:
            site = next(iter(self._waiting))
            waiting = self._waiting.pop(site)
            turn = waiting.popleft()
            if waiting:
                self._waiting[site] = waiting
            if not turn.done():
                turn.set_result(None)
                self._running = True

    def _make_room(self, site: str) -> bool:
        """The queue full, refuse (503) the newest search waiting of the site holding most,
        if it holds more than ``site`` would with one more; whether it did."""
        if not self._waiting:
            return False
        fullest = max(self._waiting, key=lambda other: self._asked[other])
        if self._asked[fullest] <= self._asked[site] + 1:
            return False
        waiting = self._waiting[fullest]
        waiting.pop().set_exception(_busy())
        if not waiting:
            del self._waiting[fullest]
        return True


def _busy() -> HTTPException:
    detail = Refused("server_busy").to_dict()
    return HTTPException(503, detail, {"Retry-After": str(RETRY_AFTER)})
