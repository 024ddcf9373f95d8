"""The idle watch of a game socket (:mod:`pickomino.web.guard.idle`): a receive is cut off
after ``idle`` seconds, as ``asyncio.timeout`` would cut it, however many came before it;
the server's own cancelling (stopping) stays a cancelling."""

from __future__ import annotations

import asyncio

import pytest

from pickomino.web.guard.idle import IdleWatch


async def _later(value: str, delay: float) -> str:
    await asyncio.sleep(delay)
    return value


def test_a_receive_is_cut_off_after_idle_seconds_but_not_before() -> None:
    """The margins are wide (a message in a fifth of the idle time): a loaded machine can
    hold the event loop back a tenth of a second and more, and a message that really took
    longer than ``idle`` is rightly cut off."""

    async def run() -> tuple[list[str], float]:
        loop = asyncio.get_running_loop()
        watch = IdleWatch(1.0)
        heard = [await watch.receive(_later(str(n), 0.2)) for n in range(6)]  # 1.2 s in all
        await asyncio.sleep(1.2)  # handling a message: no receive under way, none cut off
        began = loop.time()
        with pytest.raises(TimeoutError):
            await watch.receive(_later("late", 5.0))
        watch.stop()
        return heard, loop.time() - began

    heard, waited = asyncio.run(run())
    assert heard == ["0", "1", "2", "3", "4", "5"]
    assert 0.99 <= waited < 3.0


def test_cancelling_the_task_from_outside_is_not_a_timeout() -> None:
    async def receive_forever(watch_idle: float) -> None:
        watch = IdleWatch(watch_idle)
        try:
            await watch.receive(asyncio.sleep(10))
        finally:
            watch.stop()

    async def run() -> None:
        task = asyncio.create_task(receive_forever(5.0))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
