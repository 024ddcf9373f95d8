"""Where the score keeper keeps its sheets (games played with the real box, see
:mod:`pickomino.table.sheet`): each stored whole, as JSON, after every change; a sheet is
small, and only its link's holder changes it; a change is stored only on the sheet it was
made to (two phones at once, on two processes: the second is refused, not lost)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from pickomino.web.db.ids import valid_id
from pickomino.web.db.tables import sheets


@dataclass
class StoredSheet:
    data: str  #: the sheet as JSON
    secret: str | None  #: the key its link carries (None: a sheet from before keys)


class SheetStore:
    """The sheets table, in the games' database; every method is one transaction."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def create(
        self, sheet_id: str, secret: str, data: str, status: str, created_from: str | None = None
    ) -> None:
        """Store a new sheet; ``created_from``: its creator's network, hashed (see
        :meth:`made_from`)."""
        now = time.time()
        row = {"id": sheet_id, "secret": secret, "data": data, "status": status}
        with self.engine.begin() as db:
            db.execute(
                sheets.insert().values(**row, created=now, updated=now, created_from=created_from)
            )

    def made_from(self, created_from: str, within: float) -> int:
        """How many sheets were created from this (hashed) network in the last ``within``
        seconds."""
        query = sa.select(sa.func.count()).where(
            sheets.c.created_from == created_from, sheets.c.created > time.time() - within
        )
        with self.engine.connect() as db:
            return db.execute(query).scalar_one()

    def save(self, sheet_id: str, data: str, status: str, was: str) -> bool:
        """Write a sheet whole (it is small) after a change made to ``was`` (the sheet as it
        was loaded); ``False``, writing nothing, if it is no longer that: another request
        (another phone, on another process) changed it meanwhile, and would be undone."""
        with self.engine.begin() as db:
            written = db.execute(
                sheets.update()
                .where(sheets.c.id == sheet_id, sheets.c.data == was)
                .values(data=data, status=status, updated=time.time())
            )
        return written.rowcount == 1

    def load(self, sheet_id: str) -> StoredSheet | None:
        if not valid_id(sheet_id):
            return None
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(sheets.c.data, sheets.c.secret).where(sheets.c.id == sheet_id)
            ).first()
        return None if row is None else StoredSheet(row.data, row.secret)
