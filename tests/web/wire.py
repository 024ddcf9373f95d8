"""What the server may send: data and message ids, never sentences (every page words them
in its reader's language, from the catalogues). The checks here hold a message to the wire
format the pages read (see ``pickomino.web.protocol`` and ``pickomino.web.errors``), and
find any text in it that is not data: a sentence in any language fails them."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from pickomino.core.events import BUST_RULES
from pickomino.i18n import catalogue

from .clients import ERROR_IDS

#: A text that is data: an id (a phase, a status, a bust reason, a bot, an event type, a rule
#: option's value, a field's name, a format), a rule, dice or a face (or none), or an action's name.
#: A position in the notation of ``GameState.to_text``: stacks, face down, seat, turn, phase,
#: kept, roll, rules (``25/- - 0 3 keep - 12334455 official``).
POSITION = r"\S+ \S+ \d+ \d+ [a-z_]+ [1-5W-]+ [1-5W-]+ [a-z_]+(,[a-z_]+=[a-z_]+)*"
DATA = re.compile(
    r"[a-z_]+(-[a-z_]+)*|R\d{1,2}[a-c]?|[1-5W]{0,8}|keep [1-5W]|take \d\d|steal \d\d|" + POSITION
)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
RULE = re.compile(r"R\d{1,2}")

#: Each log entry's fields (besides ``type``), as the pages read them.
LOG_FIELDS = {
    "turn": {"turn", "seat"},
    "rolled": {"seat", "dice"},
    "kept": {"seat", "face", "count", "total"},
    "took": {"seat", "tile", "total"},
    "stole": {"seat", "tile", "victim", "total"},
    "bust": {"seat", "reason", "total"},
    "returned": {"seat", "tile"},
    "turned": {"tile"},
    "game_over": {"ranking", "tie_break"},
    "timeout": {"seat", "turn", "bot"},  # the table's own entries (pickomino.web.game.seating)
    "away": {"seat", "why", "bot"},
    "back": {"seat", "at"},  # the server's time: how long a vote's stand-in played (since)
}
AWAY_WHY = {"absent", "timeouts", "vote"}
STANDING = {"seat", "rank", "worms", "highest_tile"}
STATE = {"type", "id", "seq", "status", "waiting_for", "seats", "rules", "table", "actions"}
STATE |= {"log_start", "log", "clock", "takeover", "rated", "v", "now", "stopped_after"}
#: A change: what changed in a state (``set``: its fields, ``table``: the table's) and the
#: version it turns ``base`` into (``v``), with the log's new entries.
CHANGE = {"type", "v", "base", "set", "table", "log_start", "log", "now"}
STAMPS = {"type", "log_start", "log", "v", "now"}
SEAT = {"name", "bot", "claimed", "open", "online", "profile", "away", "stand_in", "votes"}
SEAT |= {"votes_needed", "waited_on"}
CLOCK = {"per_turn", "bank", "increment", "seat", "deadline", "banks"}
TABLE = {"grill", "stacks", "worms", "current", "turn", "phase", "roll", "kept", "total"}
TABLE |= {"dice_left", "over"}
HINT_ROW = {"action", "win", "tile", "worms", "bust"}
COACH = {"type", "seq", "best", "choices"}
COACH_CHOICE = {"action", "value", "cost", "label", "busts"}


def texts(value: Any) -> Iterator[str]:
    """Every text in a JSON value (the values: keys are the format's own names)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def words_in(value: Any, allowed: Collection[str] = ()) -> list[str]:
    """The texts in ``value`` that are not data nor ``allowed`` (the players' names, the
    game's id): words a reader of another language could not read."""
    return [text for text in texts(value) if text not in allowed and not DATA.fullmatch(text)]


def check_refusal(refusal: dict) -> None:
    """A refusal (an HTTP ``detail``, or a WebSocket ``error`` without its ``type``): an id
    with words in the catalogue, the rule behind it, and every parameter those words use."""
    assert set(refusal) == {"id", "params", "rule"}, refusal
    assert refusal["id"] in ERROR_IDS, refusal
    assert refusal["rule"] is None or RULE.fullmatch(refusal["rule"]), refusal
    template = catalogue("en", "game")[f"error.{refusal['id']}"]
    forms = template.values() if isinstance(template, dict) else [template]
    used = {name for form in forms for name in PLACEHOLDER.findall(form)}
    assert used <= set(refusal["params"]), (refusal, used)
    for value in refusal["params"].values():  # a refusal within (why a record is damaged)
        if isinstance(value, dict) and "id" in value:
            check_refusal(value)


def check_entry(entry: dict) -> None:
    """A log entry: a turn's heading or an event, with exactly its fields."""
    kind = entry["type"]
    assert kind in LOG_FIELDS, entry
    timed = {"since"} if kind == "away" and entry.get("why") == "vote" else set()
    assert set(entry) == {"type"} | LOG_FIELDS[kind] | timed, entry
    if kind == "bust":
        assert entry["reason"] in BUST_RULES, entry
    if kind == "away":
        assert entry["why"] in AWAY_WHY, entry
    if kind == "game_over":
        check_ranking(entry["ranking"], entry["tie_break"])


def check_ranking(ranking: list[dict], tie: str | None) -> None:
    assert ranking and all(set(standing) == STANDING for standing in ranking), ranking
    assert tie in ("tile", "shared", None)


def check_table(table: dict, stopped: bool = False) -> None:
    """A table view; ``stopped``: of a game stopped at its turn limit (its standings shown)."""
    over = {"ranking", "tie_break"} if table["over"] or stopped else set()
    assert set(table) == TABLE | over, sorted(set(table) ^ (TABLE | over))  # no result text
    if over:
        check_ranking(table["ranking"], table["tie_break"])


def check_message(message: dict, allowed: Collection[str]) -> None:
    """Any message from the WebSocket: its shape, and no words but ``allowed`` names."""
    kind = message["type"]
    if kind == "state":
        assert set(message) == STATE, sorted(set(message) ^ STATE)
        assert all(set(seat) == SEAT for seat in message["seats"]), message["seats"]
        assert message["clock"] is None or set(message["clock"]) == CLOCK, message["clock"]
        assert isinstance(message["now"], float), message["now"]
        check_table(message["table"], message["stopped_after"] is not None)
        for entry in message["log"]:
            check_entry(entry)
    elif kind == "change":
        assert set(message) == CHANGE, sorted(set(message) ^ CHANGE)
        assert set(message["set"]) <= STATE - STAMPS - {"table"}, message["set"]
        assert all(set(seat) == SEAT for seat in message["set"].get("seats", [])), message
        clock = message["set"].get("clock")
        assert clock is None or set(clock) == CLOCK, clock
        assert set(message["table"]) <= TABLE | {"ranking", "tie_break"}, message["table"]
        assert isinstance(message["now"], float) and message["v"] == message["base"] + 1
        for entry in message["log"]:
            check_entry(entry)
    elif kind == "error":
        check_refusal({key: value for key, value in message.items() if key != "type"})
    elif kind == "hint":
        assert set(message) == {"type", "seq", "rows"}, message
        assert all(set(row) == HINT_ROW for row in message["rows"]), message
    elif kind == "coach":
        assert set(message) == COACH, message
        assert all(set(choice) == COACH_CHOICE for choice in message["choices"]), message
        assert all(choice["busts"] in (None, *BUST_RULES) for choice in message["choices"])
    elif kind == "presence":
        assert set(message) == {"type", "online"}, message
    elif kind == "welcome":
        assert set(message) == {"type", "seat", "name"}, message
    else:
        assert message == {"type": "pong"}, message
    assert words_in(message, allowed) == [], kind
