"""The OpenSpiel game: OpenSpiel's own checks, exact chance outcomes, and lock-step play
against the core engine."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pickomino.bots import make_bot  # noqa: E402
from pickomino.core import PRESETS, GameState, IllegalAction, Rules, parse_dice  # noqa: E402
from pickomino.core.dice import ALL_ROLLS  # noqa: E402
from pickomino.envs.openspiel import MAX_DECISIONS_PER_TURN, win_utility  # noqa: E402
from pickomino.observation import flatten, observe  # noqa: E402


def load(**params: object) -> pyspiel.Game:
    spec = ",".join(f"{name}={value}" for name, value in params.items())
    return pyspiel.load_game(f"python_pickomino({spec})" if spec else "python_pickomino")


def play(state: pyspiel.State, *moves: str) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


# ------------------------------------------------------------ OpenSpiel's own checks
@pytest.mark.parametrize(("preset", "players"), list(zip(PRESETS, [2, 3, 7], strict=True)))
def test_random_simulations_pass_openspiels_checks(preset, players):
    """Clone, serialize, legal-action masks, chance outcomes, the length bound and returns in
    range, on games cut short by a low turn limit (whole games are in the slow test)."""
    game = load(players=players, rules=preset, max_turns=15)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_whole_random_games_pass_openspiels_checks(preset):
    pyspiel.random_sim_test(
        load(players=3, rules=preset), num_sims=1, serialize=True, verbose=False
    )


def test_load_game_with_parameters():
    game = pyspiel.load_game("python_pickomino(players=3)")
    assert game.num_players() == 3
    assert game.get_parameters() == {"players": 3, "rules": "official", "max_turns": 2000}
    assert game.num_distinct_actions() == 40
    assert game.max_chance_outcomes() == len(ALL_ROLLS) == 3003
    assert game.max_game_length() == 12 * 2000
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.5, 1.0, 0.0)
    assert load(rules="short").new_initial_state().core.rules == Rules.preset("short")


@pytest.mark.parametrize(
    "spec", ["players=1", "players=8", "rules=house", "max_turns=0", "colour=red"]
)
def test_bad_parameters_are_refused(spec):
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game(f"python_pickomino({spec})")


# ------------------------------------------------------------------ chance outcomes
def chance_node_with(dice: int, game: pyspiel.Game) -> pyspiel.State:
    """A state waiting for a roll of ``dice`` dice: the first roll shows 8 − dice ones, kept."""
    state = game.new_initial_state()
    if dice < 8:
        play(state, "dice " + "1" * (8 - dice) + "2" * dice, "keep 1", "roll")
    return state


def multinomial(counts: tuple[int, ...]) -> Fraction:
    """The chance of a roll, counted as ways to pick which dice show each face."""
    ways, left = 1, sum(counts)
    for count in counts:
        ways *= comb(left, count)
        left -= count
    return Fraction(ways, 6 ** sum(counts))


@pytest.mark.parametrize("dice", range(1, 9))
def test_chance_outcomes_are_every_roll_with_its_exact_chance(dice):
    game = load()
    state = chance_node_with(dice, game)
    outcomes = state.chance_outcomes()
    assert state.is_chance_node() and state.core.dice_left == dice
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    ids = [action for action, _ in outcomes]
    assert len(set(ids)) == len(ids) == comb(dice + 5, 5)
    assert all(0 < action < game.max_chance_outcomes() for action in ids)
    for action, chance in outcomes:
        counts = ALL_ROLLS[action]
        assert sum(counts) == dice
        assert chance == pytest.approx(float(multinomial(counts)), rel=1e-12)
        name = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        assert parse_dice(name.removeprefix("dice ")) == counts
    assert state.legal_actions() == sorted(ids)


def test_chance_outcomes_match_counted_throws():
    """Every sequence of faces of four dice thrown, counted: the same chances."""
    counted = Counter(
        tuple(faces.count(face) for face in range(6))
        for faces in itertools.product(range(6), repeat=4)
    )
    outcomes = dict(chance_node_with(4, load()).chance_outcomes())
    assert {ALL_ROLLS[a]: p for a, p in outcomes.items()} == pytest.approx(
        {counts: n / 6**4 for counts, n in counted.items()}
    )


# ---------------------------------------------------------------- states and refusals
def random_state(seed: int, steps: int, game: pyspiel.Game) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_clone_and_serialization_round_trip(seed):
    game = load(players=3)
    state = random_state(seed, 60, game)
    clone = state.clone()
    assert (str(clone), clone.history()) == (str(state), state.history())
    assert clone.core is not state.core and clone.core == state.core
    restored = game.deserialize_state(state.serialize())
    assert (str(restored), restored.history()) == (str(state), state.history())
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert (str(again_game), str(again)) == (str(game), str(state))
    if not clone.is_terminal():  # the clone goes its own way
        clone.apply_action(clone.legal_actions()[0])
        assert str(clone) != str(state)


def test_illegal_actions_and_forged_rolls_change_nothing():
    state = load().new_initial_state()
    before = str(state)
    seven_dice = ALL_ROLLS.index((7, 0, 0, 0, 0, 0))
    for forged in (0, seven_dice, len(ALL_ROLLS), 10**9):  # no roll of 8 dice
        with pytest.raises(IllegalAction):
            state.apply_action(forged)
    assert (str(state), state.history()) == (before, [])
    play(state, "dice 12335WWW")
    for illegal in (6, 7, 8, 3):  # roll, stop, take 21, keep 4 (no 4 shown)
        with pytest.raises(IllegalAction):
            state.apply_action(illegal)
    with pytest.raises(ValueError):
        state.apply_action(40)
    assert state.legal_actions() == [0, 1, 2, 4, 5]
    assert state.legal_actions(1) == []


def test_names_observation_and_strings():
    game = load(players=3)
    state = game.new_initial_state()
    play(state, "dice 12335WWW", "keep W", "roll", "dice 44455", "keep 4")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["roll", "stop"]
    assert json.loads(str(state)) == json.loads(json.dumps(state.core.to_dict()))
    for seat in range(3):
        assert state.observation_tensor(seat) == pytest.approx(
            flatten(observe(state.core, seat)).tolist()
        )
    assert state.observation_string(0) == str(state)
    assert state.information_state_string(0) == ", ".join(map(str, state.history()))
    play(state, "stop")
    assert state.core.stacks[0] == [27]


# ------------------------------------------------------------------- length and ends
def test_a_turn_can_take_the_most_decisions_the_bound_allows():
    """Six keeps, five rolls between them and a choice of tile: 12 decisions in one turn."""
    state = load().new_initial_state()
    play(state, "dice 12344555", "keep 5", "roll", "dice 11WWW", "keep W", "stop")  # take 30
    decisions = len(state.history())
    play(state, "dice 12345WWW", "keep 1")
    for face, left in zip("2345", ("2345WWW", "345WWW", "45WWW", "5WWW"), strict=True):
        play(state, "roll", f"dice {left}", f"keep {face}")
    play(state, "roll", "dice WWW", "keep W")  # 1+2+3+4+5+15 = 30: take 29 or steal 30
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["take 29", "steal 30"]
    play(state, "steal 30")
    assert len(state.history()) - decisions - 6 == MAX_DECISIONS_PER_TURN == 12
    assert state.core.stacks == [[], [30]]


def test_the_turn_limit_ends_the_game_as_it_stands():
    state = load(max_turns=2).new_initial_state()
    play(state, "dice 12344555", "keep 5", "roll", "dice 11WWW", "keep W", "stop")
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]
    play(state, "dice 11111111", "keep 1")  # no worm: a bust, and the second turn is over
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


@pytest.mark.parametrize(
    ("stacks", "returns"),
    [
        ([[30], []], [1.0, -1.0]),
        ([[], [], []], [0.0, 0.0, 0.0]),  # everyone tied
        ([[], [25], []], [-0.5, 1.0, -0.5]),
        ([[21], [22], [], [24]], [-1 / 3, -1 / 3, -1 / 3, 1.0]),  # equal worms: highest tile
    ],
)
def test_win_utility_is_zero_sum(stacks, returns):
    utility = win_utility(GameState.from_position(stacks))
    assert utility == pytest.approx(returns)
    assert sum(utility) == pytest.approx(0.0)


# -------------------------------------------------------------- lock-step with the core
def lock_step(seed: int, players: int, preset: str) -> None:
    """One game through OpenSpiel and through a core GameState side by side: the same rolls
    and decisions (the simple bot's, or one uniformly at random one time in four); legal
    actions, chance outcomes and the whole state compared at every step, returns at the end."""
    rng = random.Random(seed)
    bot = make_bot("simple", seed)
    state = load(players=players, rules=preset).new_initial_state()
    core = GameState(players, Rules.preset(preset))
    while not state.is_terminal():
        assert state.core == core and state.core is not core
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [(ALL_ROLLS[a], p) for a, p in outcomes] == [
                (counts, float(p)) for counts, p in core.chance_outcomes()
            ]
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            core.apply_roll(ALL_ROLLS[action])
        else:
            assert state.current_player() == core.current
            assert state.legal_actions() == core.legal_action_ids()
            choice = bot.choose(core) if rng.random() > 0.25 else rng.choice(core.legal_actions())
            action = choice.id
            core.apply(action)
        state.apply_action(action)
    assert core.is_over and state.core == core
    winners = core.winners()
    assert [seat for seat, r in enumerate(state.returns()) if r > 0] == (
        winners if len(winners) < players else []
    )


@pytest.mark.parametrize("players", range(2, 8))
def test_lock_step_with_the_core(players):
    for seed in range(3):
        lock_step(seed, players, list(PRESETS)[seed])


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_lock_step_with_the_core_many_games(preset):
    for seed in range(60):
        lock_step(seed, 2 + seed % 6, preset)
