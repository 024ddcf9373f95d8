"""The rules engine: pure, standard library only, no I/O, no clock, no hidden randomness.

>>> import random
>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> rng = random.Random(7)
>>> while not game.state.is_over:
...     if game.state.is_chance():
...         _ = game.roll_random(rng)
...     else:
...         _ = game.play(rng.choice(game.state.legal_actions()))
>>> sum(len(s) for s in game.state.stacks) + len(game.state.face_down) == 16
True
"""

from pickomino.core.actions import ACTIONS, NUM_ACTIONS, Action
from pickomino.core.dice import Counts, format_dice, parse_dice, roll_outcomes, sample_roll
from pickomino.core.errors import BadInput, IllegalAction, PickominoError, RecordError
from pickomino.core.events import (
    Bust,
    Event,
    GameOver,
    Kept,
    Rolled,
    Standing,
    TileReturned,
    TileStolen,
    TileTaken,
    TileTurned,
)
from pickomino.core.game import Game, Turn
from pickomino.core.record import GameRecord
from pickomino.core.rules import PRESETS, TILES, Rules, worms_on
from pickomino.core.state import GameState, Phase

__all__ = [
    "ACTIONS",
    "NUM_ACTIONS",
    "PRESETS",
    "TILES",
    "Action",
    "BadInput",
    "Bust",
    "Counts",
    "Event",
    "Game",
    "GameOver",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "Kept",
    "Phase",
    "PickominoError",
    "RecordError",
    "Rolled",
    "Rules",
    "Standing",
    "TileReturned",
    "TileStolen",
    "TileTaken",
    "TileTurned",
    "Turn",
    "format_dice",
    "parse_dice",
    "roll_outcomes",
    "sample_roll",
    "worms_on",
]
