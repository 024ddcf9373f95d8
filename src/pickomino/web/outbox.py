"""What goes to one client, in order, written by a task of its own.

A broadcast only puts a message in each client's outbox, so a client that stops reading
holds up nobody but itself (the game, its bots and the other players go on); once ``LIMIT``
messages wait for it, it is dropped from its game, and the server's keep-alive pings close
its connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol


class TextSocket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Outbox:
    LIMIT = 256  #: messages waiting for one client before it counts as gone

    def __init__(self, websocket: TextSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue(self.LIMIT)
        self.writer = asyncio.create_task(self._write())

    async def send(self, text: str) -> None:
        """Queue a message; raises ``ConnectionError`` for a client that is gone or far
        behind (the room then forgets it)."""
        if self.writer.done():
            raise ConnectionError("the client is gone")
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.writer.cancel()
            raise ConnectionError("the client reads too slowly") from None

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            await self.websocket.send_text(text)
            self.queue.task_done()

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait (a little) until everything queued is written, e.g. before closing."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.queue.join(), timeout)

    async def stop(self) -> None:
        self.writer.cancel()
        with contextlib.suppress(BaseException):
            await self.writer
