"""The odds of a fresh turn with eight dice, as `pickomino odds` reports them."""

from __future__ import annotations

from typing import Any

from pickomino.core.rules import TILES
from pickomino.drawing import drawing
from pickomino.solver.solve import solve
from pickomino.solver.values import TurnValues


def fresh_turn_odds(stake: float = 0.0) -> dict[str, Any]:
    """Best achievable P(worm and total >= T) and P(worm and total = T) for T = 21..36,
    each under its own best policy; the best expected worms when every tile is on the grill
    and a bust costs ``stake`` worms; and the bust probability under that policy."""
    worms = solve(TurnValues.stake(stake))
    start = worms.graph.start
    return {
        "at_least": {str(t): solve(TurnValues.at_least(t)).start_value for t in TILES},
        "exactly": {str(t): solve(TurnValues.exactly(t)).start_value for t in TILES},
        "expected_worms": worms.start_value,
        "bust": worms.outlook(start).bust,
    }


#: The words on the plot, by part; a face passes them in its reader's language.
PLOT_WORDS = {
    "at_least": "P(total ≥ T, with a worm)",
    "exactly": "P(total = T, with a worm)",
    "x": "target T",
    "y": "best achievable probability",
    "title": "Pickomino: odds of a fresh turn with eight dice (exact, best play)",
}


def plot_odds(odds: dict[str, Any], path: str, words: dict[str, str] = PLOT_WORDS) -> None:
    """Draw the >= T and = T curves to an image file (matplotlib, no display needed)."""
    at_least: dict[str, float] = odds["at_least"]
    exactly: dict[str, float] = odds["exactly"]
    with drawing(path, words["title"], (8, 4.5)) as axes:
        axes.plot(TILES, [at_least[str(t)] for t in TILES], "o-", label=words["at_least"])
        axes.plot(TILES, [exactly[str(t)] for t in TILES], "s-", label=words["exactly"])
        axes.set(xlabel=words["x"], ylabel=words["y"], ylim=(0, 1), xticks=TILES)
