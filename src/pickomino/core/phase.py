"""What a state waits for: its phase (a module of its own, so that the position notation
can name the phases without the state)."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """What the state waits for."""

    ROLL = "roll"  #: a dice roll (chance)
    KEEP = "keep"  #: the player to keep one face of the roll (R6)
    ROLL_OR_STOP = "roll_or_stop"  #: the player to roll again or stop (R8, R10)
    CLAIM = "claim"  #: the player to choose among several claimable tiles (R12)
    OVER = "over"  #: nothing: the game has ended (R18)
