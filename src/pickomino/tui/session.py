"""A game being played by people and bots: the one place both faces (line mode and full
screen) turn a typed command or a pressed key into an engine move.

The face decides nothing about the rules: a command is mapped to an action name and the
engine accepts or refuses it (``IllegalAction`` names the rule). What is added here: who
rolls the dice (the session's seeded generator, when a person asks for a roll or a bot's
turn needs one), and a warning before a person's stop that busts for certain.
"""

from __future__ import annotations

import random
from pathlib import Path
from shlex import quote

from pickomino.bots import Bot
from pickomino.core import Action, Bust, Event, Game, GameState, Phase
from pickomino.core.actions import STOP
from pickomino.core.events import BUST_REASONS
from pickomino.core.render import describe_event

#: Keys that stand for a face to keep; in a tile choice the digits number the claims.
FACE_KEYS = ("1", "2", "3", "4", "5", "w")
ROLL_WORDS = ("r", "roll")
STOP_WORDS = ("s", "stop")


class BustWarning(ValueError):
    """A stop that would bust for certain, refused once: stopping again confirms it."""


class Session:
    """The engine's :class:`Game` plus which seats are bots and the dice generator."""

    def __init__(
        self, game: Game, bots: dict[int, Bot], seed: int, rng: random.Random | None = None
    ) -> None:
        self.game, self.bots, self.seed = game, bots, seed
        # Reseeding from the moves made so far lets a resumed game go on deterministically;
        # a server passes a cryptographic generator instead.
        self.rng = rng or random.Random(seed + len(game.record.moves))
        turns = game.turns()
        self._announced = turns[-1].number if turns else 0
        self._warned_at: int | None = None  # moves made when a busting stop was warned of

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def names(self) -> list[str]:
        return self.game.seats

    def is_bot_turn(self) -> bool:
        return not self.state.is_over and self.state.current in self.bots

    def waiting_person(self) -> str | None:
        """The name of the person whose decision (or roll) the game waits for, if any."""
        if self.state.is_over or self.is_bot_turn():
            return None
        return self.names[self.state.current]

    # ------------------------------------------------------------------ moves
    def bot_step(self) -> list[Event]:
        """One step of a bot's turn (a roll or a decision), so faces can show it at a pace."""
        if not self.is_bot_turn():
            raise ValueError("no bot is playing now")
        if self.state.is_chance():
            return self.game.roll_random(self.rng)
        return self.game.play(self.bots[self.state.current].choose(self.state))

    def decide(self, command: str) -> list[Event]:
        """A person's command (``1``–``5``/``w``, ``r``, ``s``, a claim's number or an action
        name); raises ``ValueError`` (often the engine's ``IllegalAction``) and changes
        nothing when it cannot be played now."""
        if self.is_bot_turn():
            raise ValueError(f"it is {self.names[self.state.current]}'s turn, not a person's")
        name = self._action_name(command)
        if name == "stop":
            self._warn_before_a_bust()
        if name == "roll" and self.state.is_chance():
            return self.game.roll_random(self.rng)
        events = self.game.play(name)
        if name == "roll":  # the player asked for the dice to be rolled: roll them now
            # a new list: ``events`` is also the game's history entry for the roll decision
            events = [*events, *self.game.roll_random(self.rng)]
        return events

    def _warn_before_a_bust(self) -> None:
        """Raise :class:`BustWarning` the first time a person stops where stopping busts for
        certain (no worm kept, R10, or a total that reaches no tile, R13): a slip of the
        key should not cost a turn. A second stop, with no move in between, is played."""
        moves = len(self.game.record.moves)
        reason = self.stop_busts()
        if reason and self._warned_at != moves:
            self._warned_at = moves
            raise BustWarning(f"Stopping now busts: {reason}. Stop again to bust anyway.")

    def stop_busts(self) -> str | None:
        """Why stopping now would bust (the engine's reason, tried on a copy), or None when
        stopping is no choice now or would win a tile."""
        if STOP not in self.state.legal_actions():
            return None
        events = self.state.copy().apply(STOP)
        return next((BUST_REASONS[e.reason] for e in events if isinstance(e, Bust)), None)

    def _action_name(self, command: str) -> str:
        words = " ".join(command.lower().split())
        if words in ROLL_WORDS:
            return "roll"
        if words in STOP_WORDS:
            return "stop"
        if self.state.phase is Phase.CLAIM and words.isdigit():
            claims = self.state.legal_actions()
            if not 1 <= int(words) <= len(claims):
                raise ValueError(f"there is no claim {words}: choose 1 to {len(claims)}")
            return claims[int(words) - 1].name
        if words in FACE_KEYS:
            return f"keep {words}"
        return words

    def options(self) -> list[tuple[str, str]]:
        """``(key, action name)`` for every choice the waiting person has now."""
        if self.waiting_person() is None:
            return []
        if self.state.is_chance():
            return [(ROLL_WORDS[0], "roll")]
        actions = self.state.legal_actions()
        if self.state.phase is Phase.CLAIM:
            return [(str(number), a.name) for number, a in enumerate(actions, start=1)]
        return [(_key(action), action.name) for action in actions]

    # ------------------------------------------------------------ words, files
    def hint_rows(self) -> list[tuple[str, float, float, float]]:
        """``(action name, chance of a tile, expected worms, bust risk)`` for each choice of
        the player to move, best first (from the exact solver); empty when none is due."""
        from pickomino.solver.advice import rank_choices, turn_outlook

        if self.state.is_over:
            return []
        if self.state.is_chance():
            outlook = turn_outlook(self.state)
            return [("roll", outlook.success, outlook.value, outlook.bust)]
        return [(c.action.name, c.tile, c.value, c.bust) for c in rank_choices(self.state)]

    def hint(self) -> list[str]:
        """The solver's view of the waiting person's choices, best first."""
        if self.waiting_person() is None:
            return ["No decision of yours to advise on now."]
        keys = {name: key for key, name in self.options()}
        return [
            f"[{keys.get(name, '-')}] {name:<9} tile {tile:6.1%}  "
            f"worms {worms:+.2f}  bust {bust:6.1%}"
            for name, tile, worms, bust in self.hint_rows()
        ]

    def narrate(self, events: list[Event]) -> list[str]:
        """Log lines for some events, with a heading when a new turn has begun."""
        lines = ["  " + describe_event(event, self.names) for event in events]
        if not self.state.is_over and self.state.turn != self._announced:
            self._announced = self.state.turn
            lines.append(f"Turn {self.state.turn} - {self.names[self.state.current]}")
        return lines

    def opening(self) -> list[str]:
        """The log so far (a resumed game's history) and the turn being played."""
        history = self.game.render_log()
        return [*(history.splitlines() if history else []), *self.narrate([])]

    def save(self, path: Path) -> Path:
        path.write_text(self.game.to_json(), encoding="utf-8")
        return path

    def leave(self, path: Path) -> tuple[bool, str]:
        """Save the game on leaving (however one leaves: quit, end of input, the end of the
        game); whether that went well, and a line saying where it went or why not."""
        if not self.game.record.moves:
            return True, "Nothing was played: no game saved."
        try:
            self.save(path)
        except OSError as error:
            return False, f"Error: cannot save to {path}: {error.strerror}"
        if self.state.is_over:
            return True, f"Game saved to {path}"
        return True, f"Game saved to {path}; go on with: pickomino play --resume {quote(str(path))}"


def save_note(path: Path) -> str:
    """What both faces say when a game starts: where it will be saved."""
    return f"This game is saved to {path} when you leave."


def _key(action: Action) -> str:
    """The key of a keep, roll or stop: its face, ``r`` or ``s``."""
    if action.kind == "keep":
        return FACE_KEYS[action.value]  # type: ignore[index]
    return action.name[0]
