"""PettingZoo environments against the core engine: a turn is several decisions by one
agent, and the agent to move is always the core's current player.

Each game is played twice at once: through the environment, and on a bare core
:class:`GameState` given the same actions and the same seeded dice stream
(``SeededDice(seed)``, as the environments document). The environment's internals are not
consulted: only its public face (``agent_selection``, observations, rewards, terminations).
"""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from pickomino.core import Bust, GameState, Rules
from pickomino.envs.aec import env as aec_env
from pickomino.envs.observation import flat_size
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
        legal = [int(legal) for legal in core.state.action_mask()]
        assert observation["action_mask"].tolist() == legal
        assert observation["observation"].shape == (flat_size(players),)
        if decisions_this_turn == 0:  # the others may not act (checked once a turn: quick)
            assert not any(game.observe(a)["action_mask"].any() for a in others(game, name))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        before, turn = core.state.scores(), core.state.turn
        game.step(action)
        events = core.play(action)
        decisions_this_turn += 1
        after = core.state.scores()
        if reward == "worms":
            changes = [float(a - b) for a, b in zip(after, before, strict=True)]
        elif core.state.is_over:
            changes = core.win_rewards()
        else:
            changes = [0.0] * players
        assert game.rewards == {agent(s): changes[s] for s in range(players)}
        if core.state.turn == turn and not core.state.is_over:  # the turn goes on
            assert game.agent_selection == name
            continue
        seen["bust" if any(isinstance(e, Bust) for e in events) else "claim"] += 1
        seen["long turn" if decisions_this_turn >= 4 else "short turn"] += 1
        decisions_this_turn = 0
        if not core.state.is_over:
            assert game.agent_selection == agent(core.state.current) != name
    assert ended and sorted(ended) == sorted(game.possible_agents) and not game.agents
    if reward == "worms":
        expected_totals = [float(core.state.worms(s)) for s in range(players)]
    else:
        expected_totals = core.win_rewards()
    assert [received[a] for a in game.possible_agents] == expected_totals
    seen["games"] += 1
    return seen


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 7),
    reward=st.sampled_from(REWARD_KINDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_aec_agent_is_the_core_player_to_move_through_whole_games(players, reward, seed):
    for case in play_aec_beside_core(players, reward, seed):
        event(case)


def test_aec_games_meet_busts_claims_and_long_turns():
    """The cases the property must meet: a turn passing by a bust and by a claim, turns of
    two or three decisions and of four or more, and the end of the game, with every player
    count."""
    seen: Counter[str] = Counter()
    for players in range(2, 8):
        seen += play_aec_beside_core(players, REWARD_KINDS[players % 2], seed=players)
    assert seen["games"] == 6 and seen["bust"] > 0 and seen["claim"] > 0
    assert seen["long turn"] > 0 and seen["short turn"] > 0


@pytest.mark.parametrize("players", range(2, 8))
def test_aec_passes_pettingzoo_api_test(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(players=players), num_cycles=300)
