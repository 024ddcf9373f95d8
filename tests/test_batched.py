"""The batched engine against the core engine, in lock-step: the same dice, the same
decisions, and every game's whole state compared after every step, on every preset and
player count; the batched bots against the core's bots decision by decision."""

from __future__ import annotations

import os

import numpy as np
import pytest

from pickomino.bots import make_bot
from pickomino.core import PRESETS, GameState, Rules
from pickomino.envs.batched.bots import BATCHED_BOTS
from pickomino.envs.batched.engine import (
    KEEP,
    OUTCOMES,
    OVER,
    PHASES,
    ROLL,
    SAMPLING_KEYS,
    WORMS,
    BatchedGames,
    outcome_index,
    outcomes_at,
    sample_rolls,
)
from pickomino.envs.batched.solver_tables import SolverTables, situation_values, situations
from pickomino.solver import solve

PLAYERS = range(2, 8)


def core_view(state: GameState) -> tuple:
    return (
        state.grill_mask,
        state.face_down_mask,
        stacks_bytes(state.stacks),
        state.current,
        PHASES.index(state.phase),
        state.kept,
        list(state.roll),
        state.dice_left,
        state.total,
        state.turn,
        sum(1 << action for action in state.legal_action_ids()),
    )


def stacks_bytes(stacks: list[list[int]]) -> bytes:
    """The stacks' tiles as bytes, each stack padded with zeros to the 16 tiles it could
    hold: the batched engine's side is made for every game of a step at once."""
    return b"".join(bytes(stack).ljust(16, b"\0") for stack in stacks)


def batched_views(games: BatchedGames, rows: np.ndarray) -> list[tuple]:
    """What :func:`core_view` says of a core state, for each of ``rows``; checks on the way
    that the worm counts kept along agree with the stacks."""
    heights = games.heights[rows]
    in_stack = np.arange(16) < heights[:, :, None]
    stacks = games.stacks[rows]
    assert (games.worms[rows] == np.where(in_stack, WORMS[stacks], 0).sum(axis=2)).all()
    tiles = np.where(in_stack, stacks + 21, 0).astype(np.uint8).reshape(len(rows), -1)
    columns = (
        games.grill[rows].tolist(),
        games.face_down[rows].tolist(),
        tiles.view(np.dtype((np.void, tiles.shape[1]))).ravel().tolist(),  # as stacks_bytes
        games.current[rows].tolist(),
        games.phase[rows].tolist(),
        games.kept[rows].tolist(),
        games.roll_counts(rows).tolist(),
        games.dice_left[rows].tolist(),
        games.total[rows].tolist(),
        games.turn[rows].tolist(),
        games.legal_bits(rows).tolist(),
    )
    return list(zip(*columns, strict=True))


def play_in_lockstep(
    players: int, rules: Rules, size: int, seed: int, explore: float = 0.2, bot: str = "simple"
) -> tuple[int, int]:
    """Play ``size`` games on both engines until all end; every decision is ``bot``'s
    (checked equal on both sides) or, with probability ``explore``, a uniform legal action.
    Returns (games finished, steps compared)."""
    rng = np.random.default_rng(seed)
    games = BatchedGames(size, players, rules)
    states = [GameState(players, rules) for _ in range(size)]
    core_bots = [make_bot(bot) for _ in range(size)]  # one each: a bot may remember its turn
    steps = 0
    for _ in range(100_000):
        phase = games.phase
        rolling = np.flatnonzero(phase == ROLL)
        deciding = np.flatnonzero((phase != ROLL) & (phase != OVER))
        if not rolling.size and not deciding.size:
            break
        rolls = sample_rolls(rng, games.dice_left[rolling])
        games.apply_rolls(rolling, rolls)
        for row, counts in zip(rolling.tolist(), OUTCOMES[rolls].tolist(), strict=True):
            states[row].apply_roll(tuple(counts))
        mask = games.action_mask(deciding)
        chosen = BATCHED_BOTS[bot](games, deciding, rng)
        wild = BATCHED_BOTS["random"](games, deciding, rng)
        for row, action in zip(deciding.tolist(), chosen.tolist(), strict=True):
            assert core_bots[row].choose(states[row]).id == action, (row, states[row].to_dict())
        actions = np.where(rng.random(deciding.size) < explore, wild, chosen)
        assert mask[np.arange(deciding.size), actions].all()
        games.apply_actions(deciding, actions)
        for row, action in zip(deciding.tolist(), actions.tolist(), strict=True):
            states[row].apply(action)
        moved = np.concatenate([rolling, deciding])
        for row, view in zip(moved.tolist(), batched_views(games, moved), strict=True):
            assert view == core_view(states[row]), (row, states[row].to_dict())
        steps += rolling.size + deciding.size
    assert all(state.is_over for state in states)
    winners = games.winners()
    for row, state in enumerate(states):
        assert np.flatnonzero(winners[row]).tolist() == state.winners()
    return size, steps


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("bot", ["simple", "expected"])
def test_batched_engine_and_bots_play_in_lockstep_with_the_core(bot, preset, players):
    finished, steps = play_in_lockstep(players, Rules.preset(preset), 10, players, bot=bot)
    assert finished == 10 and steps > 10 * 40


#: Games per preset of the long lock-step run: 3,360 in the suite (560 per player count),
#: more on demand (``PICKOMINO_LOCKSTEP_GAMES=10080`` plays 30,240 in all, as for docs/learning.md).
LONG_RUN = int(os.environ.get("PICKOMINO_LOCKSTEP_GAMES", "3360"))


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_batched_engine_agrees_with_the_core_over_thousands_of_games(preset):
    per_players = -(-LONG_RUN // len(PLAYERS))  # rounded up
    finished = 0
    for players in PLAYERS:
        for part in range(-(-per_players // 560)):
            finished += play_in_lockstep(players, Rules.preset(preset), 560, seed=part)[0]
    assert finished >= LONG_RUN


def test_rolls_are_fair_counts_of_the_dice_left():
    rng = np.random.default_rng(0)
    dice = rng.integers(0, 9, 20_000)
    rolls = OUTCOMES[sample_rolls(rng, dice)]
    assert (rolls.sum(axis=1) == dice).all()
    share = rolls[dice == 8].sum(axis=0) / (8 * (dice == 8).sum())
    assert np.allclose(share, 1 / 6, atol=0.01)


def test_the_bucketed_outcomes_are_those_of_a_search_over_the_sampling_keys():
    rng = np.random.default_rng(1)
    bounds = np.arange(9 * 2**14) / 2**14  # every bucket's first key
    near = np.concatenate([SAMPLING_KEYS, np.nextafter(SAMPLING_KEYS, 0)])  # every outcome's bound
    drawn = rng.integers(0, 9, 100_000) + rng.random(100_000)
    keys = np.concatenate([bounds, near[near < 9], drawn])
    assert (outcomes_at(keys) == np.searchsorted(SAMPLING_KEYS, keys, side="right")).all()


def test_a_roll_without_a_new_face_busts_and_turns_the_highest_tile():
    games = BatchedGames(1, 2, Rules())
    rows = np.arange(1)
    games.apply_rolls(rows, np.array([outcome_index([0, 0, 0, 0, 4, 4])]))
    games.apply_actions(rows, np.array([5]))  # keep the worms: 20
    games.apply_actions(rows, np.array([6]))  # roll
    games.apply_rolls(
        rows, np.array([outcome_index([0, 0, 0, 0, 0, 4])])
    )  # only worms: a bust (R7)
    assert games.phase[0] == ROLL and games.current[0] == 1
    assert games.face_down[0] == 0  # no tile to return, nothing turned (R15, R16)
    games.apply_rolls(rows, np.array([outcome_index([0, 0, 0, 0, 3, 5])]))
    assert games.phase[0] == KEEP


def test_solver_tables_hold_each_situations_solution_through_reuse_and_growth():
    """Slots are reused oldest first and the arrays grow for a call needing more: whatever
    the history, a situation's slot holds its own solution."""
    rules = Rules()
    games = BatchedGames(40, 3, rules)
    rng = np.random.default_rng(3)
    seen = []
    for _ in range(400):  # random games: many grills and tops
        rows = np.flatnonzero(games.phase == ROLL)
        games.apply_rolls(rows, sample_rolls(rng, games.dice_left[rows]))
        deciding = np.flatnonzero((games.phase != ROLL) & (games.phase != OVER))
        seen.append(situations(games, deciding))
        games.apply_actions(deciding, BATCHED_BOTS["random"](games, deciding, rng))
    known = np.unique(np.concatenate(seen))
    assert known.size > 30
    tables = SolverTables(rules, capacity=4)
    # a full store asked for an old situation and a new one; then more than it holds
    for batch in [known[:3], known[3:4], known[[0, 4]], known[5:11], known[11:32], known[::3]]:
        asked = np.repeat(batch, 2)
        slots = tables.slots(asked)
        for situation, slot in zip(asked.tolist(), slots.tolist(), strict=True):
            solution = solve(situation_values(rules, situation))
            assert np.array_equal(tables.values[slot], solution.value)
            assert np.array_equal(tables.rolls[slot], solution.rolls)
    assert len(tables.values) >= 21  # grown for the call asking 21 at once
