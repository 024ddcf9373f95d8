"""The notices that tell every server process of a committed change of a game (PostgreSQL's
``LISTEN/NOTIFY``): the channel, the payload, and sending one inside the change's
transaction. :mod:`pickomino.web.cluster.bridge` hears them; with SQLite none is sent (one
process owns its file).

A notice of moves carries the moves themselves (and the clock, when they moved it), so a
process that holds the game plays them in without reading the database; one that missed an
earlier notice, or a notice too long to carry them, reads what it lacks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlalchemy as sa

from pickomino.web.db.ids import valid_id

#: PostgreSQL's channel on which every committed change of a game is announced to every
#: server process (see :mod:`pickomino.web.cluster.bridge`).
CHANNEL = "pickomino_games"
#: A notice's move number when the change was not a move (a seat, the status).
NOT_A_MOVE = -1
#: A notice's move number when the (finished) game's rematch offer changed: offered,
#: accepted, declined, started (:mod:`pickomino.web.game.rematch`).
REMATCH = -2
#: Sending a notice: its ``payload`` (see :func:`notice`) on ``channel``.
NOTIFY = sa.select(sa.func.pg_notify(sa.bindparam("channel"), sa.bindparam("payload")))
#: Bytes of a payload at most (PostgreSQL refuses 8,000 or more): moves that would not fit
#: are left out of their notice, and read from the database by those who hear it.
MOST_BYTES = 7000


@dataclass(frozen=True)
class Notice:
    """A change of a game: who made it (the process's origin), which game, how many moves it
    has now (``NOT_A_MOVE`` for a seat or status change) and, for moves, the moves that
    brought it there and the clock they left (``None``: not carried, or not changed)."""

    origin: str
    game_id: str
    seq: int
    moves: tuple[str, ...] | None = None
    seating: str | None = None


def notice(
    origin: str, game_id: str, seq: int, moves: list[str] | None = None, seating: str | None = None
) -> str:
    """The payload announcing a change (see :class:`Notice`): one line ``origin game seq``
    (ids hold no spaces), then the moves and the clock as JSON, when they fit.

    >>> notice("p1", "g1", 7), parse_notice("p1 g1 7")
    ('p1 g1 7', Notice(origin='p1', game_id='g1', seq=7, moves=None, seating=None))
    >>> parse_notice(notice("p1", "g1", 9, ["dice 12333WW5", "keep W"])).moves
    ('dice 12333WW5', 'keep W')
    """
    head = f"{origin} {game_id} {seq}"
    if moves is None:
        return head
    payload = f"{head}\n{json.dumps({'moves': moves, 'seating': seating})}"
    return payload if len(payload.encode()) <= MOST_BYTES else head


def parse_notice(payload: str) -> Notice | None:
    """The notice a payload carries, or ``None`` for a payload of another shape."""
    head, _, body = payload.partition("\n")
    parts = head.split(" ")
    if len(parts) != 3 or not valid_id(parts[1]) or not parts[2].lstrip("-").isdigit():
        return None
    found = Notice(parts[0], parts[1], int(parts[2]))
    if not body:
        return found
    try:
        carried = json.loads(body)
        moves, seating = carried["moves"], carried["seating"]
    except (ValueError, TypeError, KeyError):
        return None
    if not (isinstance(moves, list) and all(isinstance(move, str) for move in moves)):
        return None
    if seating is not None and not isinstance(seating, str):
        return None
    return Notice(found.origin, found.game_id, found.seq, tuple(moves), seating)


def announce(db: sa.Connection, origin: str, game_id: str, seq: int = NOT_A_MOVE) -> None:
    """Announce a change to every process, inside its transaction: PostgreSQL delivers the
    notice at commit (and never if it rolls back)."""
    db.execute(NOTIFY, {"channel": CHANNEL, "payload": notice(origin, game_id, seq)})
