"""A coach for learners: before a move that costs at least a chosen amount of win chance, it
says so (a face asks the player to confirm); it never plays for anyone.

>>> from pickomino.core import GameState
>>> state = GameState.from_position([[36], [35]], kept="5")  # Ann kept a 5 and no worm
>>> advice = Coach().advise(state, "stop")
>>> advice.bust, advice.best, advice.cost > 0.10
('no_worm', 'roll', True)
>>> Coach().advise(state, "roll") is None                    # the best move: nothing to say
True
"""

from __future__ import annotations

from dataclasses import dataclass

from pickomino.analysis.decisions import decision_at, weight
from pickomino.analysis.evaluator import FairPlanner, TurnView, Views
from pickomino.core import Action, BadInput, Bust, GameState

#: The coach speaks up from the cost that makes any decision a mistake (5 points at a table of
#: two; see :data:`pickomino.analysis.LABELS`). A threshold is counted as the labels are: at a
#: table of N, a point of win chance weighs N/2 (:func:`pickomino.analysis.weight`).
DEFAULT_THRESHOLD = 0.05


@dataclass(frozen=True)
class Advice:
    """What the coach says about ``action``: it costs ``cost`` of win chance (0..1), leaving
    ``chosen`` where ``best`` would leave ``better``; ``bust`` is the reason a stop busts."""

    action: str
    cost: float
    chosen: float
    best: str
    better: float
    bust: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "cost": self.cost,
            "chosen": self.chosen,
            "best": self.best,
            "better": self.better,
            "bust": self.bust,
        }


class Coach:
    """Values the moves of the player to move with the review's evaluator (the game's
    :func:`~pickomino.bots.planners.evaluator_for`), one turn's view
    kept at a time (the view is made once a turn, the first time it is asked)."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, planner: FairPlanner | None = None):
        self.threshold = threshold
        self.views = Views(planner)

    def advise(self, state: GameState, action: Action | str) -> Advice | None:
        """Advice on ``action`` in ``state`` when it costs at least the threshold (the cost
        weighed by the table's size) and is no best move, else None; None too at a roll of
        the dice, and for an illegal action or words that name none (the engine says why)."""
        if state.is_over or state.is_chance():
            return None
        try:
            action = Action.coerce(action)
        except BadInput:
            return None
        if action not in state.legal_actions():
            return None
        decision = decision_at(state, action.name, self.view(state))
        cost = decision.cost
        if cost <= 0 or cost * weight(state.num_players) < self.threshold:
            return None
        busts = [e.reason for e in state.copy().apply(action) if isinstance(e, Bust)]
        best = decision.best
        return Advice(
            action.name, cost, decision.chosen, best.action, best.value, busts[0] if busts else None
        )

    def view(self, state: GameState) -> TurnView:
        """The view of the turn ``state`` is in (made when the turn is first asked about)."""
        return self.views.of(state)
