"""One search at a time in the server (the dice helper's and the "what if"'s: one at a big
table takes a core for up to a second), in a bounded queue. An audit sent bursts of searches
from five addresses, each within its rate limit: the queue had no bound, requests waited up to
5 s in it, and everybody's dice helper with them (p99 0.6 → 2.6 s). An address may have
:attr:`Searches.per_address` searches asked (waiting or running), beyond them 429
``too_many_lookups``; the server :attr:`Searches.most` in all, and none waits longer than
:attr:`Searches.patience` seconds: beyond, 503 ``server_busy`` with ``Retry-After``.

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
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from fastapi import HTTPException

from pickomino.web.addresses import Shares
from pickomino.web.errors import Refused, refused

T = TypeVar("T")

#: Seconds a client asked to wait when the queue is full or was waited on too long.
RETRY_AFTER = 5


class Searches:
    """The server's one search at a time, and who waits for it."""

    def __init__(self, per_address: int = 2, most: int = 16, patience: float = 10.0) -> None:
        self.per_address, self.most, self.patience = per_address, most, patience
        self._lock = asyncio.Lock()
        self._asked = Shares()  #: searches asked (waiting or running), by address and site
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
        if self._asked.total() >= self.most:
            raise _busy()
        self._asked.take(address)
        try:
            try:
                async with asyncio.timeout(self.patience):
                    await self._lock.acquire()
            except TimeoutError:
                raise _busy() from None
            try:
                yield
            finally:
                self._lock.release()
        finally:
            self._asked.give_back(address)


def _busy() -> HTTPException:
    detail = Refused("server_busy").to_dict()
    return HTTPException(503, detail, {"Retry-After": str(RETRY_AFTER)})
