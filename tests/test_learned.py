"""The learned bot (a NumPy policy from ``scripts/train_ppo.py``) and a tiny training run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from pickomino.bots import make_bot
from pickomino.bots.learned import LearnedBot, Policy
from pickomino.core import GameState
from pickomino.table import SeededDice, advance

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def play(bots, seed: int) -> GameState:
    state = GameState(len(bots))
    advance(state, bots, SeededDice(seed))
    return state


def test_the_shipped_policy_plays_whole_games_legally():
    for seed in range(3):
        assert play([make_bot("learned"), make_bot("simple")], seed).is_over


def test_at_a_table_of_another_size_it_plays_as_simple():
    learned, simple = make_bot("learned"), make_bot("simple")
    state = GameState(3)
    state.apply_roll("1233WWW5")
    assert learned.choose(state) == simple.choose(state)
    assert play([learned, simple, make_bot("random")], 2).is_over


@pytest.fixture(scope="module")
def train_ppo():
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPTS / "train_ppo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # importing PyTorch and matplotlib takes seconds
def test_a_tiny_training_run_writes_weights_the_bot_plays(tmp_path, train_ppo):
    weights, curve = tmp_path / "w.npz", tmp_path / "curve.png"
    train_ppo.main(
        ["--updates", "3", "--num-envs", "16", "--rollout", "8", "--minibatches", "2",
         "--hidden", "16", "--imitate", "64", "--imitate-epochs", "1", "--critic-warmup", "1",
         "--eval-every", "2", "--eval-games", "4", "--keep-best",
         "--out", str(weights), "--curve", str(curve)]
    )  # fmt: skip
    rows = curve.with_suffix(".csv").read_text().splitlines()
    assert curve.exists() and len(rows) == 4
    greedy = [row.split(",")[-1] for row in rows[1:]]
    assert greedy[1] == "nan" and 0 <= float(greedy[0]) <= 1 and 0 <= float(greedy[2]) <= 1
    bot = LearnedBot(policy=Policy.load(weights))
    assert play([bot, make_bot("random")], 1).is_over


@pytest.mark.slow
def test_the_same_command_trains_the_same_weights(tmp_path, train_ppo):
    runs = []
    for name in ("a", "b"):
        weights = tmp_path / f"{name}.npz"
        train_ppo.main(
            ["--updates", "2", "--num-envs", "8", "--rollout", "8", "--minibatches", "2",
             "--hidden", "8", "--imitate", "32", "--imitate-epochs", "1", "--seed", "7",
             "--eval-every", "1", "--eval-games", "4",
             "--out", str(weights), "--curve", str(tmp_path / f"{name}.png")]
        )  # fmt: skip
        runs.append(Policy.load(weights).layers)
    for (w1, b1), (w2, b2) in zip(*runs, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


@pytest.mark.slow
def test_the_lead_reward_pays_the_change_in_lead_and_the_win_at_the_end(train_ppo):
    worms_now = np.array([[3, 1], [0, 0]])  # game 1 ended and started again
    final = np.array([None, {"worms": np.array([5, 2])}], object)
    infos = {"final_obs": final, "win_share": np.array([np.nan, 1.0])}
    reward = train_ppo.lead_reward(
        {"worms": worms_now}, np.array([False, True]), infos, np.array([0.0, 1.0]), 5.0
    )
    assert reward.tolist() == [2.0, 3 - 1 + 5.0]


@pytest.mark.slow
def test_evaluating_refuses_weights_that_are_not_the_shipped_ones(tmp_path, train_ppo):
    with pytest.raises(SystemExit):
        train_ppo.main(["--evaluate", "10", "--out", str(tmp_path / "w.npz")])


@pytest.mark.slow
@pytest.mark.parametrize("option", ["--out", "--curve"])
def test_an_output_that_cannot_be_written_is_refused_before_training(
    tmp_path, train_ppo, monkeypatch, option
):
    monkeypatch.setattr(train_ppo, "train", lambda args: pytest.fail("trained"))
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    paths = {"--out": str(tmp_path / "w.npz"), "--curve": str(tmp_path / "c.png")}
    paths[option] = str(blocked / "inside")  # its folder is a file
    with pytest.raises(SystemExit) as refused:
        train_ppo.main(["--updates", "1", *(item for pair in paths.items() for item in pair)])
    assert refused.value.code == 2
