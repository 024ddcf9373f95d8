"""Which moves of a finished game a stand-in bot played for a person, and who left the game.

A person's seat is played by the game's ``takeover`` bot for the rest of a turn their time
ran out in, and from the moment they are marked away until they are back
(:mod:`pickomino.web.game.seating`); the table's log entries saying so are stored with the
number of moves played before them, so the moves the bot played follow from the record. A
person whose stand-in played more than :data:`LEFT_SHARE` of their seat's moves and who was
still away when the game ended, or whose stand-in played more than :data:`MOSTLY_SHARE` of them
whether they came back or not, did not play the game: their results count them as having left
it (after the others, whatever the bot achieved), so nobody gains a rating or an accuracy from a
bot's play (:mod:`pickomino.web.db.results`). Who came back from a shorter absence did not
leave, however fast the others played meanwhile (a dropped connection and a quick table must
not make anyone last), and a stand-in the others voted in counts only for an absence of
:data:`VOTE_GRACE` or longer (a vote's log entry keeps since when its person was gone, a
return when it was): a connection dropped near the end while the others race the bot to it
is no leaving; who only ran out of time now and then was there.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> for move in ("dice 1233WWW5", "keep W", "stop"):
...     _ = game.push(move)
>>> timeout = {"type": "timeout", "seat": 0, "turn": 1, "bot": "easy"}
>>> played = stand_in_moves(game.history, [TableEvent(1, timeout)])
>>> played  # moves 1 and 2 (keep, stop) were the bot's, for seat 0
[[0, 1, 3]]
>>> left_seats(game.history, played, people=[True, False], away=[False, False])  # 2 of 3
[0]
>>> left_seats(game.history, [[0, 2, 3]], [True, False], away=[True, False])  # 1 of 3, away
[0]
>>> left_seats(game.history, [[0, 2, 3]], [True, False], away=[False, False])  # came back
[]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pickomino.web.db.store import TableEvent
from pickomino.web.game.seating import AWAY_AFTER
from pickomino.web.game.tablelog import HistoryItem

#: A person away at the end whose stand-in played more than this share of their seat's moves
#: left the game (a connection dropped near the end of a long game stays under it).
LEFT_SHARE = 0.25
#: A person whose stand-in played more than this share of their seat's moves left the game
#: even if they came back (for the last decision, say).
MOSTLY_SHARE = 0.5
#: Seconds an absence must last before the moves of a stand-in the others voted in count
#: toward leaving, by default: what a person may be gone before a bot takes their seat
#: without a vote (a room gives its own: ``serve --away-after``). The others may vote at once
#: (a majority of the game's people), then race the bot through a quarter of a person's
#: moves during a dropped connection; who was gone that long would have had a stand-in anyway.
VOTE_GRACE = AWAY_AFTER
#: A run of moves a stand-in played: ``[seat, first, end)`` in the record's move numbers.
Played = list[int]


def stand_in_moves(
    history: Sequence[HistoryItem],
    events: Sequence[TableEvent],
    ended_at: float | None = None,
    grace: float = VOTE_GRACE,
) -> list[Played]:
    """The runs of moves a stand-in bot played for a person, in order, from the game's
    ``history`` and the table's log entries (``events``, as stored). With ``ended_at`` (the
    server's time at the game's end), only those that tell whether the person left: not the
    moves of a stand-in the others voted in for an absence (from when its person was gone)
    shorter than ``grace`` seconds (a dropped connection while the others raced the bot is
    no leaving)."""
    away: dict[int, int | None] = {}  # seat → its absence's place in ``voted`` (a vote's)
    voted: list[list[float]] = []  # [from, until] of each absence a vote began
    timed_out: tuple[int, int] | None = None  # (seat, turn) whose rest the bot plays
    moves: list[tuple[int, int, int | None]] = []  # (number, seat, absence) the bot played
    later = iter(events)
    event = next(later, None)
    for number, (turn, seat, _move, _events) in enumerate(history):
        while event is not None and event.seq <= number:  # what happened before this move
            entry = event.entry
            if entry["type"] == "away":
                away[_number(entry, "seat")] = _voted(entry, voted)
            elif entry["type"] == "back":
                absence = away.pop(_number(entry, "seat"), None)
                if absence is not None:  # a back stored without its time: a long absence
                    at = entry.get("at")
                    voted[absence][1] = float(at) if isinstance(at, int | float) else math.inf
            elif entry["type"] == "timeout":
                timed_out = (_number(entry, "seat"), _number(entry, "turn"))
            event = next(later, None)
        if seat in away or timed_out == (seat, turn):
            moves.append((number, seat, away.get(seat)))
    if ended_at is not None:
        short = {
            place for place, (start, end) in enumerate(voted) if min(end, ended_at) - start < grace
        }
        moves = [move for move in moves if move[2] not in short]
    runs: list[Played] = []
    for number, seat, _absence in moves:
        if runs and runs[-1][0] == seat and runs[-1][2] == number:
            runs[-1][2] = number + 1
        else:
            runs.append([seat, number, number + 1])
    return runs


def _voted(entry: dict[str, object], voted: list[list[float]]) -> int | None:
    """An absence's place among those a vote began (stored with the time its person was
    gone since), or ``None``."""
    since = entry.get("since")
    if entry.get("why") != "vote" or not isinstance(since, int | float):
        return None
    voted.append([float(since), math.inf])  # until its back, or the end
    return len(voted) - 1


def left_seats(
    history: Sequence[HistoryItem],
    played: Sequence[Played],
    people: Sequence[bool],
    away: Sequence[bool],
) -> list[int]:
    """The people's seats whose stand-in played more than :data:`LEFT_SHARE` of their moves
    and who are still ``away`` at the game's end, or more than :data:`MOSTLY_SHARE` of them
    (``played``: :func:`stand_in_moves`)."""
    moves = [0] * len(people)
    for _turn, seat, _move, _events in history:
        moves[seat] += 1
    by_bot = [0] * len(people)
    for seat, first, end in played:
        by_bot[seat] += end - first
    return [
        seat
        for seat, person in enumerate(people)
        if person
        and moves[seat]
        and by_bot[seat] > (LEFT_SHARE if away[seat] else MOSTLY_SHARE) * moves[seat]
    ]


def _number(entry: dict[str, object], key: str) -> int:
    value = entry[key]
    assert isinstance(value, int), entry  # the table's own entries (seating.py)
    return value
