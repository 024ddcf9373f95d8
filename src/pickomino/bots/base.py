"""The one protocol every player implements, and the registry of bots by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pickomino.core import Action, GameState


class Bot(Protocol):
    """Chooses a legal action for ``state.current``; called only at decision points."""

    name: str

    def choose(self, state: GameState) -> Action: ...


#: Bot factories by name; each takes a seed so that every bot is deterministic.
BOTS: dict[str, Callable[[int], Bot]] = {}


def register(name: str) -> Callable[[Callable[[int], Bot]], Callable[[int], Bot]]:
    def add(factory: Callable[[int], Bot]) -> Callable[[int], Bot]:
        BOTS[name] = factory
        return factory

    return add


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by its registered name."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}") from None
    return factory(seed)
