"""What the server's review process runs: a game's review as the API sends it, and the watch
that ends the process with the server. Its imports are the analysis and the engine only (not
the web's), so the process, spawned afresh, is ready in a fraction of the time.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from typing import Any, cast

from pickomino.analysis import LABELS, review, weight
from pickomino.core import Game, GameRecord, Phase, format_dice

#: Places kept of every chance (0..1): a hundredth of a point of win chance.
PLACES = 4

Review = dict[str, object]


def reviewed_here(record: GameRecord) -> tuple[Review, int]:
    """:func:`review_data`, and the most memory this process has held so far (bytes; 0
    where the system does not say): its searches' caches keep what a review grew them to."""
    return review_data(record), peak_memory()


def peak_memory() -> int:
    """The most memory (resident) this process has held, in bytes; 0 where unknown."""
    try:
        import resource
    except ImportError:  # not on Unix
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # Linux counts kilobytes


def review_data(record: GameRecord) -> Review:
    """The review of ``record`` as the API sends it (the record is not changed)."""
    data = review(record).to_dict()
    decisions = cast(list[dict[str, Any]], data["decisions"])
    where = _situations(record, {decision["move"] for decision in decisions})
    for decision in decisions:
        decision.update(where[decision["move"]])
    players = len(record.seats)
    data["thresholds"] = {threshold.label: threshold.to_dict(players) for threshold in LABELS}
    data["weight"] = weight(players)
    return cast(Review, _rounded(data))


def _situations(record: GameRecord, moves: set[int]) -> dict[int, dict[str, object]]:
    """Where each of ``moves`` (indices into the record) was decided: the dice kept, their
    total and the roll to keep from (none when rolling on or stopping, or claiming), and the
    whole position as text (for the page's "what if": :mod:`.positions`)."""
    game, found = Game(record.seats, record.rules, record.start_player), {}
    for number, move in enumerate(record.moves):
        if number in moves:
            state = game.state
            found[number] = {
                "kept": format_dice(state.kept_counts()),
                "total": state.total,
                "roll": format_dice(state.roll) if state.phase is Phase.KEEP else "",
                "position": state.to_text(),
            }
        game.push(move)
    return found


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, PLACES)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def end_with_the_server() -> None:
    """In the review process: exit when the server's process is gone, even by ``kill -9``
    (which gives it no time to stop this one)."""
    server = multiprocessing.parent_process()

    def watch() -> None:
        if server is not None:
            server.join()
            os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
