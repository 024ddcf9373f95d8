"""People gone from a game, and the votes of the others to let a bot play for them.

A person disconnected on their turn is handed over to a bot after ``away_after`` seconds
(while somebody else at the table is connected: the others wait for them), and the others
may vote a bot in for a person gone: a majority of the game's people carries the vote, or
of those present once the person has been gone ``vote_after`` seconds
(:meth:`.Seating.carried`). A person connected who keeps a game without a clock waiting on
their turn as long counts as gone that long: nothing else would end the wait (a clock's
running out does in a timed game), and the votes against them end when they move. A person
takes their seat back with a ``back`` message. When to look again is the alarms'
(:mod:`.alarms`); what is decided is stored with the seating.
"""

from __future__ import annotations

import time

from pickomino.web.errors import Refused
from pickomino.web.game.seating import Note, Seating, patience
from pickomino.web.game.shared import RoomPart, SharedRoom

#: Seconds nobody else may be here before the wait on the person to move begins again: a
#: page reloading or reconnecting (an audit: the voter's reload started the whole wait
#: again, 120 s by default) is not the others leaving.
ALONE_FOR = 30
#: How many times ``vote_after`` one turn of a game without a clock may keep the others
#: waiting, however often its person moves: an audit's player made one decision just inside
#: the wait each time, and a turn of sixteen could have lasted half an hour, no vote possible.
TURN_WAITS = 3


class Absence(RoomPart):
    """Since when each person not connected has been gone, and what their absence decides."""

    def __init__(self, room: SharedRoom) -> None:
        super().__init__(room)
        #: Since when each person not connected has been gone, as this process saw it
        #: (:meth:`note_presence`), with the seat's secret then: everybody since the start,
        #: as how long anybody was gone while the server was down is unknown (a restart
        #: starts the wait again, so it never turns a minority vote into a majority). A
        #: seat whose secret changed since (taken from the lobby, moved to a device) has
        #: another holder, gone from now at the earliest (:meth:`_since`).
        now = time.time()
        self._left = {n: (now, seat.token) for n, seat in enumerate(room.seats)}
        #: Since when the game has waited on the person to move, and for what: the table as
        #: it stood then (:meth:`_waited_on_since`).
        self._waiting: tuple[tuple[object, ...], float] | None = None
        #: Since when the game has waited on the turn being played, and which turn it is.
        self._turn_waiting: tuple[tuple[object, ...], float] | None = None
        #: Since when nobody but the person to move has been here (``None``: somebody is).
        self._alone_since: float | None = None
        #: The latest time the others were told that they may vote for who keeps the game
        #: waiting (:meth:`wait_ripens`).
        self._wait_told_at = 0.0
        #: The time the votes were last counted at: a wait that ends after it is still to
        #: come for the votes, even if the wall clock has passed it since (an alarm that
        #: rang a moment early counted too soon, and must ring again).
        self._counted_at = 0.0

    @property
    def people(self) -> int:
        """How many of the game's seats are people's."""
        return sum(seat.is_person for seat in self.room.seats)

    @property
    def vote_after(self) -> float:
        """Seconds a person must be gone before the votes of the people present (fewer
        than half of the game's people, maybe one) hand their seat over: the patience
        ``away_after`` shows a person on their turn, or its default where that is never."""
        return patience(self.room.away_after)

    def gone_since(self, seat: int, now: float) -> float:
        """Since when ``seat``'s person has been gone, as far as this process knows."""
        since = self._since(seat, now)
        return now if since is None else min(now, since)

    def _since(self, seat: int, now: float) -> float | None:
        """Since when ``seat``'s holder has been gone (``None``: here), not before they hold
        it (an audit: a seat taken over HTTP was voted away 17 ms later by one person, its
        new holder counted as gone since the game was loaded); a holder connected, since when
        the game has waited on them (:meth:`_waited_on_since`)."""
        entry = self._left.get(seat)
        if entry is None:
            return self._waited_on_since(seat, now)
        since, token = entry
        if token != self.room.seats[seat].token:
            since = now
            self._left[seat] = (since, self.room.seats[seat].token)
        return since

    def _waited_on_since(self, seat: int, now: float) -> float | None:
        """Since when a game without a clock has waited on ``seat``'s person to move
        (``None``: it does not): since the last move, the game's start or somebody else
        coming when nobody had been there for :data:`ALONE_FOR` seconds (a page reloading is
        not leaving), as far as this process knows (a restart starts the wait again); a
        whole turn counts too, :data:`TURN_WAITS` waits at most, whatever moves it made. Not
        since a "back" (an audit: back at once, again and again, the game never moved) nor a
        seat moved to another device (its holder is the same person). A clock that runs out
        ends a timed game's wait by itself."""
        room = self.room
        state = room.game.state
        if (
            room.seating.control is not None
            or seat != state.current
            or not room.person_decides(room.seating)
        ):
            return None
        if not room.present() - {seat}:  # nobody else here: nobody waits
            if self._alone_since is None:
                self._alone_since = now
            return None
        if self._alone_since is not None and now - self._alone_since > ALONE_FOR:
            self._waiting = self._turn_waiting = None  # the others had left: it begins again
        self._alone_since = None
        table, turn = (room.seq, room.status), (state.turn, room.status)
        if self._waiting is None or self._waiting[0] != table:
            self._waiting = (table, now)
        if self._turn_waiting is None or self._turn_waiting[0] != turn:
            self._turn_waiting = (turn, now)
        whole_turn = self._turn_waiting[1] + (TURN_WAITS - 1) * self.vote_after
        return min(self._waiting[1], whole_turn)

    def waited_on(self, now: float) -> int | None:
        """The seat of the person connected who has kept the game waiting on their turn
        ``vote_after`` seconds (the others may vote a bot in for them), or ``None``."""
        seat = self.room.game.state.current
        if seat in self._left or not self.long_gone(seat, now):
            return None
        return seat

    def wait_ripens(self) -> float | None:
        """When the person connected to move will have kept the game waiting long enough
        for the others to vote (``None``: no such wait, or the others were told since): the
        alarms ring then, so that the others see the vote."""
        now = time.time()
        seat = self.room.game.state.current
        since = None if seat in self._left else self._waited_on_since(seat, now)
        if since is None or since + self.vote_after <= self._wait_told_at:
            return None
        return since + self.vote_after

    def wait_told(self, now: float) -> None:
        """The others were told (at ``now``) who kept the game waiting long enough."""
        self._wait_told_at = max(self._wait_told_at, now)

    def long_gone(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s person has been gone ``vote_after`` seconds."""
        since = self._since(seat, now)
        return since is not None and now >= since + self.vote_after

    def votes_needed(self, present: set[int], now: float) -> list[int]:
        """How many votes would hand each seat over (:meth:`.Seating.needed`), with the
        people ``present`` at the time ``now``."""
        people, needed = self.people, self.room.seating.needed
        return [
            needed(n, present, people, self.long_gone(n, now)) for n in range(len(self.room.seats))
        ]

    def note_presence(self) -> None:
        """Keep since when each person not connected has been gone: from the first time
        this process sees them gone (called whenever somebody comes or goes, so never
        earlier than they left); forgotten while they are connected."""
        now = time.time()
        for seat, here in enumerate(self.room.online()):
            if here:
                self._left.pop(seat, None)
            else:
                self._left.setdefault(seat, (now, self.room.seats[seat].token))

    def votes_ripen(self) -> float | None:
        """When the first person with votes for a bot will have been gone long enough for
        the votes of the people present to count (``None``: no vote waits for that). A
        time passed since the votes were last counted is still returned (its alarm rings
        at once): the count came too early for it."""
        now = time.time()
        gone = [self._since(seat, now) for seat in self.room.seating.votes]
        times = [when + self.vote_after for when in gone if when is not None]
        return min((when for when in times if when > self._counted_at), default=None)

    def absent_turn(self) -> tuple[int, int] | None:
        """(seat, turn) when the person to move is disconnected while somebody else at the
        table is connected (the others wait for them); ``None`` otherwise."""
        room = self.room
        state = room.game.state
        seat = state.current
        if (
            not room.away_after
            or not room.person_decides(room.seating)
            or room.online()[seat]
            or not room.present() - {seat}
        ):
            return None
        return seat, state.turn

    async def vote(self, voter: int | None, seat: int, secret: str | None = None) -> None:
        """``voter`` asks for a bot to play ``seat`` (a person's seat, its person not
        connected, or keeping the game waiting ``vote_after`` seconds); it does once the
        votes carry (:meth:`Seating.carried`: a majority of the game's people, or of those
        present once the person has been gone ``vote_after`` seconds)."""
        present, now, long_gone = self.refuse_vote(voter, seat)
        assert voter is not None  # a spectator's was refused

        def cast(seating: Seating) -> list[Note]:
            if seating.vote(voter, seat, present, self.people, long_gone):
                return self._hand_over(seating, seat, seat in present, now)
            return []

        self.room.change_seating(cast, by=voter, secret=secret)
        await self.room.broadcast()
        self.room.wake_bots()

    def refuse_vote(self, voter: int | None, seat: int) -> tuple[set[int], float, bool]:
        """Refuses ``voter``'s vote for ``seat`` (:class:`Refused`) unless it may be cast now,
        from what is in memory alone; else who is present, now, and whether the seat's person
        is long gone."""
        room = self.room
        if voter is None:
            raise Refused("spectators_cannot_vote")
        self._check_playing()
        if not 0 <= seat < len(room.seats):
            raise Refused("no_seat", seat=seat, high=len(room.seats) - 1)
        name = room.seats[seat].name
        if seat == voter:
            raise Refused("vote_own_seat")
        if not room.seats[seat].is_person:
            raise Refused("vote_bot_seat", name=name)
        if room.seating.away[seat]:
            raise Refused("vote_seat_away", name=name)
        present, now = room.present(), time.time()
        long_gone = self.long_gone(seat, now)
        if seat in present and not long_gone:
            if room.seating.control is not None or seat != room.game.state.current:
                raise Refused("vote_seat_online", name=name)  # the clock ends a wait, or none
            raise Refused("vote_seat_waiting", name=name, count=max(1, round(self.vote_after)))
        if voter in room.seating.votes.get(seat, ()):
            raise Refused("voted_already", name=name)
        return present, now, long_gone

    def _hand_over(self, seating: Seating, seat: int, here: bool, now: float) -> list[Note]:
        """The votes carried: a bot plays ``seat``, and for who is ``here`` (keeping the game
        waiting) at least the rest of this turn."""
        turn = self.room.game.state.turn if here else None
        return seating.hand_over(seat, "vote", now, self.gone_since(seat, now), held_turn=turn)

    async def come_back(self, seat: int | None, secret: str | None = None) -> None:
        """A person takes back the seat a bot plays for them, from its next decision (a
        step the bot is thinking out meanwhile is dropped: see :mod:`.bot_driver`)."""
        room = self.room
        if seat is None:
            raise Refused("spectators_cannot_play")
        self._check_playing()
        if not room.seating.away[seat]:
            raise Refused("not_away")
        if room.seating.held == [seat, room.game.state.turn]:
            raise Refused("back_after_turn", bot=room.seating.takeover)
        back = room.change_seating  # from the device holding ``secret`` (see Room.act)
        back(lambda seating: seating.come_back(seat, time.time()), by=seat, secret=secret)
        await room.broadcast()
        room.wake_bots()

    def _check_playing(self) -> None:
        status = self.room.status
        if status == "abandoned":
            raise Refused("game_abandoned")
        if status == "open":
            raise Refused("not_started", names=self.room.waiting())
        if status == "over":
            raise Refused("game_over", "R18")

    def count_votes(self) -> bool:
        """After somebody came or went, or a person has been gone long enough: votes for a
        person who is here now end (unless they keep the game waiting), and votes that carry
        now hand their seat over (:meth:`Seating.carried`). ``True`` if that changed
        anything."""
        room = self.room
        self.note_presence()
        if not room.seating.votes or room.status != "playing":
            return False
        online, now = room.online(), time.time()
        present = room.present(online)

        def count(seating: Seating) -> list[Note]:
            notes: list[Note] = []
            for seat in list(seating.votes):
                if online[seat] and not self.long_gone(seat, now):
                    del seating.votes[seat]
                elif seating.carried(seat, present, self.people, self.long_gone(seat, now)):
                    notes += self._hand_over(seating, seat, online[seat], now)
            return notes

        try:
            changed = room.change_seating(count)
        except Refused:  # logged; the next coming or going counts again
            return False
        self._counted_at = max(self._counted_at, now)
        return changed
