"""Answers kept for everyone (the lobby, the leaderboard, players' pages): one read at a time
shared by the askers meanwhile, never an answer older than this process's last commit."""

from __future__ import annotations

import asyncio
import threading

from pickomino.web.api.shared_answers import SharedAnswers


def test_an_asker_after_a_commit_does_not_join_a_read_begun_before_it():
    """A review: the second asker, after a commit, joined the read begun before it and got
    the old answer."""
    stored = {"name": "old"}
    commits = [0]
    first_read_begun, let_it_finish = threading.Event(), threading.Event()

    def read() -> dict[str, str]:
        seen = dict(stored)
        if seen["name"] == "old":  # the read begun before the commit: held until told
            first_read_begun.set()
            let_it_finish.wait(10)
        return seen

    async def ask() -> list[bytes]:
        answers = SharedAnswers(lambda: commits[0], lambda request: None)
        before = asyncio.create_task(answers.encoded("page", read))
        await asyncio.to_thread(first_read_begun.wait, 10)
        stored["name"], commits[0] = "new", 1  # a commit, while the first read is under way
        after = asyncio.create_task(answers.encoded("page", read))
        await asyncio.sleep(0)
        let_it_finish.set()
        answers_now = [await before, await after]
        again = await answers.encoded("page", read)  # kept: the newer one
        return [*answers_now, again]

    old, new, kept = asyncio.run(ask())
    assert old == b'{"name":"old"}' and new == kept == b'{"name":"new"}'


def test_askers_meanwhile_share_one_read():
    reads = []

    def read() -> list[int]:
        reads.append(1)
        return [1, 2, 3]

    async def ask() -> list[bytes]:
        answers = SharedAnswers(lambda: 0, lambda request: None)
        return list(await asyncio.gather(*(answers.encoded("games", read) for _ in range(5))))

    assert asyncio.run(ask()) == [b"[1,2,3]"] * 5 and len(reads) == 1
