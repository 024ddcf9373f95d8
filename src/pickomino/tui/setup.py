"""Who sits where, and a game ready to play in the terminal, from the command line or a
saved record.

``--players "Ann,Bob,bot:expert,bot:easy"``: a plain name is a person (several people share
the keyboard), ``bot:NAME`` a bot by its name or difficulty; a bare number is refused (it
lists seats, it is no count). The record's ``meta`` keeps the seed and which seats are
bots (see :mod:`pickomino.table.records`), so that a resumed game has the same players and
goes on with the same dice.

>>> from pickomino.i18n import Words
>>> [seat.name for seat in parse_players("Ann,bot:hard", Words())]
['Ann', 'Bot 2 (hard)']
"""

from __future__ import annotations

import getpass
from pathlib import Path

from pickomino.core import BadInput, Game, RecordError, Rules
from pickomino.core.record import check_names_for_terminal
from pickomino.files import read_whole
from pickomino.i18n import Words
from pickomino.table import Seat, SeededDice, Session, parse_seats
from pickomino.table.records import draw_seed, seats_from_record, seats_meta
from pickomino.tui.console import Console

#: The other seats of a game started without ``--players``.
DEFAULT_OPPONENTS = "bot:hard,bot:hard"


def parse_players(text: str, words: Words) -> list[Seat]:
    """Seats from ``--players``, bots named in the player's language."""

    def bot_name(number: int, bot: str) -> str:
        return words("seat.bot", number=number, level=words(f"bot.{bot}"))

    return parse_seats(text, bot_name)


def coached_seats(text: str, seats: list[Seat]) -> set[int]:
    """The seats of the people named in ``--coach "Ann,Bob"`` (any case); a name that is
    no person at the table (a bot, or nobody) is refused."""
    people = {seat.name.casefold(): number for number, seat in enumerate(seats) if seat.is_person}
    chosen = set()
    for name in (part.strip() for part in text.split(",")):
        if name.casefold() not in people:
            names = [seat.name for seat in seats if seat.is_person]
            raise BadInput("no_coach_seat", given=name[:40] or '""', names=names)  # "" shown
        chosen.add(people[name.casefold()])
    return chosen


def default_players(words: Words) -> str:
    """You against two hard bots. You are called by your login name, so that the log's
    sentences about you read right ('ann busts at 12'), else 'Player' in your language."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login name to be found
        name = ""
    try:
        seats = parse_players(f"{name},{DEFAULT_OPPONENTS}", words) if name.isprintable() else []
    except BadInput:  # a login name that is no player's name ('7', 'a,b', ...)
        seats = []
    alone = len(seats) == 3 and seats[0].is_person  # not 'Ann,Bob' nor 'bot:hard'
    person = name if alone else words("seat.player")
    return f"{person},{DEFAULT_OPPONENTS}"


def new_console(players: str, rules: Rules, seed: int | None, words: Words) -> Console:
    """A fresh game; without a seed one is drawn (and kept in the record)."""
    seats = parse_players(players, words)
    game = Game([seat.name for seat in seats], rules)
    game.record.meta = seats_meta(draw_seed(seed), seats)
    return _console(game, seats, words)


def resume_console(path: Path, words: Words) -> Console:
    """The game saved in ``path``; a record from elsewhere (no meta) has people in every seat."""
    try:
        text = read_whole(path)
    except OSError as error:
        raise RecordError("unreadable", path=str(path), why=error) from None
    game = Game.from_json(text)
    check_names_for_terminal(game.seats)
    return _console(game, seats_from_record(game.record), words)


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


def _console(game: Game, seats: list[Seat], words: Words) -> Console:
    seed: int = game.record.meta["seed"]
    # Reseeded from the moves made so far: a resumed game goes on deterministically.
    dice = SeededDice(seed + len(game.record.moves))
    return Console(Session(game, seats, dice, seed), words)
