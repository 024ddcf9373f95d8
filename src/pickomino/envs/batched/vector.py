"""Gymnasium vector environment over the batched engine: ``num_envs`` games against batched
bots, one NumPy pass per step for all of them.

The agent's action ids, action masks and observations are those of ``Pickomino-v1``
(:mod:`pickomino.envs.observation`), so a policy trained on one runs on the other. A finished
game is reset in the same step (``infos["final_obs"]`` holds its last observation); the
action masks are in the observation and, as booleans, in ``infos["action_mask"]`` and
:meth:`PickominoBatchedEnv.action_masks`.

>>> import gymnasium as gym
>>> import pickomino.envs
>>> envs = gym.make_vec("pickomino/PickominoBatched-v1", num_envs=256, opponents="simple")
>>> observations, infos = envs.reset(seed=0)
>>> observations["action_mask"].shape, bool(infos["action_mask"].any(axis=1).all())
((256, 40), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pickomino.core import NUM_ACTIONS, Action, GameState, Rules
from pickomino.envs.batched.bots import BATCHED_BOTS, BatchedBot
from pickomino.envs.batched.engine import MASK_BITS, OVER, ROLL, BatchedGames, sample_rolls
from pickomino.envs.observation import observation_space
from pickomino.envs.table import REWARDS, opponent_list


class PickominoBatchedEnv(VectorEnv):
    """``num_envs`` games of ``players``; the agent sits at ``seat`` (None: a random seat
    per game), the batched bots ``opponents`` (``random``, ``simple``) at the others.
    Rewards as in :class:`~pickomino.envs.table.Table`: ``"worms"`` or ``"win"``.
    An action the mask rules out raises ``ValueError`` naming the game."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1024,
        players: int = 2,
        opponents: str | Sequence[str] = "simple",
        rules: str | Rules = "official",
        reward: str = "worms",
        seat: int | None = 0,
        **_: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}")
        GameState(players)  # refuses a player count outside 2..7 (R1)
        names = opponent_list(opponents, players)  # refuses unknown bots
        slow = sorted(set(names) - set(BATCHED_BOTS))
        if slow:
            raise ValueError(f"no batched bot {slow}: choose among {list(BATCHED_BOTS)}")
        self.bots: list[BatchedBot | None] = [None, *(BATCHED_BOTS[name] for name in names)]
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.num_envs, self.players, self.reward, self.fixed_seat = num_envs, players, reward, seat
        self.games = BatchedGames(num_envs, players, self.rules)
        self.seats = np.zeros(num_envs, np.int64)
        self.single_observation_space = observation_space(players)
        self.single_action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._mask = np.zeros((num_envs, NUM_ACTIONS), bool)

    # ------------------------------------------------------------------- api
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._restart(self._rows)
        self._worms = self._agent_worms()
        return self._observe(), {"action_mask": self._mask}

    def step(self, actions: np.ndarray):
        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        self._refuse_illegal(actions)
        games, rows = self.games, self._rows
        games.apply_actions(rows, actions)
        self._play_bots(rows)
        worms = self._agent_worms()
        terminated = games.phase == OVER
        rewards = self._rewards(worms, terminated)
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(terminated)
        if ended.size:
            final = self._observe()
            infos["final_obs"] = np.array(
                [
                    {k: v[row] for k, v in final.items()} if done else None
                    for row, done in enumerate(terminated)
                ],
                object,
            )
            infos["_final_obs"] = terminated
            self._restart(ended)
            worms[ended] = self._agent_worms()[ended]
        self._worms = worms
        observations = self._observe()
        infos["action_mask"] = self._mask
        truncated = np.zeros(self.num_envs, bool)
        return observations, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans ``[env, action]`` (maskable PPO)."""
        return self._mask.copy()

    # ----------------------------------------------------------------- inner
    def _restart(self, rows: np.ndarray) -> None:
        if self.fixed_seat is None:
            self.seats[rows] = self.np_random.integers(self.players, size=rows.size)
        else:
            self.seats[rows] = self.fixed_seat
        self.games.reset(rows)
        self._play_bots(rows)

    def _play_bots(self, rows: np.ndarray) -> None:
        """Roll the dice and let the bots decide until every game in ``rows`` waits for the
        agent or is over. One pass rolls, keeps, and decides to roll or stop, so a bot's turn
        takes one pass per roll."""
        games, rng = self.games, self.np_random
        while rows.size:
            rolling = rows[games.phase[rows] == ROLL]
            if rolling.size:
                games.apply_rolls(rolling, sample_rolls(rng, games.dice_left[rolling]))
            for _ in range(2):
                phase = games.phase[rows]
                bots = (phase != OVER) & (games.current[rows] != self.seats[rows])
                rows = rows[bots | (phase == ROLL)]
                deciding = rows[games.phase[rows] != ROLL]
                if deciding.size:
                    games.apply_actions(deciding, self._bot_actions(deciding))

    def _bot_actions(self, rows: np.ndarray) -> np.ndarray:
        games = self.games
        opponent = (games.current[rows] - self.seats[rows]) % self.players
        first = self.bots[1]
        if all(bot is first for bot in self.bots[1:]):
            return first(games, rows, self.np_random)  # type: ignore[misc]
        actions = np.zeros(rows.size, np.int64)
        for bot in set(self.bots[1:]):
            mine = np.isin(opponent, [i for i, b in enumerate(self.bots) if b is bot])
            actions[mine] = bot(games, rows[mine], self.np_random)  # type: ignore[misc]
        return actions

    def _refuse_illegal(self, actions: np.ndarray) -> None:
        legal = (actions >= 0) & (actions < NUM_ACTIONS)
        legal[legal] = self._mask[self._rows[legal], actions[legal]]
        if legal.all():
            return
        row = int(np.flatnonzero(~legal)[0])
        allowed = ", ".join(
            f"{i} ({Action.from_id(int(i)).name})" for i in np.flatnonzero(self._mask[row])
        )
        raise ValueError(
            f"environment {row}: action {actions[row]} is not legal now; legal: {allowed}"
        )

    def _agent_worms(self) -> np.ndarray:
        return self.games.worms[self._rows, self.seats]

    def _rewards(self, worms: np.ndarray, terminated: np.ndarray) -> np.ndarray:
        if self.reward == "worms":
            return (worms - self._worms).astype(np.float64)
        winners = self.games.winners()
        won = winners[self._rows, self.seats]
        share = np.where(won, 1.0 / winners.sum(axis=1), -1.0)
        return np.where(terminated, share, 0.0)

    def _observe(self) -> dict[str, np.ndarray]:
        """The batch of observations from each game's agent seat (seats rotated so that
        index 0 is the agent), laid out as :func:`~pickomino.envs.observation.empty_batch`."""
        games = self.games
        order = (self.seats[:, None] + np.arange(self.players)) % self.players
        self._mask = games.action_mask()
        return {
            "grill": MASK_BITS[games.grill],
            "face_down": MASK_BITS[games.face_down],
            "tops": np.take_along_axis(games.tops, order, axis=1) + 1,
            "worms": np.take_along_axis(games.worms, order, axis=1),
            "kept": games.kept.copy(),
            "roll": games.roll_counts(),
            "total": games.total.copy(),
            "dice_left": games.dice_left.copy(),
            "action_mask": self._mask.astype(np.int8),
        }
