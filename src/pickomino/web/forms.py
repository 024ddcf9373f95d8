"""What the lobby and the score keeper accept when a game is set up: player names, rules
and who starts, checked the same way for both."""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Annotated, Literal

from fastapi import Request
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StringConstraints,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pickomino.bots import BOTS, DIFFICULTIES
from pickomino.core import PickominoError, Rules
from pickomino.i18n import LANGUAGES, catalogue
from pickomino.web.addresses import network_of
from pickomino.web.errors import refusal, refused
from pickomino.web.game.seating import TimeControl
from pickomino.web.lookalike import invisible, skeleton
from pickomino.web.protocol import RateLimits

#: Every bot a seat may name: the difficulties people choose from, then the bots by name.
BOT_NAMES = (*DIFFICULTIES, *BOTS)


def _printable(name: str) -> str:
    """No character nobody sees: a newline or a right-to-left mark would make the log and
    the lobby lie, PostgreSQL refuses NUL, and a Braille blank, a Hangul filler or a
    variation selector makes "Ann" a second Ann (see :func:`.lookalike.invisible`)."""
    hidden = next((char for char in name if invisible(char)), None)
    if hidden is not None:
        raise PydanticCustomError(
            "unprintable_name",
            "a name may not hold invisible characters ({character})",
            {"character": f"U+{ord(hidden):04X}"},
        )
    return name


#: Combining marks one character may carry in a name: enough for names in every script
#: (Hebrew with its points 3, Tibetan and Burmese syllables up to 4; only Sanskrit stacks in
#: Tibetan script carry more), too few for "Zalgo" text, whose dozens of marks would spill
#: over the lines above and below it on everyone's table.
MOST_MARKS = 4


def _not_stacked(name: str) -> str:
    """No character under a pile of combining marks (see :data:`MOST_MARKS`)."""
    run = 0
    for char in unicodedata.normalize("NFC", name):
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run > MOST_MARKS:
            raise PydanticCustomError(
                "stacked_marks",
                "a name may carry at most {most} marks on one letter",
                {"most": MOST_MARKS},
            )
    return name


def _not_a_bot(name: str) -> str:
    """A person's name may not read as a bot's label (see :func:`bot_label`)."""
    if bot_label(name):
        raise PydanticCustomError(
            "reserved_name", "{name} is how the bots are named", {"name": name}
        )
    return name


#: A player's name as shown on the table.
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=24),
    AfterValidator(_printable),
    AfterValidator(_not_stacked),
    AfterValidator(_not_a_bot),
]


#: A seat's name in a record sent as a file (made on the command line, which takes any
#: name): shown on a page, so nothing invisible and no pile of marks, but not held to what
#: the lobby takes (a bot's name, a longer one).
RecordName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64),
    AfterValidator(_printable),
    AfterValidator(_not_stacked),
]


def name_keys(name: str) -> frozenset[str]:
    """What makes two names the same player (they share a key): names that differ only in
    case or spaces, or look alike (UTS #39's confusable skeleton after NFKC), compared
    case-folded ("Mum", " MUM ", "Ｍｕｍ", "мum") or as written (Cyrillic "Мum", and "lris"
    beside "Iris", though "Iris" and "iris" differ in the skeleton).

    >>> len(set.intersection(*(set(name_keys(n)) for n in ("Mum", " MUM ", "Ｍｕｍ", "rnurn"))))
    1
    >>> bool(name_keys("Мum") & name_keys("Mum")), bool(name_keys("lris") & name_keys("Iris"))
    (True, True)
    """
    written = unicodedata.normalize("NFKC", " ".join(name.split()))
    return frozenset(
        (f"case:{skeleton(written.casefold())}", f"look:{skeleton(written).casefold()}")
    )


def same_names(names: list[str]) -> list[list[int]]:
    """The groups of seat numbers (from 1) that share a name, e.g. ``[[2, 4]]``."""
    groups: list[tuple[set[str], list[int]]] = []
    for number, name in enumerate(names, start=1):
        keys = name_keys(name)
        group = next((group for group in groups if group[0] & keys), None)
        if group is None:
            groups.append((set(keys), [number]))
        else:
            group[0].update(keys)
            group[1].append(number)
    return [numbers for _, numbers in groups if len(numbers) > 1]


@cache
def _bot_labels() -> tuple[frozenset[str], tuple[str, ...]]:
    """The keys of every label the pages give a bot, in every language ("Bot: expert",
    "Botti: vaikea", "Bot difficile"), and the keys of those labels' beginnings that end
    in punctuation ("Bot:"): a name starting so reads as a bot's label too."""
    labels: set[str] = set()
    beginnings: set[str] = set()
    for language in LANGUAGES:
        words = {**catalogue(language, "game"), **catalogue(language, "web")}
        for template in (words["rating.bot"], words["newgame.bot"]):
            before = template.split("{level}")[0].strip()
            if before and unicodedata.category(before[-1]).startswith("P"):
                beginnings.update(name_keys(before))
            for bot in BOT_NAMES:
                for level in (bot, words.get(f"bot.{bot}", bot)):
                    labels.update(name_keys(template.format(level=level)))
    return frozenset(labels), tuple(sorted(beginnings))


def bot_label(name: str) -> bool:
    """Whether a name reads as a bot's label as the pages show it (the leaderboard names a
    bot level "Bot: expert"), in any language, compared as :func:`name_keys` compares."""
    labels, beginnings = _bot_labels()
    return any(key in labels or key.startswith(beginnings) for key in name_keys(name))


#: A seat number (a JSON integer: not ``true``, not ``"0"``), or "random" for a seat drawn by
#: the server.
StartPlayer = StrictInt | Literal["random"]


class GameSetup(BaseModel):
    """The rules and who starts; a subclass lists the players and names them (``names``),
    and gets different names and a start seat that exists checked. Names that differ only
    in case or spaces are the same name: the 422 says which players (``ctx.players``, the
    numbers from 1, so a form can mark their rows), and each group of them with its name
    (``ctx.groups``: ``[{"players": [1, 3], "name": "Mum"}, …]``; ``ctx.group`` and
    ``ctx.name`` are the first of them)."""

    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, Field(max_length=200)] = "official"
    start_player: StartPlayer = 0

    def player_names(self) -> list[str]:
        raise NotImplementedError

    @model_validator(mode="after")
    def _check_players(self) -> GameSetup:
        names = self.player_names()
        if groups := same_names(names):  # the page words it from ctx
            named = [{"players": group, "name": names[group[0] - 1]} for group in groups]
            players = sorted(number for group in groups for number in group)
            raise PydanticCustomError(
                "same_name",
                "players {group} have the same name {name}",
                {"players": players, "name": named[0]["name"], "group": groups[0], "groups": named},
            )
        if isinstance(self.start_player, int) and not 0 <= self.start_player < len(names):
            raise PydanticCustomError(
                "start_seat", "the start player must be a seat from 0 to {high}",
                {"high": len(names) - 1},
            )  # fmt: skip
        return self


#: The longest clock: a week a turn, or four weeks' bank.
WEEK = 7 * 24 * 3600.0
#: The clocks the lobby's form offers (any other can be asked for over the API).
CLOCK_PRESETS = (
    {"per_turn": 30},
    {"per_turn": 60},
    {"per_turn": 120},
    {"bank": 300, "increment": 10},
    {"bank": 900, "increment": 15},
)
#: The fewest seconds a turn's clock or a bank may have by default: the shortest preset, so
#: the lobby offers every speed the server accepts. A turn is several decisions (roll, keep,
#: roll again, take a tile); under 30 s the bot would play many of them, and its results
#: would count as the person's.
CLOCK_MINIMUM = 30.0


class ClockSpec(BaseModel):
    """A game's time control: ``per_turn`` seconds a turn, or a ``bank`` of seconds for the
    whole game plus ``increment`` seconds a turn (see :mod:`pickomino.web.game.seating`)."""

    model_config = ConfigDict(extra="forbid")
    per_turn: Annotated[StrictFloat, Field(gt=0, le=WEEK, allow_inf_nan=False)] | None = None
    bank: Annotated[StrictFloat, Field(gt=0, le=4 * WEEK, allow_inf_nan=False)] | None = None
    increment: Annotated[StrictFloat, Field(ge=0, le=WEEK, allow_inf_nan=False)] = 0.0

    @model_validator(mode="after")
    def _one_kind(self) -> ClockSpec:
        if (self.per_turn is None) == (self.bank is None) or (self.per_turn and self.increment):
            raise PydanticCustomError("clock_kind", "give per_turn, or a bank and an increment")
        return self

    def shortest(self) -> float:
        """The time it gives at the least: a turn's, or the bank's."""
        return self.per_turn if self.per_turn is not None else self.bank or 0.0

    def control(self) -> TimeControl:
        return TimeControl(self.per_turn, self.bank, self.increment)


def parse_rules(text: str) -> Rules:
    """``"short,lower_tile=any"`` → rules, or a 400 saying what is wrong."""
    try:
        return Rules.parse(text)
    except PickominoError as error:
        raise refusal(400, error) from None


def start_seat(start_player: StartPlayer, players: int, seed: int | None = None) -> int:
    """The seat that starts; ``"random"`` is drawn from ``seed`` when given (a server with
    ``--dice-seed``), else by the system's generator."""
    if start_player != "random":
        return start_player
    return secrets.randbelow(players) if seed is None else random.Random(seed).randrange(players)


def client_address(client: tuple[str, int] | None) -> str:
    """The address limits count by: the peer's, or the one a trusted proxy forwarded (the
    server trusts forwarded headers only from ``--forwarded-allow-ips``), as its network
    (an IPv6 /64 is one address: :func:`~pickomino.web.addresses.network_of`)."""
    return network_of(client[0]) if client else "unknown"


def address_limit(per_minute: float | RateLimits, code: str) -> Callable[[Request], None]:
    """A FastAPI dependency for the routes that create games or sheets, or take a seat: a
    client address may call them ``per_minute`` times (ten at once; or as often as the
    :class:`RateLimits` given allow, shared with another way in), then gets 429 with the
    refusal ``code`` (a script must not fill the server with games and their bot tasks, nor
    try every game's seats)."""
    limits = per_minute if isinstance(per_minute, RateLimits) else RateLimits.per_minute(per_minute)

    def limit(request: Request) -> None:
        if not limits.allow(client_address(request.client)):
            raise refused(429, code)

    return limit


def creation_limit(per_minute: float) -> Callable[[Request], None]:
    return address_limit(per_minute, "too_many_new_games")
