"""PettingZoo steps per second, in one run: the parallel environment observing every seat at
every step with :func:`pickomino.observation.flat_observation` (what it does), against the
naive path in the same process (the observation's arrays built, then flattened: what it did
before). Random legal actions for the agent to move; 2, 4 and 7 players.

Rates are steps per second of CPU time of this one process.

Run: ``.venv/bin/python benchmarks/agents_speed.py [--steps 20000]`` (needs ``pip install -e
'.[rl]'``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pickomino.core import NUM_ACTIONS
from pickomino.envs.agents_table import AgentsTable
from pickomino.envs.parallel import parallel_env
from pickomino.envs.spaces import flatten, observe


def naive_observe(table: AgentsTable, agent: str) -> dict[str, np.ndarray]:
    """The observation as the environment built it before: the arrays, then the flat form."""
    seat = table.agents.index(agent)
    observation = observe(table.state, seat)
    if seat != table.state.current:
        observation["action_mask"] = np.zeros(NUM_ACTIONS, np.int8)
    return {"observation": flatten(observation), "action_mask": observation["action_mask"]}


def steps_per_second(players: int, steps: int, seed: int) -> float:
    env = parallel_env(players=players)
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    start, done = time.process_time(), 0
    while done < steps:
        if not env.agents:
            observations, _ = env.reset(seed=seed + done)
        mover = env.agent_to_move
        legal = np.flatnonzero(observations[mover]["action_mask"])
        observations, *_ = env.step({mover: int(rng.choice(legal))})
        done += 1
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    fast = AgentsTable.observe
    print("PettingZoo parallel env, random legal actions; steps per CPU second")
    for players in (2, 4, 7):
        AgentsTable.observe = naive_observe  # type: ignore[method-assign]
        naive = steps_per_second(players, args.steps, args.seed)
        AgentsTable.observe = fast  # type: ignore[method-assign]
        ours = steps_per_second(players, args.steps, args.seed)
        print(
            f"{players} players: {ours:10,.0f} steps/s, naive {naive:10,.0f}  ({ours / naive:.2f}x)"
        )


if __name__ == "__main__":
    main()
