"""A game socket that says nothing for a while is closed (the page pings every 25 s): each
receive is given ``idle`` seconds, as ``asyncio.timeout(idle)`` around it would give, but
with one timer per connection instead of one per message. Setting and cancelling a timer on
every receive cost some 6 µs a message, more than parsing it; here a receive only notes the
time, and the timer, when it rings early, is set again for the time that is left.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class IdleWatch:
    """Receives for the current task, each one cut off after ``idle`` seconds; :meth:`stop`
    when done."""

    def __init__(self, idle: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        self._idle = idle
        self._since = self._loop.time()  #: when the receive under way began
        self._waiting = False  #: a receive is under way (only one can be cut off)
        self._expired = False  #: the timer cancelled the receive
        self._timer = self._loop.call_at(self._since + idle, self._ring)

    async def receive(self, message: Awaitable[T]) -> T:
        """``message`` awaited, or :class:`TimeoutError` once it took ``idle`` seconds."""
        self._since, self._waiting = self._loop.time(), True
        try:
            return await message
        except asyncio.CancelledError:
            # Ours alone (not also the server's, stopping): a timeout, as asyncio.timeout says.
            if self._expired and self._task is not None and self._task.uncancel() == 0:
                raise TimeoutError from None
            raise
        finally:
            self._waiting = False

    def _ring(self) -> None:
        now, deadline = self._loop.time(), self._since + self._idle
        if self._waiting and now >= deadline and self._task is not None:
            self._expired = True
            self._task.cancel()
        else:  # a receive began since, or none is under way (a message is being handled)
            self._timer = self._loop.call_at(
                deadline if self._waiting else now + self._idle, self._ring
            )

    def stop(self) -> None:
        self._timer.cancel()
