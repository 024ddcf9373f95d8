"""Who sits at the table: a person or a bot. At the table both answer the bots' question —
which action for this (public) state? — a person with ``None``: the game then waits for
their command (see :class:`~pickomino.table.session.Session`).

>>> seats = parse_seats("Ann,bot:hard", bot_name=lambda number, level: f"Robot {number}")
>>> seats
[Seat(name='Ann', bot=None), Seat(name='Robot 2', bot='hard')]
>>> [type(player).__name__ for player in players(seats, seed=1)]
['Person', 'ExpectedBot']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pickomino.bots import make_bot
from pickomino.core import Action, BadInput, GameState
from pickomino.core.record import name_problem
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS

BOT_PREFIX = "bot:"


class Player(Protocol):
    """A bot, or a person (who answers ``None``: their command comes separately)."""

    def choose(self, state: GameState) -> Action | None: ...


class Person:
    """A person's seat never chooses by itself."""

    name = "person"

    def choose(self, state: GameState) -> None:
        return None


@dataclass(frozen=True)
class Seat:
    """A seat as the setup gives it: a name, and a bot's name or difficulty (or ``None``)."""

    name: str
    bot: str | None = None

    @property
    def is_person(self) -> bool:
        return self.bot is None


def players(seats: Sequence[Seat], seed: int) -> list[Player]:
    """Who plays each seat: a :class:`Person`, or the seat's bot seeded with ``seed + n``
    (so every bot is deterministic and two bots of one kind differ)."""
    return [
        Person() if seat.bot is None else make_bot(seat.bot, seed + number)
        for number, seat in enumerate(seats)
    ]


def parse_seats(text: str, bot_name: Callable[[int, str], str]) -> list[Seat]:
    """Seats from ``"Ann,Bob,bot:expert"``: a name is a person, ``bot:NAME`` a bot by its
    name or difficulty, named by ``bot_name(seat number, bot)``. Refuses an empty list or
    entry, a name given twice (ignoring case) and a wrong number of seats (R1)."""
    if not text.strip():
        raise BadInput("no_seats")
    entries = [part.strip() for part in text.split(",")]
    seats = []
    for number, entry in enumerate(entries, start=1):
        if entry.isdigit():  # "--players 3" means three seats to some: say what it means
            raise BadInput("seat_is_number", seat=number, given=entry[:4])
        if entry.lower().startswith(BOT_PREFIX):
            bot = entry[len(BOT_PREFIX) :].strip().lower()
            if not bot:
                raise BadInput("seat_bot_unnamed", seat=number)
            make_bot(bot)  # refuses an unknown bot
            seats.append(Seat(bot_name(number, bot), bot))
        elif entry and (problem := name_problem(entry, number, in_terminal=True)):
            raise problem
        elif entry:
            seats.append(Seat(entry))
        else:
            raise BadInput("seat_unnamed", seat=number)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise BadInput("player_count", "R1", low=MIN_PLAYERS, high=MAX_PLAYERS, given=len(seats))
    folded = [seat.name.casefold() for seat in seats]
    twice = sorted({seat.name for seat in seats if folded.count(seat.name.casefold()) > 1})
    if twice:
        raise BadInput("names_twice", names=twice)
    return seats
