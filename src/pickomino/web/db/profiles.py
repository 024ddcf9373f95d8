"""Profiles in the web app's database (beside the games, same engine): ``profiles``, a
claimed name (unique, compared as :func:`~pickomino.web.forms.name_keys` compares names: the
hashes of its two keys), the hash of its key (see :mod:`.profile_keys`) and of the network it
was claimed from (:mod:`.networks`). A profile's results and ratings: :mod:`.results`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass

import sqlalchemy as sa

from pickomino.web.db.database import insert_unless_there
from pickomino.web.db.networks import DAY, Networks, plain_hash
from pickomino.web.db.player_pages import PlayerPages
from pickomino.web.db.profile_keys import key_hash, key_opens, new_id, new_key, parse_code
from pickomino.web.db.results import ResultStore
from pickomino.web.db.store import Store
from pickomino.web.db.tables import games, profiles, seat_networks
from pickomino.web.forms import name_keys

#: Profiles one address may claim a day (``serve --profiles-per-address``; an IPv6 /48
#: :data:`~pickomino.web.addresses.SITE_SHARE` times that): a claimed name is kept for good,
#: and it and its lookalikes are refused to guests, so a stranger could reserve thousands a
#: day behind the per-minute limit alone (an audit: 600 from one address, every one kept).
PROFILES_PER_ADDRESS = 50
#: The first half of the advisory lock's key that makes a site's claims one at a time (the
#: sheets use 0x5053, the leases 0x5049, the migrations 0x504D).
LOCK_SPACE = 0x5050


class NameClaimed(Exception):
    """The name (or one that differs only in case or spaces) is somebody's profile."""


class TooManyProfiles(Exception):
    """The address claimed its :attr:`ProfileStore.per_address` profiles in the last day (or
    its IPv6 site as many times :data:`~pickomino.web.addresses.SITE_SHARE`)."""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _key_hashes(name: str, salt: str = "") -> dict[str, str]:
    """The stored hashes of a name's two keys (``salt``: an old profile's id, when an older
    profile's name looks like it)."""
    case, look = sorted(name_keys(name))  # "case:…", "look:…"
    return {"name_key": _digest(case + salt), "look_key": _digest(look + salt)}


class ProfileStore(ResultStore, PlayerPages):
    """The profiles, and (from :class:`~pickomino.web.db.results.ResultStore` and
    :class:`~pickomino.web.db.player_pages.PlayerPages`) their results, ratings and pages:
    the one object the app keeps for all. Every method is one transaction."""

    def __init__(
        self, store: Store, networks: Networks, per_address: int = PROFILES_PER_ADDRESS
    ) -> None:
        super().__init__(store.engine)
        self.store, self.networks, self.per_address = store, networks, per_address
        self._claiming = threading.Lock()  # a count and its insert, one claim after another
        self._key_old_names()

    def seat_played_from(self, game_id: str, seat: int, address: str) -> None:
        """Keep ``address``'s network (hashed) as one the person's ``seat`` of a rated game
        was played from (a socket opened, a seat claimed): see :meth:`_fair`."""
        network = self.networks.rating_site(address)
        with self.engine.begin() as db:
            row = {"game_id": game_id, "seat": seat, "network": network}
            db.execute(insert_unless_there(db, seat_networks).values(**row))

    def _key_old_names(self) -> None:
        """Give the profiles claimed before names were compared by their look their two
        keys; a profile whose name looks like an older one's keeps it, but its keys take
        its id, so only the older one's name is taken."""
        with self.engine.begin() as db:
            old = sa.select(profiles.c.id).where(profiles.c.look_key.is_(None))
            if db.execute(old.limit(1)).first() is None:
                return  # every start after the first
            rows = db.execute(
                sa.select(
                    profiles.c.id, profiles.c.name, profiles.c.name_key, profiles.c.look_key
                ).order_by(profiles.c.created, profiles.c.id)
            ).all()
            taken = {key for row in rows if row.look_key for key in (row.name_key, row.look_key)}
            for row in rows:
                if row.look_key is not None:
                    continue
                keys = _key_hashes(row.name)
                if taken & set(keys.values()):
                    keys = _key_hashes(row.name, salt=row.id)
                taken.update(keys.values())
                db.execute(profiles.update().where(profiles.c.id == row.id).values(**keys))

    def claim(self, name: str, address: str) -> tuple[Profile, str]:
        """A new profile for ``name``, claimed from ``address``, and its key (the only time
        the key exists outside the browser); :class:`NameClaimed` if the name is taken,
        :class:`TooManyProfiles` if ``address`` claimed :attr:`per_address` in the last day
        (counted and stored in one step: one claim at a time in this process, and on
        PostgreSQL one a site in every process)."""
        profile, key = Profile(new_id(), name), new_key()
        origin, now = self.networks.origin(address), time.time()
        try:
            with self._claiming, self.engine.begin() as db:
                origin.one_at_a_time(db, LOCK_SPACE)
                today = origin.made_here(db, profiles, profiles.c.created > now - DAY)
                if today.reaches(self.per_address):
                    raise TooManyProfiles(address)
                db.execute(
                    profiles.insert().values(
                        id=profile.id, name=name, **_key_hashes(name), key_hash=key_hash(key),
                        created=now, claimed_from=self.networks.rating_site(address),
                        **origin.columns(),
                    )
                )  # fmt: skip
        except sa.exc.IntegrityError:  # the name's keys are unique (an id collision: 2^-50)
            raise NameClaimed(name) from None
        return profile, key

    def open(self, code: str | None, address: str | None = None) -> Profile | None:
        """The profile a recovery code opens, or ``None`` (no code, not a code, an unknown
        id, a wrong or replaced key: all alike); opened from ``address``, the network of a
        profile claimed there before the server's secret gets hashed under it."""
        parsed = parse_code(code) if code else None
        if parsed is None:
            return None
        profile_id, key = parsed
        with self.engine.connect() as db:
            row = db.execute(profiles.select().where(profiles.c.id == profile_id)).first()
        if row is None or not key_opens(row.key_hash, key):
            return None
        if address is not None and row.claimed_from == plain_hash(address):
            self.networks.upgrade(address)
        return Profile(row.id, row.name)

    def replace_key(self, code: str) -> str | None:
        """A new key for the profile the recovery ``code`` opens: the old one (and every code
        made of it) stops working at once. ``None``, changing nothing, when the code opens
        no profile now: of two replacements with one code at the same moment (a leaked code,
        its owner and a thief; two processes), only the first gets a key that works."""
        parsed = parse_code(code)
        if parsed is None:
            return None
        profile_id, old = parsed
        key = new_key()
        with self.engine.begin() as db:
            replaced = db.execute(
                profiles.update()
                .where(profiles.c.id == profile_id, profiles.c.key_hash == key_hash(old))
                .values(key_hash=key_hash(key))
            )
        return key if replaced.rowcount == 1 else None

    def unfinished_games(self, profile: Profile) -> list[str]:
        """The games not ended in which ``profile`` holds a seat (waiting or in play)."""
        return [game_id for game_id, _ in self._seats_of(profile, ("open", "playing"))]

    def take_back_ended_seats(self, profile: Profile) -> list[str]:
        """New secrets, which nobody holds, for ``profile``'s seats in its ended games: a
        device that had one of them (a leaked code used, a shared computer) no longer starts
        a rematch in the profile's name once its key is replaced; the games' ids (the other
        processes are told)."""
        taken_back = self._seats_of(profile, ("over",))
        self.store.new_secrets(taken_back)
        return [game_id for game_id, _ in taken_back]

    def _seats_of(self, profile: Profile, statuses: tuple[str, ...]) -> list[tuple[str, int]]:
        """The games of these ``statuses`` in which ``profile`` holds a seat, with the seat."""
        query = sa.select(games.c.id, games.c.header).where(
            games.c.status.in_(statuses),
            games.c.header.contains(f'"{profile.id}"', autoescape=True),  # then read exactly
        )
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        found = []
        for row in rows:
            held = json.loads(row.header).get("meta", {}).get("profiles") or []
            if profile.id in held:
                found.append((row.id, held.index(profile.id)))
        return found

    def seated_in(self, game_id: str, profile: Profile) -> bool | None:
        """Whether ``profile`` holds a seat of the game, as stored (``None``: no such game):
        a profile's request for a game it does not play is refused without reading it."""
        query = sa.select(games.c.header).where(games.c.id == game_id)
        with self.engine.connect() as db:
            header = db.execute(query).scalar()
        if header is None:
            return None
        return profile.id in (json.loads(header).get("meta", {}).get("profiles") or ())

    def claimed(self, names: list[str]) -> set[str]:
        """Those of ``names`` that are profiles' names (as :func:`name_keys` compares)."""
        if not names:
            return set()
        keys = {name: set(_key_hashes(name).values()) for name in names}
        wanted = set().union(*keys.values())
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(profiles.c.name_key, profiles.c.look_key).where(
                    profiles.c.name_key.in_(wanted) | profiles.c.look_key.in_(wanted)
                )
            ).all()
        found = {key for row in rows for key in row}
        return {name for name, hashes in keys.items() if hashes & found}
