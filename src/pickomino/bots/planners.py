"""The searches behind the review, the Hint, the coach and the `valued` bot (one evaluator).

:class:`FairPlanner` is the strategist's search (:mod:`pickomino.bots.strategist`) with every
player playing their own best; :class:`LearnedPlanner` is the exact turn solver over the
win-value network's values of the turn's endings (:mod:`pickomino.evaluation`), looking
further towards the end of the game. :func:`evaluator_for` picks one for a game: the
network's where one was trained for its table size and rules.
"""

from __future__ import annotations

from collections.abc import Callable

from pickomino.bots.strategist import Planner, win_probabilities, win_probability
from pickomino.core import GameState
from pickomino.evaluation import WinNetwork, network_for, win_chances
from pickomino.solver import solve
from pickomino.solver.endings import Endings, TurnEndings, turn_endings, value_table

#: The last tiles: with this many face up or fewer the learned evaluator looks further than its
#: own turn at every table size (there the network's values drift most: ``docs/evaluator.md``).
LEARNED_ENDGAME_TILES = 3
#: How many turns past its own the learned evaluator looks, by the tiles face up (at most that
#: many: turns; none with more). With two players three at the last three tiles (the other's
#: reply, one's own next turn, the other's again), two with four or five: the review's drift
#: about a quarter less, its error against exact endgames less than half, the Hint's first
#: answer still under 100 ms. With more players each turn further costs several times as
#: much, so one, at the last tiles only.
LOOKAHEAD_TWO_PLAYERS = ((LEARNED_ENDGAME_TILES, 3), (5, 2))
LOOKAHEAD_MORE_PLAYERS = ((LEARNED_ENDGAME_TILES, 1),)
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
    """Every seat's value from the win-value network: a turn is the exact solver over the
    network's values of its endings, valued all at once (one batch) the first time the turn
    is asked about. Towards the end of the game it values each ending after the next player's
    best reply, and with two players after more turns (:data:`LOOKAHEAD_TWO_PLAYERS`,
    :data:`LOOKAHEAD_MORE_PLAYERS`)."""

    def __init__(self, network: WinNetwork, limit: int = 1 << 18) -> None:
        super().__init__(limit)
        self.network = network

    def values_at(self, state: GameState) -> tuple[float, ...]:
        return tuple(map(float, win_chances([state], self.network)[0]))

    def lookahead(self, state: GameState) -> int:
        looks = LOOKAHEAD_TWO_PLAYERS if state.num_players == 2 else LOOKAHEAD_MORE_PLAYERS
        return next((turns for tiles, turns in looks if len(state.grill) <= tiles), 0)

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
