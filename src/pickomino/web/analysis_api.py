"""A finished game's review for the browser's Analysis view: ``GET /api/games/{id}/analysis``.

The review is :func:`pickomino.analysis.review` as data (no words: the page says them): every
player's chance of winning after every move (``chances``, with the ``turns`` they belong to),
each decision with its choices, cost and label, and each player's account (accuracy, labels,
skill, luck, the others' play, drift) with its ``verdict``: ``luck`` when the dice moved the
player's chance at least twice as much as the decisions at the table did (the player's own
and the others', each counted by its size), ``skill`` in the opposite case, else ``both``.
Each decision also says where it was made: the dice ``kept`` before it, their ``total`` and,
for a keep, the ``roll`` (dice as in a record: ``"35WW"``); ``thresholds`` gives each label's
least cost. Chances and costs are 0..1, rounded to 4 places.

Only a game that is over has a review (409 ``game_not_over`` before, ``game_abandoned`` for one
nobody will finish). A review takes 0.3–4 s of one core: it is computed in a worker thread,
one at a time for the whole server (the event loop and the bots keep the other core), and
kept in memory for the last :data:`KEPT` games; concurrent requests for one game share one
computation. A client address may have ``per_minute`` reviews computed (those already kept
are free), then gets 429 ``too_many_analyses``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, cast

from fastapi import APIRouter, Request

from pickomino.analysis import LABELS, review
from pickomino.core import Game, GameRecord, Phase, format_dice
from pickomino.web.errors import refused
from pickomino.web.forms import client_address
from pickomino.web.protocol import RateLimits
from pickomino.web.room import Room

#: How many reviews the server keeps in memory (about 0.2–0.5 MB each).
KEPT = 32
#: Places kept of every chance (0..1): a hundredth of a point of win chance.
PLACES = 4
#: A result is mostly luck when the dice's share of what moved the chance is this or more.
MOSTLY = 2 / 3

Review = dict[str, object]


def review_data(record: GameRecord) -> Review:
    """The review of ``record`` as the API sends it (the record is not changed)."""
    data = review(record).to_dict()
    decisions = cast(list[dict[str, Any]], data["decisions"])
    where = _situations(record, {decision["move"] for decision in decisions})
    for decision in decisions:
        decision.update(where[decision["move"]])
    for player in cast(list[dict[str, Any]], data["players"]):
        player["verdict"] = verdict(player["luck"], player["skill"], player["others"])
    data["thresholds"] = dict(LABELS)
    return cast(Review, _rounded(data))


def verdict(luck: float, skill: float, others: float) -> str:
    """Mostly ``luck``, mostly ``skill`` (the decisions at the table), or ``both`` alike."""
    moved = abs(luck) + abs(skill) + abs(others)
    share = abs(luck) / moved if moved else 0.5  # the dice's share of what moved the chance
    return "luck" if share >= MOSTLY else "skill" if share <= 1 - MOSTLY else "both"


def _situations(record: GameRecord, moves: set[int]) -> dict[int, dict[str, object]]:
    """Where each of ``moves`` (indices into the record) was decided: the dice kept, their
    total and the roll to keep from (none when rolling on or stopping, or claiming)."""
    game, found = Game(record.seats, record.rules, record.start_player), {}
    for number, move in enumerate(record.moves):
        if number in moves:
            state = game.state
            found[number] = {
                "kept": format_dice(state.kept_counts()),
                "total": state.total,
                "roll": format_dice(state.roll) if state.phase is Phase.KEEP else "",
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


class Reviews:
    """The reviews of the last :data:`KEPT` games asked for, computed one at a time."""

    def __init__(self, per_minute: float, kept: int = KEPT) -> None:
        self.kept = kept
        self.done: OrderedDict[str, Review] = OrderedDict()
        self.pending: dict[str, asyncio.Task[Review]] = {}
        self.one_at_a_time = asyncio.Semaphore(1)
        self.limits = RateLimits(per_second=per_minute / 60, burst_seconds=600 / per_minute)

    async def get(self, game_id: str, record: GameRecord, address: str) -> Review:
        """The review of the finished game ``game_id`` (its ``record``), for ``address``."""
        if game_id in self.done:
            self.done.move_to_end(game_id)
            return self.done[game_id]
        task = self.pending.get(game_id)
        if task is None:  # else asked for already: share the computation
            if not self.limits.allow(address):
                raise refused(429, "too_many_analyses")
            task = self.pending[game_id] = asyncio.create_task(self._compute(game_id, record))
            task.add_done_callback(lambda _: self.pending.pop(game_id, None))
        return await asyncio.shield(task)  # an asker who leaves does not stop it

    async def _compute(self, game_id: str, record: GameRecord) -> Review:
        async with self.one_at_a_time:
            data = await asyncio.to_thread(review_data, record)
        self.done[game_id] = data
        while len(self.done) > self.kept:
            self.done.popitem(last=False)
        return data


def analysis_router(room_of: Callable[[str], Room], per_minute: float) -> APIRouter:
    """The route; ``room_of(id)`` is the game (or the app's 404 or 500 refusal)."""
    router = APIRouter()
    reviews = Reviews(per_minute)

    @router.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, request: Request) -> Review:
        """The review of a finished game: chances per move, decisions, players' accounts."""
        room = room_of(game_id)
        if room.status == "abandoned":
            raise refused(409, "game_abandoned")
        if not room.game.state.is_over:
            raise refused(409, "game_not_over")
        record = GameRecord.from_dict(room.game.record.to_dict())  # the thread's own copy
        return await reviews.get(game_id, record, client_address(request.client))

    return router
