"""Material of the game (R1–R3) and the rule options with their presets.

Everything here is a constant or an immutable value, so a :class:`Rules` can be shared
between states, records and processes freely.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from pickomino.core.errors import BadInput

MIN_PLAYERS = 2  # R1
MAX_PLAYERS = 7  # R1
NUM_DICE = 8  # R2

#: Face indices 0..5 show 1, 2, 3, 4, 5 and a worm (R2).
FACES = (0, 1, 2, 3, 4, 5)
WORM = 5
FACE_SYMBOLS = ("1", "2", "3", "4", "5", "W")
#: Points of each face: the face value, and 5 for a worm (R2).
FACE_POINTS = (1, 2, 3, 4, 5, 5)

#: Tiles 21..36 (R3).
TILES = tuple(range(21, 37))
LOWEST_TILE = TILES[0]
HIGHEST_TILE = TILES[-1]


def worms_on(tile: int) -> int:
    """Worms printed on a tile (R3): 1 for 21–24, 2 for 25–28, 3 for 29–32, 4 for 33–36.

    >>> [worms_on(t) for t in (21, 24, 25, 29, 33, 36)]
    [1, 1, 2, 3, 4, 4]
    """
    if not LOWEST_TILE <= tile <= HIGHEST_TILE:
        raise BadInput("not_a_tile", "R3", tile=tile)
    return (tile - LOWEST_TILE) // 4 + 1


LowerTile = Literal["nearest", "any"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options (pickomino/i18n/en/rules.md); the defaults give the rulebook game.

    >>> Rules.preset("bga")
    Rules(flip_returned_highest=False, exact_match_mandatory=True, lower_tile='any')
    """

    #: R16: turn the highest grill tile face down even when it is the one just returned.
    flip_returned_highest: bool = False
    #: R12: a tile matching the total exactly (grill or steal) must be taken.
    exact_match_mandatory: bool = False
    #: R11c: ``"nearest"`` lower grill tile only, or ``"any"`` lower grill tile.
    lower_tile: LowerTile = "nearest"

    def __post_init__(self) -> None:
        for name in ("flip_returned_highest", "exact_match_mandatory"):
            if not isinstance(getattr(self, name), bool):
                raise BadInput("option_bool", option=name, given=str(getattr(self, name))[:20])
        if self.lower_tile not in ("nearest", "any"):
            raise BadInput("option_lower_tile", given=str(self.lower_tile)[:20])

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the named presets: ``official``, ``short`` or ``bga``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise BadInput("unknown_preset", given=str(name)[:40], presets=list(PRESETS)) from None

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules written as a preset and/or options, comma-separated.

        >>> Rules.parse("short,lower_tile=any")
        Rules(flip_returned_highest=True, exact_match_mandatory=False, lower_tile='any')
        """
        rules = cls()
        parts = [p.strip() for p in text.split(",") if p.strip()]
        for index, part in enumerate(parts):
            if "=" not in part:
                if index:
                    raise BadInput("preset_not_first", given=part[:40])
                rules = cls.preset(part)
                continue
            name, _, value = (x.strip() for x in part.partition("="))
            if name not in cls.__dataclass_fields__:
                options = list(cls.__dataclass_fields__)
                raise BadInput("unknown_option", given=name[:40], options=options)
            typed: bool | str = value
            if name != "lower_tile":
                if value.lower() not in ("true", "false"):
                    raise BadInput("option_bool", option=name, given=value[:20])
                typed = value.lower() == "true"
            changes: dict[str, Any] = {name: typed}  # one option, typed above
            rules = replace(rules, **changes)
        return rules

    def to_dict(self) -> dict[str, bool | str]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from their JSON form; unknown or badly typed options are refused."""
        if not isinstance(data, dict):
            raise BadInput("rules_not_object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise BadInput(
                "unknown_option",
                given=", ".join(sorted(map(str, unknown)))[:80],
                options=list(cls.__dataclass_fields__),
            )
        return cls(**data)

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)


PRESETS: dict[str, Rules] = {
    "official": Rules(),
    "short": Rules(flip_returned_highest=True),
    "bga": Rules(exact_match_mandatory=True, lower_tile="any"),
}
