"""The solver applied to a real game state: every legal choice ranked, and the best one.

>>> from pickomino.core import GameState
>>> state = GameState.from_position([[], []], kept="WW44")   # 18 kept, 4 dice left
>>> _ = state.apply("roll"); _ = state.apply_roll("4455")
>>> [c.action.name for c in rank_choices(state)]
['keep 5']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pickomino.core import Action, GameState, Phase, parse_dice
from pickomino.core.actions import ROLL, STOP
from pickomino.core.dice import points
from pickomino.solver import Outlook, TurnSolution, solve
from pickomino.solver.values import TurnValues, claim_gain


@dataclass(frozen=True)
class Choice:
    """One legal choice with what it leads to under best play for the rest of the turn."""

    action: Action
    value: float  # the objective (expected worm gain by default)
    tile: float  # probability of winning a tile (a success)
    bust: float  # probability of a bust
    outlook: Outlook | None = None  # None for a claim: its outcome is certain


def _solution(state: GameState, values: TurnValues | TurnSolution | None) -> TurnSolution:
    """The solution for ``values`` (default: the worm gain of ``state``); a solution given
    as is saves the look-up when a caller keeps one for a whole turn."""
    if values is None:
        return solve(TurnValues.worm_gain(state))
    return solve(values) if isinstance(values, TurnValues) else values


def rank_choices(state: GameState, values: TurnValues | None = None) -> list[Choice]:
    """Every legal decision in ``state``, best first (by value, then by bust risk)."""
    solution = _solution(state, values)
    kept = state.kept_counts()
    choices: list[Choice] = []
    if state.phase is Phase.KEEP:
        for action in state.legal_actions():
            face = action.face
            after = list(kept)
            after[face] = state.roll[face]
            outlook = solution.outlook(solution.index(tuple(after)))
            choices.append(Choice(action, outlook.value, outlook.success, outlook.bust, outlook))
    elif state.phase is Phase.ROLL_OR_STOP:
        index = solution.index(kept)
        for action, first in ((ROLL, "roll"), (STOP, "stop")):
            outlook = solution.outlook(index, first)
            choices.append(Choice(action, outlook.value, outlook.success, outlook.bust, outlook))
    elif state.phase is Phase.CLAIM:
        choices = [Choice(a, claim_gain(a), 1.0, 0.0) for a in state.legal_actions()]
    # values equal up to float rounding are ties: the safer choice comes first
    return sorted(choices, key=lambda c: (-round(c.value, 9), c.bust))


def turn_outlook(state: GameState, values: TurnValues | None = None) -> Outlook:
    """Before a roll: how the turn will end under best play from here."""
    solution = _solution(state, values)
    return solution.outlook(solution.index(state.kept_counts()), "roll")


def best_action(state: GameState, values: TurnValues | TurnSolution | None = None) -> Action:
    """The solver's choice, without computing full distributions (fast, for bots)."""
    solution = _solution(state, values)
    if state.phase is Phase.KEEP:
        kept = state.kept_counts()

        def value_of(action: Action) -> float:
            after = list(kept)
            after[action.face] = state.roll[action.face]
            return float(solution.value[solution.index(tuple(after))])

        return max(state.legal_actions(), key=value_of)
    if state.phase is Phase.ROLL_OR_STOP:
        return ROLL if solution.rolls[solution.index(state.kept_counts())] else STOP
    if state.phase is Phase.CLAIM:
        return max(state.legal_actions(), key=claim_gain)
    raise ValueError(f"no decision to make: {state.phase.value}")


def advice_report(
    state: GameState, seat: int, kept: str = "", rolled: str | None = None
) -> dict[str, Any]:
    """What to do with real dice, as plain data (``pickomino advise --json``, the score
    keeper's dice helper): the phase reached (``bust``, ``roll`` or ``keep``/…), and either
    the turn's outlook before a roll or every choice ranked with its odds.

    ``state`` is ``seat``'s turn with ``kept`` kept and ``rolled`` just rolled (see
    :meth:`~pickomino.core.state.GameState.with_real_dice`); if the roll busted, the turn
    has passed on."""
    report: dict[str, object] = {
        "kept": kept.upper(),
        "total": points(parse_dice(kept)),
        "rolled": (rolled or "").upper(),
        "grill": list(state.grill),
    }
    if state.is_over or state.current != seat:
        report.update(phase="bust", reason="no_new_face", rule="R7", choices=[])
    elif state.is_chance():
        outlook = turn_outlook(state)
        report.update(
            phase="roll", tile=outlook.success, expected_worms=outlook.value,
            bust=outlook.bust, choices=[],
        )  # fmt: skip
    else:
        choices = rank_choices(state)
        report.update(
            phase=state.phase.value,
            best=choices[0].action.name,
            choices=[
                {"action": c.action.name, "tile": c.tile, "expected_worms": c.value, "bust": c.bust}
                for c in choices
            ],
        )
    return report
