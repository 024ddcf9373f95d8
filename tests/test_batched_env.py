"""The batched Gymnasium vector environment: the same observations, masks and rewards as
``Pickomino-v1`` gives from the same position, autoreset, seeding and refusals."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import pickomino.envs  # noqa: F401  (registers the environments)
from pickomino.core import GameState, Phase
from pickomino.envs.batched.bots import simple_bot
from pickomino.envs.batched.engine import PHASES, BatchedGames
from pickomino.envs.batched.vector import PickominoBatchedEnv
from pickomino.envs.spaces import observe


def core_state(games: BatchedGames, row: int) -> GameState:
    """The core state a row of the batched engine stands for."""
    stacks = [
        [21 + int(t) for t in games.stacks[row, seat, : games.heights[row, seat]]]
        for seat in range(games.players)
    ]
    face_down = [21 + i for i in range(16) if games.face_down[row] >> i & 1]
    state = GameState.from_position(stacks, face_down, int(games.current[row]), games.rules)
    state.kept = games.kept[row].tolist()
    state.kept_mask = int(games.kept_mask[row])
    state.dice_left, state.total = int(games.dice_left[row]), int(games.total[row])
    state.roll = tuple(games.roll_counts([row])[0].tolist())
    state.phase = PHASES[games.phase[row]]
    if state.phase is Phase.CLAIM:
        state.claims = state.claimable(state.total)
    return state


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.where(mask, rng.random(mask.shape), -1).argmax(axis=1)


def test_make_vec_gives_the_batched_env_with_masks_in_observations_and_infos():
    envs = gym.make_vec("pickomino/PickominoBatched-v1", num_envs=16, opponents="random")
    assert isinstance(envs.unwrapped, PickominoBatchedEnv)
    observations, infos = envs.reset(seed=1)
    assert envs.observation_space.contains(observations)
    assert np.array_equal(observations["action_mask"], infos["action_mask"])
    assert np.array_equal(envs.unwrapped.action_masks(), infos["action_mask"])


@pytest.mark.parametrize(
    ("players", "opponents", "rules"),
    [
        (2, "expected", "official"),
        (4, "simple,random,expected", "bga"),
        (7, "random", "short"),
    ],
)
def test_observations_are_those_of_the_single_env_from_the_same_position(players, opponents, rules):
    envs = PickominoBatchedEnv(32, players, opponents, rules, seat=None)
    observations, _ = envs.reset(seed=players)
    rng = np.random.default_rng(players)
    for _ in range(80):
        assert envs.observation_space.contains(observations)
        for row in range(0, 32, 7):
            state = core_state(envs.games, row)
            assert state.current == envs.seats[row]  # the agent always decides
            expected = observe(state, int(envs.seats[row]))
            for key, value in expected.items():
                assert np.array_equal(observations[key][row], value), key
        observations, *_ = envs.step(random_actions(rng, observations["action_mask"]))
    assert len(set(envs.seats.tolist())) > 1


def test_worm_rewards_add_up_to_each_final_score_and_games_restart():
    envs = PickominoBatchedEnv(32, 3, "simple", "short", seat=1)
    observations, _ = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    earned = np.zeros(32)
    finished = 0
    for _ in range(250):
        observations, rewards, terminated, truncated, infos = envs.step(
            random_actions(rng, observations["action_mask"])
        )
        earned += rewards
        assert not truncated.any()
        for row in np.flatnonzero(terminated):
            final = infos["final_obs"][row]
            assert final["action_mask"].sum() == 0  # that game ended
            assert earned[row] == final["worms"][0]  # the agent's worms, seat rotated first
            assert observations["worms"][row][0] == 0  # a new game: nothing won yet
            earned[row] = 0
            finished += 1
    assert finished > 20


def test_win_rewards_are_paid_at_the_end_only():
    envs = PickominoBatchedEnv(64, 2, "simple", "short", reward="win")
    envs.reset(seed=2)
    rng = np.random.default_rng(2)
    paid = set()
    for _ in range(200):  # the simple bot against itself: both sides win games
        actions = simple_bot(envs.games, np.arange(64), rng)
        _, rewards, terminated, _, infos = envs.step(actions)
        assert (rewards[~terminated] == 0).all()
        if terminated.any():
            assert np.isnan(infos["win_share"][~terminated]).all()
        for row in np.flatnonzero(terminated):
            ours, theirs = infos["final_obs"][row]["worms"]
            if ours != theirs:  # more worms wins (R19)
                assert rewards[row] == (1.0 if ours > theirs else -1.0)
            assert infos["win_share"][row] == max(rewards[row], 0.0)
            paid.add(rewards[row])
    assert paid <= {-1.0, 0.5, 1.0} and {-1.0, 1.0} <= paid


def test_the_same_seed_plays_the_same_games():
    def trajectory():
        envs = gym.make_vec("pickomino/PickominoBatched-v1", num_envs=8, players=3)
        observations, _ = envs.reset(seed=11)
        rng = np.random.default_rng(0)
        rewards = []
        for _ in range(60):
            observations, reward, *_ = envs.step(random_actions(rng, observations["action_mask"]))
            rewards.append(reward)
        return observations, np.array(rewards)

    (first, first_rewards), (second, second_rewards) = trajectory(), trajectory()
    assert all(np.array_equal(first[k], second[k]) for k in first)
    assert np.array_equal(first_rewards, second_rewards)


def test_an_illegal_action_is_refused_naming_the_game():
    envs = PickominoBatchedEnv(4)
    observations, _ = envs.reset(seed=0)
    actions = observations["action_mask"].argmax(axis=1)
    actions[2] = int(np.flatnonzero(observations["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match=f"environment 2: action {actions[2]} is not legal now"):
        envs.step(actions)
    actions[2] = 99
    with pytest.raises(ValueError, match="environment 2: action 99"):
        envs.step(actions)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 8}, "R1"),
        ({"opponents": "strategist"}, "no batched bot"),
        ({"opponents": "genius"}, "unknown bot"),
        ({"reward": "money"}, "reward must be"),
        ({"seat": 2}, "seat must be"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        PickominoBatchedEnv(4, **options)
