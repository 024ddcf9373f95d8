"""Who sat where, kept in a record's ``meta`` so that a saved game comes back with the same
people and bots and the same dice: ``{"seed": 12345, "bots": [null, "hard"]}`` (a bot's
name or difficulty per seat, ``null`` for a person). A record from elsewhere, without
these, seats a person everywhere.

>>> from pickomino.core import GameRecord
>>> record = GameRecord(["Ann", "Robo"], meta=seats_meta(7, [Seat("Ann"), Seat("Robo", "hard")]))
>>> seats_from_record(record)
[Seat(name='Ann', bot=None), Seat(name='Robo', bot='hard')]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pickomino.bots import make_bot
from pickomino.core import BadInput, GameRecord, RecordError
from pickomino.table.seats import Seat


def seats_meta(seed: int, seats: Sequence[Seat]) -> dict[str, Any]:
    return {"seed": seed, "bots": [seat.bot for seat in seats]}


def seats_from_record(record: GameRecord) -> list[Seat]:
    """The seats a record's ``meta`` gives (filling in people and a fresh seed where it
    says nothing); a ``meta`` that cannot be right raises :class:`RecordError`."""
    meta = record.meta
    bots = meta.setdefault("bots", [None] * len(record.seats))
    if (
        not isinstance(bots, list)
        or len(bots) != len(record.seats)
        or not all(bot is None or isinstance(bot, str) for bot in bots)
    ):
        raise RecordError("record_bots")
    seed = meta.setdefault("seed", draw_seed(None))
    if type(seed) is not int:
        raise RecordError("record_seed")
    for bot in bots:
        if bot is not None:
            try:
                make_bot(bot)
            except BadInput as error:
                raise RecordError("record_bots_unknown", why=error) from None
    return [Seat(name, bot) for name, bot in zip(record.seats, bots, strict=True)]


def draw_seed(seed: int | None) -> int:
    """The seed given, or a fresh one (kept in the record, so a game can be replayed)."""
    return random.randrange(1 << 32) if seed is None else seed
