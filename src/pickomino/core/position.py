"""A position written as one line of text that reads back to the same state (as FEN does for
chess), and the shorthand for tiles and real dice that the score keeper and ``advise`` read.

Eight fields, separated by spaces::

    22,30/-/25  36  0  7  keep  WW44  4455  official
    stacks      down to turn phase kept rolled rules

- *stacks*: each seat's tiles bottom to top, joined by ``,``; seats joined by ``/``; an
  empty stack is ``-``. Every tile in no stack and not face *down* lies face up on the grill;
- *down*: the face-down tiles (out of the game), or ``-``;
- *to*: the seat whose turn it is (from 0); *turn*: the turn's number (from 1);
- *phase*: what the state waits for: ``roll``, ``keep``, ``roll_or_stop``, ``claim`` or
  ``over`` (see :class:`~pickomino.core.state.Phase`);
- *kept*: the dice kept so far this turn (``WW44``), or ``-``; *rolled*: the dice just rolled
  (``keep`` only), or ``-``;
- *rules*: a preset, or a preset followed by options (``official,lower_tile=any``).

This module reads and writes the line (its syntax); :meth:`GameState.from_text
<pickomino.core.state.GameState.from_text>` builds the state through the engine's moves, so
that a position no game can reach (a roll that leaves nothing to keep, a choice of one
claim, a finished game with tiles on the grill) is refused, as the engine would refuse it.

>>> from pickomino.core import GameState
>>> state = GameState.from_text("22,30/-/25 36 0 7 keep WW44 4455 official")
>>> state.top(0), state.total, [action.name for action in state.legal_actions()]
(30, 18, ['keep 5'])
>>> GameState.from_text(state.to_text()) == state
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pickomino.core.dice import Counts, format_dice, parse_dice
from pickomino.core.errors import BadInput
from pickomino.core.phase import Phase
from pickomino.core.rules import Rules, worms_on

NONE = "-"
FIELDS = ("stacks", "down", "to", "turn", "phase", "kept", "rolled", "rules")


def parse_tiles(text: str) -> list[int]:
    """``"21-23, 30"`` → ``[21, 22, 23, 30]``: tiles separated by spaces or commas, ranges
    allowed; anything else is a clear error.

    >>> parse_tiles("21-23, 30")
    [21, 22, 23, 30]
    """
    tiles: list[int] = []
    for part in filter(None, re.split(r"[\s,]+", text.strip())):
        match = re.fullmatch(r"(\d{1,3})(?:-(\d{1,3}))?", part)  # no tile has more digits
        if not match:
            raise BadInput("not_tiles", "R3", given=part[:20])
        low, high = int(match[1]), int(match[2] or match[1])
        for tile in range(low, high + 1):
            worms_on(tile)  # refuses numbers that are not tiles
            tiles.append(tile)
        if high < low:
            raise BadInput("range_backwards", given=part[:20])
    return tiles


@dataclass(frozen=True)
class Position:
    """The eight fields of a position's line, read and checked for their syntax (whether
    a game can reach them is the state's to say).

    >>> Position.read("25/- - 1 3 keep WW 123455 bga").rolled
    (1, 1, 1, 1, 2, 0)
    """

    stacks: list[list[int]]
    down: list[int]
    current: int
    turn: int
    phase: Phase
    kept: Counts
    rolled: Counts | None  #: the dice just rolled (in the keep phase only)
    rules: Rules

    @classmethod
    def read(cls, text: str) -> Position:
        fields = str(text).split()
        if len(fields) != len(FIELDS):
            raise BadInput("position_fields", given=len(fields), fields=" ".join(FIELDS))
        stacks, down, current, turn, phase_name, kept, rolled, rules = fields
        phase = next((p for p in Phase if p.value == phase_name), None)
        if phase is None:
            phases = [p.value for p in Phase]
            raise BadInput("position_phase", given=phase_name[:20], phases=phases)
        if (rolled != NONE) != (phase is Phase.KEEP):
            raise BadInput("position_roll", phase=phase.value)
        return cls(
            [_tiles(part) for part in stacks.split("/")], _tiles(down), _number(current),
            _number(turn, least=1), phase, parse_dice("" if kept == NONE else kept),
            None if rolled == NONE else parse_dice(rolled), Rules.parse(rules),
        )  # fmt: skip

    def write(self) -> str:
        return " ".join(
            [
                "/".join(_tiles_text(stack) for stack in self.stacks),
                _tiles_text(self.down),
                str(self.current),
                str(self.turn),
                self.phase.value,
                format_dice(self.kept) or NONE,
                format_dice(self.rolled) if self.rolled else NONE,
                self.rules.to_text(),
            ]
        )


def _tiles_text(tiles: list[int]) -> str:
    return ",".join(map(str, tiles)) or NONE


def _tiles(text: str) -> list[int]:
    return [] if text == NONE else parse_tiles(text)


def _number(text: str, least: int = 0) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < least:  # not "²", nor 5,000 digits
        raise BadInput("position_number", given=text[:20])
    return int(text)
