"""A game's review: every decision valued in win chance, and the result split into skill and
luck.

The evaluator is the strongest we have, the strategist's search (:mod:`.bots.strategist`):
at each turn, every way the turn can end is valued as the mover's chance to win the game,
looking the strategist's number of turns ahead, and the exact turn solver gives the value
of every point of the turn under best play. So at every step of a game each player has a
win chance, and every change of it has one cause:

- a **decision** of the mover changes the mover's chance by ``chosen - best``: minus its
  **cost** (never negative; 0 for the best choice and for a forced move), and the others'
  chances too (the mover's slip is their gain: "the others' play");
- a **roll** changes everyone's chance by what the dice showed against what was expected
  before the roll: **luck** (expected to be 0, since the value before a roll is the mean of
  the values after it);
- between two turns the valuation looks one turn further ahead: a small **drift**.

So, for every player, ``result - chance at the start = skill + luck + others' play + drift``
exactly (``skill`` is minus the sum of the player's costs), which :class:`PlayerReview`
keeps and the tests check.

Labels by cost, in points of win chance: best (< 0.5), good (< 2), inaccuracy (< 5), mistake
(< 10), blunder (10 or more). Accuracy: ``100 * exp(-mean cost / 2 points)`` over the
decisions that had a choice (100 when every choice was best; 37 at a mean cost of 2 points).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from pickomino.bots.strategist import ENDGAME_TILES, Planner, _table
from pickomino.core import Action, Game, GameRecord, GameState, Phase
from pickomino.core.actions import ROLL
from pickomino.solver import TurnValues, solve
from pickomino.solver.solve import TurnSolution

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
#: The least cost (in win chance, 0..1) of each label but "best", worst first.
LABELS: tuple[tuple[Label, float], ...] = (
    ("blunder", 0.10),
    ("mistake", 0.05),
    ("inaccuracy", 0.02),
    ("good", 0.005),
)
#: Accuracy's scale: a mean cost of this much (0..1) gives 100/e ≈ 37.
ACCURACY_SCALE = 0.02


def label_of(cost: float) -> Label:
    """The label of a decision that cost ``cost`` (0..1) of win chance."""
    return next((label for label, least in LABELS if cost >= least), "best")


def accuracy(costs: Sequence[float]) -> float:
    """0–100 from the mean cost of the decisions that had a choice."""
    if not costs:
        return 100.0
    return 100.0 * math.exp(-sum(costs) / len(costs) / ACCURACY_SCALE)


@dataclass(frozen=True)
class Choice:
    action: str
    value: float  # the mover's win chance after it, best play on


@dataclass(frozen=True)
class Decision:
    """One decision of ``seat`` (move ``move`` of the record)."""

    move: int
    turn: int
    seat: int
    action: str
    choices: tuple[Choice, ...]  # best first

    @property
    def best(self) -> Choice:
        return self.choices[0]

    @property
    def chosen(self) -> float:
        return next(c.value for c in self.choices if c.action == self.action)

    @property
    def cost(self) -> float:
        return max(0.0, self.best.value - self.chosen)

    @property
    def forced(self) -> bool:
        return len(self.choices) == 1

    @property
    def label(self) -> Label:
        return label_of(self.cost)


@dataclass
class PlayerReview:
    """One player's game in win chance: where it started and ended, and why it moved."""

    seat: int
    start: float = 0.0  # win chance before the first roll
    result: float = 0.0  # 1 for a win, 1/k for a win shared by k, else 0
    skill: float = 0.0  # minus the win chance given away by the player's own decisions
    luck: float = 0.0  # what every roll did to the player's chance, against expectation
    others: float = 0.0  # what the other players' decisions did to it
    drift: float = 0.0  # the valuation looking further ahead from one turn to the next
    costs: list[float] = field(default_factory=list)  # of the decisions with a choice
    labels: dict[str, int] = field(default_factory=lambda: {label: 0 for label in LABEL_NAMES})

    @property
    def accuracy(self) -> float:
        return accuracy(self.costs)

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "start": self.start,
            "result": self.result,
            "skill": self.skill,
            "luck": self.luck,
            "others": self.others,
            "drift": self.drift,
            "accuracy": self.accuracy,
            "decisions": len(self.costs),
            "labels": dict(self.labels),
        }


LABEL_NAMES: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass
class Review:
    """A whole game reviewed: the decisions, every player's chance after every move (the
    chart) and each player's account."""

    seats: list[str]
    decisions: list[Decision]
    chances: list[list[float]]  # per move of the record (and the start): per seat
    turns: list[int]  # the turn of each entry of ``chances``
    players: list[PlayerReview]

    def to_dict(self) -> dict[str, object]:
        return {
            "seats": self.seats,
            "players": [player.to_dict() for player in self.players],
            "chances": self.chances,
            "turns": self.turns,
            "decisions": [
                {
                    "move": d.move,
                    "turn": d.turn,
                    "seat": d.seat,
                    "action": d.action,
                    "cost": d.cost,
                    "label": d.label,
                    "forced": d.forced,
                    "choices": [{"action": c.action, "value": c.value} for c in d.choices],
                }
                for d in self.decisions
            ],  # fmt: skip
        }


class FairPlanner(Planner):
    """The strategist's search, with every player playing their own best: where the
    strategist assumes the others play as `expected` does, a review values every player
    alike."""

    def _expected_play(self, state: GameState, seat: int, turns: int) -> float:
        mover = state.current
        mine = solve(self.turn_values(state, turns))  # the mover maximises its own chance
        if state.num_players == 2:  # zero-sum: what the mover wins, the other loses
            return 1.0 - mine.start_value
        value = self.value_after

        def theirs(ends: list[tuple[Action | None, GameState]]) -> float:
            chosen = max(ends, key=lambda end: value(end[1], mover, turns))
            return value(chosen[1], seat, turns)

        return mine.evaluate(_table(state, theirs))


class TurnView:
    """Every player's win chance at every point of one turn (the mover's from its solved
    table; the others' from the end distribution of the mover's best play, valued by their
    own table of this turn's endings)."""

    def __init__(self, state: GameState, planner: Planner) -> None:
        self.state0 = state
        self.mover = mover = state.current
        self.turns = 2 if len(state.grill) <= ENDGAME_TILES else 1  # as the strategist looks
        self.planner = planner
        value = planner.value_after
        self.table = planner.turn_values(state, self.turns)
        self.solution: TurnSolution = solve(self.table)
        players = range(state.num_players)

        def theirs(seat: int) -> TurnValues:  # the mover takes the claim best for itself
            def value_of(ends: list[tuple[Action | None, GameState]]) -> float:
                chosen = max(ends, key=lambda end: value(end[1], mover, self.turns))
                return value(chosen[1], seat, self.turns)

            return _table(state, value_of)

        self.others = {seat: theirs(seat) for seat in players if seat != mover}

    # ------------------------------------------------------------- chances
    def chances(self, state: GameState) -> list[float]:
        """Everyone's win chance at ``state``, a point of this turn (best play from here)."""
        if state.phase is Phase.ROLL:  # the mover rolls: the mean over what the dice show
            index = self.solution.index(state.kept_counts())
            return self._spread(self.solution.roll_value[index], index, "roll")
        afters = [self.after(state, action) for action in state.legal_actions()]
        return max(afters, key=lambda after: after[self.mover])

    def after(self, state: GameState, action: Action) -> list[float]:
        """Everyone's chance once the mover does ``action`` (and plays best afterwards)."""
        solution = self.solution
        if state.phase is Phase.KEEP:
            index = self._keep_index(state, action)
            return self._spread(solution.value[index], index, "best")
        if state.phase is Phase.ROLL_OR_STOP:
            index = solution.index(state.kept_counts())
            if action == ROLL:
                return self._spread(solution.roll_value[index], index, "roll")
            return self._spread(solution.stop_value[index], index, "stop")
        return self.after_turn(dict(state.endings(state.total))[action])  # a tile chosen

    def after_turn(self, state: GameState) -> list[float]:
        """Everyone's chance at ``state``, the position this turn ended in, as this turn
        valued its endings (exact once the game is over)."""
        seats = range(state.num_players)
        return _shares([self.planner.value_after(state, seat, self.turns) for seat in seats])

    def _spread(self, mover_value: float, index: int, first: str) -> list[float]:
        """Everyone's chance from the mover's: the others' from the end distribution of the
        mover's best play from ``index`` (doing ``first`` now), valued by their tables."""
        chances = [0.0] * self.state0.num_players
        chances[self.mover] = float(mover_value)
        if len(chances) == 2:  # two players: the model and its search are zero-sum
            chances[1 - self.mover] = 1.0 - float(mover_value)
            return chances
        outlook = self.solution.outlook(index, first)
        totals = np.asarray(outlook.end_totals)
        busted = outlook.bust_no_new_face + outlook.bust_no_worm
        for seat, table in self.others.items():
            chances[seat] = float(totals @ np.asarray(table.end)) + busted * table.bust
        return _shares(chances)

    def choices(self, state: GameState) -> list[Choice]:
        """Every legal decision of the mover with its win chance after it, best first."""
        values = {a.name: self.after(state, a)[self.mover] for a in state.legal_actions()}
        ranked = sorted(values.items(), key=lambda item: -item[1])
        return [Choice(name, float(value)) for name, value in ranked]

    def _keep_index(self, state: GameState, action: Action) -> int:
        kept = list(state.kept_counts())
        kept[action.value] = state.roll[action.value]  # type: ignore[index]
        return self.solution.index(tuple(kept))


def _shares(chances: list[float]) -> list[float]:
    """With three players or more, each player's share of the chances: the win model (fitted
    on two-player games) gives every player a chance on its own, which need not sum to 1."""
    if len(chances) == 2:
        return chances
    total = sum(chances)
    return [chance / total for chance in chances] if total > 0 else chances


def review(record: GameRecord, planner: Planner | None = None) -> Review:
    """Review a game record (any record the engine replays: older ones too). The record is
    not changed."""
    planner = planner or FairPlanner()
    game = Game(record.seats, record.rules, record.start_player)
    players = [PlayerReview(seat) for seat in range(len(record.seats))]
    decisions: list[Decision] = []
    view = TurnView(game.state, planner)
    now = view.chances(game.state)
    for player, chance in zip(players, now, strict=True):
        player.start = chance
    chances, turns = [now], [game.state.turn]

    def book(after: list[float], cause: Callable[[int], str]) -> None:
        """Each player's change of chance, to its cause; then move on."""
        nonlocal now
        for seat, player in enumerate(players):
            setattr(player, cause(seat), getattr(player, cause(seat)) + after[seat] - now[seat])
        now = after

    for number, move in enumerate(record.moves):
        state, turn = game.state, game.state.turn
        decision = None
        if not state.is_chance():
            decision = Decision(number, turn, state.current, move, tuple(view.choices(state)))
            decisions.append(decision)
            if not decision.forced:
                players[decision.seat].costs.append(decision.cost)
                players[decision.seat].labels[decision.label] += 1
        game.push(move)
        ended = game.state.is_over or game.state.turn != turn
        # a turn's end is valued as the turn valued its endings (its lookahead): exact at the
        # end of the game
        after = view.after_turn(game.state) if ended else view.chances(game.state)
        book(after, lambda seat, d=decision: _cause(d, seat))
        if ended and not game.state.is_over:  # the next turn looks further ahead
            view = TurnView(game.state, planner)
            book(view.chances(game.state), lambda seat: "drift")
        chances.append(now)
        turns.append(turn)
    if game.state.is_over:
        winners = game.state.winners()
        for player in players:
            player.result = 1 / len(winners) if player.seat in winners else 0.0
    return Review(list(record.seats), decisions, chances, turns, players)


def _cause(decision: Decision | None, seat: int) -> str:
    """What changed a player's chance at a move: the dice, the player's own decision (skill),
    or another player's."""
    if decision is None:
        return "luck"
    return "skill" if decision.seat == seat else "others"
