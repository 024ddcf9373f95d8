"""The turn solver checked against routes that do not use it.

1. Small cases worked out by hand (exact fractions, derived in the comments).
2. An expectimax written here over the engine alone (``GameState.copy``, ``chance_outcomes``,
   ``legal_actions``, ``apply``, ``apply_roll``), with the turn's end read from the events.
3. The engine driven by the solver's own policy (``best_action``): the exact distribution of
   how the turn ends, walked through the engine, and a seeded Monte-Carlo of whole turns,
   both against ``Outlook``.
4. Properties every solution must have.

Nothing here compares the solver with numbers copied from its own output.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from pickomino.core import (
    Action,
    Bust,
    Event,
    GameState,
    Phase,
    Rules,
    TileReturned,
    TileStolen,
    TileTaken,
    format_dice,
    parse_dice,
    sample_roll,
    worms_on,
)
from pickomino.core.position import parse_tiles
from pickomino.solver import Outlook, TurnValues, solve
from pickomino.solver.advice import best_action, rank_choices
from pickomino.solver.solve import TIE
from pickomino.solver.turns import MAX_TOTAL

EXACT = 1e-12  # hand-derived fractions against the solver's floats
CLOSE = 1e-9  # two float computations of the same expectation
NO_NEW_FACE, NO_WORM = "no_new_face", "no_worm"  # the two busts an Outlook counts apart
ROLL, STOP = Action.parse("roll"), Action.parse("stop")

Outcome = int | str  # how a turn ended: the total when it stopped with a worm, else a bust reason


# ------------------------------------------------------------- reading the engine
def turn_end(events: Iterable[Event]) -> Outcome:
    """How the turn that these events finish ended, from the events alone.

    A tile won or a "too low" bust both mean the player stopped with a worm at that total
    (the Outlook's ``end_totals``); the other two busts are reported by their reason.
    """
    for event in events:
        if isinstance(event, TileTaken | TileStolen):
            return event.total
        if isinstance(event, Bust):
            return event.total if event.reason == "too_low" else event.reason
    raise AssertionError(f"these events do not end a turn: {events}")


def table_terminal(table: TurnValues) -> Callable[[list[Event]], float]:
    """Value of a finished turn under ``table``: ``end[total]`` when it stopped with a worm,
    the bust value when a roll showed no new face or no worm was kept."""

    def value(events: list[Event]) -> float:
        end = turn_end(events)
        return table.bust if isinstance(end, str) else table.end[end]

    return value


def worm_swing(events: list[Event]) -> float:
    """The worms a turn moved, read from the tile events only: a tile from the grill gains its
    worms, a steal gains them and costs the victim as much, a returned tile loses them."""
    swing = 0
    for event in events:
        if isinstance(event, TileTaken):
            swing += worms_on(event.tile)
        elif isinstance(event, TileStolen):
            swing += 2 * worms_on(event.tile)
        elif isinstance(event, TileReturned):
            swing -= worms_on(event.tile)
    return float(swing)


def engine_step(node: GameState, move: Action | tuple[int, ...]) -> tuple[GameState | None, list]:
    """The engine's move from ``node`` (a roll's dice or a decision) on a copy: the next point
    of the turn, or ``None`` once the step ends it (another player is to move, or the game is
    over), and the step's events."""
    child = node.copy()
    events = child.apply_roll(move) if isinstance(move, tuple) else child.apply(move)
    return (None if child.current != node.current or child.is_over else child), events


def node_key(node: GameState) -> tuple:
    """A point of a turn: within one turn nothing but the phase, the dice kept and the roll
    changes."""
    return (node.phase, node.kept_counts(), node.roll)


def fold_turn(state, at_end, mix, decide, first: Action | None = None):
    """Walk the rest of the current player's turn through the engine only.

    A node is memoised on :func:`node_key`. A chance node mixes its children with the
    engine's exact roll probabilities (``mix([(p, result), ...])``); a decision node combines
    its children with ``decide(node, result_of)``; a step after which another player is to
    move (or the game is over) ends the turn and yields ``at_end(events)``. ``first`` forces
    the first action. Returns the result at ``state`` and the memo of every non-final node
    visited.
    """
    memo = {}

    def result(node):
        key = node_key(node)
        if key not in memo:
            if node.is_chance():
                memo[key] = mix(
                    [(float(p), follow(node, dice)) for dice, p in node.chance_outcomes()]
                )
            else:
                memo[key] = decide(node, lambda action: follow(node, action))
        return memo[key]

    def follow(node, move):
        child, events = engine_step(node, move)
        return at_end(events) if child is None else result(child)

    return (follow(state, first) if first else result(state)), memo


class EngineTurn:
    """The whole rest of the current player's turn, walked once through the engine only
    (:func:`engine_step` on every roll the engine offers and every legal action) and kept as
    a graph: its nodes (:func:`node_key`) numbered after all their successors, and per node
    whether it is a chance node and its moves, each with its exact probability (a roll's)
    and where it leads: a node, or ``~end``, the end of the turn (``ends``, each distinct
    list of final events once). An expectimax under one table after another is then
    arithmetic over flat lists, not a new walk of the engine."""

    def __init__(self, state: GameState) -> None:
        self.number: dict[tuple, int] = {}  # node key -> its number
        self.chance: list[bool] = []
        self.first: list[int] = [0]  # node n's moves are first[n]:first[n + 1]
        self.probability: list[float] = []
        self.target: list[int] = []
        self.ends: list[list[Event]] = []
        self._end_number: dict[str, int] = {}
        self.start = self._visit(state)

    def _visit(self, node: GameState) -> int:
        key = node_key(node)
        number = self.number.get(key)
        if number is None:
            chance = node.is_chance()
            moves = (
                [(float(p), dice) for dice, p in node.chance_outcomes()]
                if chance
                else [(1.0, action) for action in node.legal_actions()]
            )
            targets = []
            for _, move in moves:
                child, events = engine_step(node, move)
                targets.append(~self._end(events) if child is None else self._visit(child))
            number = self.number[key] = len(self.chance)
            self.chance.append(chance)
            self.probability += [p for p, _ in moves]
            self.target += targets
            self.first.append(len(self.target))
        return number

    def _end(self, events: list[Event]) -> int:
        number = self._end_number.setdefault(repr(events), len(self.ends))
        if number == len(self.ends):
            self.ends.append(events)
        return number

    def values(self, terminal: Callable[[list[Event]], float]) -> tuple[float, dict]:
        """The expectimax under ``terminal`` (a finished turn's value, from its events): the
        value at the start, and at every node by its key."""
        at_end = [terminal(events) for events in self.ends]
        values: list[float] = []
        first, target, probability = self.first, self.target, self.probability
        for number, chance in enumerate(self.chance):  # successors come first
            moves = range(first[number], first[number + 1])
            found = [values[t] if t >= 0 else at_end[~t] for t in map(target.__getitem__, moves)]
            if chance:
                values.append(sum(probability[m] * v for m, v in zip(moves, found, strict=True)))
            else:
                values.append(max(found))
        return values[self.start], {key: values[n] for key, n in self.number.items()}


#: The last turn walked in this test process, by position: the odds value the fresh turn
#: under dozens of tables (tests/test_odds_cli.py). One only: the fresh turn's walk alone
#: holds 66,000 nodes and 190,000 moves.
_LAST_WALK: dict[str, EngineTurn] = {}


def engine_turn(state: GameState) -> EngineTurn:
    key = json.dumps(state.to_dict())
    if key not in _LAST_WALK:
        _LAST_WALK.clear()
        _LAST_WALK[key] = EngineTurn(state)
    return _LAST_WALK[key]


def engine_values(state: GameState, terminal: Callable[[list[Event]], float]):
    """Expectimax: the best expected ``terminal`` value at ``state``, and at every node of
    the turn (:meth:`EngineTurn.values`)."""
    return engine_turn(state).values(terminal)


def _mix_distributions(pairs: list[tuple[float, Counter]]) -> Counter:
    mixed: Counter = Counter()
    for p, distribution in pairs:
        for outcome, q in distribution.items():
            mixed[outcome] += p * q
    return mixed


def policy_distribution(state: GameState, table: TurnValues, first: Action | None = None):
    """Exact distribution of ``turn_end`` when the engine follows ``best_action``."""
    distribution, _ = fold_turn(
        state,
        lambda events: Counter({turn_end(events): 1.0}),
        mix=_mix_distributions,
        decide=lambda node, result_of: result_of(best_action(node, table)),
        first=first,
    )
    return distribution


def outlook_distribution(outlook: Outlook) -> dict[Outcome, float]:
    """An Outlook as a distribution over the same outcomes as ``turn_end``."""
    distribution: dict[Outcome, float] = {
        total: p for total, p in enumerate(outlook.end_totals) if p
    }
    distribution[NO_NEW_FACE] = outlook.bust_no_new_face
    distribution[NO_WORM] = outlook.bust_no_worm
    return distribution


def play_turn(state: GameState, table: TurnValues, rng: random.Random) -> list[Event]:
    """Play the current player's turn in ``state`` with the solver's policy and random dice;
    return the events of the step that ended it."""
    seat = state.current
    while True:
        if state.is_chance():
            events = state.apply_roll(sample_roll(state.dice_left, rng))
        else:
            events = state.apply(best_action(state, table))
        if state.current != seat or state.is_over:
            return events


def index_of(solution, kept: str) -> int:
    return solution.index(parse_dice(kept))


def position(case, rules: Rules | None = None) -> GameState:
    return GameState.from_position(case.stacks, case.down, rules=rules, kept=case.kept)


# ------------------------------------------------------------ 1. by hand
def test_one_die_at_least_36():
    # Kept WWW5555 = 15 + 20 = 35, one die left, faces 5 and W kept. Target >= 36.
    # Stopping at 35 misses: stop value 0. Rolling: faces 1, 2, 3, 4 are new and give
    # 36, 37, 38, 39 (each a success, and the last die ends the turn); 5 or W shows no new
    # face: bust (R7). Roll value 4/6, bust 2/6 (all of it "no new face"), no worm-less end.
    solution = solve(TurnValues.at_least(36))
    i = index_of(solution, "WWW5555")
    assert solution.stop_value[i] == 0
    assert solution.roll_value[i] == pytest.approx(float(Fraction(4, 6)), abs=EXACT)
    assert solution.value[i] == pytest.approx(float(Fraction(4, 6)), abs=EXACT)
    assert solution.rolls[i]
    rolled = solution.outlook(i, "roll")
    assert rolled.success == pytest.approx(float(Fraction(4, 6)), abs=EXACT)
    assert rolled.bust == pytest.approx(float(Fraction(2, 6)), abs=EXACT)
    assert rolled.bust_no_new_face == pytest.approx(float(Fraction(2, 6)), abs=EXACT)
    assert rolled.bust_no_worm == 0
    for total in range(MAX_TOTAL + 1):
        expected = Fraction(1, 6) if total in (36, 37, 38, 39) else 0
        assert rolled.end_totals[total] == pytest.approx(float(expected), abs=EXACT), total
    # Stopping ends the turn with a worm at 35: an end total, but not a success.
    stopped = solution.outlook(i, "stop")
    assert stopped.value == 0 and stopped.success == 0 and stopped.bust == 1
    assert stopped.end_totals[35] == pytest.approx(1.0, abs=EXACT)


def test_one_die_exactly_37():
    # Same dice, target exactly 37: only face 2 hits (35 + 2). Rolling is still the only
    # chance: value 1/6; the turn ends the same way as above (1, 2, 3, 4 each 1/6).
    solution = solve(TurnValues.exactly(37))
    rolled = solution.outlook(index_of(solution, "WWW5555"), "roll")
    assert rolled.value == pytest.approx(float(Fraction(1, 6)), abs=EXACT)
    assert rolled.success == pytest.approx(float(Fraction(1, 6)), abs=EXACT)
    assert rolled.bust_no_new_face == pytest.approx(float(Fraction(2, 6)), abs=EXACT)


def test_two_dice_at_least_30():
    # Kept WWWW44 = 20 + 8 = 28, two dice left, faces 4 and W kept. Target >= 30; stop = 0.
    # Of the 36 ordered rolls:
    # - both dice in {4, W} (2*2 = 4): no new face, bust.
    # - one die in {4, W}, the other a new face f in {1,2,3,5} (2 * 2*4 = 16): f must be kept.
    #   f = 2, 3, 5 (12 rolls) gives 30, 31, 33: success. f = 1 (4 rolls) gives 29 with one
    #   die left and faces {1, 4, W} kept: stopping is worth 0, rolling succeeds on 2, 3, 5
    #   (31, 32, 34) and busts on 1, 4, W: 1/2. So 4 * 1/2 = 2 rolls' worth succeed.
    # - both dice new faces (4*4 = 16): keeping the higher face (or the pair) gives at least
    #   28 + 2 = 30 (the lowest case, 1+1 kept together, also makes 30): all succeed.
    # Value (16 + 12 + 2) / 36 = 5/6; bust with no new face 4/36 + 2/36 = 1/6.
    solution = solve(TurnValues.at_least(30))
    i = index_of(solution, "WWWW44")
    assert solution.value[i] == pytest.approx(float(Fraction(5, 6)), abs=EXACT)
    assert solution.roll_value[i] == pytest.approx(float(Fraction(5, 6)), abs=EXACT)
    rolled = solution.outlook(i, "roll")
    assert rolled.success == pytest.approx(float(Fraction(5, 6)), abs=EXACT)
    assert rolled.bust_no_new_face == pytest.approx(float(Fraction(1, 6)), abs=EXACT)
    assert rolled.bust_no_worm == 0
    assert sum(rolled.end_totals[:30]) == pytest.approx(0.0, abs=EXACT)  # never stops short


@dataclass(frozen=True)
class WormCase:
    """A real situation with one die left, worked out by hand (see WORM_CASES)."""

    name: str
    stacks: tuple[tuple[int, ...], ...]  # mine first, bottom to top
    down: tuple[int, ...]
    kept: str
    end: dict[int, Fraction]  # hand-derived worm_gain table entries
    bust: Fraction
    stop: Fraction
    roll: Fraction
    roll_success: Fraction

    @property
    def best(self) -> Action:
        return ROLL if self.roll > self.stop else STOP

    def description(self) -> dict:
        """The situation in the words of `pickomino advise` (--me, --opponent, --down, --kept)."""
        me, *opponents = (" ".join(map(str, stack)) for stack in self.stacks)
        return {
            "me": me,
            "opponents": opponents,
            "down": " ".join(map(str, self.down)),
            "kept": self.kept,
        }

    def cli_args(self) -> list[str]:
        """The same situation for ``pickomino advise``."""
        words = self.description()
        args = ["--me", words["me"], "--down", words["down"], "--kept", self.kept]
        for opponent in words["opponents"]:
            args += ["--opponent", opponent]
        return args


WORM_CASES = [
    # Me [33, 22] (top 22: 1 worm at risk), opponent [34, 36] (top 36: 4 worms), 35 face down;
    # grill 21, 23..32. Kept 7 worms = 35, one die left, only W kept.
    # Stop at 35: 35 is face down, the nearest lower grill tile is 32: +3.
    # Roll: 1 -> 36, the opponent's top: steal it (+4 for me, -4 for them: 8) rather than
    # take 32 (+3); 2..5 -> 37..40: no tile 37+, nearest lower grill tile 32: +3;
    # W -> no new face: bust, 22 goes back: -1.
    # Roll = (8 + 4*3 - 1) / 6 = 19/6 > 3: roll. Success 5/6.
    WormCase(
        "steal worth a roll",
        ((33, 22), (34, 36)),
        (35,),
        "WWWWWWW",
        end={35: Fraction(3), 36: Fraction(8), 37: Fraction(3), 40: Fraction(3)},
        bust=Fraction(-1),
        stop=Fraction(3),
        roll=Fraction(19, 6),
        roll_success=Fraction(5, 6),
    ),
    # Me [22, 30] (top 30: 3 worms at risk), opponent [26, 34] (top 34), 31 and 36 face down;
    # grill 21, 23, 24, 25, 27, 28, 29, 32, 33, 35. Kept WWW555 1 = 31, one die, {1, 5, W} kept.
    # Stop at 31: 31 face down, nearest lower grill tile 29: +3.
    # Roll: 2 -> 33: take 33, +4; 3 -> 34: steal 34 (8) rather than take 33 (4);
    # 4 -> 35: take 35, +4; 1, 5, W -> no new face: bust, 30 goes back: -3.
    # Roll = (4 + 8 + 4 - 3*3) / 6 = 7/6 < 3: stop. Rolling succeeds with 3/6.
    WormCase(
        "steal not worth the risk",
        ((22, 30), (26, 34)),
        (31, 36),
        "WWW5551",
        end={31: Fraction(3), 33: Fraction(4), 34: Fraction(8), 35: Fraction(4)},
        bust=Fraction(-3),
        stop=Fraction(3),
        roll=Fraction(7, 6),
        roll_success=Fraction(3, 6),
    ),
]


# Me [29, 31, 24, 35] (top 35: 4 worms at risk), opponent [28, 32, 36, 22] (top 22), 27 face
# down; grill 21, 23, 25, 26, 30, 33, 34. Kept WWWWW1 = 26, two dice left, {1, W} kept.
# Claims: 26 -> +2; 28 (buried in the opponent's stack), 29 (mine) -> 26: +2; 30, 31 (mine),
# 32 (buried) -> 30: +3; 33, 34 -> +4; 35 (mine), 36 (buried) -> 34: +4. Bust: -4.
# Stop: +2. Roll two dice, 36 ordered outcomes:
# - both in {1, W} (4): bust, -4 each: -16.
# - one in {1, W}, the other f in {2,3,4,5} (4 each): keep f, one die left at 26 + f. Rolling
#   that die busts on 3 faces of 6 (-12) and wins at most 4 on each of the other 3, never
#   better than stopping: 28 -> stop +2 (roll (3+3+4-12)/6); 29 -> +2 (roll (3+4+4-12)/6);
#   30 -> +3 (roll -1/6); 31 -> +3 (roll (4+4+4-12)/6 = 0). Sum 4 * (2+2+3+3) = 40.
# - both new (16): pairs 22 -> 30: 3, 33 -> 32: 3, 44 -> 34: 4, 55 -> 36: 4 (sum 14); mixed,
#   2 orders each, keep the better face: 23 -> 2 (28 or 29), 24 -> 3, 25 -> 3, 34 -> 3,
#   35 -> 3, 45 -> 3 (sum 2 * 17 = 34). Total 48.
# Roll = (-16 + 40 + 48) / 36 = 2 = stop: an exact tie. Rolling wins a tile with 32/36 = 8/9.
TIE_CASE = WormCase(
    "exact tie",
    ((29, 31, 24, 35), (28, 32, 36, 22)),
    (27,),
    "WWWWW1",
    end={
        22: Fraction(2),  # steal 22 (1 worm, twice) beats the nearest lower tile 21 (1)
        26: Fraction(2),
        28: Fraction(2),
        29: Fraction(2),
        31: Fraction(3),
        32: Fraction(3),
        35: Fraction(4),
        36: Fraction(4),
    },
    bust=Fraction(-4),
    stop=Fraction(2),
    roll=Fraction(2),
    roll_success=Fraction(8, 9),
)


@pytest.mark.parametrize("case", [*WORM_CASES, TIE_CASE], ids=lambda case: case.name)
def test_worm_gain_by_hand(case):
    state = position(case)
    table = TurnValues.worm_gain(state)
    for total, worms in case.end.items():
        assert table.end[total] == pytest.approx(float(worms), abs=EXACT), total
    assert table.bust == pytest.approx(float(case.bust), abs=EXACT)
    solution = solve(table)
    i = index_of(solution, case.kept)
    assert solution.stop_value[i] == pytest.approx(float(case.stop), abs=EXACT)
    assert solution.roll_value[i] == pytest.approx(float(case.roll), abs=EXACT)
    assert solution.value[i] == pytest.approx(float(max(case.stop, case.roll)), abs=EXACT)
    rolled = solution.outlook(i, "roll")
    assert rolled.success == pytest.approx(float(case.roll_success), abs=EXACT)
    assert rolled.bust_no_new_face == pytest.approx(float(1 - case.roll_success), abs=EXACT)


@pytest.mark.parametrize(
    "case",
    [*WORM_CASES, TIE_CASE],
    ids=lambda case: case.name,
)
def test_best_choice_by_hand(case):
    """The better of roll and stop; on an exact tie the safer one, stop (solve.py)."""
    state = position(case)
    solution = solve(TurnValues.worm_gain(state))
    assert bool(solution.rolls[index_of(solution, case.kept)]) == (case.best == ROLL)
    assert best_action(state) == case.best
    assert rank_choices(state)[0].action == case.best


# ------------------------------------------------- 2. expectimax over the engine
def assert_solver_matches_engine(state: GameState, table: TurnValues, terminal=None) -> int:
    """Every roll-or-stop and every chance node the engine reaches from ``state`` has the
    solver's value (``value`` and ``roll_value``); returns how many nodes were compared."""
    _, memo = engine_values(state, terminal or table_terminal(table))
    solution = solve(table)
    compared = 0
    values_of = {  # a keep node has no solver state of its own (its roll is not kept)
        Phase.ROLL: solution.roll_value,
        Phase.ROLL_OR_STOP: solution.value,
        Phase.CLAIM: solution.stop_value,  # the dice are done: the best claim is end[total]
    }
    for (phase, kept, _roll), value in memo.items():
        if phase is Phase.KEEP:
            continue
        expected = values_of[phase][solution.index(kept)]
        assert value == pytest.approx(expected, abs=CLOSE), (phase, format_dice(kept))
        compared += 1
    return compared


MID_GAME = WORM_CASES[1]  # a position with a stealable top and a top at risk


def _tables(state: GameState) -> dict[str, TurnValues]:
    return {
        "at_least(25)": TurnValues.at_least(25),
        "exactly(27)": TurnValues.exactly(27),
        "worm_gain": TurnValues.worm_gain(state),
    }


@pytest.mark.slow  # 18 expectimax searches on the engine
@pytest.mark.parametrize("rules", ["official", "bga"])
@pytest.mark.parametrize("kept", ["W3", "WW", "55"])
@pytest.mark.parametrize("table_name", ["at_least(25)", "exactly(27)", "worm_gain"])
def test_solver_matches_engine_expectimax_mid_turn(table_name, kept, rules):
    state = GameState.from_position(
        MID_GAME.stacks, MID_GAME.down, rules=Rules.parse(rules), kept=kept
    )
    assert assert_solver_matches_engine(state, _tables(state)[table_name]) > 50


ENGINE_POSITIONS = {  # (stacks, face down): seat 0 is to move
    **{case.name: (case.stacks, case.down) for case in (*WORM_CASES, TIE_CASE)},
    # Three opponents' tops to steal, among them the 36 (R11c: a total above 36 never steals).
    "four players": (((25,), (27, 30), (33,), (24, 36)), (35,)),
    # Only 29 left on the grill: taking it ends the game at once (R18).
    "end game": (((21, 22, 23, 24, 25, 26, 27), (28, 30, 31, 32, 33, 34, 35)), (36,)),
}


@pytest.mark.slow  # 24 positions × rule sets played out on the engine
@pytest.mark.parametrize("rules", ["official", "short", "bga", "official,lower_tile=any"])
@pytest.mark.parametrize("name", list(ENGINE_POSITIONS))
def test_worm_gain_table_matches_the_worms_the_engine_moves(name, rules):
    """Terminal values from the tile events themselves, not from the table: checks that
    ``TurnValues.worm_gain`` prices every end of the turn as the engine plays it out."""
    stacks, down = ENGINE_POSITIONS[name]
    state = GameState.from_position(stacks, down, rules=Rules.parse(rules), kept="W")
    assert assert_solver_matches_engine(state, TurnValues.worm_gain(state), worm_swing) > 500


@pytest.mark.parametrize("table_name", ["at_least(25)", "exactly(27)", "worm_gain"])
def test_solver_matches_engine_expectimax_fresh_turn(table_name):
    state = GameState(2)
    assert assert_solver_matches_engine(state, _tables(state)[table_name]) > 1000


@pytest.mark.slow  # an engine expectimax search
def test_solver_matches_engine_fresh_turn_worm_swing_mid_game():
    state = GameState.from_position(MID_GAME.stacks, MID_GAME.down)
    assert assert_solver_matches_engine(state, TurnValues.worm_gain(state), worm_swing) > 1000


# --------------------------------------- 3. the engine following the solver's policy
def assert_same_distribution(found: dict, expected: dict, tolerance: float = CLOSE) -> None:
    for outcome in set(found) | set(expected):
        assert found.get(outcome, 0) == pytest.approx(expected.get(outcome, 0), abs=tolerance), (
            outcome
        )


@pytest.mark.slow  # 9 turn distributions enumerated on the engine
@pytest.mark.parametrize("first", ["best", "roll", "stop"])
@pytest.mark.parametrize("kept", ["WW", "W3", "1"])
def test_outlook_is_the_engine_distribution_under_the_policy(kept, first):
    state = GameState.from_position(MID_GAME.stacks, MID_GAME.down, kept=kept)
    forced = None if first == "best" else Action.parse(first)
    for table in _tables(state).values():
        solution = solve(table)
        expected = outlook_distribution(solution.outlook(index_of(solution, kept), first))
        assert_same_distribution(policy_distribution(state, table, forced), expected)


@pytest.mark.slow  # the turn distribution enumerated on the engine
def test_outlook_of_a_fresh_turn_is_the_engine_distribution_under_the_policy():
    state = GameState.from_position(MID_GAME.stacks, MID_GAME.down)
    table = TurnValues.worm_gain(state)
    solution = solve(table)
    expected = outlook_distribution(solution.outlook(solution.graph.start))
    assert_same_distribution(policy_distribution(state, table), expected)


def monte_carlo(start: GameState, table: TurnValues, turns: int, seed: int):
    """Play ``turns`` turns from ``start`` with the policy; the outcome counts and the mean
    and variance of the turn's value under ``table``."""
    rng = random.Random(seed)
    value_of = table_terminal(table)
    outcomes: Counter = Counter()
    values = []
    for _ in range(turns):
        events = play_turn(start.copy(), table, rng)
        outcomes[turn_end(events)] += 1
        values.append(value_of(events))
    return outcomes, float(np.mean(values)), float(np.var(values))


def within_sigmas(count: int, n: int, p: float, sigmas: float = 4.0) -> bool:
    if p <= 0:
        return count == 0
    return abs(count / n - p) <= sigmas * math.sqrt(p * (1 - p) / n) + 1e-12


def assert_monte_carlo_agrees(start: GameState, table: TurnValues, turns: int, seed: int):
    solution = solve(table)
    outlook = solution.outlook(solution.index(start.kept_counts()), "roll")
    outcomes, mean, variance = monte_carlo(start, table, turns, seed)
    expected = outlook_distribution(outlook)
    successes = sum(n for end, n in outcomes.items() if isinstance(end, int) and table.success[end])
    assert within_sigmas(successes, turns, outlook.success)
    assert within_sigmas(turns - successes, turns, outlook.bust)
    assert abs(mean - outlook.value) <= 4 * math.sqrt(variance / turns)
    assert all(expected.get(outcome, 0) > 0 for outcome in outcomes)  # nothing impossible
    # Each outcome expected at least 25 times on its own (4 sigma: the normal approximation
    # is poor for rarer ones), then a chi-square over the outcomes expected at least 5 times
    # with the rest pooled in one bin.
    for outcome, p in expected.items():
        if p * turns >= 25:
            assert within_sigmas(outcomes[outcome], turns, p), outcome
    big = [o for o, p in expected.items() if p * turns >= 5]
    observed = [outcomes[o] for o in big] + [turns - sum(outcomes[o] for o in big)]
    wanted = [expected[o] * turns for o in big] + [turns * (1 - sum(expected[o] for o in big))]
    pairs = [(o, w) for o, w in zip(observed, wanted, strict=True) if w >= 1]
    chi2 = sum((o - w) ** 2 / w for o, w in pairs)
    df = len(pairs) - 1
    assert chi2 <= df + 5 * math.sqrt(2 * df), (chi2, df)


def test_monte_carlo_of_the_policy_matches_the_outlook():
    start = GameState(2)
    assert_monte_carlo_agrees(start, TurnValues.worm_gain(start), turns=4000, seed=2024)


@pytest.mark.slow
@pytest.mark.parametrize("table_name", ["at_least(25)", "worm_gain"])
def test_monte_carlo_of_the_policy_matches_the_outlook_many_turns(table_name):
    for start, seed in (
        (GameState(2), 7),
        (GameState.from_position(MID_GAME.stacks, MID_GAME.down), 8),
    ):
        table = _tables(start)[table_name]
        assert_monte_carlo_agrees(start, table, turns=60_000, seed=seed)


# ---------------------------------------------------------------- 4. properties
@pytest.mark.slow  # every point of three turn graphs
def test_outlook_probabilities_sum_to_one_everywhere():
    state = position(MID_GAME)
    for table in _tables(state).values():
        solution = solve(table)
        can_roll = solution.graph.can_roll
        for i in range(len(solution.graph.keys)):
            for first in ("best", "roll") if can_roll[i] else ("best",):
                outlook = solution.outlook(i, first)
                parts = [*outlook.end_totals, outlook.bust_no_new_face, outlook.bust_no_worm]
                assert min(parts) >= 0 and sum(parts) == pytest.approx(1.0, abs=CLOSE), i
                assert outlook.success <= sum(outlook.end_totals) + CLOSE
                assert 0 <= outlook.bust <= 1


def test_at_least_values_never_rise_with_the_target_and_exactly_stays_below():
    previous = None
    for target in range(0, MAX_TOTAL + 2):
        at_least = solve(TurnValues.at_least(target))
        if previous is not None:
            assert np.all(at_least.value <= previous + CLOSE), target
        if target <= MAX_TOTAL:
            assert np.all(solve(TurnValues.exactly(target)).value <= at_least.value + CLOSE)
        assert np.all((at_least.value >= 0) & (at_least.value <= 1 + CLOSE))
        previous = at_least.value
    assert np.all(previous == 0)  # nobody reaches 41


@pytest.mark.parametrize("table_name", ["at_least(25)", "exactly(27)", "worm_gain"])
def test_value_is_the_better_of_stopping_and_rolling(table_name):
    solution = solve(_tables(position(MID_GAME))[table_name])
    graph = solution.graph
    for i in range(len(graph.keys)):
        if i == graph.start:  # nothing kept yet: the player must roll (R5)
            assert solution.value[i] == solution.roll_value[i]
        elif graph.can_roll[i]:
            best = max(solution.stop_value[i], solution.roll_value[i])
            assert solution.value[i] == pytest.approx(best, abs=EXACT)
            margin = TIE * max(1.0, abs(solution.stop_value[i]))  # float ties stop (solve.py)
            assert solution.rolls[i] == (solution.roll_value[i] - solution.stop_value[i] > margin)
        else:  # no dice left or every face kept: the turn ends (R8)
            assert solution.value[i] == solution.stop_value[i] and not solution.rolls[i]


def decision_states(seed: int, count: int):
    """Decision states met in games under rules that make several claims common, half of the
    moves random and half the solver's (so that turns also reach tiles)."""
    rng = random.Random(seed)
    rules = Rules.parse("official,lower_tile=any")
    found = []
    while len(found) < count:
        state = GameState(3, rules)
        while not state.is_over and len(found) < count:
            if state.is_chance():
                state.apply_roll(sample_roll(state.dice_left, rng))
            else:
                found.append(state.copy())
                legal = state.legal_actions()
                state.apply(rng.choice(legal) if rng.random() < 0.5 else best_action(state))
    return found


def test_rank_choices_are_the_legal_actions_and_best_action_is_among_the_best():
    phases = Counter()
    for state in decision_states(seed=11, count=400):
        phases[state.phase] += 1
        choices = rank_choices(state)
        legal = state.legal_actions()
        assert sorted(c.action.id for c in choices) == sorted(a.id for a in legal)
        values = [c.value for c in choices]
        assert values == sorted(values, reverse=True)
        best = best_action(state)
        assert best in legal
        chosen = next(c for c in choices if c.action == best)
        assert chosen.value == pytest.approx(choices[0].value, abs=EXACT)  # ties allowed
        for choice in choices:
            assert 0 <= choice.tile <= 1 and 0 <= choice.bust <= 1
    assert phases[Phase.KEEP] and phases[Phase.ROLL_OR_STOP] and phases[Phase.CLAIM]


def test_no_choices_without_a_decision():
    state = GameState(2)
    assert rank_choices(state) == [] and not state.legal_actions()
    with pytest.raises(ValueError, match="no decision"):
        best_action(state)


@pytest.mark.parametrize("me, opponent", [("", ""), ("22 25", "24 27"), ("36", "21 33")])
def test_evaluate_a_policy_under_tables(me, opponent):
    """A policy valued under its own table by the forward end distribution gives the value of
    backward induction; under another table it can do no better than that table's own best
    policy, and equals it only where both aim at the same outcomes."""
    state = GameState.from_position([parse_tiles(me), parse_tiles(opponent)])
    policy = solve(TurnValues.worm_gain(state))
    assert policy.evaluate(policy.values) == pytest.approx(policy.start_value, abs=1e-12)
    for target in (25, 30, 34):
        other = TurnValues.at_least(target)
        assert policy.evaluate(other) <= solve(other).start_value + 1e-12
    assert policy.evaluate(TurnValues.at_least(21)) > 0.5


def test_only_so_many_solutions_keep_their_policy_and_a_let_go_one_answers_the_same():
    """Each solution asked for an outlook keeps its policy's targets (hundreds of kilobytes):
    a server asked about ever new tables grew without end. At most HOLDING keep them."""
    import importlib

    solving = importlib.import_module("pickomino.solver.solve")  # the module, not its function
    tables = [TurnValues.at_least(21 + n % 16) for n in range(16)]
    ramp = TurnValues.at_least(21)  # any table, made steeper:
    tables += [
        TurnValues(tuple(v * (1 + n / 100) for v in ramp.end), -1.0, ramp.success)
        for n in range(300)
    ]
    first = solving.solve(tables[0])
    before = first.outlook(first.graph.start, "roll")
    for values in tables[1:]:
        solution = solving.solve(values)
        solution.outlook(solution.graph.start)
    keeping = [s for s in map(solving.solve, tables) if s._targets is not None]
    assert 0 < len(keeping) <= solving.HOLDING and first._targets is None  # let go
    assert first.outlook(first.graph.start, "roll") == before  # computed again, the same
