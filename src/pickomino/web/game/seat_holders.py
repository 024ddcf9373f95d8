"""Who holds each seat of a game: a bot, or a person by a secret only their browser has; and
how a seat changes hands. A person takes a seat by its invite link or from the lobby (the
link's secret is then spent: it opens nothing), moves it to another device by a one-time
transfer secret, and a seat nobody took goes to a bot or is reopened.

Every change is stored first, and kept in memory only once the database took it: a change
another process stored first is refused, and memory catches up on the stored seats
(:meth:`.Commits.catch_up`), so two people never share a seat.
"""

from __future__ import annotations

import json
import secrets

from pickomino.table import Seat, players
from pickomino.web.db.store import HeaderChange
from pickomino.web.errors import Refused
from pickomino.web.game.shared import RoomPart, SeatHolder, SharedRoom


def same(secret: str | None, token: str) -> bool:
    """Whether ``token`` is ``secret`` (in constant time)."""
    return secret is not None and secrets.compare_digest(secret.encode(), token.encode())


class SeatHolders(RoomPart):
    """The room's seats (:attr:`.Room.seats`) as their holders change, stored first."""

    def __init__(self, room: SharedRoom) -> None:
        super().__init__(room)

    def seat_of(self, token: str | None, moving: bool = False) -> int | None:
        """The seat a token opens (its secret, or, for a page ``moving`` the seat to its
        device, its transfer secret: a one-time link that moves the seat and does nothing
        else); ``None`` for a spectator (no token). A link's secret spent by taking the seat
        is refused as such (``seat_link_used``), any other as ``bad_token``. A token unknown
        here is looked up in the database once, if its secrets changed there (another
        process gave one)."""
        if not token:
            return None
        found = self._opened_by(token, moving)
        if found is None and self._secrets_changed():
            self.room.catch_up()
            found = self._opened_by(token, moving)
        if found is None:
            raise Refused("bad_token")
        seat, spent = found
        if spent:
            raise Refused("seat_link_used")
        return seat

    def _opened_by(self, token: str, moving: bool) -> tuple[int, bool] | None:
        """(seat, whether ``token`` is its spent link) for a token of a seat here."""
        for number, seat in enumerate(self.room.seats):
            if same(seat.token, token) or (moving and same(seat.transfer, token)):
                return number, False
            if seat.claimed and same(seat.spent, token):
                return number, True
        return None

    def _secrets_changed(self) -> bool:
        """Whether the stored seats' secrets differ from memory's (one small query)."""
        room = self.room
        stored = room.store.seat_tokens([room.id])
        return stored != {(room.id, n): s.token for n, s in enumerate(room.seats) if s.token}

    def take(self, seat: int, token: str) -> str | None:
        """A person opens ``seat`` with ``token``: a seat nobody took yet (its invite link)
        is theirs from now on, and a transfer secret moves it to this device; either way
        the seat gets a new secret, returned for their browser alone (the link's sender
        knows the old one). ``None``: the token is the seat's own secret, nothing changes.
        Refused (``seat_link_used``) if another took it with the same link first."""
        current = self.room.seats[seat]
        try:
            if not current.claimed:
                return self.claim(seat)
            if same(current.transfer, token):
                return self.new_secret(seat, token)
        except Refused:
            raise Refused("seat_link_used") from None
        return None

    def claim(
        self,
        seat: int,
        name: str | None = None,
        profile: str | None = None,
        token: str | None = None,
    ) -> str:
        """A person takes their seat (by opening its link, or from the lobby with a name),
        as a ``profile`` if given; its secret is replaced by a new one (``token``, else a
        random one), returned for them alone, so that the invite link stops opening it and
        no two people share a seat. The game starts once every person's seat is taken.
        Refused (``seat_taken``) if it was taken meanwhile (by another process: memory
        catches up)."""
        room = self.room
        token = token or secrets.token_urlsafe(16)
        meta: dict[str, object] = {}
        if profile is not None:
            profiles = [*self.profiles()]
            profiles[seat] = profile
            meta["profiles"] = profiles
        lists: dict[str, tuple[object, list[object]]] = {}
        if profile is not None:
            lists["profiles"] = (profile, [None] * len(room.seats))
        header = seat_in_header(seat, name, lists)
        try:
            taken = room.store.claim_seat(room.id, seat, name, header, token)  # first, then memory
        except Refused:  # the profile took another seat on another process meanwhile
            room.catch_up()
            raise Refused("profile_seated", name=name) from None
        if not taken:
            room.catch_up()
            raise Refused("seat_taken")
        room.game.record.meta.update(meta)
        if name is not None:
            room.seats[seat].name = name
            room.game.record.seats[seat] = name
        spent = room.seats[seat].token
        room.seats[seat].claimed, room.seats[seat].token = True, token
        room.seats[seat].spent, room.seats[seat].transfer = spent, None
        if room.waiting():  # other seats may have been taken on other processes meanwhile:
            room.catch_up()  # the last of two claims at once reads both, and starts the game
        room.settle_status()
        return token

    def new_secret(self, seat: int, opened_by: str) -> str:
        """A taken seat's secret is replaced (it moves to another device: by its transfer
        secret ``opened_by``, or by its profile's key with the current secret); returned
        for that device alone. The seat's connections elsewhere only watch from now on.
        Refused (``seat_taken``) if ``opened_by`` no longer opens it (used elsewhere)."""
        room = self.room
        room.store_pending()  # a move of the seat's waiting is its holder's: stored first
        token = secrets.token_urlsafe(16)
        if not room.store.new_seat_token(room.id, seat, token, opened_by):
            room.catch_up()
            raise Refused("seat_taken")
        current = room.seats[seat]
        if same(current.transfer, opened_by):
            current.spent = opened_by
        current.token, current.transfer = token, None
        room.demote(seat)
        return token

    def transfer(self, seat: int) -> str:
        """A one-time secret that moves ``seat`` to another device (see :meth:`take`); a
        new one replaces the last. Only a taken seat's (``seat_not_taken``): an untaken one's
        invite link is known to whoever made the game, whose transfer link would have taken
        the seat back from the person after they took it (an audit)."""
        room = self.room
        if not room.seats[seat].claimed:
            raise Refused("seat_not_taken")
        transfer = secrets.token_urlsafe(16)
        holder = room.seats[seat].token
        if holder is None or not room.store.set_transfer(room.id, seat, transfer, holder):
            room.catch_up()
            raise Refused("seat_moved")
        room.seats[seat].transfer = transfer
        return transfer

    def replace_absent(self, seat: int, bot: str | None, name: str | None = None) -> None:
        """A person's seat nobody took yet goes to a ``bot`` for good, or (``None``) is
        reopened for anyone to take from the lobby; renamed if ``name`` is given. Its invite
        link stops working. Refused (``seat_taken``) if the seat was taken meanwhile."""
        room = self.room
        name = name or room.seats[seat].name
        bots = list(room.game.record.meta.get("bots") or [s.bot for s in room.seats])
        bots[seat] = bot
        header = seat_in_header(seat, name, {"bots": (bot, [s.bot for s in room.seats])})
        if not room.store.reseat(room.id, seat, name, bot, header):  # first, then memory
            raise Refused("seat_taken")
        room.game.record.meta["bots"] = bots
        self.put(seat, SeatHolder(name, bot, token=None, claimed=False, open=bot is None))
        room.settle_status()

    def put(self, seat: int, new: SeatHolder) -> None:
        """Put ``new`` in a seat (its person or bot, name, token) in memory, and its player
        at the table."""
        room = self.room
        room.seats[seat] = new
        room.game.record.seats[seat] = new.name
        table_seat = Seat(new.name, new.bot)
        if room.session.seats[seat] != table_seat:
            room.session.seats[seat] = table_seat
            seed = int(room.game.record.meta.get("seed", 0))
            room.session.players[seat] = players([table_seat], seed + seat)[0]

    def free_open_seat(self) -> int | None:
        """The first open seat nobody took yet (invited people's seats are never offered)."""
        return next((n for n, s in enumerate(self.room.seats) if s.open and not s.claimed), None)

    def profiles(self) -> list[str | None]:
        """Per seat: the id of the profile playing it, if any."""
        return self.room.game.record.meta.get("profiles") or [None] * len(self.room.seats)

    def waiting(self) -> list[str]:
        """The names of the people whose seats nobody took yet: the game waits for them."""
        return [s.name for s in self.room.seats if s.is_person and not s.claimed]


def seat_in_header(
    seat: int, name: str | None, lists: dict[str, tuple[object, list[object]]]
) -> HeaderChange:
    """A change to the stored header for one seat: its ``name`` (if given) and, for each of
    ``lists`` (``{"profiles": (profile, default)}``), its entry in that list of the record's
    ``meta`` (the default stands for a list not stored). Made on what is stored, not on this
    process's memory: two people claiming two seats at the same moment on two processes both
    keep their profile (an audit: the header written whole from memory lost one, and the
    game was not rated), and one profile is not given a second seat (another audit: joining
    twice at once on two processes, each checking its own memory, it took two): that raises
    :class:`Refused` (``profile_seated``), and the seat's change is rolled back."""

    def change(stored: str) -> str:
        header = json.loads(stored)
        if name is not None:
            header["seats"][seat] = name
        meta = header.setdefault("meta", {})
        for key, (value, default) in lists.items():
            kept = list(meta.get(key) or default)
            if key == "profiles" and value is not None and value in kept[:seat] + kept[seat + 1 :]:
                raise Refused("profile_seated")  # at another seat, by another process
            kept[seat] = value
            meta[key] = kept
        return json.dumps(header)

    return change
