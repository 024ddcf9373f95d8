"""The task that plays a game's bots (a bot's seat, or a person's a bot stands in for), one
step at a time through the table's session (:meth:`pickomino.table.Session.plan`): each
step is thought out in a worker thread (the bots' own) on a copy of the state, so other games stay
responsive, then played only if nothing moved meanwhile and the seat is still the bot's
(a person who took it back, or a person's move, wins and the bot's step is dropped).

A bot stands in for a person only while somebody is at the table (a person of the game
connected, here or to another process): with everybody gone the game rests on that person's
turn, as an untimed game waits for its people, until one of them comes back (an audit: games
of one person and bots with a clock nobody opened were played to their end by the stand-ins,
twenty times as many from one address as the cap on games of bots alone lets play).

A bot that fails is logged and a legal action is played instead: a bug in a bot must not
stop the game. A step that cannot be stored is tried again after a pause that grows up to
a minute (the database away?); moves another process stored first are followed.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from pickomino.cores import usable_cores
from pickomino.table import StalePlan
from pickomino.web.db.move_writes import StaleMoves
from pickomino.web.game.commits import beyond_the_limit
from pickomino.web.game.shared import RoomPart, SharedRoom

log = logging.getLogger("pickomino.web")

#: The threads the bots of every game think in: their own, so that a server full of bot games
#: (an audit: 350 of them) does not keep the hints, the coach and the store's work waiting in
#: the shared threads; as many as the cores (more would only take turns on them).
THINKING = ThreadPoolExecutor(max_workers=usable_cores(), thread_name_prefix="bots")


class BotDriver(RoomPart):
    """The room's bot task, running while it is a bot's turn in a started game."""

    def __init__(self, room: SharedRoom) -> None:
        super().__init__(room)
        self.task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Make sure the bot task runs when it is a bot's turn in a started game (a bot's
        seat, or a person's a bot stands in for), and the alarms are set."""
        room = self.room
        room.set_alarms()
        idle = self.task is None or self.task.done()
        if idle and self._driving():
            self.task = asyncio.create_task(self._play())

    def idle(self) -> bool:
        """Whether no bot is to move (a stand-in waiting for somebody at the table is not)
        nor still playing its last step."""
        return not self._driving() and (self.task is None or self.task.done())

    def _driving(self) -> bool:
        room = self.room
        playing = room.status == "playing" and not beyond_the_limit(room)
        if not (room.drives_bots and playing and room.session.is_bot_turn()):
            return False
        stands_in = room.seats[room.game.state.current].is_person
        return not stands_in or bool(room.present())  # a stand-in: somebody is at the table

    async def _play(self) -> None:
        if self.gone:  # dropped before the task first ran
            return
        room, failures = self.room, 0
        while self._driving():
            # After a failure (the database away?) wait longer, up to a minute, then retry.
            await asyncio.sleep(room.bot_delay if not failures else min(60, 2**failures))
            try:
                played = await self._step()
                failures = 0
            except StaleMoves:  # the lease moved on meanwhile: follow what was stored
                await room.refresh()
                continue
            except Exception:
                failures += 1
                log.exception("a bot of game %s could not play (try %d)", room.id, failures)
                continue
            if played:  # a dropped step changed nothing: nobody hears of it
                await room.broadcast()

    async def _step(self) -> bool:
        """One step of the play loop (a roll or a bot's decision), planned now, thought out
        in a worker thread, then played and stored; ``False`` if it was dropped."""
        room, session = self.room, self.room.session
        if not self._driving():  # the person came back while the bot waited, or it stopped
            return False
        plan = session.plan()
        try:
            step = await asyncio.get_running_loop().run_in_executor(THINKING, plan.think)
        except Exception:  # a bug in a bot must not stop the game: log it, play on
            log.exception("the bot of game %s failed; it plays a legal action", room.id)
            step = session.state.legal_actions()[0]
        try:
            await room.commit(lambda: session.play(plan, step))
        except StalePlan:  # a person took the seat back, or moved: the step is dropped
            return False
        return True
