"""Reviews of several games added up per player (by name, in any case): how many games, the
wins (a shared win counted as its share) against the wins expected at the start and without
the luck of the dice, the accuracy over every decision of all the games, the luck and the
marked rolls.

>>> from pickomino.core import Game
>>> from pickomino.analysis import review
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> ann, bob = totals([review(game.record), review(game.record)])
>>> ann.name, ann.games, len(ann.costs)
('Ann', 2, 8)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pickomino.analysis.decisions import LABEL_NAMES, MARK_NAMES, Review, accuracy


@dataclass
class PlayerTotals:
    """One player's games added up (chances and luck in games won: 1 = one game)."""

    name: str
    games: int = 0
    start: float = 0.0  # the wins expected at the start of each game
    result: float = 0.0  # the wins (a shared win counted as its share; unfinished: the chance)
    luck: float = 0.0
    costs: list[float] = field(default_factory=list)
    labels: Counter[str] = field(default_factory=Counter)
    marks: Counter[str] = field(default_factory=Counter)

    @property
    def adjusted(self) -> float:
        """The wins without the luck of the dice."""
        return self.result - self.luck

    @property
    def accuracy(self) -> float:
        """Over every decision with a choice of all the games (not a mean of the games')."""
        return accuracy(self.costs)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "games": self.games,
            "start": self.start,
            "result": self.result,
            "adjusted": self.adjusted,
            "luck": self.luck,
            "accuracy": self.accuracy,
            "decisions": len(self.costs),
            "labels": {label: self.labels[label] for label in LABEL_NAMES},
            "marks": {mark: self.marks[mark] for mark in MARK_NAMES},
        }


def totals(reviews: Sequence[Review]) -> list[PlayerTotals]:
    """Every player of ``reviews`` with their games added up, in the order they first sat."""
    found: dict[str, PlayerTotals] = {}
    for game in reviews:
        for player in game.players:
            name = game.seats[player.seat]
            mine = found.setdefault(name.casefold(), PlayerTotals(name))
            mine.games += 1
            mine.start += player.start
            mine.result += player.result
            mine.luck += player.luck
            mine.costs += player.costs
            mine.labels.update(player.labels)
            mine.marks.update(player.marks)
    return list(found.values())
