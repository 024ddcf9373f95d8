"""The advice a player to move may ask for, as the game's review values the choices
(:class:`pickomino.analysis.TurnView`, one evaluator and one view of the turn per game):

- the **hint**: each choice's win chance, best first, with the exact solver's odds of the turn
  beside it (:mod:`pickomino.analysis.hint`)::

    {"type": "hint", "seq": 7,
     "rows": [{"action": "roll", "win": 0.74, "tile": 0.81, "worms": 1.9, "bust": 0.19}, …]}

- the **coach**: each choice's win chance, its cost against the best choice and its label,
  and whether it busts at once. The page warns before a costly move and asks to confirm; it
  never plays for anyone. The message (data, no words; chances 0..1, costs in the same
  unit)::

    {"type": "coach", "seq": 7, "best": "roll",
     "choices": [{"action": "roll", "value": 0.74, "cost": 0.0, "label": "best", "busts": null},
                 {"action": "stop", "value": 0.62, "cost": 0.12, "label": "blunder",
                  "busts": "no_worm"}]}

``busts`` is the reason the choice ends the turn in a bust for certain (as the log's bust
events name it), else ``null``. A turn's valuation is built once (in a worker thread: a few
milliseconds on the learned win values of the official rules, 10–500 ms on the strategist's
search under other rules) and kept for the rest of the turn; the evaluator and its memory
of positions are made afresh each turn (an audit: kept for a game's life, a seven-player
game's grew 100–500 MB). The valuation runs where the caller says (``run``: the server's
searches, in turn with everyone's: :mod:`pickomino.web.guard.searches`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from pickomino.analysis import label_of
from pickomino.analysis.evaluator import Views
from pickomino.analysis.hint import Hints
from pickomino.core import GameState
from pickomino.core.events import Bust


def no_advice(seq: int) -> dict[str, object]:
    """Nothing to advise on (the game has not started, or is over)."""
    return {"type": "coach", "seq": seq, "best": None, "choices": []}


def no_hint(seq: int) -> dict[str, object]:
    """No hint to give (the game has not started, or is over)."""
    return {"type": "hint", "seq": seq, "rows": []}


#: Where a valuation runs: ``run(function, *args)`` (by default, a worker thread).
Run = Callable[..., Awaitable[Any]]


class Advisor:
    """One game's hint and coach: the valuation of the turn being played, made when first
    asked by either."""

    def __init__(self) -> None:
        self._turn: tuple[int, int] | None = None
        self._views = Views()
        self._hints = Hints(views=self._views)
        self._lock = asyncio.Lock()  # one valuation at a time, however often it is asked

    def _for_turn(self, state: GameState) -> None:
        """A new turn: a fresh evaluator (its memory of positions is for this turn)."""
        if self._turn != (state.turn, state.current):
            self._turn = (state.turn, state.current)
            self._views = Views()
            self._hints = Hints(views=self._views)

    async def hint(
        self, state: GameState, seq: int, run: Run = asyncio.to_thread
    ) -> dict[str, object]:
        """The hint at ``state`` (version ``seq`` of the game)."""
        state = state.copy()  # as it is at ``seq``: the game may move on while this waits
        async with self._lock:
            self._for_turn(state)
            rows = await run(self._hints.rows, state)
        return {"type": "hint", "seq": seq, "rows": [vars(row) for row in rows]}

    async def advice(
        self, state: GameState, seq: int, run: Run = asyncio.to_thread
    ) -> dict[str, object]:
        """The choices at ``state`` (version ``seq`` of the game), best first."""
        if not state.legal_actions():
            return no_advice(seq)
        state = state.copy()  # as it is at ``seq``: the game may move on while this waits
        async with self._lock:
            self._for_turn(state)
            return await run(self._advice, state, seq)

    def _advice(self, state: GameState, seq: int) -> dict[str, object]:
        view, mover = self._views.of(state), state.current
        values = {action.name: view.after(state, action)[mover] for action in state.legal_actions()}
        ranked = sorted(values, key=lambda action: -values[action])
        best, stake = values[ranked[0]], values[ranked[0]] - values[ranked[-1]]
        return {
            "type": "coach",
            "seq": seq,
            "best": ranked[0],
            "choices": [
                {
                    "action": action,
                    "value": values[action],
                    "cost": best - values[action],
                    "label": label_of(best - values[action], stake, state.num_players),
                    "busts": busts(state, action),
                }
                for action in ranked
            ],
        }


def busts(state: GameState, action: str) -> str | None:
    """Why ``action`` ends the turn in a bust for certain (tried on a copy), or ``None``."""
    events = state.copy().apply(action)
    return next((event.reason for event in events if isinstance(event, Bust)), None)
