"""The whole state of a game as its clients see it: the table (:mod:`.view`), who sits where
and who is online, away or voted away, who keeps the game waiting, the clock, the actions the
person to move may send, and the log (:mod:`.tablelog`). Data, never words: the pages word it.
"""

from __future__ import annotations

import time

from pickomino.table.view import table_view
from pickomino.web.game.shared import SharedRoom


def state_message(room: SharedRoom, log_start: int = 0) -> dict[str, object]:
    """The whole state for clients; the log from entry ``log_start`` on (a client that has
    the entries before it appends these, so states stay small as a game grows)."""
    state = room.game.state
    stopped = room.game.record.meta.get("stopped_after")
    online = room.online()
    profiles = room.profiles()
    seating = room.seating
    now = time.time()
    needed = room.votes_needed(room.present(online), now)
    waited_on = room.waited_on(now)
    return {
        "type": "state",
        "id": room.id,
        "seq": room.seq,
        "status": room.status,
        # the turns after which the game stopped, unfinished (its turn limit); null: it did not
        "stopped_after": stopped,
        "waiting_for": room.waiting(),
        "seats": [
            {
                "name": s.name,
                "bot": s.bot,
                "claimed": s.claimed,
                "open": s.open,
                "online": online[n],
                "profile": profiles[n],
                "away": seating.away[n],
                "stand_in": n in room.session.stand_ins,
                "votes": seating.votes.get(n, []),
                "votes_needed": needed[n],
                "waited_on": n == waited_on,
            }
            for n, s in enumerate(room.seats)
        ],
        "rules": state.rules.to_dict(),
        "clock": _clock_view(room),
        "takeover": seating.takeover,
        "rated": room.rated,
        "table": table_view(state, ranked=stopped is not None),  # its standings: its result
        "actions": room.session.actions() if room.status == "playing" else [],
        "log_start": log_start,
        "log": room.table_log.entries[log_start:],
    }


def _clock_view(room: SharedRoom) -> dict[str, object] | None:
    """The time control, the running clock (whose, and when it runs out: the page counts
    down to it from the state's ``now``) and the banks; ``None``: no clock."""
    seating = room.seating
    if seating.control is None:
        return None
    running = room.status == "playing" and seating.deadline is not None
    return {
        "per_turn": seating.control.per_turn,
        "bank": seating.control.bank,
        "increment": seating.control.increment,
        "seat": seating.clock_seat if running else None,
        "deadline": seating.deadline if running else None,
        "banks": seating.banks,
    }
