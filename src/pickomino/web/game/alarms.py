"""A game's four timers at most, set only when their time changes: its clock (a bot plays
the rest of the turn of a person out of time), the absence of the person to move (a bot
plays for them: :mod:`.absence`), the votes for a person gone long enough for the votes of
those present to count, and the wait on a person connected who does not move (the others
may vote then: they are told). Only the process that plays the game's bots keeps the first
three; every process tells its own clients of the wait.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from pickomino.web.errors import Refused
from pickomino.web.game.shared import RoomPart, SharedRoom

log = logging.getLogger("pickomino.web")
#: Seconds before a timeout or an absence that could not be stored is tried again.
RETRY_AFTER = 5.0


class Alarm:
    """One call at a (Unix) time, set again only when the time changes: a game's clock or
    its absence check is a handle in the event loop's heap, not a task that polls, so
    hundreds of games cost nothing while they wait. It rings once per time it is set to, and
    may be set to that time again after it rang (the event loop's clock is not the wall
    clock: it may ring a moment before the time it was set to).

    A time put later keeps the handle set for the earlier one, which then sets itself again
    for the rest instead of ringing: the wait's alarm moves on at every move of a game
    without a clock, and cancelling a handle and making one at each cost a move a few
    microseconds (and left the cancelled ones in the heap)."""

    def __init__(self, ring: Callable[[], None]) -> None:
        self.ring = ring
        self.when: float | None = None  #: the time it rings at (``None``: not set)
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0  #: the time its handle was made for (at or before :attr:`when`)

    def set(self, when: float | None) -> None:
        if when == self.when:
            return
        if when is not None and self._handle is not None and when > self._due:
            self.when = when  # later: the handle sets itself again when it rings
            return
        self.cancel()
        self.when = when
        if when is not None:
            self._arm(when)

    def _arm(self, when: float) -> None:
        self._due = when
        delay = max(0.0, when - time.time())
        self._handle = asyncio.get_running_loop().call_later(delay, self._rang)

    def _rang(self) -> None:
        if self.when is not None and self.when > self._due:  # put later meanwhile
            self._arm(self.when)
            return
        self._handle = self.when = None
        self.ring()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self.when = None


class Alarms(RoomPart):
    """The room's clock, away and votes alarms, and the work they start when they ring."""

    def __init__(self, room: SharedRoom) -> None:
        super().__init__(room)
        self.clock = Alarm(lambda: self._ring(self.time_out))
        self.away = Alarm(lambda: self._ring(self._mark_absent))
        self.votes = Alarm(lambda: self._ring(self._count_ripe_votes))
        self.wait = Alarm(lambda: self._ring(self._wait_ripe))
        self._absent: tuple[int, int] | None = None  #: (seat, turn) the away alarm is for
        #: What the alarms started and is not over yet (the room's stop cancels it).
        self.tasks: set[asyncio.Task[None]] = set()

    def set(self) -> None:
        """The clock's alarm at its deadline, the absence alarm ``away_after`` seconds
        after the person to move was last seen, while it is their turn, and the votes'
        alarm when a person with votes for a bot will have been gone ``vote_after``, and
        the wait's when the person to move, connected, will have kept the game waiting as
        long."""
        room = self.room
        room.note_presence()
        playing = room.status == "playing" and room.drives_bots  # one process keeps time
        self.clock.set(room.seating.deadline if playing else None)
        absent = room.absent_turn() if playing else None
        if absent != self._absent:
            self._absent = absent
            self.away.set(time.time() + room.away_after if absent else None)
        self.votes.set(room.votes_ripen() if playing else None)
        self.wait.set(room.wait_ripens() if room.status == "playing" else None)

    def quiet(self) -> bool:
        """Whether no alarm is set and none's work is going on."""
        alarms = (self.clock, self.away, self.votes, self.wait)
        return all(alarm.when is None for alarm in alarms) and not self.tasks

    def cancel(self) -> None:
        self.clock.cancel()
        self.away.cancel()
        self.votes.cancel()
        self.wait.cancel()

    def _ring(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """An alarm rang: its work starts, unless the room was dropped meanwhile (then, or
        before the task first runs)."""
        if not self.gone:
            self._spawn(self._unless_gone(work))

    async def _unless_gone(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if not self.gone:  # nothing awaited between this and the work taking its room
            await work()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def time_out(self) -> None:
        """The clock ran out: a bot plays the rest of the turn (the alarm may ring a moment
        early, or for a deadline that is no longer: then it is only set again)."""
        room = self.room
        room.store_pending()  # a move ending the turn may be waiting: the clock follows it
        now = time.time()
        if room.status == "playing" and room.seating.expired(now):
            try:
                room.change_seating(lambda seating: seating.time_out(now))
            except Refused:  # logged; try again in a while
                self.clock.set(now + RETRY_AFTER)
                return
            await room.broadcast()
        room.wake_bots()

    async def _count_ripe_votes(self) -> None:
        """A person with votes for a bot has been gone long enough: the votes carry, or
        fewer are needed now (or the alarm rang a moment early: then it is only set
        again)."""
        room = self.room
        room.store_pending()
        if not room.count_votes():
            room.seating_changes += 1  # the votes needed, in the cached whole state
        await room.broadcast()
        room.wake_bots()

    async def _wait_ripe(self) -> None:
        """The person to move, connected, has kept the game waiting ``vote_after`` seconds:
        the others are shown that they may vote a bot in (or the alarm rang a moment early,
        or for a wait that ended: then it is only set again)."""
        room = self.room
        room.store_pending()
        now = time.time()
        if room.waited_on(now) is not None:
            room.wait_told(now)
            room.seating_changes += 1  # who may be voted for, in the cached whole state
            await room.broadcast()
        self.set()

    async def _mark_absent(self) -> None:
        """The person to move has been disconnected for ``away_after`` seconds."""
        room = self.room
        room.store_pending()
        absent = room.absent_turn()
        if absent is None or absent != self._absent:
            return
        now = time.time()
        try:
            room.change_seating(lambda seating: seating.hand_over(absent[0], "absent", now))
        except Refused:  # logged; the alarm rings again after another while
            self.away.set(now + RETRY_AFTER)
            return
        await room.broadcast()
        room.wake_bots()
