"""Who plays each person's seat now, and how long they have: the game's time control and
its running clock, the seats a bot plays because their person is away, and the votes to
hand a seat to a bot. Pure data and rules, no I/O and no timers: the room stores this with
the game (as JSON, in the same transaction as the moves it goes with) and runs the timers.

There is one clock at a time, the person's whose decision it is. It starts when a person
gets the decision of a turn and no clock runs (the turn's first step, or a person taking
their seat back mid-turn), and stops when the turn ends or a bot takes the seat over. A
turn's time is given once: a person who takes their seat back in the turn a bot took over
has what was left of it when the bot did (away and back never give time):

- ``per_turn`` seconds for every turn;
- a ``bank`` of seconds for the whole game, plus ``increment`` seconds at every turn
  (Fischer): the turn's time is the bank left plus the increment, and what is left of it
  at the turn's end is the bank. An empty bank leaves each later turn the increment.

When a person's time runs out, a bot (the game's ``takeover`` level) plays the rest of that
turn; after ``TIMEOUTS_AWAY`` such turns in a row the person is marked away, and the bot
plays their seat until they come back.

>>> seating = Seating(TimeControl(bank=300, increment=10), "medium", seats=2)
>>> seating.settle(now=1000.0, turn=1, current=0, person_decides=True)
>>> seating.deadline, seating.clock_seat
(1310.0, 0)
>>> _ = seating.settle(now=1100.0, turn=2, current=1, person_decides=True)
>>> seating.banks, seating.deadline  # 210 s left to seat 0; seat 1's clock runs
([210.0, 300.0], 1410.0)
>>> seating.time_out(now=1410.0)
[{'type': 'timeout', 'seat': 1, 'turn': 2, 'bot': 'medium'}]
>>> seating.stood_in(1, turn=2), seating.banks
(True, [210.0, 0.0])
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Literal

#: Timed-out turns in a row after which a person is marked away.
TIMEOUTS_AWAY = 2
#: Seconds the person to move may be disconnected before a bot plays for them (a default).
AWAY_AFTER = 120.0


def patience(away_after: float) -> float:
    """How long a person is waited for before a bot plays for them: a room's ``away_after``,
    or its default where that is never (0); the votes of fewer than half of a game's people
    wait as long, and a stand-in they voted in counts toward leaving after as long."""
    return away_after or AWAY_AFTER


#: The bot that plays for a person who is away or out of time, unless the game says another.
DEFAULT_TAKEOVER = "medium"
#: The stand-ins a rated game keeps as chosen: none stronger than the default. A stronger
#: one is a reason to let one's clock run out at a hard decision (an audit: an `expert`
#: stand-in played 44% of a rated profile's moves, a timeout every other turn, and won).
RATED_TAKEOVERS = frozenset({"easy", "random", DEFAULT_TAKEOVER, "simple"})


def stand_in_level(takeover: str, rated: bool) -> str:
    """The bot that plays for a person in a game whose ``takeover`` is that: in a rated game
    at most the default.

    >>> stand_in_level("expert", rated=False), stand_in_level("expert", rated=True)
    ('expert', 'medium')
    >>> stand_in_level("easy", rated=True)
    'easy'
    """
    return takeover if not rated or takeover in RATED_TAKEOVERS else DEFAULT_TAKEOVER


#: Why a seat was handed to a bot: its person was disconnected on their turn, ran out of
#: time too often, or the others voted.
AwayWhy = Literal["absent", "timeouts", "vote"]
#: A log entry of the table (beside the engine's events): timeout, away, back.
Note = dict[str, Any]


@dataclass(frozen=True)
class TimeControl:
    """How much time each person has: ``per_turn`` seconds a turn, or a ``bank`` for the
    game plus ``increment`` seconds a turn."""

    per_turn: float | None = None
    bank: float | None = None
    increment: float = 0.0

    def allowance(self, bank_left: float) -> float:
        """The time for a turn that starts with ``bank_left`` in the bank."""
        return self.per_turn if self.per_turn is not None else bank_left + self.increment

    def to_dict(self) -> dict[str, float]:
        if self.per_turn is not None:
            return {"per_turn": self.per_turn}
        return {"bank": self.bank or 0.0, "increment": self.increment}

    @classmethod
    def from_dict(cls, data: dict[str, float] | None) -> TimeControl | None:
        if not data:
            return None
        return cls(data.get("per_turn"), data.get("bank"), data.get("increment", 0.0))


@dataclass
class Seating:
    """The seats' controllers and the clock of one game (see the module's doc)."""

    control: TimeControl | None
    takeover: str
    seats: int
    away: list[bool] = field(default_factory=list)  #: a bot plays for them until they are back
    timeouts: list[int] = field(default_factory=list)  #: timed-out turns in a row
    banks: list[float] | None = None  #: each bank's seconds (bank controls only)
    deadline: float | None = None  #: when the running clock runs out (Unix time), if one runs
    clock_seat: int | None = None  #: whose clock runs (or ran last)
    clock_turn: int | None = None  #: the turn it runs (or ran last) in
    timed_out: int | None = None  #: the turn whose rest a bot plays: its person's time ran out
    left: float | None = None  #: seconds left of the clock's turn when it stopped before its end
    votes: dict[int, list[int]] = field(default_factory=dict)  #: seat → who voted to hand it over
    #: ``[seat, turn]``: voted away for keeping the game waiting, its person takes the seat
    #: back once that turn is over (the bot's step is not dropped by a quick "back" again
    #: and again, as the game would then never move).
    held: list[int] | None = None

    def __post_init__(self) -> None:
        self.away = self.away or [False] * self.seats
        self.timeouts = self.timeouts or [0] * self.seats
        if self.banks is None and self.control is not None and self.control.bank is not None:
            self.banks = [float(self.control.bank)] * self.seats

    # ------------------------------------------------------------ stored form
    def to_json(self) -> str:
        """What the database keeps (the control and the takeover bot are in the record)."""
        data = {
            "away": self.away, "timeouts": self.timeouts, "banks": self.banks,
            "deadline": self.deadline, "clock_seat": self.clock_seat,
            "clock_turn": self.clock_turn, "timed_out": self.timed_out, "left": self.left,
            "votes": {str(seat): voters for seat, voters in self.votes.items()},
            "held": self.held,
        }  # fmt: skip
        return json.dumps(data)

    @classmethod
    def load(cls, text: str | None, meta: dict[str, Any], seats: int) -> Seating:
        """From the record's ``meta`` (``clock``, ``takeover``) and the stored JSON (``None``
        for a game that never needed any, e.g. one stored before clocks existed)."""
        control = TimeControl.from_dict(meta.get("clock"))
        seating = cls(control, meta.get("takeover", DEFAULT_TAKEOVER), seats)
        if text:
            data = json.loads(text)
            data["votes"] = {int(seat): voters for seat, voters in data["votes"].items()}
            for name, value in data.items():
                setattr(seating, name, value)
        return seating

    def copy(self) -> Seating:
        """A copy to change, stored, then kept (memory never runs ahead of the database)."""
        return copy.deepcopy(self)

    # --------------------------------------------------------------- the clock
    def stood_in(self, seat: int, turn: int) -> bool:
        """Whether a bot plays this person's seat now: away, or out of time in this turn
        (the turn of the clock that ran out)."""
        return self.away[seat] or (self.timed_out == turn and self.clock_seat == seat)

    def settle(self, now: float, turn: int, current: int, person_decides: bool) -> None:
        """Make the clock agree with the game after a change: stop a clock whose turn ended
        (the rest of its time is banked) or whose seat a bot took over; start one for a
        person who has the decision and none."""
        if self.control is None:
            return
        moved_on = (self.clock_seat, self.clock_turn) != (current, turn)  # another turn now
        if self.deadline is not None and (not person_decides or moved_on):
            self._stop_clock(now, in_time=self.clock_turn != turn)
        if person_decides and self.deadline is None:
            self.deadline = now + self._time_for(turn, current)
            self.clock_seat, self.clock_turn, self.left = current, turn, None
        if self.timed_out is not None and self.timed_out != turn:
            self.timed_out = None

    def _time_for(self, turn: int, seat: int) -> float:
        """The time of the clock that starts now: what was left of this turn's, if its clock
        ran already (the person takes their seat back from a bot), else a turn's time."""
        if self.left is not None and (self.clock_seat, self.clock_turn) == (seat, turn):
            return self.left
        bank = self.banks[seat] if self.banks is not None else 0.0
        return self.control.allowance(bank) if self.control is not None else 0.0

    def _stop_clock(self, now: float, in_time: bool) -> None:
        """The running clock stops: what is left goes back to the bank, and is kept for the
        rest of the turn; a turn ended in time ends a series of timeouts."""
        seat = self.clock_seat
        assert seat is not None and self.deadline is not None
        self.left = max(0.0, self.deadline - now)
        if self.banks is not None:
            self.banks[seat] = self.left
        if in_time:
            self.timeouts[seat] = 0
        self.deadline = None

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline

    def time_out(self, now: float) -> list[Note]:
        """The running clock ran out: a bot plays the rest of the turn (and, after
        ``TIMEOUTS_AWAY`` in a row, the seat). The log entries saying so; none if it did not
        run out after all (a move stored by another process ended the turn)."""
        seat, turn = self.clock_seat, self.clock_turn
        if seat is None or turn is None or not self.expired(now):
            return []  # another process ended the turn meanwhile (the stored seating says)
        self.deadline, self.timed_out, self.left = None, turn, 0.0
        if self.banks is not None:
            self.banks[seat] = 0.0
        self.timeouts[seat] += 1
        notes: list[Note] = [{"type": "timeout", "seat": seat, "turn": turn, "bot": self.takeover}]
        if self.timeouts[seat] >= TIMEOUTS_AWAY and not self.away[seat]:
            notes += self.hand_over(seat, "timeouts", now)
        return notes

    # ------------------------------------------------------- away and back
    def hand_over(
        self,
        seat: int,
        why: AwayWhy,
        now: float,
        since: float | None = None,
        held_turn: int | None = None,
    ) -> list[Note]:
        """A bot plays ``seat`` until its person comes back (not before ``held_turn`` is
        over, if given: see :attr:`held`); its clock, if it runs, stops with the time left
        banked. A vote's hand-over keeps ``since`` when its person was gone: whether they
        left the game follows from how long (:mod:`.stand_ins`)."""
        if self.deadline is not None and self.clock_seat == seat:
            self._stop_clock(now, in_time=False)
        self.away[seat] = True
        self.votes.pop(seat, None)
        if held_turn is not None:
            self.held = [seat, held_turn]
        note: Note = {"type": "away", "seat": seat, "why": why, "bot": self.takeover}
        if why == "vote":
            note["since"] = round(now if since is None else since, 3)
        return [note]

    def come_back(self, seat: int, now: float) -> list[Note]:
        """The person plays their seat again (from the next decision); their clock starts
        when the room settles it, if it is their turn."""
        self.away[seat] = False
        self.timeouts[seat] = 0
        return [{"type": "back", "seat": seat, "at": round(now, 3)}]

    def vote(self, voter: int, seat: int, present: set[int], people: int, long_gone: bool) -> bool:
        """``voter`` asks for a bot to play ``seat`` now; ``True`` when the votes carry
        (see :meth:`carried`)."""
        self.votes.setdefault(seat, []).append(voter)
        return self.carried(seat, present, people, long_gone)

    def carried(self, seat: int, present: set[int], people: int, long_gone: bool) -> bool:
        """Whether the votes of the people ``present`` hand ``seat`` over (votes of people
        who left do not count): as many as :meth:`needed`."""
        voters = set(self.votes.get(seat, ())) & present
        return len(voters) >= self.needed(seat, present, people, long_gone)

    @staticmethod
    def needed(seat: int, present: set[int], people: int, long_gone: bool) -> int:
        """How many votes hand ``seat`` over: more than half of the game's ``people`` (the
        seat's own person among them), or, once that person has been gone long enough
        (``long_gone``), more than half of the people present. Nobody alone takes a seat
        from a person who just left, and nobody coming back first after a restart is a
        majority for that.

        >>> Seating.needed(1, {0}, people=2, long_gone=False), Seating.needed(1, {0}, 2, True)
        (2, 1)
        """
        most = people // 2 + 1
        return min(most, len(present - {seat}) // 2 + 1) if long_gone else most
