"""Win chances at every point of a game, under the strongest evaluator we have.

:func:`~pickomino.bots.planners.evaluator_for` picks it for a game (the win-value network's
search where one was trained, the strategist's elsewhere: :mod:`pickomino.bots.planners`, the
search the ``valued`` bot plays by). :class:`TurnView` values every point of one turn from
either: the mover's chance from the exact turn solver's table, the others' from how the
mover's best play ends, and a decision by the chances of the point it leads to.
"""

from __future__ import annotations

import numpy as np

from pickomino.bots.planners import FairPlanner, LearnedPlanner, ending_value, evaluator_for
from pickomino.core import Action, GameState
from pickomino.solver import TurnValues, solve
from pickomino.solver.endings import value_table
from pickomino.solver.solve import TurnSolution

__all__ = ["Chances", "FairPlanner", "LearnedPlanner", "TurnView", "Views", "evaluator_for"]

Chances = list[float]


class TurnView:
    """Every player's win chance at every point of one turn (the mover's from its solved
    table; the others' from the end distribution of the mover's best play, valued by their
    own table of this turn's endings). Made at any point of the turn: its tables depend only
    on the position the turn started from."""

    def __init__(self, state: GameState, planner: FairPlanner) -> None:
        self.turn = state.turn
        self.mover = mover = state.current
        self.players = state.num_players
        self.turns = planner.lookahead(state)
        self.planner = planner
        self.table = planner.turn_values(state, self.turns)
        self.solution: TurnSolution = solve(self.table)
        self.others: dict[int, TurnValues] = {}
        if self.players > 2:
            endings = planner.endings(state)
            self.others = {
                seat: value_table(endings, ending_value(planner, mover, seat, self.turns))
                for seat in range(self.players)
                if seat != mover
            }
        self._rolls: dict[int, Chances] = {}

    def chances(self, state: GameState) -> Chances:
        """Everyone's win chance at ``state``: a point of this turn (best play from here on)
        or the position the turn ended in."""
        if state.is_over or state.turn != self.turn:
            return self.after_turn(state)
        if state.is_chance():  # the mover rolls: the mean over what the dice can show
            return self._before_roll(self.solution.index(state.kept_counts()))
        return max(
            (self.after(state, action) for action in state.legal_actions()),
            key=lambda chances: chances[self.mover],
        )

    def after(self, state: GameState, action: Action) -> Chances:
        """Everyone's chance once the mover does ``action`` (and plays best afterwards)."""
        following = state.copy()
        following.apply(action)
        return self.chances(following)

    def choices(self, state: GameState) -> list[tuple[str, Chances]]:
        """Every legal decision of the mover with everyone's chance after it, best for the
        mover first."""
        afters = [(action.name, self.after(state, action)) for action in state.legal_actions()]
        return sorted(afters, key=lambda item: -item[1][self.mover])

    def after_turn(self, state: GameState) -> Chances:
        """Everyone's chance at ``state``, the position this turn ended in, as this turn
        valued its endings (exact once the game is over)."""
        value = self.planner.value_after
        return [value(state, seat, self.turns) for seat in range(state.num_players)]

    def _before_roll(self, index: int) -> Chances:
        """Everyone's chance before the mover rolls with the kept dice of state ``index``:
        the mover's from the solver, the others' from the end distribution of the mover's
        best play from there, valued by their tables."""
        known = self._rolls.get(index)
        if known is not None:
            return known
        mover_value = float(self.solution.roll_value[index])
        chances = [0.0] * self.players
        chances[self.mover] = mover_value
        if self.players == 2:  # two players: the model and its search are zero-sum
            chances[1 - self.mover] = 1.0 - mover_value
        else:
            outlook = self.solution.outlook(index, "roll")
            totals = np.asarray(outlook.end_totals)
            busted = outlook.bust_no_new_face + outlook.bust_no_worm
            for seat, table in self.others.items():
                chances[seat] = float(totals @ np.asarray(table.end)) + busted * table.bust
        self._rolls[index] = chances
        return chances


class Views:
    """One game's evaluator (:func:`evaluator_for`, chosen when first asked) and the view of
    the turn being played: made when the turn is first asked about and kept for the rest of
    it (the dice kept since do not change it)."""

    def __init__(self, planner: FairPlanner | None = None) -> None:
        self.planner = planner
        self._view: tuple[tuple[object, ...], TurnView] | None = None

    def of(self, state: GameState) -> TurnView:
        """The view of the turn ``state`` is in."""
        key = (state.turn, state.current, state.grill_mask, *map(tuple, state.stacks))
        if self._view is None or self._view[0] != key:
            self.planner = self.planner or evaluator_for(state)
            self._view = (key, TurnView(state, self.planner))
        return self._view[1]
