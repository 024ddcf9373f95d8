"""Charts drawn to an image file, for the commands that offer ``--plot``: matplotlib without
a display, one look for every chart (a grid, a legend, the same resolution)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pickomino.files import replacing


@contextmanager
def drawing(path: str, title: str, size: tuple[float, float]) -> Iterator[Any]:
    """The axes to draw on; once the block ends, the chart is titled and saved to ``path``
    (the figure is let go even when drawing fails)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=size)
    try:
        yield axes
        axes.set_title(title)
        axes.grid(alpha=0.3)
        axes.legend()
        figure.tight_layout()
        with replacing(Path(path)) as part:  # a chart cut short never replaces one before
            figure.savefig(part, dpi=120)
    finally:
        plt.close(figure)
