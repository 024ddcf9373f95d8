"""What a browser may send over its WebSocket, checked before anything else looks at it.

Client → server, one JSON object per text message (at most ``MAX_MESSAGE`` characters):

- ``{"type": "act", "action": "keep W", "seq": 12}``: an intent for the sender's seat;
  ``action`` is an engine action name (``keep 1``…``keep W``, ``roll``, ``stop``,
  ``take 26``, ``steal 27``); ``seq`` (required, an integer) is the state version the person
  saw, so a double click on a stale view is refused instead of played twice;
- ``{"type": "hint"}``: each current choice's win chance, best first, with the turn's exact
  odds beside it (to the sender only, and only to the player to move);
- ``{"type": "coach"}``: the win chance of each current choice, its cost and label (to the
  sender only, and only to the player to move; see :mod:`pickomino.web.game.advisor`);
- ``{"type": "sync"}``: the whole state again, with the whole log (a client that lost track;
  not sent again while a whole state is still on its way to it: that one is the answer);
- ``{"type": "ping"}``: answered with ``{"type": "pong"}``;
- ``{"type": "vote", "seat": 2}``: a player asks for a bot to play seat 2, whose person is
  not connected (the game's ``takeover`` bot, until they come back). It does as soon as
  more than half of the game's people (the seat's own among them) have voted so, or, once
  its person has been gone the server's ``--away-after`` seconds (120 if that is 0), more
  than half of the people connected (a voter who leaves no longer counts; a restart starts
  that wait again). A person connected who has kept a game without a clock waiting on
  their turn as long counts as gone that long (``seats[n].waited_on``). The votes, and how
  many of them carry now, are in the state (``seats[n].votes``, ``seats[n].votes_needed``);
  they end when the person connects, or moves. Refused for a spectator, for one's own seat,
  a bot's, one a bot already plays, one whose person is connected (``vote_seat_online``
  in a game with a clock; ``vote_seat_waiting``, with the seconds as ``count``, until they
  have kept a game without one waiting that long), and a second vote for the same seat;
- ``{"type": "back"}``: the sender takes back their seat, which a bot plays while they
  were away (refused when it does not, and, for who was voted away for keeping the game
  waiting, until that turn is over: ``back_after_turn``); the bot's step under way, if any,
  is dropped, and the person has the next decision. The page sends it by itself when it is
  opened (or reloaded) on an away seat, and offers a button otherwise.

Server → client — data and message ids, never sentences (every page words them in its
reader's language): ``welcome`` (your seat, once; with ``token``, the seat's new secret,
when the link you opened just gave you the seat: see :mod:`pickomino.web.api.seats`),
``state`` (the whole state: on connecting, after a ``sync``, and to a client that
arrived while a change was under way; its ``log`` holds the entries from number
``log_start`` on, all of them after connecting or a sync; an entry is a turn's heading
``{"type": "turn", "turn": 3, "seat": 1}`` or an event such as ``{"type": "kept", "seat": 1,
"face": "W", "count": 3, "total": 15}``, see :func:`pickomino.core.events.event_dict`),
``change`` (after every update, to a client that holds the state before it: ``{"type":
"change", "base": 41, "v": 42, "set": {"seq": 17, "actions": […]}, "table": {"phase":
"keep", "roll": […]}, "log_start": 30, "log": […], "now": …}``: ``set`` holds the state's
fields that changed, given whole, ``table`` the table's fields that changed, ``log`` only
the new entries; applied to the state of version ``base`` (:func:`apply_change`, as
static/game.js does) it makes the state of version ``v``; a client holding another
version sends ``sync``. A state's ``v`` is ``null`` when no change follows from it: the
next update then comes whole), ``presence`` (``{"type": "presence", "online": [true,
false, …]}``, per seat, when a player comes or goes), ``hint``, ``coach``, ``rematch``
(``{"type": "rematch", "offer": …}`` after a finished game's offer changes, as
:mod:`pickomino.web.api.rematch` shows it to the connection's seat), ``pong`` and
``error`` (``{"type": "error", "id": "face_kept", "params": {"face": "W"}, "rule":
"R6"|null}``; it changed nothing; ``seat_moved``: your
seat went to another device, this connection watches from now on).

A state also says who plays each seat now and how long they have: per seat ``away`` (a bot
plays for its person until they are back), ``stand_in`` (a bot plays it now: away, or the
rest of a turn whose time ran out), ``votes`` (the seats that voted to hand it to a bot) and
``votes_needed`` (how many votes of the people connected would hand it over now) and
``waited_on`` (its person, connected, has kept a game without a clock waiting on their turn
``--away-after`` seconds: the others may vote);
``takeover``, the bot that stands in; ``stopped_after``, ``null`` or the turns after which
the game stopped at its turn limit (abandoned; its table then has the standings, ``ranking``
and ``tie_break``); ``rated``, whether the game was set up as rated (then
``hint`` and ``coach`` are refused: ``no_help_rated``); ``clock``, ``null`` without a time
control, else
``{"per_turn": 60|null, "bank": 300|null, "increment": 10, "seat": 1|null, "deadline":
1760000060.5|null, "banks": [288.5, 300]|null}``: the control, whose clock runs and when it
runs out (Unix time), and each bank's seconds (the running one's as at its turn's start);
and ``now``, the server's time as the state left it, to count down from. The server alone
keeps time: no client message says anything about it. The log's entries of the table:
``{"type": "timeout", "seat": 1, "turn": 7, "bot": "medium"}`` (a bot plays the rest of the
turn), ``{"type": "away", "seat": 1, "why": "absent"|"timeouts"|"vote", "bot": "medium"}``
and ``{"type": "back", "seat": 1}``.

The server closes a connection with one of these codes (after an ``error`` saying why, when
it can; the close reason is an id too, e.g. ``flood``, never words): ``BAD_TOKEN`` and
``NO_GAME`` are final; after the others a client reconnects (a flood: 1008; too far behind:
``FELL_BEHIND``, at once; nothing heard from it, not even a ping, for the server's
``socket_idle_timeout``: ``IDLE``, at once; too many connections from its address or
watching the game: ``TOO_MANY``, after a pause).

>>> parse_message('{"type": "act", "action": "keep W", "seq": 3}')
Act(type='act', action='keep W', seq=3)
>>> parse_message('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pickomino.web.protocol.BadMessage: unknown message type dance; send act, back, coach, ...
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import Annotated, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from pickomino.core import PickominoError
from pickomino.web.addresses import SITE_SHARE, site_of

#: The longest text message accepted; an action is a few words.
MAX_MESSAGE = 1024

#: WebSocket close codes (see above).
BAD_TOKEN, NO_GAME, FELL_BEHIND, IDLE, TOO_MANY = 4403, 4404, 4408, 4410, 4429


class BadMessage(PickominoError):
    """A message that is not one of the protocol's; says what was wrong (as a message id)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    seq: Annotated[StrictInt, Field(ge=0)]


class Hint(_Message):
    type: Literal["hint"]


class CoachRequest(_Message):
    type: Literal["coach"]


class Ping(_Message):
    type: Literal["ping"]


class Sync(_Message):
    type: Literal["sync"]


class Vote(_Message):
    type: Literal["vote"]
    seat: Annotated[StrictInt, Field(ge=0, le=99)]


class Back(_Message):
    type: Literal["back"]


Message = Act | Hint | CoachRequest | Ping | Sync | Vote | Back
ClientMessage = Annotated[Message, Field(discriminator="type")]
_adapter: TypeAdapter[Message] = TypeAdapter(ClientMessage)
_TYPES = ("act", "back", "coach", "hint", "ping", "sync", "vote")


def parse_message(text: str) -> Message:
    """A checked client message, or :class:`BadMessage` saying what is wrong with it."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("message_too_long", length=len(text), most=MAX_MESSAGE)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # e.g. "[[[[…" nested too deep
        raise BadMessage("not_json_object") from None
    if not isinstance(data, dict):
        raise BadMessage("not_json_object")
    kind = data.get("type")
    if kind not in _TYPES:  # quoted as sent (JSON: null, not Python's None)
        given = kind if isinstance(kind, str) else json.dumps(kind)
        raise BadMessage("unknown_message", given=given[:20])
    try:
        return _adapter.validate_python(data)
    except ValidationError as error:
        where = ".".join(str(part) for part in error.errors()[0]["loc"][1:]) or "type"
        raise BadMessage("bad_message", kind=data["type"], field=where[:20]) from None


def encode(message: dict[str, object]) -> str:
    """A message to clients as JSON text, compact. orjson: a state (1.6 KiB) takes some
    10 µs, against 56 µs with :func:`json.dumps`, and a state is encoded on every action.
    Keys that are not strings are written as strings, as :mod:`json` does.

    >>> encode({"type": "presence", "online": [True, False]})
    '{"type":"presence","online":[true,false]}'
    """
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def merge_log(log: list[str], state: dict) -> bool:
    """Bring a client's copy of the log up to date with a ``state`` message; ``False`` when
    lines are missing (then send ``sync``). Lines are only ever appended, so a state may
    repeat lines the client has; ``log_start`` 0 replaces the whole log.

    >>> log = []
    >>> merge_log(log, {"log_start": 0, "log": ["a", "b"]}), log
    (True, ['a', 'b'])
    >>> merge_log(log, {"log_start": 1, "log": ["b", "c"]}), log
    (True, ['a', 'b', 'c'])
    >>> merge_log(log, {"log_start": 5, "log": ["f"]}), log
    (False, ['a', 'b', 'c'])
    """
    start, lines = state["log_start"], state["log"]
    if start == 0:
        log[:] = lines
    elif start <= len(log):
        log.extend(lines[len(log) - start :])
    else:
        return False
    return True


#: The fields of a state that are not its body: a change carries its own.
NOT_BODY = frozenset({"type", "log_start", "log", "v", "now"})


def state_body(state: dict) -> dict:
    """What a state shows (its table, seats, clock, …), without its log and stamps: what a
    ``change`` is worked out from."""
    return {key: value for key, value in state.items() if key not in NOT_BODY}


def state_change(before: dict, after: dict) -> dict | None:
    """What turns the state body ``before`` into ``after``: ``set``, the fields whose value
    changed (given whole), and ``table``, the table's fields that changed. ``None`` when a
    field is gone (the whole state is sent then; no state drops a field today).

    >>> before = {"seq": 3, "status": "playing", "table": {"phase": "roll", "total": 0}}
    >>> after = {"seq": 4, "status": "playing", "table": {"phase": "keep", "total": 0}}
    >>> state_change(before, after)
    {'set': {'seq': 4}, 'table': {'phase': 'keep'}}
    >>> state_change(after, {"seq": 5, "table": {}}) is None
    True
    """
    table, table_before = after.get("table", {}), before.get("table", {})
    if not (before.keys() <= after.keys() and table_before.keys() <= table.keys()):
        return None
    return {
        "set": {
            k: v for k, v in after.items() if k != "table" and (k not in before or before[k] != v)
        },
        "table": {k: v for k, v in table.items() if k not in table_before or table_before[k] != v},
    }


def apply_change(state: dict, change: dict) -> dict:
    """The state a client holds once it applies ``change`` (a ``change`` message) to
    ``state``, the one it held, of version ``change["base"]``: as the page does
    (static/game.js). The log's new entries come as in a state (see :func:`merge_log`).

    >>> held = {"type": "state", "v": 6, "seq": 3, "table": {"phase": "roll", "total": 0}}
    >>> change = {"type": "change", "v": 7, "base": 6, "set": {"seq": 4},
    ...           "table": {"phase": "keep"}, "log_start": 2, "log": [], "now": 1.5}
    >>> made = apply_change(held, change)
    >>> made["v"], made["seq"], made["table"], made["log_start"]
    (7, 4, {'phase': 'keep', 'total': 0}, 2)
    >>> apply_change(made, {**change, "base": 5})
    Traceback (most recent call last):
    ...
    ValueError: a change from version 5 to a state of version 7
    """
    if change["base"] != state.get("v"):
        raise ValueError(
            f"a change from version {change['base']} to a state of version {state.get('v')}"
        )
    stamps = {key: change[key] for key in ("v", "log_start", "log", "now") if key in change}
    return {**state, **change["set"], "table": {**state["table"], **change["table"]}, **stamps}


class RateLimit:
    """A token bucket: ``per_second`` messages a second on average, with bursts of a few
    seconds' worth; a client over it is flooding and gets disconnected."""

    def __init__(self, per_second: float = 20.0, burst_seconds: float = 3.0) -> None:
        self.rate, self.capacity = per_second, max(1.0, per_second * burst_seconds)
        self.tokens, self.last = self.capacity, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimits:
    """One :class:`RateLimit` per client address (e.g. for creating games: a script must
    not fill the server with games and their bot tasks), and one per IPv6 site.

    A site (:func:`.site_of`: an IPv6 /48) has :data:`.SITE_SHARE` addresses' budgets in
    all, taken only by what its addresses were allowed: one of them past its own limit
    leaves its neighbours' share alone.

    >>> limits = RateLimits.per_minute(1, at_once=2)
    >>> [limits.allow(f"2001:db8:0:{n // 4}::/64") for n in range(8)].count(True)  # 2 each
    4
    >>> sum(limits.allow(f"2001:db8:1:{n}::/64") for n in range(100))  # 8 /64s' worth
    16
    >>> sum(limits.allow(f"2001:db8:7:{n}::/64") for n in range(100))  # another site
    16
    >>> sum(limits.allow(f"203.0.113.{n // 3}/32") for n in range(300))  # IPv4: each its own
    200
    """

    MAX_CLIENTS = 10_000  #: addresses remembered at most (memory stays bounded)

    def __init__(self, per_second: float, burst_seconds: float) -> None:
        self.per_second, self.burst_seconds = per_second, burst_seconds
        self.limits: OrderedDict[str, RateLimit] = OrderedDict()  #: the last asked last

    @classmethod
    def per_minute(cls, per_minute: float, at_once: int = 10) -> RateLimits:
        """``per_minute`` a minute from each address, ``at_once`` of them at once."""
        return cls(per_second=per_minute / 60, burst_seconds=at_once * 60 / per_minute)

    def allow(self, client: str) -> bool:
        """Whether ``client`` (an address as :func:`.network_of` gives it) may go on; an
        IPv6 one's site too."""
        if not self._bucket(client, 1).allow():
            return False
        site = site_of(client)
        return site == client or self._bucket(site, SITE_SHARE).allow()

    def _bucket(self, key: str, share: int) -> RateLimit:
        limit = self.limits.get(key)
        if limit is None:
            if len(self.limits) >= self.MAX_CLIENTS:
                self._make_room()
            limit = self.limits[key] = RateLimit(self.per_second * share, self.burst_seconds)
        else:
            self.limits.move_to_end(key)
        return limit

    def _make_room(self) -> None:
        """Forget the addresses whose buckets filled up again (as good as new ones), then
        those that asked longest ago until a tenth is free (one look over all of them a
        thousand new addresses). Never everyone at once: a stream of new addresses must not
        give a busy one its budget back."""
        now = time.monotonic()
        for client, limit in list(self.limits.items()):
            if limit.tokens + (now - limit.last) * limit.rate >= limit.capacity:
                del self.limits[client]
        while len(self.limits) > self.MAX_CLIENTS * 9 // 10:
            self.limits.popitem(last=False)
