"""Exact win chances of two-player endgames: every position the game can still reach, valued
by policy iteration — the reference the learned values are measured against.

**The values.** A position's value is the mover's best turn (the exact turn solver) over the
values of the turn's endings, the mover taking the claim best for itself: the step the
learned values are trained on, here without any approximation. Positions form cycles (a
tile stolen back and forth; a bust with nothing to return passes the turn and changes
nothing, R16), so the values are a fixed point. Value iteration crawls towards it (two
players who both bust often pass the turn back and forth: about a thousand backups a
position); policy iteration reaches it in a handful of rounds: each round values both
players' current turn policies exactly (one sparse linear solve takes every cycle at once),
then lets every mover improve on them, until no backup changes a value by more than
``tolerance``.

**Which endgames.** Every position a game can reach is kept, so the work grows with the
tiles still in play (face up or in a stack): a tile in a stack can come back (stolen, R11b;
returned on a bust, R15), and a returned tile higher than the grill's stays face up beside
it (R16), so even one face-up tile with the stacks of a real game reaches more than 300,000
positions. Five tiles in play reach a few thousand; ``limit`` refuses more than it allows.

>>> from pickomino.core import GameState
>>> from pickomino.core.rules import TILES
>>> last = GameState.from_position([[], []], face_down=[t for t in TILES if t != 30])
>>> chances = Endgame(last).chances(last)  # the last tile, 30, and nobody holds a tile
>>> [round(float(c), 4) for c in chances]
[0.576, 0.424]
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import spsolve

from pickomino.core import GameState
from pickomino.evaluation.values import result, tables_of
from pickomino.solver.endings import turn_endings
from pickomino.solver.solve import TurnSolution

Key = tuple[int, tuple[tuple[int, ...], ...], int]


def cut_stacks(state: GameState, keep: int) -> GameState:
    """``state`` with each stack cut to its top ``keep`` tiles, the tiles under them turned
    face down: an endgame few enough positions follow from to value exactly (real stacks keep
    too many tiles in play; each stack's top stays stealable, R11b).

    >>> cut_stacks(GameState.from_position([[21, 25, 30], [22]], face_down=[36]), 1).stacks
    [[30], [22]]
    """
    cut = [stack[: max(0, len(stack) - keep)] for stack in state.stacks]
    return GameState.from_position(
        [stack[len(under) :] for stack, under in zip(state.stacks, cut, strict=True)],
        face_down=[*state.face_down, *(tile for under in cut for tile in under)],
        current=state.current,
        rules=state.rules,
    )


def key_of(state: GameState) -> Key:
    """What tells positions at a turn's start apart (the face-down tiles follow from it)."""
    return state.grill_mask, tuple(tuple(stack) for stack in state.stacks), state.current


class Endgame:
    """Every position a two-player game at a turn's start can still reach, each with its
    exact chance for seat 0 to win (a tie that R20 leaves counts one half)."""

    #: policy iteration's rounds before giving up (it settles in a handful)
    MAX_ROUNDS = 50

    def __init__(self, state: GameState, limit: int = 100_000, tolerance: float = 1e-8) -> None:
        if state.num_players != 2:
            raise ValueError("exact endgame values are for two players")
        if not state.is_chance() or any(state.kept):
            raise ValueError("an endgame starts at a turn's start, before its first roll")
        self.limit = limit
        self._explore(state)
        self.rounds = 0
        self.residual = 1.0
        self.values = self._solve(tolerance)

    @property
    def positions(self) -> int:
        """How many positions at a turn's start were valued (finished games included)."""
        return len(self.states)

    def chances(self, state: GameState) -> np.ndarray:
        """Each seat's chance to win at ``state``, a position this endgame reaches."""
        found = self.index.get(key_of(state))
        if found is None:
            raise ValueError("this endgame never reaches that position")
        return np.array([self.values[found], 1.0 - self.values[found]])

    # ------------------------------------------------------------------ internals
    def _explore(self, root: GameState) -> None:
        """Every reachable position, each live one with its turn's endings."""
        self.index: dict[Key, int] = {}
        self.states: list[GameState] = []
        self.turns: list[tuple[list[list[int]], tuple[int, ...]] | None] = []
        self._add(root)
        for state in self.states:  # grows while it runs: a breadth-first search
            if state.is_over:
                self.turns.append(None)
                continue
            endings = turn_endings(state)
            ids = [[self._add(ending) for ending in group] for group in endings.positions]
            self.turns.append((ids, endings.group_of))
        self.live = np.array([i for i, turn in enumerate(self.turns) if turn is not None])
        self.over = np.array([i for i, turn in enumerate(self.turns) if turn is None], dtype=int)

    def _add(self, state: GameState) -> int:
        key = key_of(state)
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.states) >= self.limit:
            raise ValueError(
                f"this endgame reaches more than {self.limit:,} positions: too many tiles in play"
            )
        self.index[key] = len(self.states)
        self.states.append(state)
        return self.index[key]

    def _improve(self, values: np.ndarray) -> tuple[np.ndarray, sparse.csr_matrix]:
        """Every live position's best turn over ``values``: seat 0's chance (the backup)
        and, as the rows of a matrix, where that turn's policy leads and with what chance."""
        backed = values.copy()
        rows: list[int] = []
        cols: list[int] = []
        probs: list[float] = []
        for i in self.live:
            turn = self.turns[i]
            assert turn is not None
            groups, group_of = turn
            mover = self.states[i].current
            chances = [np.column_stack([values[ids], 1.0 - values[ids]]) for ids in groups]
            solution = TurnSolution(tables_of(chances, group_of, mover)[mover])
            best = solution.start_value
            backed[i] = best if mover == 0 else 1.0 - best
            totals, bust = solution.fresh_ending
            lands = np.zeros(len(groups))  # each group's chance (a total claiming nothing busts)
            np.add.at(lands, np.asarray(group_of) + 1, totals)
            lands[0] += bust
            for ids, block, chance in zip(groups, chances, lands, strict=True):
                if chance > 0.0:  # the turn ends in the group's claim best for the mover
                    rows.append(i)
                    cols.append(ids[int(block[:, mover].argmax())])
                    probs.append(float(chance))
        count = len(self.states)
        return backed, sparse.csr_matrix((probs, (rows, cols)), shape=(count, count))

    def _solve(self, tolerance: float) -> np.ndarray:
        """Seat 0's chance at every position, by policy iteration (module docstring)."""
        values = np.full(len(self.states), 0.5)
        for i in self.over:
            values[i] = result(self.states[i])[0]
        live, over = self.live, self.over
        while self.rounds < self.MAX_ROUNDS:
            backed, moves = self._improve(values)
            self.rounds += 1
            self.residual = float(np.abs(backed - values).max())
            if self.residual <= tolerance:
                return backed
            among_live = moves[live][:, live]
            known = moves[live][:, over] @ values[over]  # what the finished games give
            system = sparse.identity(len(live), format="csc") - among_live.tocsc()
            values[live] = spsolve(system, known)
        raise RuntimeError(f"policy iteration did not settle: residual {self.residual:.3g}")
