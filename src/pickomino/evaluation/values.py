"""Win chances of positions, and a turn's value tables from them.

A turn's endings (a bust, or the claims each total allows: :func:`.turn_endings`) are
positions at the next turn's start; the network values them, the mover takes the claim best
for itself, and the exact turn solver maximises the mover's table
(:func:`turn_tables`). Training makes the network agree with that search one turn deeper.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pickomino.core import GameState
from pickomino.evaluation.features import features
from pickomino.evaluation.network import WinNetwork
from pickomino.solver import TurnValues
from pickomino.solver.endings import turn_endings


def result(state: GameState) -> np.ndarray:
    """A finished game's result: 1 for the winner, shared on a tie that R20 leaves."""
    winners = state.winners()
    return np.array(
        [1 / len(winners) if seat in winners else 0.0 for seat in range(state.num_players)]
    )


def win_chances(states: Sequence[GameState], network: WinNetwork) -> np.ndarray:
    """Every seat's chance at each of ``states`` (positions at a turn's start, or finished
    games: exact), as rows indexed by seat."""
    rows = np.empty((len(states), states[0].num_players))
    live = [i for i, state in enumerate(states) if not state.is_over]
    for i, state in enumerate(states):
        if state.is_over:
            rows[i] = result(state)
    if live:
        chances = network.chances(np.stack([features(states[i]) for i in live]))
        for row, i in zip(chances, live, strict=True):
            rows[i] = np.roll(row, states[i].current)  # turn order from the mover → seats
    return rows


def turn_tables(state: GameState, network: WinNetwork) -> list[TurnValues]:
    """Each seat's value table for the turn of ``state.current`` (at any point of it: the
    endings depend only on the turn's start): every ending valued by ``network``."""
    endings = turn_endings(state)
    groups = endings.positions
    chances = win_chances([ending for group in groups for ending in group], network)
    sizes = np.cumsum([len(group) for group in groups])[:-1]
    return tables_of(np.split(chances, sizes), endings.group_of, state.current)


def tables_of(
    groups: Sequence[np.ndarray], group_of: Sequence[int], mover: int
) -> list[TurnValues]:
    """Each seat's value table of a turn from every seat's chance after each ending: the
    bust's (``groups[0]``, one row) and each claim group's (``groups[k + 1]``, a row per claim,
    the claim of a total being the one best for the mover); ``group_of`` gives each total's
    claim group (-1: none, a bust)."""
    chosen = [block[block[:, mover].argmax()] for block in groups]
    success = tuple(group >= 0 for group in group_of)
    return [
        TurnValues(
            tuple(float(chosen[g + 1][seat] if g >= 0 else chosen[0][seat]) for g in group_of),
            float(chosen[0][seat]),
            success,
        )
        for seat in range(len(chosen[0]))
    ]
