"""Pickomino as an OpenSpiel game: importing this module registers ``python_pickomino`` with
``pyspiel`` (``pip install -e '.[openspiel]'``; nothing else in pickomino imports it).

- **Parameters**: ``players`` (2–7, default 2), ``rules`` (a preset: ``official``, ``short``
  or ``bga``; default ``official``), ``max_turns`` (default 2,000; see *Length*).
- **Decisions** are the core's action ids (0–39, :mod:`pickomino.core.actions`), named as the
  core names them (``keep W``, ``roll``, ``take 27``).
- **Dice rolls** are explicit chance nodes: one outcome per multiset of faces the dice left can
  show, with its exact (multinomial) probability from :func:`pickomino.core.roll_outcomes`,
  as a float. An outcome's id is the roll's stable core id (:func:`pickomino.core.dice.roll_id`:
  all rolls of 0..8 dice, by number of dice, then in ``roll_outcomes`` order), so
  ``max_chance_outcomes`` is 3,003; id 0, the empty roll, never occurs. Its name is the
  record's, faces in order: ``dice 1145WW``.
- **Information**: perfect. The observation tensor is the flat vector of
  :mod:`pickomino.observation` from the observing player's seat (seats rotated so that the
  observer comes first); the state's string is the core state's JSON (``GameState.to_dict``).
- **Returns**, paid at the end only, are a zero-sum win utility: with ``n`` players of whom
  ``k`` share the win (R19, R20), each winner gets ``(n/k - 1)/(n - 1)`` and everyone else
  ``-1/(n - 1)``. As the highest tile breaks a tie in worms and no two players hold the
  same tile, a win is shared only by players without tiles, that is by the whole table: so
  a lone winner gets +1 and the others −1/(n − 1) (+1/−1 between two), or everyone gets 0.
  (PettingZoo's ``"win"`` reward gives −1 to every loser; that sum is not zero.)
- **Serialization** is OpenSpiel's for Python games: the history plus the state's attributes
  as a pickle. Unpickling runs code, so deserialize only strings you made yourself; to share a
  game, use its record (``pickomino.core.Game.to_json``).
- **Length**: a bust with an empty stack changes nothing (R15), so the rules put no bound on
  a game's length, and OpenSpiel needs one (``max_game_length``). After ``max_turns`` turns
  the game therefore ends and is scored as it stands (a truncation: random play ends by itself
  after about 450 turns on average). A turn has at most 12 decisions (one keep per face, six,
  with a roll between two keeps, five, and a choice of tile), so ``max_game_length`` is
  ``12 * max_turns``.
- **Search**: OpenSpiel's random rollouts take about 0.3 s each here (random play is long), so
  :class:`BotRollouts` values a position for ``open_spiel.python.algorithms.mcts`` by playing
  it out with one of pickomino's bots in every seat, in the core engine (under 1 ms a game with
  ``simple``).

>>> import pyspiel
>>> import pickomino.envs.openspiel
>>> game = pyspiel.load_game("python_pickomino(players=3,rules=bga)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.max_chance_outcomes()
(True, 1287, 3003)
>>> state.apply_action(state.string_to_action("dice 12335WWW"))
>>> [state.action_to_string(action) for action in state.legal_actions()]
['keep 1', 'keep 2', 'keep 3', 'keep 5', 'keep W']
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from pickomino.bots import make_bot
from pickomino.core import (
    NUM_ACTIONS,
    Action,
    GameState,
    IllegalAction,
    Rules,
    format_dice,
    roll_outcomes,
)
from pickomino.core.dice import ALL_ROLLS, roll_id
from pickomino.core.rules import FACES, MAX_PLAYERS, MIN_PLAYERS, NUM_DICE
from pickomino.observation import flat_size, flatten, observe
from pickomino.table import SeededDice, turn_starts

#: One keep per face (R6), a roll decision between two keeps, and a choice among tiles (R12):
#: a turn that stops instead has at most five keeps, four rolls, the stop and the choice.
MAX_DECISIONS_PER_TURN = len(FACES) + (len(FACES) - 1) + 1
#: Each roll's chance outcome name, by roll id: the record's ``dice …`` move.
ROLL_NAMES = tuple(f"dice {format_dice(counts)}" for counts in ALL_ROLLS)
#: The chance outcomes of rolling 0..8 dice: (roll id, probability).
_CHANCE_OUTCOMES = tuple(
    tuple((roll_id(counts), float(chance)) for counts, chance in roll_outcomes(dice))
    for dice in range(NUM_DICE + 1)
)
DEFAULTS: dict[str, Any] = {"players": MIN_PLAYERS, "rules": "official", "max_turns": 2000}

GAME_TYPE = pyspiel.GameType(
    short_name="python_pickomino",
    long_name="Python Pickomino",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class PickominoGame(pyspiel.Game):
    """The game with its parameters; its states wrap a core :class:`GameState`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        players, max_turns = params["players"], params["max_turns"]
        GameState(players)  # refuses a player count outside 2..7 (R1)
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive integer, not {max_turns!r}")
        self.rules = Rules.preset(params["rules"])
        self.max_turns = max_turns
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(ALL_ROLLS),
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS_PER_TURN * max_turns,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PickominoState:
        return PickominoState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        """The flat observation for the default (public, no recall) view; the history of
        actions for a perfect-recall information state."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PickominoObserver(self.num_players(), params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PickominoState(pyspiel.State):
    """A position: the core state, plus the turn limit that ends a game too long to finish."""

    def __init__(self, game: PickominoGame) -> None:
        super().__init__(game)
        self.core = GameState(game.num_players(), game.rules)
        self.max_turns = game.max_turns

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.core.is_chance():
            return pyspiel.PlayerId.CHANCE
        return self.core.current

    def is_terminal(self) -> bool:
        return self.core.is_over or self.core.turn > self.max_turns

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.core.current:
            return []
        return self.core.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_CHANCE_OUTCOMES[self.core.dice_left]) if self.core.is_chance() else []

    def _apply_action(self, action: int) -> None:
        """A decision, or at a chance node the roll with that id; illegal input raises the
        core's refusal and changes nothing."""
        if not self.core.is_chance():
            self.core.apply(action)
        elif 0 <= action < len(ALL_ROLLS):
            self.core.apply_roll(ALL_ROLLS[action])
        else:
            raise IllegalAction("R5", "not_a_roll", text=str(action)[:20])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return ROLL_NAMES[action]
        return Action.from_id(action).name

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.core.num_players
        return win_utility(self.core)

    def __str__(self) -> str:
        return json.dumps(self.core.to_dict(), separators=(",", ":"))


def win_utility(state: GameState) -> list[float]:
    """The zero-sum win utility of the standings (R19, R20): ``(n/k - 1)/(n - 1)`` for each
    of ``k`` winners, ``-1/(n - 1)`` for the others."""
    players, winners = state.num_players, state.winners()
    share = players / len(winners)
    return [((share if seat in winners else 0.0) - 1) / (players - 1) for seat in range(players)]


class BotRollouts(mcts.RandomRolloutEvaluator):
    """An MCTS evaluator that plays a position on with the bot ``bot`` in every seat (up to
    the game's turn limit) and scores the end with :func:`win_utility`; priors stay uniform.

    >>> from open_spiel.python.algorithms import mcts
    >>> game = pyspiel.load_game("python_pickomino")
    >>> rollouts = BotRollouts("simple", seed=1)
    >>> search = mcts.MCTSBot(game, 2.0, 20, rollouts, random_state=np.random.RandomState(1))
    >>> state = game.new_initial_state()
    >>> state.apply_action(state.string_to_action("dice 12335WWW"))
    >>> search.step(state) in state.legal_actions()
    True
    """

    def __init__(self, bot: str = "simple", n_rollouts: int = 1, seed: int = 0) -> None:
        super().__init__(n_rollouts)
        rng = random.Random(seed)
        self.bots = [make_bot(bot, rng.getrandbits(32)) for _ in range(MAX_PLAYERS)]
        self.dice = SeededDice(rng=rng)

    def evaluate(self, state: PickominoState) -> np.ndarray:
        total = np.zeros(state.core.num_players)
        for _ in range(self.n_rollouts):
            total += win_utility(self._play_out(state.core.copy(), state.max_turns))
        return total / self.n_rollouts

    def _play_out(self, core: GameState, max_turns: int) -> GameState:
        for position in turn_starts(core, self.bots, self.dice):
            if position.turn > max_turns:
                break
        return core


class PickominoObserver:
    """OpenSpiel's observer protocol over :mod:`pickomino.observation`: ``tensor`` is the flat
    vector from the observing player's seat."""

    def __init__(self, players: int, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(flat_size(players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PickominoState, player: int) -> None:
        self.tensor[:] = flatten(observe(state.core, player))

    def string_from(self, state: PickominoState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, PickominoGame)
