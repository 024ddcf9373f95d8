"""Where the score keeper keeps its sheets (games played with the real box, see
:mod:`pickomino.table.sheet`): each stored whole, as JSON, after every change; a sheet is
small, and only its link's holder changes it; a change is stored only on the sheet it was
made to (two phones at once, on two processes: the second is refused, not lost)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from pickomino.web.addresses import Counted
from pickomino.web.db.ids import valid_id
from pickomino.web.db.networks import DAY, Origin
from pickomino.web.db.tables import sheets

#: The first half of the advisory lock's key that makes a site's sheets one at a time (the
#: leases of games use 0x5049, the migrations 0x504D).
LOCK_SPACE = 0x5053


@dataclass
class StoredSheet:
    data: str  #: the sheet as JSON
    secret: str | None  #: the key its link carries (None: a sheet from before keys)


class SheetStore:
    """The sheets table, in the games' database; every method is one transaction."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._making = threading.Lock()  # a count and its insert, one origin's after another's

    def create(
        self,
        sheet_id: str,
        secret: str,
        data: str,
        status: str,
        made: tuple[Origin, Callable[[Counted], bool]] | None = None,
    ) -> bool:
        """Store a new sheet; with ``made``, where its creator made it from and whether what
        was made from there (:meth:`made_from`, over :data:`DAY`) refuses it: ``False``,
        nothing stored. The count and the insert are one step, one at a time in this process
        and, on PostgreSQL, for the site in every process (a review's ten requests at once
        from one address made six sheets where one was allowed)."""
        now = time.time()
        row = {"id": sheet_id, "secret": secret, "data": data, "status": status}
        with self._making if made else contextlib.nullcontext(), self.engine.begin() as db:
            if made:
                origin, refuses = made
                origin.one_at_a_time(db, LOCK_SPACE)
                if refuses(self._made_from(db, origin, DAY)):
                    return False
                row |= origin.columns()
            db.execute(sheets.insert().values(**row, created=now, updated=now))
        return True

    def made_from(self, origin: Origin, within: float = DAY) -> Counted:
        """How many sheets were created from this network, and from its site, in the last
        ``within`` seconds."""
        with self.engine.connect() as db:
            return self._made_from(db, origin, within)

    @staticmethod
    def _made_from(db: sa.Connection, origin: Origin, within: float) -> Counted:
        return origin.made_here(db, sheets, sheets.c.created > time.time() - within)

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
