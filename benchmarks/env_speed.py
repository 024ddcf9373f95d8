"""Environment steps per second: our Gymnasium env (single and vectorised) beside the PyPI
env `pickomino-env`, in one run. The target is 10x the peer's steps per second.

Every contender is 2 players: a random agent choosing uniformly among the legal actions
(by the action mask; the peer's legal actions are worked out as in peer_pickomino_env.py)
against a built-in heuristic bot (ours: `simple`; the peer's own bot). A step is one agent
decision; the bot's turns happen inside it, as in the peer.

Run: ``.venv/bin/python benchmarks/env_speed.py [--steps 20000] [--num-envs 64]``
(needs ``pip install -e '.[rl,bench]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import pickomino.envs  # noqa: F401  (registers the environments)


def ours_single(steps: int, seed: int) -> float:
    env = gym.make("pickomino/Pickomino-v1", opponents="simple", disable_env_checker=True)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, _, terminated, _, _ = env.step(action)
        if terminated:
            observation, _ = env.reset()
    return steps / (time.perf_counter() - start)


def ours_vector(steps: int, seed: int, num_envs: int) -> float:
    envs = gym.make_vec("pickomino/Pickomino-v1", num_envs=num_envs, opponents="simple")
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(max(1, steps // num_envs)):
        # one uniform legal action per game: argmax of random keys over the legal ids
        keys = rng.random(observations["action_mask"].shape) * observations["action_mask"]
        observations, *_ = envs.step(keys.argmax(axis=1))
    return max(1, steps // num_envs) * num_envs / (time.perf_counter() - start)


def peer(steps: int, seed: int) -> float | None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from peer_pickomino_env import play_peer_games
    except ImportError:
        return None
    try:
        start = time.perf_counter()
        done, decisions = 0, 0
        while decisions < steps:
            _, more = play_peer_games(20, seed + done)
            done, decisions = done + 20, decisions + more
    except ImportError:
        return None
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    theirs = peer(args.steps // 4, args.seed)
    single = ours_single(args.steps, args.seed)
    vector = ours_vector(args.steps, args.seed, args.num_envs)
    print(f"2 players, random masked agent vs a heuristic bot, {args.steps} steps each")
    rows = [("pickomino Pickomino-v1", single), (f"pickomino make_vec x{args.num_envs}", vector)]
    if theirs is None:
        print("pickomino-env not installed: pip install -e '.[bench]'")
    else:
        rows.insert(0, ("pickomino-env (peer)", theirs))
    for label, rate in rows:
        ratio = f"  {rate / theirs:5.1f}x peer" if theirs else ""
        print(f"{label:<28} {rate:10.0f} steps/s{ratio}")


if __name__ == "__main__":
    main()
