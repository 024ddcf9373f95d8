"""Win chances at every point of a game, under the strongest evaluator we have.

:func:`evaluator_for` picks it for a game: with a table size and rules the win-value network
was trained for (:mod:`pickomino.evaluation`), :class:`LearnedPlanner` (the exact turn solver
over the network's values of the turn's endings, as the ``valued`` bot plays); elsewhere
:class:`FairPlanner`, the strategist's search (:mod:`pickomino.bots.strategist`) with every
player playing their own best. :class:`TurnView` values every point of one turn from either:
the mover's chance from the exact turn solver's table, the others' from how the mover's best
play ends, and a decision by the chances of the point it leads to.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pickomino.bots.strategist import (
    ENDGAME_TILES,
    Planner,
    win_probabilities,
    win_probability,
)
from pickomino.core import Action, GameState
from pickomino.evaluation import WinNetwork, network_for, win_chances
from pickomino.solver import TurnValues, solve
from pickomino.solver.endings import Endings, TurnEndings, turn_endings, value_table
from pickomino.solver.solve import TurnSolution

Chances = list[float]
#: How many turns' endings the search keeps (each holds a few dozen positions; a 5-player
#: game's review visits about 1,200).
ENDINGS_KEPT = 4096


class FairPlanner(Planner):
    """The strategist's search, with every player playing their own best: where the
    strategist assumes the others play as `expected` does, a review values every player
    alike. It remembers, by position, every seat's leaf value and how a turn can end: the
    search asks for the same positions seat after seat, and turn after turn."""

    def __init__(self, limit: int = 1 << 18) -> None:
        super().__init__(limit)
        self._leaves: dict[tuple[object, ...], tuple[float, ...]] = {}
        self._endings: dict[tuple[object, ...], TurnEndings] = {}

    def leaf_value(self, state: GameState, seat: int) -> float:
        key = _position(state)
        values = self._leaves.get(key)
        if values is None:
            if len(self._leaves) >= self._limit:
                self._leaves.clear()
            values = self._leaves[key] = self.values_at(state)
        return values[seat]

    def values_at(self, state: GameState) -> tuple[float, ...]:
        """Every seat's value of ``state`` where the search stops."""
        return leaf_values(state)

    def lookahead(self, state: GameState) -> int:
        """Turns the evaluator looks past the current one, as the strategist does."""
        return 2 if len(state.grill) <= ENDGAME_TILES else 1

    def endings(self, state: GameState) -> TurnEndings:
        key = (state.rules, *_position(state))
        endings = self._endings.get(key)
        if endings is None:
            if len(self._endings) >= ENDINGS_KEPT:
                self._endings.clear()
            endings = self._endings[key] = turn_endings(state)
        return endings

    def _expected_play(self, state: GameState, seat: int, turns: int) -> float:
        mover = state.current
        mine = solve(self.turn_values(state, turns))  # the mover maximises its own chance
        if state.num_players == 2:  # zero-sum: what the mover wins, the other loses
            return 1.0 - mine.start_value
        return mine.evaluate(
            value_table(self.endings(state), ending_value(self, mover, seat, turns))
        )


def ending_value(planner: Planner, mover: int, seat: int, turns: int) -> Callable[[Endings], float]:
    """How ``seat`` values a way ``mover``'s turn can end (a bust, or the claims it allows),
    ``turns`` ahead: ``mover`` takes the claim best for itself."""
    value = planner.value_after

    def valued(ends: Endings) -> float:
        chosen = ends[0] if len(ends) == 1 else max(ends, key=lambda e: value(e[1], mover, turns))
        return value(chosen[1], seat, turns)

    return valued


def _position(state: GameState) -> tuple[object, ...]:
    """What a position's values depend on between turns: the grill, the stacks, who moves."""
    return (state.grill_mask, *map(tuple, state.stacks), state.current)


def leaf_values(state: GameState) -> tuple[float, ...]:
    """Every seat's :func:`~pickomino.bots.strategist.win_probability` (the strategist's win
    model, exact for a finished game), as shares that sum to 1: the model, fitted on
    two-player games, gives every player of a larger table a chance on its own. Shared out
    here, where the search stops, every value above is a mean of leaves under one policy,
    so the chances sum to 1 everywhere and the chance before a roll is exactly the mean of
    the chances after it (luck averages 0)."""
    if state.num_players == 2 and not state.is_over:  # the model is zero-sum for two
        first = win_probability(state, 0)
        return (first, 1.0 - first)
    chances = win_probabilities(state)
    total = sum(chances)
    return tuple(chance / total for chance in chances)


class LearnedPlanner(FairPlanner):
    """Every seat's value from the win-value network, looking no turn past the current one:
    a turn is the exact solver over the network's values of its endings, valued all at once
    (one batch) the first time the turn is asked about."""

    def __init__(self, network: WinNetwork, limit: int = 1 << 18) -> None:
        super().__init__(limit)
        self.network = network

    def values_at(self, state: GameState) -> tuple[float, ...]:
        return tuple(map(float, win_chances([state], self.network)[0]))

    def lookahead(self, state: GameState) -> int:
        return 0

    def endings(self, state: GameState) -> TurnEndings:
        endings = super().endings(state)
        fresh: dict[tuple[object, ...], GameState] = {}
        for ends in (endings.bust, *endings.groups):
            for _, ending in ends:
                key = _position(ending)
                if key not in self._leaves:
                    fresh[key] = ending
        if fresh:
            if len(self._leaves) + len(fresh) > self._limit:
                self._leaves.clear()
            chances = win_chances(list(fresh.values()), self.network)
            for key, row in zip(fresh, chances, strict=True):
                self._leaves[key] = tuple(map(float, row))
        return endings


def evaluator_for(state: GameState) -> FairPlanner:
    """The evaluator for the game of ``state``: the network's where one was trained for its
    table size and rules, else the strategist's search."""
    network = network_for(state)
    return FairPlanner() if network is None else LearnedPlanner(network)


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
