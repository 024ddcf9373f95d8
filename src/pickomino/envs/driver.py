"""Moves a game on between learning-agent decisions: dice rolls and bot seats."""

from __future__ import annotations

import random
from collections.abc import Mapping

from pickomino.bots import Bot
from pickomino.core import GameState, sample_roll


def advance(state: GameState, rng: random.Random, bots: Mapping[int, Bot]) -> None:
    """Roll the dice and let ``bots`` (by seat) play until a seat without a bot must decide
    or the game is over."""
    while not state.is_over:
        if state.is_chance():
            state.apply_roll(sample_roll(state.dice_left, rng))
        elif state.current in bots:
            state.apply(bots[state.current].choose(state))
        else:
            return
