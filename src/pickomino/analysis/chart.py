"""Every player's win chance over a game, drawn to an image file (matplotlib, no display)."""

from __future__ import annotations

from collections.abc import Sequence

from pickomino.drawing import drawing

#: The words on the chart, by part; a face passes them in its reader's language.
CHART_WORDS = {"title": "Win chance, move by move", "x": "turn", "y": "win chance"}


def chart_positions(turns: Sequence[int]) -> list[float]:
    """Where each point of a turn goes on the turn axis: the points of turn ``t`` spread
    evenly from ``t`` towards ``t + 1``.

    >>> chart_positions([1, 1, 1, 2, 3, 3])
    [1.0, 1.3333333333333333, 1.6666666666666665, 2.0, 3.0, 3.5]
    """
    positions: list[float] = []
    for turn in dict.fromkeys(turns):
        count = turns.count(turn)
        positions += [turn + index / count for index in range(count)]
    return positions


def plot_chances(
    chances: Sequence[Sequence[float]],
    turns: Sequence[int],
    names: Sequence[str],
    path: str,
    words: dict[str, str] = CHART_WORDS,
) -> None:
    """Draw each player's chance (``chances``: per point, per seat) against the turn."""
    from matplotlib.ticker import PercentFormatter

    x = chart_positions(turns)
    with drawing(path, words["title"], (9, 4.5)) as axes:
        for seat, name in enumerate(names):
            axes.plot(x, [100 * point[seat] for point in chances], label=name, linewidth=1.4)
        axes.set(xlabel=words["x"], ylabel=words["y"], ylim=(0, 100), xlim=(min(x), max(x) + 1))
        axes.yaxis.set_major_formatter(PercentFormatter())
