"""The Hint: each choice of the player to move, best first by the review's evaluator (the
mover's win chance after it, everyone playing their best from there on), with the exact
solver's odds of the turn beside it (the chance to end it with a tile, the expected worm gain
and the bust risk, playing for worms from there). Its order is the review's: the Hint's best
choice is the choice a review calls best.

>>> from pickomino.core import GameState
>>> state = GameState.from_position([[36], [35]], kept="5")  # Ann kept a 5 and no worm
>>> [row.action for row in Hints().rows(state)]
['roll', 'stop']
>>> Hints().rows(state)[1].win < Hints().rows(state)[0].win  # stopping busts: Ann loses her 36
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pickomino.analysis.evaluator import FairPlanner, Views
from pickomino.core import GameState
from pickomino.solver.advice import advice_report, rank_choices, turn_outlook


@dataclass(frozen=True)
class HintRow:
    """One choice: the mover's win chance after it, then the solver's odds of the turn."""

    action: str
    win: float
    tile: float
    worms: float
    bust: float


class Hints:
    """The Hint of one game (its evaluator and the view of the turn being played kept from
    one question to the next)."""

    def __init__(self, planner: FairPlanner | None = None, views: Views | None = None) -> None:
        self.views = views or Views(planner)

    def rows(self, state: GameState) -> list[HintRow]:
        """Each choice at ``state``, best first; a roll of the dice is one row (``roll``: the
        chance before it); none once the game is over."""
        if state.is_over:
            return []
        view, mover = self.views.of(state), state.current
        if state.is_chance():
            outlook = turn_outlook(state)
            win = view.chances(state)[mover]
            return [HintRow("roll", win, outlook.success, outlook.value, outlook.bust)]
        odds = {choice.action.name: choice for choice in rank_choices(state)}
        return [
            HintRow(name, chances[mover], odds[name].tile, odds[name].value, odds[name].bust)
            for name, chances in view.choices(state)
        ]


def advice_with_chances(
    state: GameState, seat: int, kept: str = "", rolled: str | None = None
) -> dict[str, Any]:
    """:func:`~pickomino.solver.advice.advice_report` (real dice: ``pickomino advise``, the
    score keeper's dice helper) in the Hint's order: each choice with its ``win`` chance,
    best first, ``best`` the Hint's best and ``best_worms`` the best for this turn's worms;
    before a roll, the ``win`` chance of the turn. A roll that busted has no chances."""
    report = advice_report(state, seat, kept, rolled)
    if report["phase"] == "bust":
        return report
    rows = Hints().rows(state)
    if report["phase"] == "roll":
        return {**report, "win": rows[0].win}
    odds = {choice["action"]: choice for choice in report["choices"]}
    choices = [{"action": row.action, "win": row.win, **odds[row.action]} for row in rows]
    return {**report, "best": rows[0].action, "best_worms": report["best"], "choices": choices}
