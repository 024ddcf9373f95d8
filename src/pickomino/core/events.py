"""What happened, for faces to show: every state change returns a list of these events.

Events are plain slotted dataclasses, not frozen ones: they are created on every step of
every simulated game, and freezing costs about three times as much. Treat them as values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pickomino.core.dice import Counts

BustReason = Literal["no_new_face", "no_worm", "too_low", "reported"]

#: Plain words for each bust reason, with the rule that causes it.
BUST_REASONS: dict[BustReason, str] = {
    "no_new_face": "the roll showed no face that was not kept already (R7)",
    "no_worm": "no worm among the kept dice (R10)",
    "too_low": "the total reaches no tile that can be claimed (R13)",
    "reported": "a failed turn played with real dice (R15, R16)",
}


@dataclass(slots=True)
class Rolled:
    seat: int
    dice: Counts


@dataclass(slots=True)
class Kept:
    seat: int
    face: int
    count: int
    total: int


@dataclass(slots=True)
class TileTaken:
    """A tile won from the grill."""

    seat: int
    tile: int
    total: int


@dataclass(slots=True)
class TileStolen:
    """A tile won from the top of ``victim``'s stack."""

    seat: int
    tile: int
    victim: int
    total: int


@dataclass(slots=True)
class Bust:
    seat: int
    reason: BustReason
    total: int


@dataclass(slots=True)
class TileReturned:
    """After a bust, the top tile of ``seat``'s stack went back to the grill (R15)."""

    seat: int
    tile: int


@dataclass(slots=True)
class TileTurned:
    """A grill tile turned face down, out of the game for good (R16)."""

    tile: int


@dataclass(slots=True)
class Standing:
    """One line of the final ranking; ``rank`` 1 is a winner (R19, R20)."""

    seat: int
    rank: int
    worms: int
    highest_tile: int | None


@dataclass(slots=True)
class GameOver:
    ranking: tuple[Standing, ...]


Event = Rolled | Kept | TileTaken | TileStolen | Bust | TileReturned | TileTurned | GameOver
