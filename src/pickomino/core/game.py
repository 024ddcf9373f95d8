"""A game = its record + the state that record leads to, with undo and turn-by-turn history.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> game.state.stacks
[[27], []]
>>> game.undo()
['stop']
>>> [turn.moves for turn in game.turns()]
[('dice 12335WWW', 'keep W', 'roll', 'dice 44455', 'keep 4')]
>>> Game.from_json(game.to_json()).state == game.state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pickomino.core.actions import Action
from pickomino.core.dice import Counts, format_dice, sample_roll
from pickomino.core.errors import IllegalAction, PickominoError, RecordError
from pickomino.core.events import Event
from pickomino.core.record import DICE_PREFIX, GameRecord
from pickomino.core.rules import Rules
from pickomino.core.state import GameState


@dataclass(frozen=True)
class Turn:
    """One player's turn as it was played: the moves and what they caused."""

    number: int
    seat: int
    moves: tuple[str, ...]
    events: tuple[Event, ...]


class Game:
    """A record and its current state, kept in step: every move goes through the engine."""

    def __init__(
        self,
        seats: int | Sequence[str] = 2,
        rules: Rules | None = None,
        start_player: int = 0,
    ) -> None:
        names = [f"Player {i + 1}" for i in range(seats)] if isinstance(seats, int) else seats
        self.record = GameRecord(
            seats=list(names), rules=rules or Rules(), start_player=start_player
        )
        self.state = GameState(len(names), self.record.rules, start_player)
        #: For every move of the record: (turn number, seat, move, events it caused).
        self.history: list[tuple[int, int, str, list[Event]]] = []

    @property
    def seats(self) -> list[str]:
        return self.record.seats

    # ------------------------------------------------------------------ moves
    def push(self, move: str | Action) -> list[Event]:
        """Apply a move written as in a record: ``"dice 1145W"`` or an action name."""
        if isinstance(move, str) and move.startswith(DICE_PREFIX):
            return self.roll(move[len(DICE_PREFIX) :])
        action = Action.coerce(move)
        return self._record(lambda: self.state.apply(action), lambda _: action.name)

    def roll(self, dice: str | Counts) -> list[Event]:
        """Supply the pending roll's outcome (e.g. the real dice typed in); bad dice raise
        :class:`IllegalAction` (R5) and change nothing."""
        return self._record(
            lambda: self.state.apply_roll(dice),
            lambda events: DICE_PREFIX + format_dice(events[0].dice),  # type: ignore[union-attr]
        )

    def _record(
        self, apply: Callable[[], list[Event]], written: Callable[[list[Event]], str]
    ) -> list[Event]:
        turn, seat = self.state.turn, self.state.current
        events = apply()  # raises before changing anything when the move is illegal
        move = written(events)
        self.record.moves.append(move)
        self.history.append((turn, seat, move, events))
        return events

    def roll_random(self, rng: random.Random) -> list[Event]:
        """Roll the pending dice with the caller's generator."""
        if not self.state.is_chance():
            raise IllegalAction("R5", "no_roll_due", waiting=self.state.phase.value)
        return self.roll(sample_roll(self.state.dice_left, rng))

    def play(self, action: Action | int | str) -> list[Event]:
        """Make a decision for the current player."""
        return self.push(Action.coerce(action))

    def undo(self) -> list[str]:
        """Take back the last decision and the rolls after it; returns the removed moves."""
        moves = self.record.moves
        cut = len(moves)
        while cut and moves[cut - 1].startswith(DICE_PREFIX):
            cut -= 1
        if cut == 0:
            raise IllegalAction(None, "nothing_to_undo")
        removed = moves[cut - 1 :]
        self.truncate(cut - 1)
        return removed

    def truncate(self, moves: int) -> None:
        """Keep only the first ``moves`` moves (replayed), e.g. to take back moves that
        could not be saved."""
        replayed = Game._replay(self.record, self.record.moves[:moves])
        self.state, self.history = replayed.state, replayed.history
        self.record.moves = replayed.record.moves

    # ------------------------------------------------------------ persistence
    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """Replay a record; a move the rules refuse makes the whole record refused."""
        return cls._replay(record, record.moves)

    @classmethod
    def _replay(cls, record: GameRecord, moves: Sequence[str]) -> Game:
        game = cls(record.seats, record.rules, record.start_player)
        game.record.meta = dict(record.meta)
        for index, move in enumerate(moves, start=1):
            try:
                game.push(move)
            except PickominoError as error:
                raise RecordError(
                    "move_refused", error.rule, number=index, move=move[:40], why=error
                ) from None
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        return cls.from_record(GameRecord.from_json(text))

    def to_json(self, indent: int | None = 2) -> str:
        return self.record.to_json(indent)

    # ------------------------------------------------------------------- views
    def turns(self) -> list[Turn]:
        """The moves grouped turn by turn."""
        turns: list[Turn] = []
        for number, seat, move, events in self.history:
            if not turns or turns[-1].number != number:
                turns.append(Turn(number, seat, (), ()))
            last = turns[-1]
            turns[-1] = Turn(number, seat, (*last.moves, move), (*last.events, *events))
        return turns
