"""The notices that tell every server process of a committed change of a game (PostgreSQL's
``LISTEN/NOTIFY``): the channel, the payload, and sending one inside the change's
transaction. :mod:`pickomino.web.cluster.bridge` hears them; with SQLite none is sent (one
process owns its file).
"""

from __future__ import annotations

import sqlalchemy as sa

from pickomino.web.db.ids import valid_id

#: PostgreSQL's channel on which every committed change of a game is announced to every
#: server process (see :mod:`pickomino.web.cluster.bridge`).
CHANNEL = "pickomino_games"
#: A notice's move number when the change was not a move (a seat, the status).
NOT_A_MOVE = -1
#: Sending a notice: its ``payload`` (see :func:`notice`) on ``channel``.
NOTIFY = sa.select(sa.func.pg_notify(sa.bindparam("channel"), sa.bindparam("payload")))


def notice(origin: str, game_id: str, seq: int) -> str:
    """The payload announcing a change: who made it, which game, and how many moves the game
    has now (``NOT_A_MOVE`` for a seat or status change). Ids hold no spaces.

    >>> notice("p1", "g1", 7), parse_notice("p1 g1 7")
    ('p1 g1 7', ('p1', 'g1', 7))
    """
    return f"{origin} {game_id} {seq}"


def parse_notice(payload: str) -> tuple[str, str, int] | None:
    """``(origin, game id, seq)``, or ``None`` for a payload of another shape."""
    parts = payload.split(" ")
    if len(parts) != 3 or not valid_id(parts[1]) or not parts[2].lstrip("-").isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def announce(db: sa.Connection, origin: str, game_id: str, seq: int = NOT_A_MOVE) -> None:
    """Announce a change to every process, inside its transaction: PostgreSQL delivers the
    notice at commit (and never if it rolls back)."""
    db.execute(NOTIFY, {"channel": CHANNEL, "payload": notice(origin, game_id, seq)})
