"""Gymnasium environments: their own checkers, masks, rewards, vector path (PettingZoo:
``test_pettingzoo.py``)."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from test_properties import play, setups

import pickomino.envs  # noqa: F401  (registers the environments)
from pickomino.core import Action
from pickomino.envs.spaces import flat_observation, flatten, observe


def masked_random_episode(env, seed: int):
    """Play one episode with uniform legal actions; yield (observation, reward, info)."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    terminated = False
    while not terminated:
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        yield observation, reward, info


@pytest.mark.parametrize("players", [2, 4, 7])
def test_gymnasium_env_passes_check_env(players):
    env = gym.make("pickomino/Pickomino-v1", players=players, opponents="simple")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


def test_observation_is_in_the_space_and_mask_matches_the_engine():
    env = gym.make("pickomino/Pickomino-v1", players=3, opponents="random")
    unwrapped = env.unwrapped
    for observation, _, _ in masked_random_episode(env, 1):
        assert unwrapped.observation_space.contains(observation)
        state = unwrapped.table.state
        if not state.is_over:
            assert state.current == unwrapped.table.seat  # the agent always decides
            legal = {a.id for a in state.legal_actions()}
            assert set(np.flatnonzero(observation["action_mask"])) == legal
            assert observation["total"] == state.total
            assert list(observation["worms"]) == [state.worms(s) for s in (0, 1, 2)]


def test_worms_reward_adds_up_to_the_final_score():
    env = gym.make("pickomino/Pickomino-v1", opponents="simple")
    total = sum(reward for _, reward, _ in masked_random_episode(env, 5))
    assert total == env.unwrapped.table.state.worms(0)


def test_win_reward_is_paid_once_at_the_end():
    env = gym.make("pickomino/Pickomino-v1", opponents="random", reward="win")
    rewards = [reward for _, reward, _ in masked_random_episode(env, 2)]
    assert all(r == 0 for r in rewards[:-1]) and rewards[-1] in (-1.0, 0.5, 1.0)
    state = env.unwrapped.table.state
    assert (rewards[-1] > 0) == (0 in state.winners())


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = gym.make("pickomino/Pickomino-v1", opponents="simple")
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.unwrapped.table.state.to_dict()
    again, reward, terminated, _, info = env.step(illegal)
    assert "not legal" in info["illegal_action"] and reward == 0 and not terminated
    assert env.unwrapped.table.state.to_dict() == before
    assert all(np.array_equal(again[k], observation[k]) for k in observation)
    strict = gym.make("pickomino/Pickomino-v1", opponents="simple", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match=f"action {illegal} is not legal now; legal: "):
        strict.step(illegal)


def test_sampling_the_action_space_gives_legal_actions():
    env = gym.make("pickomino/Pickomino-v1", opponents="simple")
    env.reset(seed=0)
    for _ in range(50):
        action = env.action_space.sample()
        assert Action.from_id(int(action)) in env.unwrapped.table.state.legal_actions()
        if env.step(action)[2]:
            env.reset()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 8}, "R1"),
        ({"opponents": "genius"}, "unknown bot"),
        ({"players": 3, "opponents": ["simple"] * 3}, "one per other seat"),
        ({"reward": "money"}, "reward must be"),
        ({"seat": 5}, "seat must be"),
        ({"rules": "house"}, "unknown rule preset"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        gym.make("pickomino/Pickomino-v1", **options)


def test_random_seat_and_render():
    env = gym.make("pickomino/Pickomino-v1", players=4, seat=None, render_mode="ansi")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.unwrapped.table.seat)
    assert len(seats) > 1
    assert "you" in env.render() and "Grill" in env.render()


def test_vector_env_steps_many_games_and_resets_finished_ones():
    envs = gym.make_vec("pickomino/Pickomino-v1", num_envs=8, opponents="simple")
    observations, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        assert envs.observation_space.contains(observations)
        keys = rng.random(observations["action_mask"].shape) * observations["action_mask"]
        observations, rewards, terminated, truncated, infos = envs.step(keys.argmax(axis=1))
        finished += int(terminated.sum())
        for row in np.flatnonzero(terminated):
            assert infos["final_obs"][row]["action_mask"].sum() == 0  # the game ended
            assert observations["worms"][row].sum() == 0  # a new game already started
    assert finished > 0
    illegal = observations["action_mask"].argmin(axis=1)  # a masked-out id for every game
    with pytest.raises(ValueError, match="environment 0: action"):
        envs.step(illegal)


def test_flat_observation_is_scaled():
    env = gym.make("pickomino/Pickomino-v1", opponents="simple")
    for observation, _, _ in masked_random_episode(env, 4):
        flat = flatten(observation)
        assert flat.dtype == np.float32 and flat.min() >= 0 and flat.max() <= 1


@settings(max_examples=25, deadline=None)
@given(setups())
def test_the_flat_observation_is_the_observation_flattened_to_the_bit(setup):
    """The multi-agent environments' fast path (:func:`flat_observation`) against the
    observation's arrays flattened, from every seat, in every state of whole games."""
    for step in play(setup):
        state = step.game.state
        for seat in range(state.num_players):
            fast, slow = flat_observation(state, seat), flatten(observe(state, seat))
            assert fast.dtype == slow.dtype and fast.tobytes() == slow.tobytes(), state.to_text()
