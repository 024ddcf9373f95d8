"""Decisions a player can make, each with a fixed integer id and a readable name.

Ids (stable; learning code may rely on them):

====== =====================================
id     action
====== =====================================
0–5    ``keep 1`` … ``keep 5``, ``keep W``
6      ``roll``
7      ``stop``
8–23   ``take 21`` … ``take 36`` (from the grill)
24–39  ``steal 21`` … ``steal 36`` (the tile on top of an opponent's stack)
====== =====================================

>>> Action.parse("keep W").id, Action.from_id(27).name
(5, 'steal 24')
>>> Action.parse("keep W").face, Action.parse("steal 24").tile
(5, 24)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pickomino.core.errors import BadInput
from pickomino.core.rules import FACE_SYMBOLS, LOWEST_TILE, TILES

Kind = Literal["keep", "roll", "stop", "take", "steal"]

KEEP_BASE, ROLL_ID, STOP_ID, TAKE_BASE, STEAL_BASE = 0, 6, 7, 8, 24
NUM_ACTIONS = 40


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``value`` is the face index (0–5) for keep, the tile for take/steal;
    read it as :attr:`face` or :attr:`tile`, which say which it is (and are typed)."""

    kind: Kind
    value: int | None = None

    @property
    def face(self) -> int:
        """The face a keep keeps (an index 0–5: 5 is the worm)."""
        if self.kind != "keep" or self.value is None:
            raise BadInput("action_keeps_no_face", action=self.name)
        return self.value

    @property
    def tile(self) -> int:
        """The tile a take or a steal claims."""
        if self.kind not in ("take", "steal") or self.value is None:
            raise BadInput("action_claims_no_tile", action=self.name)
        return self.value

    @property
    def claims(self) -> bool:
        """A take or a steal: the action ends the turn with a tile."""
        return self.kind in ("take", "steal")

    @property
    def id(self) -> int:
        return _ID_OF[self]

    @property
    def name(self) -> str:
        if self.kind == "keep":
            return f"keep {FACE_SYMBOLS[self.face]}"
        if self.value is None:
            return self.kind
        return f"{self.kind} {self.value}"

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def from_id(action_id: int) -> Action:
        if not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise BadInput("action_id", given=str(action_id)[:20], high=NUM_ACTIONS - 1)
        return ACTIONS[action_id]

    @staticmethod
    def parse(name: str) -> Action:
        """The action written as ``keep W``, ``roll``, ``stop``, ``take 26`` or ``steal 27``."""
        action = _BY_NAME.get(" ".join(str(name).lower().split()))
        if action is None:
            raise BadInput("not_an_action", text=str(name)[:40])
        return action

    @staticmethod
    def coerce(action: Action | int | str) -> Action:
        """Accept an :class:`Action`, its id or its name."""
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return Action.parse(action)
        return Action.from_id(action)


def keep(face: int) -> Action:
    return ACTIONS[KEEP_BASE + face]


def take(tile: int) -> Action:
    return ACTIONS[TAKE_BASE + tile - LOWEST_TILE]


def steal(tile: int) -> Action:
    return ACTIONS[STEAL_BASE + tile - LOWEST_TILE]


ROLL = Action("roll")
STOP = Action("stop")
ACTIONS: tuple[Action, ...] = (
    *(Action("keep", face) for face in range(6)),
    ROLL,
    STOP,
    *(Action("take", tile) for tile in TILES),
    *(Action("steal", tile) for tile in TILES),
)
_ID_OF = {action: index for index, action in enumerate(ACTIONS)}
_BY_NAME = {action.name.lower(): action for action in ACTIONS}
