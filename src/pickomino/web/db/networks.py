"""The networks the server keeps: which one a profile was claimed from
(``profiles.claimed_from``, to tell one person's spare profiles from two people's), a game
created from (``games.created_from`` and ``created_site``, for the limits per address; a score
sheet's alike) and each person's seat
of a rated game played from (``seat_networks``, for who may rate whom). Each is kept as an
HMAC-SHA-256 of the network (:func:`~pickomino.web.addresses.network_of`) under the server's
secret, so whoever reads the database alone (a backup, a dump) cannot find the addresses
again by trying them all, as a plain hash of an IPv4 address allows.

Two hashes compare only under one secret: the database keeps the secret's fingerprint, and a
server started with another is refused (:class:`SecretMismatch`) rather than comparing hashes
that can never match, unless told to forget the networks kept (``replace=True``, for a secret
that was lost). Profiles claimed before the secret (a plain SHA-256) get the keyed hash the
first time they are opened from the network they were claimed from (:meth:`Networks.upgrade`).

>>> networks = Networks(sa.create_engine("sqlite://"), b"k" * 32, check=False)
>>> networks.of("203.0.113.7") == networks.of("::ffff:203.0.113.7") != networks.of("::1")
True
>>> len(networks.of("203.0.113.7")), networks.of("203.0.113.7") == plain_hash("203.0.113.7")
(64, False)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import sqlalchemy as sa
from platformdirs import user_data_path

from pickomino.web.addresses import Counted, network_of, rating_site_of, site_of
from pickomino.web.db.database import database_url, insert_unless_there, sqlite_file
from pickomino.web.db.tables import games, profiles, seat_networks, settings, sheets

#: A secret's length in bytes (written to its file as hexadecimal).
SECRET_BYTES = 32
#: The ``settings`` row keeping the fingerprint of the secret the networks are hashed under.
FINGERPRINT = "networks_fingerprint"


class SecretMismatch(Exception):
    """The database's networks were hashed under another secret than this server's."""


class SecretUnusable(Exception):
    """The secret file cannot be read or made (``args``: path, the error that says why)."""


class SecretTooShort(SecretUnusable):
    """The secret file holds fewer than ``2 * SECRET_BYTES`` characters."""


def secret_file_for(database: str | Path) -> Path | None:
    """Where the secret is kept when ``serve --secret-file`` names none: beside an SQLite
    file (``games.sqlite3.secret``), in the user's data folder for PostgreSQL (each host of
    a cluster must then be given the same file); ``None`` for a database in memory (a secret
    of its own, gone with it)."""
    url = sa.engine.make_url(database_url(database))
    if url.get_backend_name() == "postgresql":
        return user_data_path("pickomino", ensure_exists=True) / "server.secret"
    file = sqlite_file(url)
    return None if file is None else file.with_name(file.name + ".secret")


def read_secret(path: Path | None) -> bytes:
    """The secret in ``path``, made (readable by its owner only) if the file does not exist;
    a new random one for ``None``. :class:`SecretUnusable` says what is wrong."""
    if path is None:
        return secrets.token_bytes(SECRET_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # a --secret-file's own folder
        if not path.exists():
            _make_secret(path)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise SecretUnusable(str(path), error) from None
    if len(text) < 2 * SECRET_BYTES:  # hexadecimal, or any text as long
        raise SecretTooShort(str(path), "")
    return text.encode()


def _make_secret(path: Path) -> None:
    """A new secret in ``path``, written whole (readable by its owner only) under another
    name, then given this one unless another server starting at the same moment did first:
    nobody ever reads it half written, and a crash leaves no empty secret behind."""
    with tempfile.NamedTemporaryFile(  # made readable by its owner only
        "w", dir=path.parent, prefix=f".{path.name}.", delete=False, encoding="ascii"
    ) as made:
        made.write(secrets.token_hex(SECRET_BYTES) + "\n")
    try:
        with contextlib.suppress(FileExistsError):  # the other server's holds
            os.link(made.name, path)
    finally:
        os.unlink(made.name)


def plain_hash(address: str) -> str:
    """The hash versions before the secret kept of an address's network (plain SHA-256)."""
    return hashlib.sha256(f"address:{network_of(address)}".encode()).hexdigest()


#: The seconds over which what an origin made (sheets, profiles) is counted: a day.
DAY = 24 * 3600


class Origin(NamedTuple):
    """Where a game or a sheet was made from, kept hashed: the creator's network (limits
    count by it) and site (:func:`~pickomino.web.addresses.site_of`: an IPv6 /48, whose
    addresses share a larger budget; for IPv4, the network again)."""

    network: str
    site: str

    def columns(self) -> dict[str, str]:
        """The row's columns that keep it (``games``, ``sheets``)."""
        return {"created_from": self.network, "created_site": self.site}

    def made_here(self, db: sa.Connection, table: sa.Table, *conditions: Any) -> Counted:
        """How many rows of ``table`` meeting ``conditions`` were made from this network,
        and from this site."""
        query = sa.select(
            *(
                sa.select(sa.func.count()).where(column == kept, *conditions).scalar_subquery()
                for column, kept in (
                    (table.c.created_from, self.network),
                    (table.c.created_site, self.site),
                )
            )
        )
        return Counted(*db.execute(query).one())

    def one_at_a_time(self, db: sa.Connection, space: int) -> None:
        """On PostgreSQL, make ``db``'s transaction wait for any other of this site under
        the advisory lock ``space`` (every process's): a count and the row it lets in, one
        step."""
        if db.dialect.name == "postgresql":
            site = sa.func.hashtext(self.site)
            db.execute(sa.select(sa.func.pg_advisory_xact_lock(space, site)))


class Networks:
    """Hashes networks under the server's ``secret``; at start (``check``) makes sure the
    database's networks were hashed under the same one (the first start records it;
    ``replace``: forget the networks hashed under another)."""

    def __init__(
        self, engine: sa.Engine, secret: bytes, check: bool = True, replace: bool = False
    ) -> None:
        self.engine, self._secret = engine, secret
        if check:
            self._check(replace)

    def of(self, address: str) -> str:
        """What is kept of ``address`` for limits: its network's keyed hash."""
        return self._keyed(network_of(address))

    def origin(self, address: str) -> Origin:
        """What is kept of ``address`` for what it makes (:class:`Origin`)."""
        return Origin(self.of(address), self.site(address))

    def site(self, address: str) -> str:
        """What is kept of ``address``'s site for limits: its keyed hash (:func:`site_of`)."""
        return self._keyed(site_of(address))

    def rating_site(self, address: str) -> str:
        """What is kept of ``address`` for ratings: its keyed hash by :func:`rating_site_of`
        (an IPv4 /24, an IPv6 /48)."""
        return self._keyed(rating_site_of(address))

    def _keyed(self, network: str) -> str:
        return hmac.new(self._secret, network.encode(), hashlib.sha256).hexdigest()

    def upgrade(self, address: str) -> None:
        """A profile claimed before the secret was opened from ``address``, the network it
        was claimed from (its plain hash says so): every profile claimed there before gets the
        keyed hash, so that they still compare with each other (one person's spares, some
        opened from elsewhere) and with those claimed there since."""
        with self.engine.begin() as db:
            db.execute(
                profiles.update()
                .where(profiles.c.claimed_from == plain_hash(address))
                .values(claimed_from=self.rating_site(address))
            )

    def _fingerprint(self) -> str:
        return hmac.new(self._secret, b"pickomino networks", hashlib.sha256).hexdigest()

    def _check(self, replace: bool) -> None:
        mine = self._fingerprint()
        kept = sa.select(settings.c.value).where(settings.c.name == FINGERPRINT)
        with self.engine.begin() as db:
            if db.dialect.name == "postgresql":  # processes starting together: one at a time
                db.execute(sa.text("LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE"))
            recorded = db.execute(kept).scalar()
            if recorded == mine:
                return
            if recorded is not None and not replace:
                raise SecretMismatch()
            if recorded is not None:  # hashed under a secret that is gone: comparable to none
                db.execute(profiles.update().values(claimed_from=None))
                db.execute(games.update().values(created_from=None, created_site=None))
                db.execute(sheets.update().values(created_from=None, created_site=None))
                db.execute(seat_networks.delete())
                db.execute(
                    settings.update().values(value=mine).where(settings.c.name == FINGERPRINT)
                )
                return
            # The first start (SQLite has no lock: another process may record one meanwhile)
            db.execute(insert_unless_there(db, settings).values(name=FINGERPRINT, value=mine))
            if db.execute(kept).scalar() != mine:
                raise SecretMismatch()
