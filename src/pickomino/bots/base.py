"""The one protocol every player implements, and the registry of bots by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pickomino.core import Action, BadInput, GameState


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


#: Difficulty names for people, each an alias of a bot.
DIFFICULTIES = {"easy": "random", "medium": "simple", "hard": "expected", "expert": "valued"}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by its registered name or its difficulty name (``easy`` … ``expert``)."""
    try:
        factory = BOTS[DIFFICULTIES.get(name, name)]
    except KeyError:
        raise BadInput("unknown_bot", given=str(name)[:40], bots=[*BOTS, *DIFFICULTIES]) from None
    return factory(seed)


def bot_names() -> str:
    """Every name a bot answers to, for help texts: ``random (easy), simple (medium), ...``."""
    levels = {bot: level for level, bot in DIFFICULTIES.items()}
    return ", ".join(f"{bot} ({levels[bot]})" if bot in levels else bot for bot in BOTS)
