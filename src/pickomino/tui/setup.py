"""Who sits where, and a session ready to play, from the command line or a saved record.

``--players "Ann,Bob,bot:expert,bot:easy"``: a plain name is a person (several people share
the keyboard), ``bot:NAME`` a bot by its name or difficulty; a bare number is refused (it
lists seats, it is no count). The record's ``meta`` keeps the seed and which seats are
bots, so that a resumed game has the same players.

>>> [seat.name for seat in parse_players("Ann,bot:hard")]
['Ann', 'Bot 2 (hard)']
"""

from __future__ import annotations

import getpass
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pickomino.bots import make_bot
from pickomino.core import Game, RecordError, Rules
from pickomino.tui.session import Session

BOT_PREFIX = "bot:"
#: The other seats of a game started without ``--players``.
DEFAULT_OPPONENTS = "bot:hard,bot:hard"
#: The person's name when the login name cannot serve as one.
FALLBACK_NAME = "Player"


@dataclass(frozen=True)
class Seat:
    name: str
    bot: str | None = None  #: bot or difficulty name; None for a person


def default_players() -> str:
    """You against two hard bots. You are called by your login name, so that the log's
    sentences about you read right ('ann busts at 12'), else 'Player'."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login name to be found
        name = ""
    try:
        seats = parse_players(name) if name.isprintable() else []
    except ValueError:  # a login name that is no player's name ('7', ...)
        seats = []
    person = len(seats) == 1 and seats[0].bot is None  # not 'Ann,Bob' nor 'bot:hard'
    return f"{name if person else FALLBACK_NAME},{DEFAULT_OPPONENTS}"


def parse_players(text: str) -> list[Seat]:
    """Seats from ``--players``; the number of seats is left to the engine (R1)."""
    if not text.strip():
        raise ValueError("no players given: list 2 to 7 seats, e.g. 'Ann,bot:hard'")
    seats = []
    for number, entry in enumerate((part.strip() for part in text.split(",")), start=1):
        if entry.isdigit():
            raise ValueError(
                f"seat {number} is the number {entry}, not a name: list every seat, "
                "e.g. 'Ann,bot:hard,bot:easy' for three players"
            )
        if entry.lower().startswith(BOT_PREFIX):
            bot = entry[len(BOT_PREFIX) :].strip()
            if not bot:
                raise ValueError(f"seat {number}: write bot:NAME, e.g. bot:hard")
            seats.append(Seat(f"Bot {number} ({bot})", bot))
        elif entry:
            seats.append(Seat(entry))
        else:
            raise ValueError(f"seat {number} has no name")
    names = [seat.name for seat in seats]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"each player needs a different name; given twice: {', '.join(twice)}")
    return seats


def new_session(players: str, rules: Rules, seed: int | None = None) -> Session:
    """A fresh game; without a seed one is drawn (and kept in the record)."""
    seats = parse_players(players)
    game = Game([seat.name for seat in seats], rules)  # refuses a wrong number of seats (R1)
    game.record.meta = seats_meta(draw_seed(seed), [seat.bot for seat in seats])
    return _session(game)


def seats_meta(seed: int, bots: Sequence[str | None]) -> dict[str, Any]:
    """The record's ``meta`` that lets ``--resume`` seat the same players: the seed, and
    for every seat its bot's name or None for a person."""
    return {"seed": seed, "bots": list(bots)}


def resume_session(path: Path) -> Session:
    """The game saved in ``path``; a record from elsewhere (no meta) has people in every seat."""
    try:
        text = path.read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    game = Game.from_json(text)
    meta = game.record.meta
    bots = meta.setdefault("bots", [None] * len(game.seats))
    if (
        not isinstance(bots, list)
        or len(bots) != len(game.seats)
        or not all(bot is None or isinstance(bot, str) for bot in bots)
    ):
        raise RecordError("'meta.bots' must give, for every seat, a bot name or null for a person")
    seed = meta.setdefault("seed", draw_seed(None))
    if type(seed) is not int:
        raise RecordError("'meta.seed' must be an integer")
    try:
        return _session(game)
    except ValueError as error:  # an unknown bot name
        raise RecordError(f"'meta.bots': {error}") from None


def fresh_save_path(folder: Path | None = None) -> Path:
    """Where a new game is saved unless told: ``pickomino-game.json`` in ``folder`` (the
    current one by default), or ``pickomino-game-2.json``, ... when that holds another
    game already: a new game never overwrites an earlier one."""
    folder = folder or Path()
    path, number = folder / "pickomino-game.json", 1
    while path.exists():
        number += 1
        path = folder / f"pickomino-game-{number}.json"
    return path


def draw_seed(seed: int | None) -> int:
    """The seed given, or a fresh one (kept in the record, so a game can be replayed)."""
    return random.randrange(1 << 32) if seed is None else seed


def _session(game: Game) -> Session:
    meta: dict[str, Any] = game.record.meta
    seed: int = meta["seed"]
    bots = {seat: make_bot(name, seed + seat) for seat, name in enumerate(meta["bots"]) if name}
    return Session(game, bots, seed)
