"""The server's one search at a time (the dice helper's, the "what if"'s), in a bounded queue
(an audit: bursts from five addresses, each within its rate limit, kept requests waiting 5 s
in an unbounded queue, and everybody's dice helper with them)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from fastapi import HTTPException

from pickomino.web.addresses import SITE_SHARE
from pickomino.web.guard.searches import Searches


def refused_with(error: BaseException, status: int, code: str) -> None:
    assert isinstance(error, HTTPException), error
    assert (error.status_code, error.detail["id"]) == (status, code)


class LongSearch:
    """A search that holds the searches' thread until released, then answers "done"."""

    def __init__(self) -> None:
        self.running, self.released = threading.Event(), threading.Event()

    def __call__(self) -> str:
        self.running.set()
        self.released.wait(timeout=60)
        return "done"

    async def holding(self, searches: Searches, address: str) -> asyncio.Task[str]:
        """The search, asked by ``address``, once it holds the thread."""
        task = asyncio.create_task(searches.run(address, self))
        await asyncio.to_thread(self.running.wait, 60)
        return task


def test_an_address_waits_for_two_searches_at_most_and_the_server_for_a_few():
    searches = Searches(per_address=2, most=3, patience=60)
    long_search = LongSearch()

    async def scene() -> list[object]:
        first = await long_search.holding(searches, "198.51.100.1")
        waiting = [
            asyncio.create_task(searches.run(a, str, a)) for a in ("198.51.100.1", "198.51.100.2")
        ]
        await asyncio.sleep(0)  # (their turn asked for: queued)
        third = searches.run("198.51.100.1", str, "third")  # the address's third: refused
        # the queue's fourth, from an address that would hold as many as the fullest holds
        over = searches.run("198.51.100.2", str, "over")
        refusals = await asyncio.gather(third, over, return_exceptions=True)
        long_search.released.set()
        return [*refusals, await first, *await asyncio.gather(*waiting)]

    third, over, *answers = asyncio.run(scene())
    refused_with(third, 429, "too_many_lookups")
    refused_with(over, 503, "server_busy")
    assert over.headers["Retry-After"]
    assert answers == ["done", "198.51.100.1", "198.51.100.2"]  # the queue's, in turn


def test_sites_take_turns_and_a_full_queue_makes_room_for_a_newcomer():
    """An audit: the eight /64s of one IPv6 /48 (or eight IPv4 addresses), each within its
    share, held every place of the queue, and everybody else's dice helper was refused 503
    four times in ten. Now a newcomer takes the place of the newest search of the site that
    holds most (that one is refused instead), and the sites waiting take turns: the
    newcomer waits for one search of theirs, not for all."""
    searches = Searches(per_address=1, most=4, patience=60)
    long_search, ran = LongSearch(), []

    async def scene() -> list[object]:
        site = [f"2001:db8:7:{n}::/64" for n in range(4)]
        first = await long_search.holding(searches, site[0])
        theirs = [asyncio.create_task(searches.run(a, ran.append, a)) for a in site[1:]]
        await asyncio.sleep(0)  # the queue full: one running, three waiting, all of one site
        newcomer = asyncio.create_task(searches.run("198.51.100.9", ran.append, "newcomer"))
        await asyncio.sleep(0)
        long_search.released.set()
        return [await first, *await asyncio.gather(*theirs, newcomer, return_exceptions=True)]

    first, *answers = asyncio.run(scene())
    assert first == "done" and answers[:2] == [None, None] and answers[3] is None
    refused_with(answers[2], 503, "server_busy")  # the site's newest gave its place
    assert ran == ["2001:db8:7:1::/64", "newcomer", "2001:db8:7:2::/64"]  # in turn by site


def test_no_search_waits_longer_than_its_patience():
    searches = Searches(patience=0.2)
    release = threading.Event()

    async def scene() -> object:
        first = asyncio.create_task(searches.run("198.51.100.1", release.wait, 60))
        await asyncio.sleep(0)
        try:
            with pytest.raises(HTTPException) as waited:
                await searches.run("198.51.100.2", str, "late")
            return waited.value
        finally:
            release.set()
            await first

    refused_with(asyncio.run(scene()), 503, "server_busy")


def test_the_addresses_of_one_ipv6_site_wait_for_a_few_addresses_worth():
    """Anyone may be given an IPv6 /48 (65,536 /64s, each an address): its /64s may have
    SITE_SHARE addresses' worth of searches asked together, and another site its own."""
    searches = Searches(per_address=1, most=100, patience=60)
    long_search = LongSearch()

    async def scene() -> list[object]:
        first = await long_search.holding(searches, "2001:db8:0:0::/64")
        site = [f"2001:db8:0:{n}::/64" for n in range(1, SITE_SHARE + 1)]
        asked = [asyncio.create_task(searches.run(a, str, a)) for a in site]
        elsewhere = asyncio.create_task(searches.run("2001:db8:1::/64", str, "elsewhere"))
        await asyncio.sleep(0)
        long_search.released.set()
        return [await first, *await asyncio.gather(*asked, elsewhere, return_exceptions=True)]

    first, *answers, elsewhere = asyncio.run(scene())
    assert first == "done" and elsewhere == "elsewhere"
    assert answers[:-1] == [f"2001:db8:0:{n}::/64" for n in range(1, SITE_SHARE)]
    refused_with(answers[-1], 429, "too_many_lookups")
