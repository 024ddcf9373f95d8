"""Rematches in the web app's database: one offer per finished game, for the same seats.

An offer is made by a seated person clicking "Play again"; bots accept at once, each person
accepts through their own seat's token, and the new game starts when every person accepted;
one person declining cancels it for all. The new game's id is drawn with the offer, so a
crash between creating the game and marking the offer started is mended the next time
anyone asks (the game exists: it is only marked).

A person's seat in the new game opens first with a secret derived from their seat's secret
in the finished one (:func:`first_secret`): whoever holds that can ask for it again (a
reload), until the new seat moves to another device (a transfer link, a profile's key):
then the finished game's secret gives nothing more, and the old device only watches.

- ``rematches``: the finished game's id (the key: a second offer for the same game is the
  same offer), the new game's id, ``offered`` | ``declined`` | ``started``, who offered,
  who accepted (a JSON list of seats) and who declined.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa

from pickomino.core import GameRecord
from pickomino.web.db.notices import REMATCH
from pickomino.web.db.store import Store
from pickomino.web.db.tables import rematches
from pickomino.web.game.room import Room

#: What a new game carries over from the finished one's record (who plays as which profile,
#: whether it is rated, who created it).
CARRIED_META = ("profiles", "rated", "creator")


@dataclass
class Offer:
    game_id: str
    new_game_id: str
    offered_by: int
    accepted: frozenset[int]
    status: str = "offered"
    declined_by: int | None = None
    persons: list[int] = field(default_factory=list)  #: the seats that must accept

    @property
    def complete(self) -> bool:
        return self.status == "offered" and set(self.persons) <= self.accepted

    def view(self, start_player: int, seat: int | None, token: str | None) -> dict[str, object]:
        """As a page sees it: ``seat`` is the viewer's (``None``: a spectator), ``token``
        their seat's in the new game, given once it started (to them alone)."""
        started = self.status == "started"
        return {
            "status": self.status,
            "offered_by": self.offered_by,
            "accepted": sorted(self.accepted),
            "waiting_for": [n for n in self.persons if n not in self.accepted],
            "declined_by": self.declined_by,
            "start_player": start_player,
            "game": self.new_game_id if started else None,
            "seat": seat,
            "token": token if started and seat is not None else None,
        }


def first_secret(finished_secret: str, new_game_id: str, seat: int) -> str:
    """The secret a rematch's seat starts with, derived from the seat's secret in the
    finished game: nobody else can work it out, and nothing needs storing to give it again
    (nor to notice that the seat moved on: its secret is then another).

    >>> first_secret("s3cret", "g1", 0) == first_secret("s3cret", "g1", 0) != first_secret(
    ...     "s3cret", "g1", 1)
    True
    """
    message = f"rematch {new_game_id} {seat}".encode()
    digest = hmac.new(finished_secret.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def next_start(room: Room) -> int:
    """The start player of the rematch: the seat after the finished game's."""
    return (room.game.record.start_player + 1) % len(room.seats)


def rematch_record(room: Room) -> tuple[GameRecord, list[str | None]]:
    """The new game's record (same seats, names and rules, the next start player) and its
    bots."""
    old = room.game.record
    meta = {key: old.meta[key] for key in CARRIED_META if key in old.meta}
    meta["rematch_of"] = room.id
    names = [seat.name for seat in room.seats]
    record = GameRecord(names, old.rules, next_start(room), meta=meta)
    return record, [seat.bot for seat in room.seats]


class RematchStore:
    """Every method is one transaction; every change is announced to the other processes
    (their pages of the finished game hear of it too)."""

    def __init__(self, store: Store) -> None:
        self.store, self.engine = store, store.engine

    def get(self, room: Room) -> Offer | None:
        with self.engine.connect() as db:
            row = db.execute(rematches.select().where(rematches.c.game_id == room.id)).first()
        return None if row is None else _offer(row, room)

    def offer(self, offer: Offer, room: Room) -> Offer:
        """Store a new offer; if the game has one already (a click at the same moment, in
        another process too), that one is the offer."""
        try:
            with self.engine.begin() as db:
                db.execute(
                    rematches.insert().values(
                        game_id=offer.game_id, new_game_id=offer.new_game_id,
                        status=offer.status, offered_by=offer.offered_by,
                        accepted=json.dumps(sorted(offer.accepted)), updated=time.time(),
                    )
                )  # fmt: skip
                self.store.announce(db, offer.game_id, REMATCH)
        except sa.exc.IntegrityError:
            pass
        stored = self.get(room)
        assert stored is not None
        return stored

    def accept(self, room: Room, seat: int) -> Offer | None:
        """Add ``seat`` to those who accepted an offer still open (the row locked meanwhile,
        on PostgreSQL: two seats accepting at once both count)."""
        return self._change(
            room, lambda offer: {"accepted": json.dumps(sorted({*offer.accepted, seat}))}
        )

    def decline(self, room: Room, seat: int) -> Offer | None:
        """Cancel an offer still open for everyone, unless every person accepted it meanwhile
        (then it starts: an audit's decline racing the last accept, while the new game was
        being made, left a game nobody was told of)."""
        return self._change(
            room,
            lambda _offer: {"status": "declined", "declined_by": seat},
            when=lambda offer: not offer.complete,
        )

    def started(self, room: Room) -> Offer | None:
        return self._change(room, lambda _offer: {"status": "started"})

    def _change(
        self,
        room: Room,
        values: Callable[[Offer], dict[str, object]],
        when: Callable[[Offer], bool] = lambda offer: True,
    ) -> Offer | None:
        """Change an offer still open (a declined or started one stays as it is), if ``when``
        holds for it (read with its row locked)."""
        query = rematches.select().where(rematches.c.game_id == room.id).with_for_update()
        with self.engine.begin() as db:
            row = db.execute(query).first()
            if row is None:
                return None
            offer = _offer(row, room)
            if offer.status == "offered" and when(offer):
                db.execute(
                    rematches.update()
                    .where(rematches.c.game_id == room.id)
                    .values(**values(offer), updated=time.time())
                )
                self.store.announce(db, room.id, REMATCH)
        return self.get(room)


def _offer(row: sa.Row, room: Room) -> Offer:
    return Offer(
        game_id=row.game_id,
        new_game_id=row.new_game_id,
        offered_by=row.offered_by,
        accepted=frozenset(json.loads(row.accepted)),
        status=row.status,
        declined_by=row.declined_by,
        persons=[n for n, seat in enumerate(room.seats) if seat.is_person],
    )
