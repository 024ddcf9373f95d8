"""A played game reviewed: every decision's cost and label, every player's chance after every
move, and each player's account (see :mod:`pickomino.analysis` for the definitions)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pickomino.analysis.evaluator import Chances, FairPlanner, TurnView, evaluator_for
from pickomino.core import Game, GameRecord, GameState, Phase, format_dice
from pickomino.core.record import DICE_PREFIX

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABEL_NAMES: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
#: A choice within this much (0..1) of the best choice is best too: the same value, up to
#: the rounding of floats. Any other choice is good at least.
BEST_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Threshold:
    """Where a label starts: from ``cost`` (0..1) of win chance, whatever was at stake; or
    from ``share`` of the decision's stake (its best choice's chance minus its worst's), once
    the cost is at least ``least``: a choice that throws away most of what a decision could
    win or lose is a mistake even when the decision could only move a few points."""

    label: Label
    cost: float
    share: float
    least: float

    def met(self, cost: float, stake: float) -> bool:
        return cost >= self.cost or (cost >= self.least and cost >= self.share * stake)

    def to_dict(self, players: int = 2) -> dict[str, float]:
        """Where the label starts at a table of ``players``, in its win chance (0..1)."""
        scale = 1 / weight(players)
        return {"cost": self.cost * scale, "share": self.share, "least": self.least * scale}


def weight(players: int) -> float:
    """What a point of win chance weighs in a decision at a table of ``players`` against a
    table of two: a fair chance there is 1 in ``players``, so a label starts at the same share
    of a fair chance at every table size: a mistake gives away a tenth of it (5 points at two
    players, 1.43 at seven). By the same points at every size, a player has half as many
    decisions at seven as at two and each moves less (the median stake 1.0 points against
    2.6), so most games of a random player at seven had no mistake at all."""
    return players / 2


#: The labels past "good", worst first (see :class:`Threshold`), at a table of two (see
#: :func:`weight` for the others).
LABELS: tuple[Threshold, ...] = (
    Threshold("blunder", 0.10, 0.7, 0.03),
    Threshold("mistake", 0.05, 0.4, 0.02),
    Threshold("inaccuracy", 0.02, 0.2, 0.005),
)
#: A roll's mark by the roller's luck (0..1 of win chance), most extreme first: GNU
#: Backgammon's "very lucky" … "very unlucky". About one roll in fourteen is lucky or better,
#: one in fifty very lucky (the same for unlucky). The same points at every table size: a
#: roll's luck has about the same spread at seven as at two (SD 3.3 and 3.5 points), where a
#: decision's stake is smaller (see :func:`weight`).
MARKS: tuple[tuple[str, float], ...] = (
    ("very_lucky", 0.10),
    ("lucky", 0.05),
    ("very_unlucky", -0.10),
    ("unlucky", -0.05),
)
MARK_NAMES = ("very_lucky", "lucky", "unlucky", "very_unlucky")
#: Accuracy's scale: a mean cost of this much (0..1) gives 100/e ≈ 37.
ACCURACY_SCALE = 0.02
#: The labels a review shows unasked: inaccuracies and worse.
WORTH_SHOWING = frozenset({"inaccuracy", "mistake", "blunder"})
#: Where a player's result is called mostly luck (or, below 1 - this, mostly skill): the
#: dice's share of what moved the player's chance (see :attr:`PlayerReview.luck_share`).
MOSTLY = 2 / 3
FORMAT = "pickomino-review"
VERSION = 1


def label_of(cost: float, stake: float = math.inf, players: int = 2) -> Label:
    """The label of a decision that cost ``cost`` (0..1) of win chance where ``stake`` was at
    stake (its best choice's chance minus its worst's; unknown: by the cost alone), at a table
    of ``players``."""
    if cost <= BEST_TOLERANCE:
        return "best"
    cost, stake = cost * weight(players), stake * weight(players)
    return next((t.label for t in LABELS if t.met(cost, stake)), "good")


def mark_of(luck: float) -> str | None:
    """The mark of a roll that moved the roller's chance by ``luck`` (0..1), or ``None``."""
    return next((m for m, edge in MARKS if (luck >= edge if edge > 0 else luck <= edge)), None)


def accuracy(costs: Sequence[float]) -> float:
    """0–100 from the mean cost of the decisions that had a choice."""
    return pooled_accuracy(sum(costs), len(costs))


def pooled_accuracy(cost: float, decisions: int) -> float:
    """0–100 from ``decisions`` decisions that cost ``cost`` in all (100 for none): the
    accuracy of several games' decisions together, from each game's count and total."""
    if not decisions:
        return 100.0
    return 100.0 * math.exp(-cost / decisions / ACCURACY_SCALE)


@dataclass(frozen=True)
class Choice:
    action: str
    value: float  # the mover's win chance after it, best play on


@dataclass(frozen=True)
class Decision:
    """One decision of ``seat`` (move ``move`` of the record) and where it was made: the
    dice kept before it (and their ``total``) and, for a keep, the dice rolled."""

    move: int
    turn: int
    seat: int
    action: str
    choices: tuple[Choice, ...]  # best first
    kept: str = ""
    total: int = 0
    roll: str = ""
    players: int = 2  # at the table: what a point of win chance weighs (:func:`weight`)

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
    def stake(self) -> float:
        """What the decision could move: its best choice's chance minus its worst's."""
        return self.best.value - self.choices[-1].value

    @property
    def label(self) -> Label:
        return label_of(self.cost, self.stake, self.players)

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move,
            "turn": self.turn,
            "seat": self.seat,
            "action": self.action,
            "kept": self.kept,
            "total": self.total,
            "roll": self.roll,
            "cost": self.cost,
            "label": self.label,
            "forced": self.forced,
            "choices": [{"action": c.action, "value": c.value} for c in self.choices],
        }


@dataclass(frozen=True)
class Roll:
    """A roll of ``seat``'s (move ``move`` of the record) and its luck: what it did to every
    player's chance, against what was expected before it."""

    move: int
    turn: int
    seat: int
    dice: str
    luck: Chances

    @property
    def mark(self) -> str | None:
        """How lucky the roll was for the roller (:data:`MARKS`), or ``None``."""
        return mark_of(self.luck[self.seat])

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move, "turn": self.turn, "seat": self.seat, "dice": self.dice,
            "luck": self.luck, "mark": self.mark,
        }  # fmt: skip


@dataclass
class PlayerReview:
    """One player's game in win chance: where it started and ended, and why it moved."""

    seat: int
    start: float = 0.0  # win chance before the first roll
    result: float = 0.0  # 1 for a win, 1/k for a shared win, else 0 (unfinished: the chance now)
    skill: float = 0.0  # minus the win chance given away by the player's own decisions
    luck: float = 0.0  # what every roll did to the player's chance, against expectation
    others: float = 0.0  # what the other players' decisions did to it
    drift: float = 0.0  # the valuation looking further ahead from one turn to the next
    costs: list[float] = field(default_factory=list)  # of the decisions with a choice
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABEL_NAMES, 0))
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARK_NAMES, 0))

    @property
    def accuracy(self) -> float:
        return accuracy(self.costs)

    @property
    def play(self) -> float:
        """What the decisions at the table (the player's and the others') did to the chance."""
        return self.skill + self.others

    @property
    def adjusted(self) -> float:
        """The result without the luck of the dice: the chance at the start moved by the
        decisions at the table and the drift only."""
        return self.result - self.luck

    @property
    def _moved(self) -> float:
        """Everything that moved the player's chance, each part counted by its size."""
        return abs(self.luck) + abs(self.skill) + abs(self.others) + abs(self.drift)

    @property
    def luck_share(self) -> float:
        """The dice's share of what moved the player's chance (the drift counted too: what
        the evaluator could not tell apart)."""
        return abs(self.luck) / self._moved if self._moved else 0.5

    @property
    def play_share(self) -> float:
        """The decisions' share (the player's own and the others', each counted apart)."""
        return (abs(self.skill) + abs(self.others)) / self._moved if self._moved else 0.5

    @property
    def verdict(self) -> Literal["luck", "skill", "both"]:
        """Mostly luck, mostly skill (the decisions at the table), or both alike: mostly one
        only when it moved the chance at least twice as much as the other and the drift
        together."""
        if self.luck_share >= MOSTLY:
            return "luck"
        return "skill" if self.play_share >= MOSTLY else "both"

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
            "cost": sum(self.costs),
            "labels": dict(self.labels),
            "marks": dict(self.marks),
            "adjusted": self.adjusted,
            "luck_share": self.luck_share,
            "play_share": self.play_share,
            "verdict": self.verdict,
        }


@dataclass
class Review:
    """A whole game reviewed: the decisions, every player's chance after every move (the
    chart) and each player's account."""

    seats: list[str]
    decisions: list[Decision]
    rolls: list[Roll]
    chances: list[Chances]  # at the start, then after every move of the record: per seat
    turns: list[int]  # the turn of each entry of ``chances``
    players: list[PlayerReview]
    finished: bool = True

    def to_dict(self, seat: int | None = None) -> dict[str, object]:
        """The review as JSON data; with ``seat``, that player's account and decisions only."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "seats": self.seats,
            "finished": self.finished,
            "players": [p.to_dict() for p in self.players if seat in (None, p.seat)],
            "chances": self.chances,
            "turns": self.turns,
            "decisions": [d.to_dict() for d in self.decisions if seat in (None, d.seat)],
            "rolls": [roll.to_dict() for roll in self.rolls],
        }


def review(record: GameRecord, planner: FairPlanner | None = None) -> Review:
    """Review a game record (any record the engine replays: older ones too; finished or
    not). The record is not changed; one the engine refuses raises
    :class:`~pickomino.core.RecordError` naming the move."""
    moves = Game.from_record(record).record.moves  # checked, and written as the engine does
    game = Game(record.seats, record.rules, record.start_player)
    planner = planner or evaluator_for(game.state)
    players = [PlayerReview(seat) for seat in range(len(record.seats))]
    decisions: list[Decision] = []
    rolls: list[Roll] = []
    view = TurnView(game.state, planner)
    now = view.chances(game.state)
    for player, chance in zip(players, now, strict=True):
        player.start = chance
    chances, turns = [now], [game.state.turn]

    def book(after: Chances, cause_of: dict[int, str] | str) -> Chances:
        """Each player's change of chance, to its cause; then move on."""
        nonlocal now
        changes = [new - old for new, old in zip(after, now, strict=True)]
        for player, change in zip(players, changes, strict=True):
            cause = cause_of if isinstance(cause_of, str) else cause_of[player.seat]
            setattr(player, cause, getattr(player, cause) + change)
        now = after
        return changes

    for number, move in enumerate(moves):
        state = game.state  # moved on in place by the move: what is needed is read first
        turn, mover = state.turn, state.current
        cause: dict[int, str] | str = "luck"  # a roll
        if not state.is_chance():
            decision = decision_at(state, move, view, number)
            decisions.append(decision)
            cause = {seat: "others" for seat in range(len(players))}
            cause[mover] = "skill"
            if not decision.forced:
                players[decision.seat].costs.append(decision.cost)
                players[decision.seat].labels[decision.label] += 1
        game.push(move)
        changes = book(view.chances(game.state), cause)
        if cause == "luck":
            rolls.append(roll := Roll(number, turn, mover, move[len(DICE_PREFIX) :], changes))
            if roll.mark is not None:
                players[mover].marks[roll.mark] += 1
        if game.state.turn != turn and not game.state.is_over:  # the next turn looks further
            view = TurnView(game.state, planner)
            book(view.chances(game.state), "drift")
        chances.append(now)
        turns.append(turn)
    for player in players:
        player.result = now[player.seat]  # exact once the game is over
    finished = game.state.is_over
    return Review(list(record.seats), decisions, rolls, chances, turns, players, finished)


def decision_at(state: GameState, action: str, view: TurnView, move: int = 0) -> Decision:
    """``action`` (a legal action's name) decided in ``state``, a point of ``view``'s turn,
    with every choice there valued (``move``: its number in the record)."""
    mover = state.current
    choices = tuple(Choice(name, chances[mover]) for name, chances in view.choices(state))
    roll = format_dice(state.roll) if state.phase is Phase.KEEP else ""
    kept = format_dice(state.kept_counts())
    return Decision(
        move, state.turn, mover, action, choices, kept, state.total, roll, state.num_players
    )
