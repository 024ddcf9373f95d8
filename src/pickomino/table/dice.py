"""Where the dice come from. Core never rolls: a chance step lists its outcomes and the
driver supplies one (DESIGN: no hidden randomness). Every source answers one question —
the roll for this state, or ``None`` when a person must type in what real dice show.

>>> from pickomino.core import GameState
>>> state = GameState()
>>> SeededDice(7).roll(state) == SeededDice(7).roll(state)
True
>>> KeyedDice(1, game=3).roll(state) == KeyedDice(1, game=3).roll(state)
True
>>> TypedDice().roll(state) is None
True
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

from pickomino.core import Counts, GameState, sample_roll


class Dice(Protocol):
    def roll(self, state: GameState) -> Counts | None:
        """The outcome of the roll ``state`` waits for; ``None``: ask a person."""


class SeededDice:
    """A reproducible stream: the same seed gives the same rolls in the same order."""

    def __init__(self, seed: int | str | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)

    def roll(self, state: GameState) -> Counts:
        return sample_roll(state.dice_left, self.rng)


class SystemDice(SeededDice):
    """The operating system's cryptographic generator: nobody can predict a roll, not even
    from every earlier one (what a server that strangers play on needs)."""

    def __init__(self) -> None:
        super().__init__(rng=secrets.SystemRandom())


class KeyedDice:
    """Each roll drawn from its own key (seed, game, turn, roll of the turn): two games
    whose players choose differently still share every turn's rolls as far as they throw
    the same number of dice, which is what paired comparisons of bots need."""

    def __init__(self, seed: int, game: int) -> None:
        self.prefix = f"pickomino:{seed}:{game}"

    def roll(self, state: GameState) -> Counts:
        roll_of_turn = state.kept_mask.bit_count() + 1  # every roll but the first follows a keep
        rng = random.Random(f"{self.prefix}:{state.turn}:{roll_of_turn}")
        return sample_roll(state.dice_left, rng)


class TypedDice:
    """Real dice: the game waits until a person types in what they show."""

    def roll(self, state: GameState) -> None:
        return None
