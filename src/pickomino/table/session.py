"""A game at a table: its record, who plays each seat, where the dice come from. Every face
(terminal, web) turns a person's command into an engine move here, and lets bots play.

The session decides nothing about the rules: a command names an action and the engine
accepts or refuses it (:class:`~pickomino.core.IllegalAction` names the rule). The only
things added are whose turn a command may come from, and the dice: a person who rolls
gets them from the session's dice source (or types in real dice).

>>> from pickomino.core import Game
>>> from pickomino.table import Seat, SeededDice
>>> session = Session(Game(["Ann", "Bob"]), [Seat("Ann"), Seat("Bob", "medium")], SeededDice(1))
>>> session.waiting_person(), [a for a in session.actions()]
(0, ['roll'])
>>> _ = session.decide("roll"); session.state.phase.value
'keep'

A bot may stand in for a person (who left, or ran out of time) and give the seat back; the
controller changes only between steps, as a face calls these between them:

>>> session.stand_in(0, "easy"); session.is_bot_turn(), session.actions()
(True, [])
>>> session.stand_in(0, None); session.waiting_person()
0

A bot's step is planned, thought out and played in three parts, so that a face may think in
a worker thread while the game goes on: the plan is taken now (a copy of the state, and who
has the decision), thinking it out touches nothing of the session, and the step is played
only if the game is still where the plan found it (:meth:`Session.step` does all three):

>>> robo = Session(Game(["Ann", "Robo"]), [Seat("Ann"), Seat("Robo", "easy")], SeededDice(2))
>>> robo.stand_in(0, "easy"); plan = robo.plan(); step = plan.think()
>>> robo.stand_in(0, None)  # Ann takes her seat back while her bot thinks: she decides
>>> robo.play(plan, step)
Traceback (most recent call last):
...
pickomino.table.session.StalePlan: the game moved on, or the seat changed hands
>>> robo.game.record.moves
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pickomino.bots import make_bot
from pickomino.core import Event, Game, GameState, IllegalAction
from pickomino.core.record import DICE_PREFIX
from pickomino.files import write_whole
from pickomino.table.dice import Dice, TypedDice
from pickomino.table.loop import Step, apply, next_step
from pickomino.table.seats import Person, Player, Seat, players


class StalePlan(Exception):
    """A bot's step planned for a game that moved on meanwhile, or for a seat that changed
    hands: it is not played (the new state, or the seat's new holder, has the decision)."""

    def __init__(self) -> None:
        super().__init__("the game moved on, or the seat changed hands")


@dataclass(frozen=True)
class Plan:
    """What a bot's next step is for: the game's state as it stood (a copy), how many moves
    it had, and the seat's player then. Its own copies make :meth:`think` safe in a worker
    thread while the game goes on; :meth:`Session.play` checks the rest."""

    state: GameState
    moves: int
    seat: int
    player: Player
    players: tuple[Player, ...]
    dice: Dice

    def think(self) -> Step:
        """The step (a roll, or the player's decision), thought out on the plan's copy of
        the state. Raises :class:`IllegalAction` when the dice are real: somebody must type
        them in."""
        step = next_step(self.state, self.players, self.dice)
        if step is None:
            raise IllegalAction("R5", "dice_wanted", count=self.state.dice_left)
        return step


class Session:
    """The engine's :class:`Game`, its seats (people and bots) and its dice."""

    def __init__(self, game: Game, seats: Sequence[Seat], dice: Dice, seed: int = 0) -> None:
        if len(seats) != len(game.seats):
            raise ValueError("one seat per player of the game")
        self.game, self.seats, self.dice, self.seed = game, list(seats), dice, seed
        self.players: list[Player] = players(self.seats, seed)
        #: The person's seats a bot plays for now, and which bot (name or difficulty).
        self.stand_ins: dict[int, str] = {}

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def names(self) -> list[str]:
        return self.game.seats

    def is_bot_turn(self) -> bool:
        """Whether a bot plays the seat to move: a bot's seat, or a person's a bot stands in
        for."""
        return not self.state.is_over and not isinstance(self.players[self.state.current], Person)

    def stand_in(self, seat: int, bot: str | None) -> None:
        """Let ``bot`` play a person's ``seat`` from the next step on (``None``: the person
        plays again). Call it between steps: a step planned before (:meth:`plan`) and thought
        out meanwhile is refused when played (the seat's player is another object now), as
        the seat's new holder has the decision."""
        if not self.seats[seat].is_person or self.stand_ins.get(seat) == bot:
            return
        if bot is None:
            del self.stand_ins[seat]
            self.players[seat] = Person()
        else:
            self.stand_ins[seat] = bot
            self.players[seat] = make_bot(bot, self.seed + seat)

    def waiting_person(self) -> int | None:
        """The seat of the person whose decision (or roll) the game waits for, if any."""
        if self.state.is_over or self.is_bot_turn():
            return None
        return self.state.current

    # ------------------------------------------------------------------ moves
    def step(self) -> list[Event]:
        """One step of a bot's turn (a roll or a decision), so faces can show it at a pace:
        planned, thought out and played at once."""
        plan = self.plan()
        return self.play(plan, plan.think())

    def plan(self) -> Plan:
        """The plan of a bot's next step: for the game as it stands now, by the seat's player
        now (see :class:`Plan`). Raises :class:`IllegalAction` when no bot has the turn."""
        if not self.is_bot_turn():
            raise IllegalAction("R4", "not_a_bot_turn")
        seat, players = self.state.current, tuple(self.players)
        moves = len(self.game.record.moves)
        return Plan(self.state.copy(), moves, seat, players[seat], players, self.dice)

    def play(self, plan: Plan, step: Step) -> list[Event]:
        """Play ``step``, the plan's thought (or a legal action of the plan's state: a face
        plays one when its bot fails), if the game is still where the plan found it: no move
        made since, and the seat's player the same. Raises :class:`StalePlan`, changing
        nothing, if not: a person who took the seat back, or moved, wins."""
        if len(self.game.record.moves) != plan.moves or self.players[plan.seat] is not plan.player:
            raise StalePlan
        return apply(self.game, step)

    def decide(self, command: str) -> list[Event]:
        """A person's command: an action name (``keep W``, ``roll``, ``stop``, ``take 26``,
        ``steal 27``), or ``dice …`` with the real dice rolled. ``roll`` also rolls the dice
        unless they are real ones. Raises :class:`IllegalAction` (or
        :class:`~pickomino.core.BadInput` for words that name no action) and changes
        nothing when the command cannot be played now."""
        if self.state.is_over:
            raise IllegalAction("R18", "game_over")
        if self.is_bot_turn():
            raise IllegalAction("R4", "bots_turn", seat=self.state.current)
        words = " ".join(command.lower().split())
        if words.startswith(DICE_PREFIX):  # real dice, typed in when they are due
            if not isinstance(self.dice, TypedDice):  # else a player could pick their roll
                raise IllegalAction("R5", "dice_not_typed")
            return self.game.roll(words[len(DICE_PREFIX) :])
        if words == "roll" and self.state.is_chance():
            return self._roll()
        events = self.game.play(words)
        if words == "roll":  # the player asked for the dice to be rolled: roll them now
            # a new list: ``events`` is also the game's history entry for the roll decision
            events = [*events, *self._roll()]
        return events

    def _roll(self) -> list[Event]:
        dice = self.dice.roll(self.state)
        return [] if dice is None else self.game.roll(dice)

    def actions(self) -> list[str]:
        """The action names the waiting person can send now (``roll`` at a chance step)."""
        if self.waiting_person() is None:
            return []
        if self.state.is_chance():
            return ["roll"]
        return [action.name for action in self.state.legal_actions()]

    def save(self, path: Path) -> Path:
        """The game's record in ``path``, whole or not at all (a failed save keeps the last)."""
        write_whole(path, self.game.to_json())
        return path
