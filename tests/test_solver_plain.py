"""The pure-Python turn solver (the offline app's, in a browser without NumPy) gives the
NumPy solver's answers: every state's value and choice on many tables, the outlooks, and,
in an interpreter where NumPy cannot be imported, the same advice and the same bot games.

The NumPy solver itself is checked against routes that share nothing with it in
``tests/test_solver.py``; equality with it carries those checks over."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from pickomino.core import GameState, sample_roll
from pickomino.solver.plain import PlainSolution
from pickomino.solver.solve import TurnSolution
from pickomino.solver.values import TurnValues

SAME = 1e-12  # one distribution summed in another order


def tables() -> list[TurnValues]:
    """Every kind of table the faces solve: targets, stakes, and the worm gain of positions
    from real games."""
    found = [TurnValues.at_least(t) for t in (21, 27, 33, 36, 40)]
    found += [TurnValues.exactly(t) for t in (21, 30)] + [TurnValues.stake(s) for s in (0, 2.5)]
    rng = random.Random(7)
    state = GameState(3)
    while not state.is_over and len(found) < 16:
        if state.is_chance():
            state.apply_roll(sample_roll(state.dice_left, rng))
        else:
            if state.phase.value == "roll_or_stop":
                found.append(TurnValues.worm_gain(state))
            state.apply(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("values", tables()[::2], ids=lambda v: f"bust{v.bust:g}")
def test_every_state_has_the_numpy_solvers_value_and_choice(values):
    plain, numpy = PlainSolution(values), TurnSolution(values)
    """To the last bit: the pure-Python sums add in NumPy's order, so ties break alike."""
    assert plain.value == numpy.value.tolist()
    assert plain.roll_value == numpy.roll_value.tolist()
    assert plain.rolls == numpy.rolls.tolist()


@pytest.mark.parametrize("values", tables()[::3], ids=lambda v: f"bust{v.bust:g}")
def test_outlooks_are_the_numpy_solvers(values):
    """The same policy walked forward (summed in another order: equal to rounding)."""
    plain, numpy = PlainSolution(values), TurnSolution(values)
    states = random.Random(3).sample(range(len(plain.graph.keys)), 60) + [plain.graph.start]
    for state in states:
        for first in ("best", "roll", "stop"):
            ours, theirs = plain.outlook(state, first), numpy.outlook(state, first)
            assert ours.end_totals == pytest.approx(theirs.end_totals, abs=SAME)
            for field in ("value", "bust_no_new_face", "bust_no_worm", "success"):
                assert getattr(ours, field) == pytest.approx(getattr(theirs, field), abs=SAME)


@pytest.mark.parametrize("values", tables()[::4], ids=lambda v: f"bust{v.bust:g}")
def test_a_policy_valued_under_other_tables_as_the_numpy_solver_values_it(values):
    plain, numpy = PlainSolution(values), TurnSolution(values)
    for other in tables():
        assert plain.evaluate(other) == pytest.approx(numpy.evaluate(other), abs=SAME)


WITHOUT_NUMPY = 'import sys; sys.modules["numpy"] = None  # `import numpy` now fails\n'
ADVICE_AND_GAMES = """
import json
import random
from pickomino.bots import make_bot
from pickomino.core import GameState, Rules, sample_roll
from pickomino.sim.tournament import play_game
from pickomino.solver import TurnSolution
from pickomino.solver.advice import advice_report

state = GameState(3)
advice = [
    advice_report(state.with_real_dice(kept, rolled), 0, kept, rolled)
    for kept, rolled in [("", "11233455"), ("WW4", "1145W"), ("55W", "44441")]
]
games = [play_game(("hard", "medium", "easy"), Rules(), 5, game) for game in range(3)]
# the strategist's choices (its search is slow without NumPy: every 4th decision of a game)
rng, state = random.Random(6), GameState(2)
hard, strategist = make_bot("hard"), make_bot("strategist")
chosen, decisions = [], 0
while not state.is_over and len(chosen) < 10:
    if state.is_chance():
        state.apply_roll(sample_roll(state.dice_left, rng))
        continue
    decisions += 1
    if decisions % 4 == 0:
        chosen.append(strategist.choose(state).name)
    state.apply(hard.choose(state))
print(json.dumps({
    "solver": TurnSolution.__name__,
    "advice": advice,
    "worms": [outcome.worms for outcome in games],
    "strategist": chosen,
}))
"""


def run_both(*preludes: str) -> list[dict]:
    """The script after each prelude, each in an interpreter of its own, side by side."""
    started = [
        subprocess.Popen(
            [sys.executable, "-c", prelude + ADVICE_AND_GAMES],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prelude in preludes
    ]
    answers = []
    for process in started:
        output, errors = process.communicate(timeout=600)
        assert process.returncode == 0, errors
        answers.append(json.loads(output))
    return answers


def test_without_numpy_the_advice_and_the_bots_games_are_the_same():
    """What the offline app computes in the browser, natively: the package falls back to the
    pure-Python solver by itself, and advises and plays exactly as with NumPy."""
    plain, numpy = run_both(WITHOUT_NUMPY, "")
    assert (plain["solver"], numpy["solver"]) == ("PlainSolution", "TurnSolution")
    assert plain["worms"] == numpy["worms"]
    assert plain["strategist"] == numpy["strategist"] and len(plain["strategist"]) == 10
    assert json.dumps(plain["advice"]) != "[]"
    for ours, theirs in zip(plain["advice"], numpy["advice"], strict=True):
        assert ours.keys() == theirs.keys()
        for key in ours:
            if key == "choices":
                for a, b in zip(ours[key], theirs[key], strict=True):
                    assert a["action"] == b["action"]
                    assert [a[k] for k in sorted(a) if k != "action"] == pytest.approx(
                        [b[k] for k in sorted(b) if k != "action"], abs=SAME
                    )
            elif isinstance(ours[key], float):
                assert ours[key] == pytest.approx(theirs[key], abs=SAME)
            else:
                assert ours[key] == theirs[key]
