"""The table: where a game is driven. Who sits where (a person or a bot), where the dice
come from (seeded, the system's generator, keyed, or real dice typed in), the one play loop,
and the session that turns a person's command into an engine move. Every face — terminal,
web, environments, tournaments, ``selfplay`` — drives its games through this package; a
game played with the real box at a table is kept on a score sheet (``ScoreSheet``).
"""

from pickomino.table.dice import Dice, KeyedDice, SeededDice, SystemDice, TypedDice
from pickomino.table.loop import Step, advance, apply, next_step, turn_starts
from pickomino.table.seats import Person, Player, Seat, parse_seats, players
from pickomino.table.session import Plan, Session, StalePlan
from pickomino.table.sheet import ScoreSheet

__all__ = [
    "Dice",
    "KeyedDice",
    "Person",
    "Plan",
    "Player",
    "ScoreSheet",
    "Seat",
    "SeededDice",
    "Session",
    "StalePlan",
    "Step",
    "SystemDice",
    "TypedDice",
    "advance",
    "apply",
    "next_step",
    "parse_seats",
    "players",
    "turn_starts",
]
