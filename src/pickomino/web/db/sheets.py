"""Where the score keeper keeps its sheets (games played with the real box, see
:mod:`pickomino.table.sheet`): each stored whole, as JSON, after every change; a sheet is
small, and only its link's holder changes it; a change is stored only on the sheet it was
made to (two phones at once, on two processes: the second is refused, not lost)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from pickomino.web.addresses import Counted
from pickomino.web.db.ids import valid_id
from pickomino.web.db.networks import Origin
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
        self, sheet_id: str, secret: str, data: str, status: str, origin: Origin | None = None
    ) -> None:
        """Store a new sheet; ``origin``: where its creator made it from (see
        :meth:`made_from`)."""
        now = time.time()
        row = {"id": sheet_id, "secret": secret, "data": data, "status": status}
        made = {"created_from": origin.network, "created_site": origin.site} if origin else {}
        with self.engine.begin() as db:
            db.execute(sheets.insert().values(**row, created=now, updated=now, **made))

    def made_from(self, origin: Origin, within: float) -> Counted:
        """How many sheets were created from this network, and from its site, in the last
        ``within`` seconds."""
        recent = sheets.c.created > time.time() - within
        query = sa.select(
            *(
                sa.select(sa.func.count()).where(column == kept, recent).scalar_subquery()
                for column, kept in (
                    (sheets.c.created_from, origin.network),
                    (sheets.c.created_site, origin.site),
                )
            )
        )
        with self.engine.connect() as db:
            return Counted(*db.execute(query).one())

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
