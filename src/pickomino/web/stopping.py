"""Stopping within a deadline: a server that is asked to stop must stop, even when a part of
it (a database connection gone quiet, a task that does not end) would wait for ever. Each
part gets its own deadline, and one that misses it is logged and left behind, so that the
parts after it still stop and the process ends."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger("pickomino.web")

#: Seconds a part of the server may take to stop.
STOP_WITHIN = 5.0


async def stop_within(stopping: Awaitable[None], what: str, seconds: float = STOP_WITHIN) -> bool:
    """Await ``stopping`` for at most ``seconds``; ``False`` (and a log line naming
    ``what``) if it did not finish in time.

    >>> asyncio.run(stop_within(asyncio.sleep(0), "a quick part"))
    True
    >>> asyncio.run(stop_within(asyncio.Event().wait(), "a stuck part", 0.01))
    False
    """
    try:
        async with asyncio.timeout(seconds):
            await stopping
    except TimeoutError:
        log.error("%s did not stop within %s s: left behind", what, seconds)
        return False
    return True
