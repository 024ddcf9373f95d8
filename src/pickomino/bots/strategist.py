"""The strategist: plays to win the game, not to win worms this turn.

1. A position is worth its win probability, estimated by a logistic model of the worm lead,
   the worms left on the grill, who moves next, whose top tile is exposed and who holds the
   higher tile (which decides a tie, R20); the model was fitted on positions of
   `expected`-vs-`expected` self-play (``scripts/fit_win_model.py`` regenerates the data and
   prints these coefficients).
2. Each way its turn can end (every claim, or the bust) is valued one turn deeper: the next
   player's turn is computed exactly, as the `expected` bot would play it, and every position
   it can end in is valued by the model. A finished game is valued exactly (R20).
3. Those values form the table the exact turn solver maximises, so every keep, roll or stop
   aims at the win probability after the opponent's reply. Claims are chosen the same way.
"""

from __future__ import annotations

import math

from pickomino.bots.base import register
from pickomino.core import Action, GameState, Phase, worms_on
from pickomino.solver import TurnSolution, TurnValues, solve
from pickomino.solver.advice import best_action
from pickomino.solver.endings import TurnEndings, turn_endings, value_table
from pickomino.solver.values import claim_gain

#: Logistic win model: x = LEAD·d/√(R+C) + LEAD_LATE·d/(R+C) + EXPOSED·(mine−theirs)/√(R+C)
#: ± MOVER + TIE_BREAK·t/√(R+C) + TIE_BREAK_LATE·t/(R+C), where d is my worms minus the best
#: opponent's, R the worms face up on the grill, mine/theirs the worms on my top tile and on
#: the best opponent top tile, t = +1 if my highest tile beats every opponent's, -1 if not.
C = 2.0
LEAD, LEAD_LATE, EXPOSED, MOVER = 0.7617, 0.4128, -0.2606, 0.1263
TIE_BREAK, TIE_BREAK_LATE = 0.3134, 0.1979
#: With this many face-up grill tiles or fewer, look one more turn ahead.
ENDGAME_TILES = 4


def win_probability(state: GameState, seat: int) -> float:
    """Estimated chance that ``seat`` wins from ``state`` (exact once the game is over)."""
    if state.is_over:
        winners = state.winners()
        return 1 / len(winners) if seat in winners else 0.0
    return _WinModel(state).chance(seat)


def win_probabilities(state: GameState) -> tuple[float, ...]:
    """:func:`win_probability` of every seat (the position read once for all)."""
    if state.is_over:
        return tuple(win_probability(state, seat) for seat in range(state.num_players))
    model = _WinModel(state)
    return tuple(model.chance(seat) for seat in range(state.num_players))


class _WinModel:
    """The parts of a position the win model reads, for any seat's chance."""

    __slots__ = ("current", "highest", "remaining", "root", "scores", "tops")

    def __init__(self, state: GameState) -> None:
        self.scores = state.scores()
        self.tops = [worms_on(stack[-1]) if stack else None for stack in state.stacks]
        self.highest = [max(stack, default=0) for stack in state.stacks]
        self.remaining = sum(worms_on(tile) for tile in state.grill) + C
        self.root = math.sqrt(self.remaining)
        self.current = state.current

    def chance(self, seat: int) -> float:
        scores, tops, highest = self.scores, self.tops, self.highest
        others = [s for s in range(len(scores)) if s != seat]
        lead = scores[seat] - max(scores[s] for s in others)
        mine = tops[seat] or 0
        theirs = max((top for s in others if (top := tops[s]) is not None), default=0)
        highest_other = max(highest[s] for s in others)
        tie_break = (highest[seat] > highest_other) - (highest[seat] < highest_other)
        x = (LEAD * lead + EXPOSED * (mine - theirs) + TIE_BREAK * tie_break) / self.root
        x += (LEAD_LATE * lead + TIE_BREAK_LATE * tie_break) / self.remaining
        x += MOVER if self.current == seat else -MOVER
        return 1 / (1 + math.exp(-x))


def _reply_claim(ending: tuple[Action | None, GameState]) -> float:
    """How the `expected` bot picks among claims: by worm swing."""
    action = ending[0]
    return claim_gain(action) if action is not None else -math.inf


class Planner:
    """Values positions for one seat by searching whole turns, and remembers what it valued:
    in the endgame the same positions recur from one turn to the next."""

    def __init__(self, limit: int = 1 << 18) -> None:
        self._memo: dict[tuple[object, ...], float] = {}
        self._limit = limit

    def value_after(self, state: GameState, seat: int, turns: int) -> float:
        """Win chance of ``seat`` after ``turns`` more turns from ``state``, valued by the
        model: ``seat`` plays its own turns to maximise it, the others play as `expected`
        does; every turn is exact over its dice."""
        if turns == 0 or state.is_over:
            return self.leaf_value(state, seat)
        key = (state.rules, state.grill_mask, *map(tuple, state.stacks), state.current, seat, turns)
        value = self._memo.get(key)
        if value is None:
            if len(self._memo) >= self._limit:
                self._memo.clear()
            value = self._memo[key] = self._search(state, seat, turns)
        return value

    def leaf_value(self, state: GameState, seat: int) -> float:
        """Where the search stops: the win model (exact for a finished game)."""
        return win_probability(state, seat)

    def lookahead(self, state: GameState) -> int:
        """Turns to look past the current one: the next player's reply, and in the endgame
        (few tiles left, so few distinct endings) one more turn of one's own."""
        return 2 if len(state.grill) <= ENDGAME_TILES else 1

    def endings(self, state: GameState) -> TurnEndings:
        """How the turn of ``state.current`` can end (a subclass may remember them)."""
        return turn_endings(state)

    def _search(self, state: GameState, seat: int, turns: int) -> float:
        if state.current == seat:
            return solve(self.turn_values(state, turns - 1)).start_value
        return self._expected_play(state, seat, turns - 1)

    def _expected_play(self, state: GameState, seat: int, turns: int) -> float:
        """Win chance of ``seat`` when the player to move plays this turn as `expected` does
        (the worm-gain policy, claims by worm swing), each ending valued ``turns`` ahead."""
        scored = value_table(
            self.endings(state),
            lambda ends: self.value_after(max(ends, key=_reply_claim)[1], seat, turns),
        )
        return solve(TurnValues.worm_gain(state)).evaluate(scored)

    def give_away(self, state: GameState, turns: int) -> float:
        """Win chance the player to move loses by playing this turn as `expected` does
        instead of as this search would (at a turn start): what a win-aware player can gain
        on `expected` here, as far as this search can see (``scripts/expected_give_away.py``)."""
        if state.is_over or not state.is_chance() or any(state.kept):
            raise ValueError("give_away values a whole turn: call it at the start of one")
        best = solve(self.turn_values(state, turns)).start_value
        return best - self._expected_play(state, state.current, turns)

    def turn_values(self, state: GameState, turns: int) -> TurnValues:
        """The table for the turn of ``state.current``: each ending valued ``turns`` more
        turns ahead."""
        seat = state.current
        return value_table(
            self.endings(state), lambda ends: max(self.value_after(s, seat, turns) for _, s in ends)
        )


def value_after(state: GameState, seat: int, turns: int) -> float:
    """:meth:`Planner.value_after` with a fresh memory."""
    return Planner().value_after(state, seat, turns)


@register("strategist")
class StrategistBot:
    """Maximises its win probability one reply deep (see the module docstring)."""

    name = "strategist"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic without one
        self._planner = Planner()
        self._turn: tuple[tuple[int, int], TurnSolution] | None = None

    def planner(self, state: GameState) -> Planner:
        """The search it plays by in the game of ``state`` (a subclass may choose another)."""
        del state  # the strategist's own, at every table
        return self._planner

    def choose(self, state: GameState) -> Action:
        planner = self.planner(state)
        seat, turns = state.current, planner.lookahead(state)
        if state.phase is Phase.CLAIM:
            endings = dict(state.endings(state.total))
            value = planner.value_after
            return max(state.legal_actions(), key=lambda a: value(endings[a], seat, turns))
        key = (state.turn, seat)  # the table, so its solution, is fixed for the whole turn
        if self._turn is None or self._turn[0] != key:
            self._turn = (key, solve(planner.turn_values(state, turns)))
        return best_action(state, self._turn[1])
