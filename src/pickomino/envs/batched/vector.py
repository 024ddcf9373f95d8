"""Gymnasium vector environment over the batched engine: ``num_envs`` games against batched
bots, one NumPy pass per step for all of them.

The agent's action ids, action masks and observations are those of ``Pickomino-v1``
(:mod:`pickomino.envs.spaces`), so a policy trained on one runs on the other. A finished
game is reset in the same step (``infos["final_obs"]`` holds its last observation and
``infos["win_share"]`` the agent's share of the win: 1, 1/k for a win shared by k, 0; NaN for
the games that go on); the
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
from pickomino.envs.against_bots import REWARDS, opponent_list
from pickomino.envs.batched.bots import BATCHED_BOTS, BatchedBot
from pickomino.envs.batched.engine import (
    MASK_BITS,
    OVER,
    PHASES,
    ROLL,
    BatchedGames,
    sample_rolls,
)
from pickomino.envs.spaces import observation_space

#: ``[phase]`` → whether a player decides there (not at a roll, not at the end).
_DECIDES = np.array([phase not in (ROLL, OVER) for phase in range(len(PHASES))])


class PickominoBatchedEnv(VectorEnv):
    """``num_envs`` games of ``players``; the agent sits at ``seat`` (None: a random seat
    per game), the batched bots ``opponents`` (``random``, ``simple``, ``expected``) at the
    others.
    Rewards as in :class:`~pickomino.envs.against_bots.GameAgainstBots`: ``"worms"`` or ``"win"``.
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
        #: ``[env, k]`` → the flat index (row * players + seat) of the k-th seat from the agent
        self._order = np.zeros((num_envs, players), np.int64)
        self._rotations = (np.arange(players)[:, None] + np.arange(players)) % players
        self._seat(np.arange(num_envs), seat or 0)
        self.single_observation_space = observation_space(players)
        self.single_action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._mask = np.zeros((num_envs, NUM_ACTIONS), bool)
        self._worms = np.zeros(num_envs, np.int64)  # the agent's worms at its last decision

    # ------------------------------------------------------------------- api
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._start(self._rows)
        self._shares = np.full(self.num_envs, np.nan)
        self._play_bots(self._rows, np.zeros(self.num_envs), {})
        return self._observe(), {"action_mask": self._mask}

    def step(self, actions: np.ndarray):
        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        self._refuse_illegal(actions)
        self.games.apply_actions(self._rows, actions)
        rewards = np.zeros(self.num_envs)
        final: dict[int, dict[str, np.ndarray]] = {}
        self._shares = np.full(self.num_envs, np.nan)
        terminated = self._play_bots(self._rows, rewards, final)
        if self.reward == "worms":
            worms = self._agent_worms()
            rewards = np.where(terminated, rewards, worms - self._worms)
            self._worms = np.where(terminated, self._worms, worms)
        observations = self._observe()
        infos: dict[str, Any] = {"action_mask": self._mask}
        if final:
            infos["final_obs"] = np.full(self.num_envs, None, object)
            for row, last in final.items():
                infos["final_obs"][row] = last
            infos["_final_obs"] = terminated
            infos["win_share"] = self._shares
        truncated = np.zeros(self.num_envs, bool)
        return observations, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans ``[env, action]`` (maskable PPO)."""
        return self._mask.copy()

    # ----------------------------------------------------------------- inner
    def _start(self, rows: np.ndarray) -> None:
        """New games in ``rows``, the agent seated (the agent has no worms before its first
        decision: it takes tiles only by its own claims)."""
        if self.fixed_seat is None:
            self._seat(rows, self.np_random.integers(self.players, size=rows.size))
        self.games.reset(rows)
        self._worms[rows] = 0

    def _seat(self, rows: np.ndarray, seats: np.ndarray | int) -> None:
        """Seat the agent at ``seats`` in the games ``rows``."""
        self.seats[rows] = seats
        rotations = self._rotations.take(self.seats[rows], axis=0)
        self._order[rows] = rows[:, None] * self.players + rotations

    def _play_bots(
        self, rows: np.ndarray, rewards: np.ndarray, final: dict[int, dict[str, np.ndarray]]
    ) -> np.ndarray:
        """Roll the dice and let the bots decide until every game in ``rows`` waits for the
        agent. A game that ends on the way pays its final reward into ``rewards``, leaves
        its last observation in ``final`` and starts again at once (same-step autoreset);
        returns which games ended. One pass rolls, keeps, and decides to roll or stop, so a
        bot's turn takes one pass per roll (a step lasts as long as its longest chain of
        bot decisions, each pass a fixed number of NumPy calls)."""
        games, rng, seats = self.games, self.np_random, self.seats
        ended = np.zeros(self.num_envs, bool)
        while rows.size:
            phase = games.phase[rows]
            over = phase == OVER
            if np.count_nonzero(over):
                self._finish(rows[over], rewards, final)
                ended[rows[over]] = True
                phase = games.phase[rows]
            rolling = rows[phase == ROLL]
            if rolling.size:
                games.apply_rolls(rolling, sample_rolls(rng, games.dice_left[rolling]))
            decision = _DECIDES[games.phase[rows]]
            waits = decision & (games.current[rows] == seats[rows])  # the agent's turn
            deciding = rows[decision ^ waits]
            rows = rows[~waits]  # the agent's decisions leave the loop
            if deciding.size:
                games.apply_actions(deciding, self._bot_actions(deciding))
            deciding = rows[_DECIDES[games.phase[rows]]]  # the bots' again: keeping left no
            if deciding.size:  # decision to the agent (only a roll or its own action does)
                games.apply_actions(deciding, self._bot_actions(deciding))
        return ended

    def _finish(
        self, rows: np.ndarray, rewards: np.ndarray, final: dict[int, dict[str, np.ndarray]]
    ) -> None:
        """Pay the final rewards of the games in ``rows``, keep their last observations
        (by row), and start new games there."""
        winners = self.games.winners(rows)
        won = winners[np.arange(rows.size), self.seats[rows]]
        self._shares[rows] = np.where(won, 1.0 / winners.sum(axis=1), 0.0)
        if self.reward == "worms":
            rewards[rows] = self.games.worms[rows, self.seats[rows]] - self._worms[rows]
        else:
            rewards[rows] = np.where(won, self._shares[rows], -1.0)
        last = self._observe(ended=rows)
        for i, row in enumerate(rows.tolist()):
            final[row] = {key: value[i] for key, value in last.items()}
        self._start(rows)

    def _bot_actions(self, rows: np.ndarray) -> np.ndarray:
        games = self.games
        first = self.bots[1]
        if all(bot is first for bot in self.bots[1:]):
            return first(games, rows, self.np_random)  # type: ignore[misc]
        opponent = (games.current[rows] - self.seats[rows]) % self.players
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
        return self.games.worms.reshape(-1)[self._order[:, 0]]

    def _observe(self, ended: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """The observations of every game (whose masks are then kept for the next step), or
        of the games ``ended`` (where no action is legal), from each game's agent seat,
        seats rotated so that index 0 is the agent, laid out as
        :func:`~pickomino.envs.spaces.empty_batch`."""
        games = self.games
        if ended is None:
            at = self._rows
            mask = self._mask = games.action_mask()
        else:
            at = ended
            mask = np.zeros((at.size, NUM_ACTIONS), bool)
        order = self._order.take(at, axis=0)
        return {
            "grill": MASK_BITS.take(games.grill[at], axis=0),
            "face_down": MASK_BITS.take(games.face_down[at], axis=0),
            "tops": games.tops.reshape(-1)[order] + 1,
            "worms": games.worms.reshape(-1)[order],
            "kept": games.kept.take(at, axis=0),
            "roll": games.roll_counts(at),
            "total": games.total[at],
            "dice_left": games.dice_left[at],
            "action_mask": mask.astype(np.int8),
        }
