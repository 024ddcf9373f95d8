"""What goes to one client, in order, written by a task of its own.

A broadcast only puts a message in each client's outbox, so a client that stops reading
holds up nobody but itself (the game, its bots and the other players go on). Once ``LIMIT``
messages, or ``SIZE`` characters, wait for it, its connection is closed at once with
``FELL_BEHIND``: the page reconnects and gets the whole state afresh, which is all it needs.
Counting characters too bounds the memory one client can pin (a long game's whole state is
over 100 KB: 256 of them would be tens of megabytes).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from pickomino.web.protocol import FELL_BEHIND


class TextSocket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    LIMIT = 256  #: messages waiting for one client before it counts as gone
    SIZE = 2_000_000  #: characters waiting for one client before it counts as gone

    def __init__(self, websocket: TextSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(self.LIMIT)
        self.waiting = 0  #: characters queued and not yet written
        self.queued = self.written = 0  #: messages queued and written so far
        self.writer = asyncio.create_task(self._write())
        self.closer: asyncio.Task[None] | None = None

    async def send(self, text: str) -> None:
        """Queue a message; raises ``ConnectionError`` for a client that is gone or far
        behind (the room then forgets it, and this outbox closes its socket)."""
        if self.writer.done():
            raise ConnectionError("the client is gone")
        if self.queue.full() or (self.waiting and self.waiting + len(text) > self.SIZE):
            self.writer.cancel()
            self.closer = asyncio.create_task(self._close(FELL_BEHIND, "fell_behind"))
            raise ConnectionError("the client reads too slowly")
        self.queue.put_nowait(text)
        self.waiting += len(text)
        self.queued += 1

    def still_writing(self, number: int) -> bool:
        """Whether the ``number``-th message queued (counting from 1) is not written yet."""
        return self.written < number

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            await self.websocket.send_text(text)
            self.waiting -= len(text)
            self.written += 1
            self.queue.task_done()

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):  # already closed by the other side
            await self.websocket.close(code, reason)

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait (a little) until everything queued is written, e.g. before closing."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.queue.join(), timeout)

    async def stop(self) -> None:
        """Stop writing (the client left); a close already begun is let finish."""
        self.writer.cancel()
        with contextlib.suppress(BaseException):
            await self.writer
        if self.closer is not None:
            with contextlib.suppress(BaseException):
                await self.closer
