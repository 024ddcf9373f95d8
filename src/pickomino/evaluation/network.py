"""The value network: tanh layers over :func:`~pickomino.evaluation.features.features`, then a
softmax over the seats (in turn order from the mover), so that the chances of a table always
sum to 1. Its weights ship with the package as ``.npz`` (one file per table size) and run in
NumPy; ``scripts/train_win_values.py`` makes them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from pickomino.core import GameState
from pickomino.core.rules import Rules
from pickomino.evaluation.weights import Layers, load_layers, save_layers

HERE = Path(__file__).parent


class WinNetwork:
    """Every seat's win chance from a position's features (rows of a batch)."""

    def __init__(self, layers: Layers, players: int) -> None:
        self.layers, self.players = layers, players

    @classmethod
    def load(cls, path: Path | str) -> WinNetwork:
        return cls(*load_layers(path))

    @classmethod
    def read(cls, path: Path | str) -> WinNetwork:
        """:meth:`load` for a command line's file: whatever makes it unreadable (missing, a
        folder, empty, cut short, not weights, a key short) comes as one ``ValueError`` that
        names the file."""
        try:
            return cls.load(path)
        except Exception as error:  # NumPy raises many kinds (EOFError, BadZipFile, ...)
            raise ValueError(f"{path}: not a network's weights ({error})") from error

    def save(self, path: Path | str) -> None:
        save_layers(path, self.layers, self.players)

    def hidden(self, batch: np.ndarray) -> list[np.ndarray]:
        """The batch and each hidden layer's output (what training differentiates)."""
        outputs = [batch]
        for weight, bias in self.layers[:-1]:
            outputs.append(np.tanh(outputs[-1] @ weight + bias))
        return outputs

    def chances(self, batch: np.ndarray, hidden: list[np.ndarray] | None = None) -> np.ndarray:
        """Each row's chances, the mover's first and the others in turn order."""
        last = (hidden or self.hidden(batch))[-1]
        weight, bias = self.layers[-1]
        logits = last @ weight + bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)


def weights_file(players: int) -> Path:
    """Where the shipped weights for a table of ``players`` live."""
    return HERE / f"win_values_{players}p.npz"


@cache
def shipped_network(players: int) -> WinNetwork | None:
    """The shipped network for a table of ``players`` (``None``: none trained for it)."""
    path = weights_file(players)
    return WinNetwork.load(path) if path.exists() else None


def network_for(state: GameState) -> WinNetwork | None:
    """The shipped network for the game of ``state``; ``None`` when none was trained for its
    table size, or its rules are not the standard ones every network learned from."""
    return shipped_network(state.num_players) if state.rules == Rules() else None
