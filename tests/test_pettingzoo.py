"""PettingZoo environments against the core engine: a turn is several decisions by one
agent, and the agent to move is always the core's current player.

Each game is played twice at once: through the environment, and on a bare core
:class:`GameState` given the same actions and the same seeded dice stream
(``SeededDice(seed)``, as the environments document). The environment's internals are not
consulted: only its public face (``agent_selection``, observations, rewards, terminations).
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test

from pickomino.core import Bust, GameState, Rules
from pickomino.envs.aec import env as aec_env
from pickomino.envs.parallel import parallel_env
from pickomino.envs.spaces import flat_size
from pickomino.table import SeededDice

REWARD_KINDS = ("worms", "win")


def agent(seat: int) -> str:
    return f"player_{seat}"


class CoreMirror:
    """The same game on a bare core state: the environment's actions, the dice from
    ``SeededDice(seed)``, rolled here one by one (not through the table's play loop)."""

    def __init__(self, players: int, seed: int, rules: Rules) -> None:
        self.state = GameState(players, rules)
        self.dice = SeededDice(seed)
        self.events: list[object] = []
        self._roll()

    def _roll(self) -> None:
        while self.state.is_chance():
            self.events += self.state.apply_roll(self.dice.roll(self.state))

    def play(self, action: int) -> list[object]:
        self.events = self.state.apply(action)
        self._roll()
        return self.events

    def win_rewards(self) -> list[float]:
        winners = self.state.winners()
        return [1 / len(winners) if s in winners else -1.0 for s in range(self.state.num_players)]

    def rewards(self, kind: str, before: list[int]) -> list[float]:
        """Every seat's reward for the step that led from worms ``before`` to now."""
        if kind == "worms":
            return [float(a - b) for a, b in zip(self.state.scores(), before, strict=True)]
        return self.win_rewards() if self.state.is_over else [0.0] * self.state.num_players

    def totals(self, kind: str) -> list[float]:
        """What every seat's rewards add up to over the whole game."""
        if kind == "worms":
            return [float(self.state.worms(s)) for s in range(self.state.num_players)]
        return self.win_rewards()

    def legal_mask(self) -> list[int]:
        return [int(legal) for legal in self.state.action_mask()]


def turn_ending(events: list[object]) -> str:
    return "bust" if any(isinstance(e, Bust) for e in events) else "claim"


def others(game, name: str) -> list[str]:
    return [a for a in game.possible_agents if a != name]


def play_aec_beside_core(players: int, reward: str, seed: int) -> Counter[str]:
    """One AEC game with random legal actions, checked step by step against the core;
    returns what it saw (for the tests that the interesting cases were met)."""
    rules = Rules.parse("official")
    game = aec_env(players=players, reward=reward)
    game.reset(seed=seed)
    core = CoreMirror(players, seed, rules)
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    received = dict.fromkeys(game.possible_agents, 0.0)
    decisions_this_turn = 0
    ended: list[str] = []
    for name in game.agent_iter():
        observation, cumulative, terminated, truncated, _ = game.last()
        received[name] += cumulative
        assert not truncated
        if core.state.is_over:  # every agent is told once, then leaves
            assert terminated and name not in ended and not observation["action_mask"].any()
            assert all(game.terminations[a] for a in game.agents)
            ended.append(name)
            game.step(None)
            continue
        assert not terminated
        assert name == game.agent_selection == agent(core.state.current)
        assert observation["action_mask"].tolist() == core.legal_mask()
        assert observation["observation"].shape == (flat_size(players),)
        if decisions_this_turn == 0:  # the others may not act (checked once a turn: quick)
            assert not any(game.observe(a)["action_mask"].any() for a in others(game, name))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        before, turn = core.state.scores(), core.state.turn
        game.step(action)
        events = core.play(action)
        decisions_this_turn += 1
        changes = core.rewards(reward, before)
        assert game.rewards == {agent(s): changes[s] for s in range(players)}
        if core.state.turn == turn and not core.state.is_over:  # the turn goes on
            assert game.agent_selection == name
            continue
        seen[turn_ending(events)] += 1
        seen["long turn" if decisions_this_turn >= 4 else "short turn"] += 1
        decisions_this_turn = 0
        if not core.state.is_over:
            assert game.agent_selection == agent(core.state.current) != name
    assert ended and sorted(ended) == sorted(game.possible_agents) and not game.agents
    assert [received[a] for a in game.possible_agents] == core.totals(reward)
    seen["games"] += 1
    return seen


def test_aec_games_meet_busts_claims_and_long_turns():
    """The cases the property must meet: a turn passing by a bust and by a claim, turns of
    two or three decisions and of four or more, and the end of the game (the quick run
    plays two games; the property above, marked slow, plays every player count)."""
    seen = play_aec_beside_core(2, "worms", seed=2) + play_aec_beside_core(7, "win", seed=7)
    assert seen["games"] == 2 and seen["bust"] > 0 and seen["claim"] > 0
    assert seen["long turn"] > 0 and seen["short turn"] > 0


#: Cycles of PettingZoo's API tests: the quick run's, and enough to end random games.
QUICK_CYCLES, WHOLE_GAME_CYCLES = 150, 5000
CYCLES = [QUICK_CYCLES, pytest.param(WHOLE_GAME_CYCLES, marks=pytest.mark.slow)]


@pytest.mark.parametrize("cycles", CYCLES)
@pytest.mark.parametrize("players", range(2, 8))
def test_aec_passes_pettingzoo_api_test(players, cycles):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(players=players), num_cycles=cycles)


# ------------------------------------------------------------------ parallel API
#: What agents that do not move may send: anything, or nothing (``OMIT``).
OMIT = object()
IDLE_ACTIONS = (0, None, "no move", 39, OMIT)


def random_actions(env, observations, rng) -> dict[str, object]:
    """The agent to move's random legal action, and for the others whatever comes."""
    actions: dict[str, object] = {}
    for name in env.agents:
        legal = np.flatnonzero(observations[name]["action_mask"])
        action = rng.choice(legal) if legal.size else IDLE_ACTIONS[rng.integers(5)]
        if action is not OMIT:
            actions[name] = action
    return actions


def play_parallel_beside_core(players: int, reward: str, seed: int) -> Counter[str]:
    """One parallel game with random legal actions (the others sending anything), checked
    step by step against the core; returns what it saw."""
    env = parallel_env(players=players, reward=reward)
    observations, infos = env.reset(seed=seed)
    core = CoreMirror(players, seed, Rules.parse("official"))
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    received = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        mover = agent(core.state.current)
        assert env.agent_to_move == mover and set(observations) == set(infos) == set(env.agents)
        for name in env.agents:
            expected = core.legal_mask() if name == mover else [0] * len(core.legal_mask())
            assert observations[name]["action_mask"].tolist() == expected
            assert infos[name]["action_mask"].tolist() == expected
        actions = random_actions(env, observations, rng)
        before, turn = core.state.scores(), core.state.turn
        observations, rewards, terminations, truncations, infos = env.step(actions)
        events = core.play(int(actions[mover]))
        assert set(rewards) == set(terminations) == set(truncations) == set(observations)
        changes = core.rewards(reward, before)
        assert rewards == {agent(s): changes[s] for s in range(players)}
        for name, value in rewards.items():
            received[name] += value
        assert not any(truncations.values())
        assert all(terminations.values()) == core.state.is_over == (not env.agents)
        assert any(terminations.values()) == core.state.is_over
        if core.state.turn != turn or core.state.is_over:
            seen[turn_ending(events)] += 1
    assert set(observations) == set(env.possible_agents)  # the last step told everyone
    assert not any(o["action_mask"].any() for o in observations.values())
    assert [received[a] for a in env.possible_agents] == core.totals(reward)
    seen["games"] += 1
    return seen


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.parametrize("play_beside_core", [play_aec_beside_core, play_parallel_beside_core])
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 7),
    reward=st.sampled_from(REWARD_KINDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_agent_to_move_is_the_core_player_through_whole_games(
    play_beside_core, players, reward, seed
):
    """Both APIs (AEC and parallel), beside a bare core game, on any table and seed."""
    for case in play_beside_core(players, reward, seed):
        event(case)


def test_parallel_games_follow_the_core():
    seen = play_parallel_beside_core(3, "win", seed=3) + play_parallel_beside_core(6, "worms", 6)
    assert seen["games"] == 2 and seen["bust"] > 0 and seen["claim"] > 0


@pytest.mark.parametrize("cycles", CYCLES)
@pytest.mark.parametrize("players", range(2, 8))
def test_parallel_passes_pettingzoo_parallel_api_test(players, cycles):
    """The test sends every live agent an action sampled under its mask: 0 for the agents
    whose mask is all zeros, which the environment ignores."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its complaints (a live agent not told …) are warnings
        parallel_api_test(parallel_env(players=players), num_cycles=cycles)


def trajectory(env, seed: int, policy_seed: int) -> list[tuple]:
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps = []
    while env.agents:
        actions = random_actions(env, observations, rng)
        observations, rewards, terminations, _, _ = env.step(actions)
        flat = {a: o["observation"].tobytes() for a, o in observations.items()}
        steps.append((env.agent_to_move, flat, rewards, terminations))
    return steps


def test_parallel_same_seed_same_game():
    first = trajectory(parallel_env(players=2), seed=5, policy_seed=1)
    assert trajectory(parallel_env(players=2), seed=5, policy_seed=1) == first
    assert trajectory(parallel_env(players=2), seed=6, policy_seed=1) != first


def test_parallel_and_aec_play_the_same_game_for_the_same_seed_and_actions():
    parallel, aec = parallel_env(players=2, reward="win"), aec_env(players=2, reward="win")
    observations, _ = parallel.reset(seed=9)
    aec.reset(seed=9)
    rng = np.random.default_rng(9)
    while parallel.agents:
        assert aec.agent_selection == parallel.agent_to_move
        for name in parallel.agents:
            assert np.array_equal(
                aec.observe(name)["observation"], observations[name]["observation"]
            )
        actions = random_actions(parallel, observations, rng)
        observations, rewards, *_ = parallel.step(actions)
        aec.step(actions[aec.agent_selection])
        assert aec.rewards == rewards
    assert all(aec.terminations.values()) and aec.unwrapped.state == parallel.state


def test_parallel_refuses_a_missing_or_illegal_move_and_changes_nothing():
    env = parallel_env(players=2)
    observations, _ = env.reset(seed=3)
    before = env.state.copy()
    illegal = int(np.flatnonzero(observations["player_0"]["action_mask"] == 0)[0])
    for actions in (
        {},
        {"player_1": 0},
        {"player_0": illegal},
        {"player_0": 1.0},
        {"player_0": None},
    ):
        with pytest.raises(ValueError, match="player_0"):
            env.step(actions)
        assert env.state == before
    trajectory(env, seed=3, policy_seed=3)  # to the end
    with pytest.raises(ValueError, match="game is over"):
        env.step({"player_0": 0, "player_1": 0})


def test_the_agents_speed_benchmark_reports_every_table_size():
    """``benchmarks/agents_speed.py``, a tiny run: a line per table size, with its ratio."""
    script = Path(__file__).parents[1] / "benchmarks" / "agents_speed.py"
    done = subprocess.run(
        [sys.executable, str(script), "--steps", "50"],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = done.stdout.splitlines()[1:]
    assert [line.split()[0] for line in lines] == ["2", "4", "7"]
    assert all(line.endswith("x)") for line in lines)
