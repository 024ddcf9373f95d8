"""Material of the game (R1–R3) and the rule options with their presets.

Everything here is a constant or an immutable value, so a :class:`Rules` can be shared
between states, records and processes freely.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
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
Choice = bool | str


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option as every face shows it: its ``name`` (a :class:`Rules` field), the
    ``rule`` it changes, its ``choices`` (the default first) and the catalogue ``key`` of
    its words (``option.<name>``, and ``option.<name>.<choice>`` for a choice that is not a
    yes or no). Editors, help texts and engines read this; nothing lists the options twice.

    >>> Rules.option("lower_tile").to_dict()["choices"]
    ['nearest', 'any']
    """

    name: str
    rule: str
    choices: tuple[Choice, ...]

    @property
    def default(self) -> Choice:
        return self.choices[0]

    @property
    def key(self) -> str:
        return f"option.{self.name}"

    @property
    def is_switch(self) -> bool:
        """A yes-or-no option (``true``/``false``), rather than a choice of words."""
        return isinstance(self.default, bool)

    def check(self, value: object) -> Choice:
        """``value`` if it is one of the choices, of their type (1 is not ``true``)."""
        if type(value) is type(self.default) and value in self.choices:
            return value
        given = str(value)[:20] or '""'  # an option given without a value: say so
        if self.is_switch:
            raise BadInput("option_bool", option=self.name, given=given)
        choices = [str(choice) for choice in self.choices]
        raise BadInput("option_choice", option=self.name, given=given, choices=choices)

    def read(self, text: str) -> Choice:
        """The choice written as ``text`` on a command line (``true``, ``any``)."""
        if self.is_switch and text.lower() in ("true", "false"):
            return text.lower() == "true"
        return self.check(text)

    def to_dict(self) -> dict[str, Any]:
        """The option as the browser's rules editor reads it (``/api/options``)."""
        return {
            "name": self.name,
            "rule": self.rule,
            "choices": list(self.choices),
            "default": self.default,
            "key": self.key,
        }


def _option(rule: str, choices: tuple[Choice, ...] = (False, True)) -> Any:
    """A :class:`Rules` field described as an :class:`Option` (its default: the first)."""
    return field(default=choices[0], metadata={"rule": rule, "choices": choices})


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options (pickomino/i18n/en/rules.md); the defaults give the rulebook game.
    Each field is described once, as an :class:`Option` (:meth:`options`).

    >>> Rules.preset("bga")
    Rules(flip_returned_highest=False, exact_match_mandatory=True, lower_tile='any')
    >>> [(option.name, option.rule) for option in Rules.options()]
    [('flip_returned_highest', 'R16'), ('exact_match_mandatory', 'R12'), ('lower_tile', 'R11c')]
    """

    #: R16: turn the highest grill tile face down even when it is the one just returned.
    flip_returned_highest: bool = _option("R16")
    #: R12: a tile matching the total exactly (grill or steal) must be taken.
    exact_match_mandatory: bool = _option("R12")
    #: R11c: ``"nearest"`` lower grill tile only, or ``"any"`` lower grill tile.
    lower_tile: LowerTile = _option("R11c", ("nearest", "any"))

    def __post_init__(self) -> None:
        for option in self.options():
            option.check(getattr(self, option.name))

    @staticmethod
    def options() -> tuple[Option, ...]:
        """Every rule option, in the order the faces show them."""
        return _OPTIONS

    @classmethod
    def option(cls, name: str) -> Option:
        """The option called ``name``; an unknown name is refused with the list."""
        found = next((option for option in _OPTIONS if option.name == name), None)
        if found is None:
            names = [option.name for option in _OPTIONS]
            raise BadInput("unknown_option", given=name[:40], options=names)
        return found

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
        named: set[str] = set()
        options = {option.name for option in _OPTIONS}
        for index, part in enumerate(parts):
            if "=" not in part and part not in options:  # an option alone: say its values
                if index:
                    raise BadInput("preset_not_first", given=part[:40])
                rules = cls.preset(part)
                continue
            name, _, value = (x.strip() for x in part.partition("="))
            if name in named:  # which one would hold is no way to say what is meant
                raise BadInput("option_repeated", name=name[:40])
            named.add(name)
            changes: dict[str, Any] = {name: cls.option(name).read(value)}  # typed: read
            rules = replace(rules, **changes)
        return rules

    def to_dict(self) -> dict[str, bool | str]:
        """The options by name (what ``dataclasses.asdict`` gives, without its deep copy of
        plain values: every state a web client is sent carries them)."""
        return {option.name: getattr(self, option.name) for option in _OPTIONS}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from their JSON form; unknown or badly typed options are refused."""
        if not isinstance(data, dict):
            raise BadInput("rules_not_object")
        for name in data:
            cls.option(str(name))  # unknown options are refused with the list
        return cls(**data)

    def to_text(self) -> str:
        """These rules as :meth:`parse` reads them: a preset's name, else ``official`` and
        the options that differ from it.

        >>> Rules(lower_tile="any").to_text(), Rules.parse("bga").to_text()
        ('official,lower_tile=any', 'bga')
        """
        if self.preset_name is not None:
            return self.preset_name
        official = PRESETS["official"]
        changed = [
            f"{option.name}={str(getattr(self, option.name)).lower()}"
            for option in _OPTIONS
            if getattr(self, option.name) != getattr(official, option.name)
        ]
        return ",".join(["official", *changed])

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)


#: The options, read once from the fields' descriptions.
_OPTIONS = tuple(Option(f.name, f.metadata["rule"], f.metadata["choices"]) for f in fields(Rules))

PRESETS: dict[str, Rules] = {
    "official": Rules(),
    "short": Rules(flip_returned_highest=True),
    "bga": Rules(exact_match_mandatory=True, lower_tile="any"),
}
