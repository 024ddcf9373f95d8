"""How a turn can end, from the position it starts in: a bust, or one of the claims each
total allows (totals that allow the same claims share one group), each as the position the
next turn starts from; and a turn's value table from a valuation of those endings.

>>> from pickomino.core import GameState
>>> endings = turn_endings(GameState(2))
>>> len(endings.bust), len(endings.group_of)
(1, 41)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pickomino.core import Action, GameState
from pickomino.solver.turns import MAX_TOTAL
from pickomino.solver.values import TurnValues

Endings = list[tuple[Action | None, GameState]]


@dataclass(frozen=True)
class TurnEndings:
    """Every way a turn can end, from the position it starts in: the bust, and the claims
    each total allows (totals that allow the same claims share one group)."""

    bust: Endings
    groups: tuple[Endings, ...]
    group_of: tuple[int, ...]  # per total 0..40: its group, or -1 when it claims nothing

    @property
    def positions(self) -> list[list[GameState]]:
        """The positions the turn can end in, by group: the bust's first, then each claim
        group's (the layout :func:`pickomino.evaluation.values.tables_of` reads)."""
        return [[ending for _, ending in group] for group in (self.bust, *self.groups)]


def turn_endings(state: GameState) -> TurnEndings:
    seen: dict[tuple[Action, ...], int] = {(): -1}
    groups: list[Endings] = []
    group_of = []
    for total in range(MAX_TOTAL + 1):
        claims = state.claimable(total)
        if claims not in seen:
            seen[claims] = len(groups)
            groups.append(state.endings(total))
        group_of.append(seen[claims])
    return TurnEndings(state.endings(0, worm=False), tuple(groups), tuple(group_of))


def value_table(state: GameState | TurnEndings, value: Callable[[Endings], float]) -> TurnValues:
    """A turn's value table from the value of each way it can end (claims or the bust);
    totals that allow the same claims share one valuation."""
    endings = state if isinstance(state, TurnEndings) else turn_endings(state)
    bust = value(endings.bust)
    values = [value(group) for group in endings.groups]
    end = tuple(values[group] if group >= 0 else bust for group in endings.group_of)
    return TurnValues(end, bust, tuple(group >= 0 for group in endings.group_of))
