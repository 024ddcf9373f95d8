"""Bots: legal, deterministic, and doing what their descriptions promise."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from pickomino import table
from pickomino.bots import BOTS, DIFFICULTIES, make_bot
from pickomino.bots.strategist import Planner, value_after, win_probability
from pickomino.core import GameState, Phase, Rules, sample_roll
from pickomino.sim.tournament import play_game
from pickomino.solver.advice import rank_choices


def play(state: GameState, bots, rng: random.Random) -> GameState:
    """Play to the end; ``apply`` refuses (raises) any action that is not legal."""
    while not state.is_over:
        if state.is_chance():
            state.apply_roll(sample_roll(state.dice_left, rng))
        else:
            state.apply(bots[state.current].choose(state))
    return state


@pytest.mark.parametrize(
    "name",
    [  # the strategist searches two turns ahead at every turn: a whole game takes seconds
        pytest.param(name, marks=pytest.mark.slow)
        if name in ("strategist", "expert", "valued")  # valued: the strategist with 3
        else name
        for name in sorted(BOTS) + sorted(DIFFICULTIES)
    ],
)
def test_every_bot_plays_only_legal_actions_to_the_end(name):
    rng = random.Random(3)
    for players, preset in ((2, "official"), (3, "bga")):
        bots = [make_bot(name, seat) for seat in range(players)]
        assert play(GameState(players, Rules.preset(preset)), bots, rng).is_over


def test_unknown_bot_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="unknown bot genius; the bots are .*expected.*expert"):
        make_bot("genius")


def test_difficulties_map_to_bots():
    assert [make_bot(level).name for level in ("easy", "medium", "hard", "expert")] == [
        "random",
        "simple",
        "expected",
        "valued",
    ]


@pytest.mark.parametrize("name", ["random", "simple", "expected"])
def test_bots_are_deterministic_given_a_seed(name):
    seats = (name, "random")
    assert play_game(seats, Rules(), 9, 0) == play_game(seats, Rules(), 9, 0)


def test_random_bot_depends_on_its_seed():
    outcomes = {play_game(("random", "random"), Rules(), seed, 0) for seed in range(6)}
    assert len(outcomes) > 1


def test_simple_keeps_worms_once_two_faces_are_kept():
    state = GameState.from_position([[], []], kept="1122")
    state.apply("roll")
    state.apply_roll("W555")  # 5s score 15 against 5 for the worm, but two faces are kept
    assert make_bot("simple").choose(state).name == "keep W"
    early = GameState(2)
    early.apply_roll("W5555123")  # nothing kept yet: the best count x points wins
    assert make_bot("simple").choose(early).name == "keep 5"


@pytest.mark.parametrize(
    ("roll", "kept"),
    [
        ("33334441", "keep 4"),  # 4 x 3 = 3 x 4 = 12: the higher face, with fewer dice
        ("22222551", "keep 5"),  # 5 x 2 = 2 x 5 = 10
        ("WW551111", "keep W"),  # 2 x W = 2 x 5 = 10: the worm is the highest face
    ],
)
def test_simple_breaks_a_tie_of_count_times_points_toward_the_higher_face(roll, kept):
    """The classic heuristic (and the reference C++ SimpleBot) keeps the higher face."""
    state = GameState(2)
    state.apply_roll(roll)
    assert make_bot("simple").choose(state).name == kept


def test_simple_stops_as_soon_as_a_tile_can_be_claimed():
    assert make_bot("simple").choose(GameState.from_position([[], []], kept="WW551")).name == "stop"
    assert make_bot("simple").choose(GameState.from_position([[], []], kept="WW55")).name == "roll"


def test_expected_bot_takes_the_solver_best_choice():
    state = GameState.from_position([[25], [27, 30]], kept="WW4")
    state.apply("roll")
    state.apply_roll("1455W")
    ranked = rank_choices(state)
    assert make_bot("expected").choose(state) == ranked[0].action


def test_win_probability_grows_with_the_lead():
    behind = GameState.from_position([[21], [33]])
    ahead = GameState.from_position([[33], [21]])
    assert win_probability(ahead, 0) > 0.5 > win_probability(behind, 0)
    assert win_probability(ahead, 0) + win_probability(ahead, 1) == pytest.approx(1, abs=0.1)


def test_win_probability_counts_the_tie_break():
    """R20: at equal worms, the player holding the higher tile wins a tie; the model values
    holding 36 above holding 33 (4 worms each), whoever moves."""
    for mover in (0, 1):
        high = GameState.from_position([[36], [33]], current=mover)
        low = GameState.from_position([[33], [36]], current=mover)
        assert win_probability(high, 0) > win_probability(low, 0)


def test_strategist_values_a_finished_game_exactly():
    """C9/R20: a claim that takes the last grill tile ends the game; its value is 1 or 0."""
    rest = [t for t in range(21, 37) if t not in (24, 33, 35, 36)]
    state = GameState.from_position([[33], [35, 36]], face_down=rest, kept="WW554")
    ((claim, after),) = state.endings(24)
    assert after.is_over and after.winners() == [1]
    assert value_after(after, 0, 1) == 0.0 and value_after(after, 1, 1) == 1.0


def test_strategist_never_plays_out_of_turn_or_phase():
    bot = make_bot("strategist")
    state = GameState(2)
    state.apply_roll("12345WWW")
    assert state.phase is Phase.KEEP
    assert bot.choose(state) in state.legal_actions()


def _last_tile_position(theirs: list[int], kept: str) -> GameState:
    """Only tile 21 is left on the grill; seat 0 holds 30 (the highest tile in play) and has
    kept ``kept``, 3 dice left."""
    mine = [30, 22, 23, 24]  # 6 worms
    down = [t for t in range(21, 37) if t not in {21, *mine, *theirs}]
    return GameState.from_position([mine, theirs], down, 0, kept=kept)


def test_strategist_stops_to_win_on_the_tie_break_where_expected_rolls_for_worms():
    """R18/R20: taking the last tile 21 ends the game 7-7 and the tie goes to the highest
    tile (30 against 29): a certain win. `expected` rolls on for the chance to steal 27."""
    state = _last_tile_position([29, 26, 27], "WW555")
    assert make_bot("expected").choose(state).name == "roll"
    assert make_bot("strategist").choose(state).name == "stop"
    ((claim, after),) = state.endings(state.total)
    assert claim.name == "take 21" and after.is_over and after.winners() == [0]


def test_strategist_rolls_on_where_stopping_ends_the_game_lost():
    """R18/R20: at 6 worms against 8, taking 21 ends the game lost; `expected` stops for the
    sure worm, the strategist rolls for a steal that keeps the game alive."""
    state = _last_tile_position([25, 26, 27, 28], "WW554")
    assert make_bot("expected").choose(state).name == "stop"
    assert make_bot("strategist").choose(state).name == "roll"


def test_planner_memory_does_not_change_values():
    """A planner reused across positions (its memory filled) values each like a fresh one."""
    shared = Planner()
    late = [state for state in turn_starts(5) if len(state.grill) <= 6][:6]
    assert late
    for state in late:
        for seat in (0, 1):
            assert shared.value_after(state, seat, 2) == Planner().value_after(state, seat, 2)


def turn_starts(game_seed: int) -> list[GameState]:
    """Every turn start of a seeded `expected` self-play game, in order."""
    bots = [make_bot("expected"), make_bot("expected")]
    starts = table.turn_starts(GameState(2), bots, table.SeededDice(game_seed))
    return [state.copy() for state in starts]


def test_give_away_is_never_negative_and_shows_where_expected_plays_for_worms():
    """The best win-aware turn is at least as good as `expected`'s under the same search,
    and strictly better somewhere late in a game."""
    planner = Planner()
    losses = [planner.give_away(state, 1) for state in turn_starts(10)[-12:]]
    assert min(losses) >= -1e-12
    assert max(losses) > 0.05


def test_give_away_values_expected_turn_as_playing_it_does():
    """Independent route: play `expected`'s turn with real dice and value where it ends by
    the win model; the mean matches the search's best value minus the give-away."""
    planner = Planner()
    state = max(turn_starts(10)[-12:], key=lambda s: planner.give_away(s, 0))
    assert planner.give_away(state, 0) > 0.05  # the two policies differ enough to tell
    seat, rng = state.current, random.Random(9)
    bot = make_bot("expected")
    ends = []
    for _ in range(3000):
        turn = state.copy()
        while turn.current == seat and not turn.is_over and turn.turn == state.turn:
            if turn.is_chance():
                turn.apply_roll(sample_roll(turn.dice_left, rng))
            else:
                turn.apply(bot.choose(turn))
        ends.append(win_probability(turn, seat))
    played = sum(ends) / len(ends)
    spread = (sum((e - played) ** 2 for e in ends) / len(ends)) ** 0.5
    best = Planner().value_after(state, seat, 1)
    assert abs(best - planner.give_away(state, 0) - played) < 4 * spread / len(ends) ** 0.5


def test_give_away_is_asked_at_a_turn_start_only():
    state = GameState(2)
    state.apply_roll("12345WWW")
    with pytest.raises(ValueError, match="start of"):
        Planner().give_away(state, 1)


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def run_script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, SCRIPTS / name, *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("expected_give_away.py", ("--games", "-3"), "'--games': -3 is not in the range x>=1"),
        ("expected_give_away.py", ("--games", "0"), "'--games': 0 is not in the range x>=1"),
        ("expected_give_away.py", ("--jobs", "0"), "'--jobs': 0 is not in the range x>=1"),
        ("expected_give_away.py", ("--turns", "1,x"), "'--turns': give whole numbers"),
        ("expected_give_away.py", ("--turns", "-1"), "'--turns': give whole numbers"),
        ("fit_win_model.py", ("--games", "-3"), "'--games': -3 is not in the range x>=1"),
    ],
)
def test_scripts_refuse_bad_arguments_without_a_traceback(script, args, message):
    """Issue 14, item 15: ``--games -3`` ran and ended in a traceback."""
    result = run_script(script, *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.long
@pytest.mark.slow  # the strategist searches two turns ahead at every turn of two games
def test_give_away_script_reports_every_depth_and_phase():
    """``scripts/expected_give_away.py`` as a user runs it (docs/bots.md)."""
    result = run_script("expected_give_away.py", "--games", "2", "--turns", "1,2", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "(2 games)" in lines[0]
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "looking 1 turn(s) ahead",
        "looking 2 turn(s) ahead",
    ]
    assert all("0-2 tiles" in line and "9-16 tiles" in line for line in lines[1:])
