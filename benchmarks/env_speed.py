"""Environment steps per second, in one run: the PyPI env `pickomino-env` (the peer), our
single Gymnasium env, our `make_vec` over single games, and the batched engine's vector env
(`pickomino/PickominoBatched-v1`) at several sizes. The target is 100x the peer at N = 1,024.

Every contender is 2 players: a random agent choosing uniformly among the legal actions
(by the action mask; the peer's legal actions are worked out as in peer_pickomino_env.py)
against a built-in heuristic bot (ours: `simple`, or another with ``--opponents``; the
peer's own bot). A step is one agent decision; the bot's turns happen inside it, as in the
peer.

Rates are agent steps per second of CPU time of this one process (one core: nothing here
runs threads), so that other work on a shared machine tilts the ratios less; pass
``--wall`` for wall-clock time. The load average is printed beside them, as it still moves
the ratios (the peer's pure Python suffers more from a busy machine than NumPy does).

Run: ``.venv/bin/python benchmarks/env_speed.py [--steps 20000] [--sizes 64 1024 8192]``
(needs ``pip install -e '.[rl,bench]'``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np

import pickomino.envs  # noqa: F401  (registers the environments)

Clock = Callable[[], float]


def ours_single(steps: int, seed: int, clock: Clock, opponents: str = "simple") -> float:
    env = gym.make("pickomino/Pickomino-v1", opponents=opponents, disable_env_checker=True)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    start = clock()
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, _, terminated, _, _ = env.step(action)
        if terminated:
            observation, _ = env.reset()
    return steps / (clock() - start)


def ours_vector(
    env_id: str, steps: int, seed: int, num_envs: int, clock: Clock, opponents: str = "simple"
) -> float:
    envs = gym.make_vec(env_id, num_envs=num_envs, opponents=opponents)
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    calls = max(10, steps // num_envs)
    start = clock()
    for _ in range(calls):
        # one uniform legal action per game: argmax of random keys over the legal ids
        keys = rng.random(observations["action_mask"].shape) * observations["action_mask"]
        observations, *_ = envs.step(keys.argmax(axis=1))
    return calls * num_envs / (clock() - start)


def peer(steps: int, seed: int, clock: Clock) -> float | None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from peer_pickomino_env import play_peer_games

        start = clock()
        done, decisions = 0, 0
        while decisions < steps:
            _, more = play_peer_games(20, seed + done)
            done, decisions = done + 20, decisions + more
    except ImportError:
        return None
    return decisions / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000, help="agent steps per contender")
    parser.add_argument("--num-envs", type=int, default=64, help="games in make_vec today")
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 1024, 8192])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument(
        "--opponents", default="simple", help="our bot (the peer always plays its own)"
    )
    args = parser.parse_args()
    clock: Clock = time.perf_counter if args.wall else time.process_time
    steps = args.steps
    load_before = os.getloadavg()[0]
    theirs = peer(steps // 4, args.seed, clock)
    rows = [
        ("pickomino Pickomino-v1", ours_single(steps, args.seed, clock, args.opponents)),
        (
            f"pickomino make_vec x{args.num_envs}",
            ours_vector(
                "pickomino/Pickomino-v1", steps, args.seed, args.num_envs, clock, args.opponents
            ),
        ),
    ]
    for size in args.sizes:
        rate = ours_vector(
            "pickomino/PickominoBatched-v1", 20 * steps, args.seed, size, clock, args.opponents
        )
        rows.append((f"PickominoBatched-v1 N={size:,}", rate))
    kind = "wall-clock" if args.wall else "CPU"
    print(f"2 players, random masked agent vs {args.opponents}; agent steps per {kind} second")
    print(f"load average (1 min) {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    if theirs is None:
        print("pickomino-env not installed: pip install -e '.[bench]'")
    else:
        rows.insert(0, ("pickomino-env (peer)", theirs))
    for label, rate in rows:
        ratio = f"  {rate / theirs:7.1f}x peer" if theirs else ""
        print(f"{label:<30} {rate:12,.0f} steps/s{ratio}")


if __name__ == "__main__":
    main()
