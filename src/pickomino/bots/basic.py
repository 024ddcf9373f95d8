"""The baseline bots: uniform random, and the classic rule-of-thumb heuristic."""

from __future__ import annotations

import random

from pickomino.bots.base import register
from pickomino.core import Action, GameState, Phase, worms_on
from pickomino.core.actions import ROLL, STOP
from pickomino.core.rules import FACE_POINTS, WORM


@register("random")
class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(state.legal_actions())


@register("simple")
class SimpleBot:
    """The heuristic of public analyses of the game: keep worms once two faces are kept,
    otherwise the face with the best count x points (a tie goes to the higher face, a worm
    being the highest, as in the classic heuristic and the reference C++ SimpleBot); stop
    as soon as a tile can be claimed; claim the tile worth the most worms to us (a steal
    also costs the victim)."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic without one

    def choose(self, state: GameState) -> Action:
        if state.phase is Phase.KEEP:
            return max(state.legal_actions(), key=lambda action: self._keep_score(state, action))
        if state.phase is Phase.ROLL_OR_STOP:
            can_claim = state.has_worm() and state.claimable(state.total)
            return STOP if can_claim else ROLL
        return max(
            state.legal_actions(),
            key=lambda a: worms_on(a.tile) * (2 if a.kind == "steal" else 1),
        )

    @staticmethod
    def _keep_score(state: GameState, action: Action) -> tuple[int, int, int]:
        face = action.face
        worms_now = face == WORM and not state.has_worm() and sum(map(bool, state.kept)) >= 2
        return (worms_now, state.roll[face] * FACE_POINTS[face], face)


@register("expected")
class ExpectedBot:
    """Maximises the expected worm gain of the turn with the exact solver, valued on the real
    situation: tiles on the grill, stealable tops (a steal swings twice its worms), and the
    own top tile a bust would lose."""

    name = "expected"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic without one
        self._turn: tuple[int, int] | None = None

    def choose(self, state: GameState) -> Action:
        from pickomino.solver import TurnValues, solve
        from pickomino.solver.advice import best_action

        if self._turn != (state.turn, state.current):  # the table is fixed for a whole turn
            self._turn = (state.turn, state.current)
            self._solution = solve(TurnValues.worm_gain(state))
        return best_action(state, self._solution)
