"""A small network's layers in an ``.npz`` file: ``w0``, ``b0``, ``w1`` … and the table size
it was trained for (``players``). The shipped networks (the learned policy, the win values)
are read with NumPy alone, never unpickled."""

from __future__ import annotations

from pathlib import Path

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]


def load_layers(path: Path | str) -> tuple[Layers, int]:
    """The layers and the table size stored in ``path``."""
    with np.load(path) as data:
        count = sum(1 for key in data.files if key.startswith("w"))
        return [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)], int(data["players"])


def save_layers(path: Path | str, layers: Layers, players: int) -> None:
    arrays: dict[str, np.ndarray] = {"players": np.array(players)}
    arrays |= {f"w{i}": w for i, (w, _) in enumerate(layers)}
    arrays |= {f"b{i}": b for i, (_, b) in enumerate(layers)}
    np.savez(path, allow_pickle=False, **arrays)
