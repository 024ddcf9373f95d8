"""Solo games in the offline app: one person against bots, played in the browser with the same
table session as the server's (:class:`pickomino.table.Session`). The page is the server's
table page: it speaks the game socket's protocol (:mod:`pickomino.web.protocol`), and each of
its messages is answered here with what the server would send (``welcome``, ``state``,
``hint``, ``error``). The game is stored in the browser as its record (the bots and the seed in
its ``meta``, as ``pickomino play`` saves one), so it goes on after a reload and the CLI reads
it. Between the page's messages nothing runs: the page asks for each bot step (``step``) after
a pause, so that a person can follow the bots, and a closed tab simply stops the game where it
is.

The dice and the bots are seeded from the record's seed and the number of moves made, so a game
is a function of its seed and the person's choices, whether or not it was reloaded meanwhile.

>>> made = new_game({"seats": [{"name": "Ann"}, {"name": "Robo", "bot": "easy"}], "seed": 3})
>>> made.names, made.seats
(['Ann', 'Robo'], [Seat(name='Ann', bot=None), Seat(name='Robo', bot='easy')])
>>> table = SoloTable(made.record.to_json())
>>> [m["type"] for m in table.answer({"type": "join"}, shown=0)]
['welcome', 'state']
>>> table.answer({"type": "act", "action": "roll", "seq": 0}, shown=0)[0]["table"]["phase"]
'keep'
>>> table.answer({"type": "act", "action": "roll", "seq": 0}, shown=0)[0]["id"]
'stale'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pickomino.core import Game, GameRecord, IllegalAction, PickominoError, Rules
from pickomino.core.events import log_entries
from pickomino.core.rules import MAX_PLAYERS, MIN_PLAYERS
from pickomino.solver.advice import rank_choices, turn_outlook
from pickomino.table import Seat, SeededDice, Session
from pickomino.table.records import draw_seed, seats_from_record, seats_meta
from pickomino.table.view import table_view

#: The bots offered offline: those quick enough in the browser (the strategist takes over a
#: second a move there; ``expert`` needs NumPy).
LEVELS = ("easy", "medium", "hard")


class SoloRefusal(PickominoError):
    """A solo game that cannot be set up as asked."""


@dataclass(frozen=True)
class NewGame:
    """A solo game just set up: its record (with the seats and the seed in its ``meta``)."""

    record: GameRecord
    seats: list[Seat]

    @property
    def names(self) -> list[str]:
        return self.record.seats


def new_game(body: dict[str, Any], names: list[str] | None = None) -> NewGame:
    """A game from the form: ``{"seats": [{"name"}, {"name", "bot"}, …], "rules",
    "start_player", "seed"}``, exactly one seat a person's, the others ``LEVELS``; ``names``:
    the seats' names as already checked (trimmed) by the caller, else taken as given."""
    asked = body.get("seats")
    if not isinstance(asked, list) or not MIN_PLAYERS <= len(asked) <= MAX_PLAYERS:
        raise SoloRefusal("solo_seats", low=MIN_PLAYERS, high=MAX_PLAYERS)
    bots = [seat.get("bot") if isinstance(seat, dict) else None for seat in asked]
    if sum(bot is None for bot in bots) != 1:
        raise SoloRefusal("solo_one_person")
    for bot in bots:
        if bot is not None and bot not in LEVELS:
            raise SoloRefusal("solo_bot", given=str(bot)[:20], levels=list(LEVELS))
    names = names or [str(seat.get("name", "")) for seat in asked]
    seats = [Seat(name, bot) for name, bot in zip(names, bots, strict=True)]
    start = body.get("start_player", 0)
    seed = body.get("seed")
    game = Game(names, Rules.parse(str(body.get("rules") or "official")), start)
    game.record.meta = seats_meta(draw_seed(seed if type(seed) is int else None), seats)
    return NewGame(game.record, seats)


class SoloTable:
    """A stored solo game, opened to answer the page's messages (see the module's docstring)."""

    def __init__(self, stored: str) -> None:
        self.game = Game.from_json(stored)
        self.seats = seats_from_record(self.game.record)
        if sum(seat.is_person for seat in self.seats) != 1:
            raise SoloRefusal("solo_one_person")
        self.person = next(n for n, seat in enumerate(self.seats) if seat.is_person)
        self._log: list[dict[str, Any]] = []  # the log's entries, made as far as
        self._logged = 0  # this many moves of the game's history

    def log(self) -> list[dict[str, Any]]:
        """The game's log (:func:`~pickomino.core.events.log_entries`), its new moves' entries
        added to those made before: a table kept between messages does not make it again."""
        history = self.game.history
        if self._logged < len(history):
            headed = history[self._logged - 1][0] if self._logged else None
            self._log += log_entries(history[self._logged :], headed)
            self._logged = len(history)
        return self._log

    @property
    def seq(self) -> int:
        """The state's version, as the page's moves name it: the number of moves made."""
        return len(self.game.record.moves)

    def session(self) -> Session:
        """The table's session as of now: dice and bots seeded from the seed and the moves."""
        seed = self.game.record.meta["seed"] + self.seq
        return Session(self.game, self.seats, SeededDice(seed), seed)

    def answer(self, message: dict[str, Any], shown: int) -> list[dict[str, Any]]:
        """The messages the server would send for ``message``; ``shown``: how many log entries
        the page has (it gets the rest)."""
        kind = message.get("type")
        try:
            if kind == "join":
                return [{"type": "welcome", "seat": self.person, "token": None}, self.state(0)]
            if kind == "sync":
                return [self.state(0)]
            if kind == "hint":
                return [self.hint()]
            if kind == "act":
                self._check_seq(message)
                self.session().decide(str(message.get("action", "")))
                return [self.state(shown)]
            if kind == "step":
                self._check_seq(message)
                session = self.session()
                if session.is_bot_turn():
                    session.step()
                return [self.state(shown)]
        except PickominoError as refusal:
            return [{"type": "error", **refusal.to_dict()}]
        return []  # ping, and what only a server's table has (votes, the coach, coming back)

    def _check_seq(self, message: dict[str, Any]) -> None:
        if message.get("seq") != self.seq:  # a double tap on a view already gone
            raise IllegalAction(None, "stale")

    def state(self, log_start: int) -> dict[str, Any]:
        """The whole state, shaped as the server's (:mod:`pickomino.web.game.state_message`),
        for a table with its people all there, no clock and no votes."""
        session, state, log = self.session(), self.game.state, self.log()
        return {
            "type": "state",
            "id": self.game.record.meta.get("id"),
            "seq": self.seq,
            "status": "over" if state.is_over else "playing",
            "waiting_for": [],
            "seats": [
                {
                    "name": seat.name,
                    "bot": seat.bot,
                    "claimed": seat.is_person,
                    "open": False,
                    "online": True,
                    "profile": None,
                    "away": False,
                    "stand_in": False,
                    "votes": [],
                    "votes_needed": 0,
                }
                for seat in self.seats
            ],
            "rules": state.rules.to_dict(),
            "clock": None,
            "takeover": None,
            "table": table_view(state),
            "actions": session.actions(),
            "bot_turn": session.is_bot_turn(),
            "log_start": log_start,
            "log": log[log_start:],
        }

    def hint(self) -> dict[str, Any]:
        """The exact solver's odds of each choice, best first by expected worms (the server's
        hint ranks by win chance, which needs the evaluator's NumPy: not here)."""
        state = self.game.state
        rows: list[dict[str, Any]] = []
        if not state.is_over and self.session().waiting_person() is not None:
            if state.is_chance():
                outlook = turn_outlook(state)
                rows = [_hint_row("roll", outlook.success, outlook.value, outlook.bust)]
            else:
                rows = [
                    _hint_row(choice.action.name, choice.tile, choice.value, choice.bust)
                    for choice in rank_choices(state)
                ]
        return {"type": "hint", "seq": self.seq, "rows": rows}

    def summary(self) -> dict[str, Any]:
        """What the app's list of games shows without opening the game."""
        state = self.game.state
        return {
            "names": self.game.record.seats,
            "turn": state.turn,
            "over": state.is_over,
            "worms": state.scores(),
        }


def _hint_row(action: str, tile: float, worms: float, bust: float) -> dict[str, Any]:
    return {"action": action, "tile": tile, "worms": worms, "bust": bust}
