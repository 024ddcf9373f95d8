"""The coach's view of the choices of the player to move: each choice's win chance as the
game's review values it (:class:`pickomino.analysis.TurnView`), its cost against the best
choice and its label, and whether it busts at once. The page warns before a costly move
and asks to confirm; it never plays for anyone.

The message (data, no words; chances 0..1, costs in the same unit)::

    {"type": "coach", "seq": 7, "best": "roll",
     "choices": [{"action": "roll", "value": 0.74, "cost": 0.0, "label": "best", "busts": null},
                 {"action": "stop", "value": 0.62, "cost": 0.12, "label": "blunder",
                  "busts": "no_worm"}]}

``busts`` is the reason the choice ends the turn in a bust for certain (as the log's bust
events name it), else ``null``. A turn's valuation is built once (10–150 ms, in a worker
thread) and kept for the rest of the turn.
"""

from __future__ import annotations

import asyncio

from pickomino.analysis import FairPlanner, TurnView, label_of
from pickomino.core import GameState
from pickomino.core.events import Bust


def no_advice(seq: int) -> dict[str, object]:
    """Nothing to advise on (the game has not started, or is over)."""
    return {"type": "coach", "seq": seq, "best": None, "choices": []}


class Coach:
    """One game's coach: the valuation of the turn being played, made when first asked."""

    def __init__(self) -> None:
        self._turn: tuple[object, ...] | None = None
        self._view: TurnView | None = None
        self._lock = asyncio.Lock()  # one valuation at a time, however often it is asked

    async def advice(self, state: GameState, seq: int) -> dict[str, object]:
        """The choices at ``state`` (version ``seq`` of the game), best first."""
        if not state.legal_actions():
            return no_advice(seq)
        state = state.copy()  # as it is at ``seq``: the game may move on while this waits
        async with self._lock:
            return await asyncio.to_thread(self._advice, state, seq)

    def _advice(self, state: GameState, seq: int) -> dict[str, object]:
        view, mover = self._view_of(state), state.current
        values = {action.name: view.after(state, action)[mover] for action in state.legal_actions()}
        ranked = sorted(values, key=lambda action: -values[action])
        best = values[ranked[0]]
        return {
            "type": "coach",
            "seq": seq,
            "best": ranked[0],
            "choices": [
                {
                    "action": action,
                    "value": values[action],
                    "cost": best - values[action],
                    "label": label_of(best - values[action]),
                    "busts": busts(state, action),
                }
                for action in ranked
            ],
        }

    def _view_of(self, state: GameState) -> TurnView:
        """The turn's valuation: it depends on the position the turn started from, which the
        dice kept since do not change."""
        turn = (state.turn, state.current, state.grill_mask, *map(tuple, state.stacks))
        if self._view is None or self._turn != turn:
            self._turn, self._view = turn, TurnView(state, FairPlanner())
        return self._view


def busts(state: GameState, action: str) -> str | None:
    """Why ``action`` ends the turn in a bust for certain (tried on a copy), or ``None``."""
    events = state.copy().apply(action)
    return next((event.reason for event in events if isinstance(event, Bust)), None)
