"""Every change of a game is stored before memory keeps it: a step's moves (with the clock,
when the step ended a turn), a change of who plays the seats (with its log entries), the
status. If storing fails, memory takes the change back, so it never runs ahead of the
database; moves another process stored first are caught up on (:meth:`Commits.catch_up`),
as the stored game is the truth and memory only ever follows it.

A step's moves are stored with the other actions of the event loop's pass, in one
transaction (:mod:`pickomino.web.db.move_writes`): until then the engine has them and nothing
else does (the log, the clock, the status follow once they are stored), and every other
change, and anything shown, waits for them (:meth:`Commits.flush`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable

from pickomino.core.errors import PickominoError
from pickomino.core.events import standing_dict, tie_break
from pickomino.web.db.move_writes import GameMoves, StaleHolder, StaleMoves
from pickomino.web.db.store import TableEvent
from pickomino.web.errors import Refused
from pickomino.web.game.seating import (
    DEFAULT_TAKEOVER,
    Note,
    Seating,
    patience,
    stand_in_level,
)
from pickomino.web.game.shared import RoomPart, SeatHolder, SharedRoom
from pickomino.web.game.stand_ins import left_seats, stand_in_moves
from pickomino.web.game.tablelog import TableLog

log = logging.getLogger("pickomino.web")

#: The turns a game may last on the server (``serve --turn-limit``): the rules let a game go
#: on for ever (nothing is turned over when a player who busts returned nothing, R16), and a
#: table of scripted seats could fill the database so. No real game comes near: of 20,000
#: games of two random bots the longest took 1,278 turns; seven random bots, 994.
TURN_LIMIT = 2000


def beyond_the_limit(room: SharedRoom) -> bool:
    """Whether a game still in play has played its :attr:`~.Room.turn_limit` turns (0: none),
    to the end of a round: every player had as many turns (then it stops: no move more)."""
    limit, state = room.turn_limit, room.game.state
    played = state.turn - 1
    return bool(limit) and not state.is_over and played >= limit and not played % len(room.seats)


class Commits(RoomPart):
    """The room's changes, stored first; and what other processes stored, played in."""

    def __init__(self, room: SharedRoom, notes: int) -> None:
        super().__init__(room)
        self._notes = notes  #: the table's own log entries stored so far

    # ---------------------------------------------------------------- moves
    async def commit(self, step: Callable[[], object], secret: str | None = None) -> None:
        """Play a step in the engine, then store its moves (and the clock, when the step
        stopped or started one) with the other actions of this pass of the event loop;
        done once they are stored. If storing fails they are taken back (``not_saved``; or
        :class:`StaleMoves`: another process moved first; :class:`StaleSeating`: another
        process changed the seating the new one was worked out from, a vote), so memory never
        runs ahead of the database, nor undoes what another process stored. A person's move
        also checks that no vote on them was stored elsewhere meanwhile, which their move
        ends (else it is refused, the vote read, and the move tried again), and that the
        ``secret`` their device came with (else the one memory knows) still holds their seat
        (:class:`.StaleHolder`: the seat moved to another device elsewhere; that device only
        watches from then). The device's own, not memory's: a catching up meanwhile (a timed
        game's vote, the move tried again) has memory know the seat's new secret already."""
        room = self.room
        game = room.game
        self.flush()  # a change before this one is stored first
        first, turn = room.seq, game.state.turn
        # A person who moves is here: the votes to hand their seat over end with the move.
        mover = game.state.current if self.person_decides(room.seating) else None
        voted_on = mover in room.seating.votes
        history_before = len(game.history)
        before = room.seating.to_json()
        step()  # raises, changing nothing, if the engine refuses
        state = game.state
        turns = state.turn if state.turn != turn or state.is_over else None  # for the lobby
        # Within a turn the clock stays as it is (it starts and stops with turns and with the
        # seating's own changes): settling it costs only at a turn's end.
        timed = room.seating.control is not None and turns is not None
        seating = room.seating.copy() if timed or voted_on else None
        if seating is not None:
            if mover is not None:
                seating.votes.pop(mover, None)
            if timed:
                self.settled(seating)
            if seating.to_json() == room.seating.to_json():
                seating = None

        def kept() -> None:  # the moves are stored: the rest of the game follows them
            if seating is not None:
                room.seating = seating
                room.seating_changes += 1
            room.table_log.moves(game.history[history_before:])
            self.stand_ins()  # a bot that played the rest of a timed-out turn stands down
            if game.state.is_over:
                self.finish()
            elif beyond_the_limit(room):
                self.stop_at_the_limit()
            else:
                room.set_alarms()

        def taken_back(error: Exception) -> BaseException:
            game.truncate(first)  # the stored moves are the game's (the database may be
            if isinstance(error, StaleMoves):  # what failed): catch up on them
                return error
            log.error("could not store moves of game %s; taking them back", room.id, exc_info=error)
            return Refused("not_saved")

        clock = seating.to_json() if seating is not None else None
        meta, seats = game.record.meta, len(room.seats)

        # Each parses the stored seating only when it differs from memory's before the move
        # (nothing changed elsewhere: the usual case). The second checks only moves whose
        # mover had no vote in memory's (a vote would have made a seating to store: the first).
        def still_stored(stored: str | None) -> bool:  # no vote elsewhere since: not undone
            return stored == before or Seating.load(stored, meta, seats).to_json() == before

        def no_vote_on_mover(stored: str | None) -> bool:  # none elsewhere to end with the move
            return stored == before or mover not in Seating.load(stored, meta, seats).votes

        checked = still_stored if clock is not None else None
        if checked is None and mover is not None:
            checked = no_vote_on_mover
        moves = game.record.moves[first:]
        holder = self._holder(mover, secret)  # whom the move came from: still the seat's
        action = GameMoves(room.id, first, moves, turns, clock, checked, holder)
        await room.store.move_writes.at_tick_end(action, kept, taken_back)

    def _holder(self, seat: int | None, secret: str | None) -> tuple[int, str] | None:
        """A person's ``seat`` and the secret their device holds it by (``None``: the one
        memory knows), for the check that it still does as their change is stored."""
        secret = secret or (self.room.seats[seat].token if seat is not None else None)
        return (seat, secret) if seat is not None and secret else None

    def flush(self) -> None:
        """Store this game's moves waiting for the end of the event loop's pass now, if any
        (see :mod:`pickomino.web.db.move_writes`): before a change that must follow them,
        or anything shown of the game."""
        self.room.store.move_writes.flush(self.room.id)

    async def until_stored(self) -> None:
        """Wait until this game's moves waiting for the end of the event loop's pass are
        stored (or taken back), and the action that made them has gone on: what it tells
        everyone is told before a state built after it (see :class:`.Audience`)."""
        waiting = self.room.store.move_writes.waiting(self.room.id)
        if waiting is not None:  # woken after the action waiting on it: it broadcasts first
            await asyncio.wait({waiting})

    # ------------------------------------------------------------ catching up
    def catch_up(self, moves_only: bool = False) -> bool:
        """Read what other processes stored since this one last looked (moves, and unless
        ``moves_only`` seats, status and who plays the seats) and play it into memory;
        whether anything changed. The stored game is the truth: memory only ever follows it.
        A timed game reads it all: a turn's end moves its clock. Moves that end the game's
        last turn stop it here, unless the process that stored them did first."""
        changed = self._read_stored(moves_only)
        if self.room.status == "playing" and beyond_the_limit(self.room):
            self.stop_at_the_limit()
            return True
        return changed

    def _read_stored(self, moves_only: bool) -> bool:
        room = self.room
        self.flush()
        room.behind = False
        if moves_only and room.seating.control is None:
            return self._play_stored(room.store.moves_from(room.id, room.seq))
        stored = room.store.load(room.id, from_seq=room.seq)
        if stored is None:
            return False
        changed = self._play_stored(stored.moves)
        header = json.loads(stored.header)
        room.game.record.meta = header.get("meta", {})  # optional in a record
        for row in stored.seats:
            seat = SeatHolder.stored(row)
            if seat != room.seats[row.seat]:
                if room.seats[row.seat].claimed and seat.token != room.seats[row.seat].token:
                    room.demote(row.seat)  # the seat moved to a device elsewhere
                room.put(row.seat, seat)
                changed = True
        if stored.status != room.status:
            room.status, changed = stored.status, True
        seating = Seating.load(stored.seating, room.game.record.meta, len(room.seats))
        if seating.to_json() != room.seating.to_json() or len(stored.events) != self._notes:
            room.seating, changed = seating, True
            room.seating_changes += 1
            room.table_log = TableLog.replayed(room.game.history, stored.events, room.game.state)
            self._notes = len(stored.events)
            self.stand_ins()
            room.set_alarms()
        return changed

    def follow(self, moves: tuple[str, ...], seating: str | None) -> bool:
        """Play in moves another process stored, as its notice carried them (with the clock
        they left, if they moved it): nothing is read from the database. Moves the engine
        refuses (a notice not of ours) change nothing: the stored game is read instead. Moves
        that end the game's last turn stop it, as :meth:`catch_up`'s do."""
        room = self.room
        self.flush()
        first = room.seq
        try:
            changed = self._play_stored(list(moves))
        except PickominoError:
            log.warning("game %s: a notice carried moves the engine refuses", room.id)
            room.game.truncate(first)
            return self.catch_up()
        if seating is not None:
            room.seating = Seating.load(seating, room.game.record.meta, len(room.seats))
            room.seating_changes += 1
            self.stand_ins()
            room.set_alarms()
        if room.status == "playing" and beyond_the_limit(room):
            self.stop_at_the_limit()  # unless the process that stored them did first
        return changed

    def _play_stored(self, moves: list[str]) -> bool:
        game = self.room.game
        history_before = len(game.history)
        for move in moves:
            game.push(move)  # stored by a process that checked it: legal
        self.room.table_log.moves(game.history[history_before:])
        return bool(moves)

    # --------------------------------------------------------------- status
    def finish(self) -> None:
        """The game is over: its result in the record (as data: pages word it; the lobby
        lists it without replaying the game), stored with the status."""
        room = self.room
        ranking = room.game.state.ranking()
        meta = room.game.record.meta
        meta.pop("result", None)  # the English sentence older versions kept
        meta["ranking"] = [standing_dict(standing) for standing in ranking]
        meta["tie_break"] = tie_break(ranking)
        self.note_stand_ins(meta)
        self.set_status("over")
        room.on_finish(room)
        room.cancel_alarms()
        if not room.connections:
            room.on_idle(room)

    def stop_at_the_limit(self) -> None:
        """The game played its :attr:`~.Room.turn_limit` turns without ending: it stops there
        (``stopped_after``: the turns played, in the record), abandoned; its results count the
        standings as they are, only a person a stand-in played for having left it
        (:func:`pickomino.web.lifespan.left_unfinished`). Once: a process that finds another
        stopped it first (both followed the last move) catches up instead."""
        room = self.room
        meta = room.game.record.meta
        meta["stopped_after"] = room.game.state.turn - 1
        self.note_stand_ins(meta)
        self.flush()
        if not room.store.stop_playing(room.id, self.header()):
            self.catch_up()
            return
        room.status = "abandoned"
        room.cancel_alarms()
        room.on_stopped(room)
        if not room.connections:
            room.on_idle(room)

    def note_stand_ins(self, meta: dict[str, object]) -> None:
        """Which moves a stand-in bot played for a person (``stood_in``), and which people
        left the game so (``left``: :mod:`.stand_ins`), in the record; from the stored log
        entries (another process may have stored some)."""
        room = self.room
        for key in ("stood_in", "left"):
            meta.pop(key, None)
        history, events = room.game.history, room.store.table_events(room.id)
        played = stand_in_moves(history, events)
        counted = stand_in_moves(history, events, time.time(), patience(room.away_after))
        people = [seat.is_person for seat in room.seats]
        left = left_seats(history, counted, people, room.seating.away)
        if played:
            meta["stood_in"] = played
        if left:
            meta["left"] = left

    def set_status(self, status: str) -> None:
        self.flush()
        self.room.status = status
        self.room.store.set_status(self.room.id, status, self.header())

    def header(self) -> str:
        """The record without its moves, as stored in the games table."""
        header = self.room.game.record.to_dict()
        header["moves"] = []
        return json.dumps(header)

    # ---------------------------------------------------- who plays the seats
    def person_decides(self, seating: Seating) -> bool:
        """Whether a person, not a bot, has the game's decision."""
        room = self.room
        state = room.game.state
        return (
            room.status == "playing"
            and not state.is_over
            and room.seats[state.current].is_person
            and not seating.stood_in(state.current, state.turn)
        )

    def settled(self, seating: Seating) -> Seating:
        """``seating`` with its clock settled for the game as it stands now."""
        state = self.room.game.state
        seating.settle(time.time(), state.turn, state.current, self.person_decides(seating))
        return seating

    def change_seating(
        self,
        change: Callable[[Seating], list[Note]],
        by: int | None = None,
        secret: str | None = None,
    ) -> bool:
        """Change who plays the seats (or the clock) on a copy, store it with the log
        entries ``change`` returns, then keep it; ``False`` if nothing changed. Raises
        :class:`Refused` (``not_saved``) if it cannot be stored, changing nothing; a
        person's change (``by``: their seat, from a device holding ``secret``, else the one
        memory knows) is refused (``seat_moved``) if their seat moved to another device
        elsewhere (memory then reads its new holder)."""
        room = self.room
        self.flush()
        meta = room.game.record.meta  # the level that stands in: rated as the seats stand
        takeover = stand_in_level(meta.get("takeover", DEFAULT_TAKEOVER), room.rated)
        room.seating.takeover = takeover
        known = room.seating.to_json()
        made: list[tuple[Seating, list[Note]]] = []
        stale: list[bool] = []  # another process changed the stored seating meanwhile

        def from_stored(stored: str | None) -> tuple[str, list[TableEvent]] | None:
            """The change made to what is stored: memory's seating, unless another process
            changed it meanwhile (a vote cast there at the same moment): then the stored one."""
            base = room.seating
            if (stored or Seating.load(None, meta, len(room.seats)).to_json()) != known:
                stale.append(True)
                base = Seating.load(stored, meta, len(room.seats))
                base.takeover = takeover
            seating = base.copy()
            notes = change(seating)
            self.settled(seating)
            if not notes and seating.to_json() == base.to_json():
                return None
            made.append((seating, notes))
            return seating.to_json(), [TableEvent(room.seq, n) for n in notes]

        try:
            stored = room.store.change_seating(room.id, from_stored, self._holder(by, secret))
        except StaleHolder:
            self.catch_up()
            raise Refused("seat_moved") from None
        except Exception:
            log.exception("could not store the seating of game %s", room.id)
            raise Refused("not_saved") from None
        if stale:  # memory reads the other process's changes (and ours), as stored
            self.catch_up()
            return stored
        if not stored:
            return False
        seating, notes = made[-1]
        room.seating = seating
        room.seating_changes += 1
        self._notes += len(notes)
        state = room.game.state
        for note in notes:
            room.table_log.note(note, state.turn, state.current)
        self.stand_ins()
        room.set_alarms()
        return True

    def stand_ins(self) -> None:
        """The session's bots for people agree with the seating."""
        room = self.room
        turn, bot = room.game.state.turn, room.seating.takeover
        for number, seat in enumerate(room.seats):
            if seat.is_person:
                room.session.stand_in(number, bot if room.seating.stood_in(number, turn) else None)
