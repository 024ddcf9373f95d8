"""``POST /api/positions/explore``: the Analysis's "what if". A position (one line of
:meth:`GameState.to_text <pickomino.core.GameState.to_text>`: every decision of a review
carries its own) and, optionally, a move played from it (an action, or ``dice …`` for what a
roll shows); the answer is the position reached, everyone's win chance there and, when the
player to move has a choice, each choice's chance for them, best first: the values the
review, the Hint and the coach give (:func:`pickomino.analysis.evaluator_for`).

    {"position": "25/- - 0 3 keep - 12334455 official", "move": "keep 5"}
    -> {"position": "...", "phase": "roll_or_stop", "current": 0, "kept": "55", "total": 10,
        "roll": "", "dice_left": 6, "chances": [0.41, 0.59],
        "choices": [{"action": "roll", "win": 0.41}, {"action": "stop", "win": 0.30}]}

A position no game reaches, or a move the rules refuse, is refused (400) with the engine's
reason. A valuation takes milliseconds with two players and up to a second or so with many
(the strategist's search): it runs off the event loop, one at a time, and an address may ask
as often as it may look games up.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from pickomino.analysis import evaluator_for
from pickomino.analysis.evaluator import Views
from pickomino.core import GameState, Phase, PickominoError, format_dice
from pickomino.core.record import DICE_PREFIX
from pickomino.web.errors import refusal
from pickomino.web.forms import client_address
from pickomino.web.guard.searches import Searches


class Explore(BaseModel):
    model_config = ConfigDict(extra="forbid")

    position: str = Field(max_length=300)
    move: str | None = Field(default=None, max_length=40)


def explored(position: str, move: str | None) -> dict[str, object]:
    """The position reached from ``position`` by ``move`` (none: the position itself), with
    everyone's chance and the mover's choices; raises the engine's refusal. The chances are
    valued as the turn the move was made in values them, so that a choice's chance here is
    the one the review lists for it; the choices, by the turn they are in."""
    before = GameState.from_text(position)
    state = before.copy()
    if move is not None:
        words = " ".join(move.lower().split())
        if words.startswith(DICE_PREFIX):
            state.apply_roll(words[len(DICE_PREFIX) :])
        else:
            state.apply(words)
    answer: dict[str, object] = {
        "position": state.to_text(),
        "phase": "over" if state.is_over else state.phase.value,
        "current": state.current,
        "kept": format_dice(state.kept_counts()),
        "total": state.total,
        "roll": format_dice(state.roll) if state.phase is Phase.KEEP else "",
        "dice_left": state.dice_left,
    }
    views = Views(evaluator_for(before))
    chances = views.of(before).chances(state)
    choices = [] if state.is_over or state.is_chance() else views.of(state).choices(state)
    return {
        **answer,
        "chances": chances,
        "choices": [{"action": name, "win": after[state.current]} for name, after in choices],
    }


def positions_router(limit: Callable[[Request], None], searches: Searches) -> APIRouter:
    """The route; ``limit`` is the per-address rate limit of look-ups; one search at a time
    in the server (``searches``: one at a big table takes a core for a while)."""
    router = APIRouter()

    @router.post("/api/positions/explore", dependencies=[Depends(limit)])
    async def explore(body: Explore, request: Request) -> dict[str, object]:
        """A position, a move from it: where it leads, and everyone's chance there."""
        address = client_address(request.client)
        try:
            return await searches.run(address, explored, body.position, body.move)
        except PickominoError as error:
            raise refusal(400, error) from None

    return router
