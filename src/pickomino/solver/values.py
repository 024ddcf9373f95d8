"""What a turn's outcome is worth: the value table a solve maximises.

A table gives, for every total T (0..40) reached with a worm, the value of stopping there,
the value of a bust, and which totals count as a success (a tile won, or a target met).
Any objective is a table; the common ones are built here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pickomino.core import Action, GameState, Rules, worms_on
from pickomino.core.rules import TILES
from pickomino.core.state import claims_for
from pickomino.solver.turns import MAX_TOTAL

TOTALS = range(MAX_TOTAL + 1)


@dataclass(frozen=True)
class TurnValues:
    end: tuple[float, ...]  # value of stopping with a worm and total T, T = 0..40
    bust: float
    success: tuple[bool, ...]  # does stopping with a worm and total T count as a success?

    def __post_init__(self) -> None:
        if len(self.end) != len(TOTALS) or len(self.success) != len(TOTALS):
            raise ValueError(f"a value table has one entry per total 0..{MAX_TOTAL}")

    @classmethod
    def at_least(cls, target: int) -> TurnValues:
        """1 for ending with a worm and a total of at least ``target``, else 0."""
        hit = tuple(t >= target for t in TOTALS)
        return cls(tuple(float(h) for h in hit), 0.0, hit)

    @classmethod
    def exactly(cls, target: int) -> TurnValues:
        """1 for ending with a worm and a total of exactly ``target``, else 0."""
        hit = tuple(t == target for t in TOTALS)
        return cls(tuple(float(h) for h in hit), 0.0, hit)

    @classmethod
    def worm_gain(cls, state: GameState) -> TurnValues:
        """Expected change in worms, for the player to move in ``state``: a tile from the grill
        gains its worms; a steal gains them and costs the victim as much (counted twice, as a
        swing between two players); a bust loses the top tile of one's stack (R15)."""
        opponent_tops = frozenset(
            stack[-1] for seat, stack in enumerate(state.stacks) if stack and seat != state.current
        )
        return worm_gain_table(
            state.rules, state.grill_mask, state.top(state.current), opponent_tops
        )

    @classmethod
    def stake(cls, stake: float) -> TurnValues:
        """Worms of the tile won when all tiles lie on the grill and nobody holds one, with a
        bust costing ``stake`` worms (``pickomino odds --stake N``)."""
        fresh = cls.worm_gain(GameState(2))  # nobody holds a tile: a bust costs nothing
        end = (
            value if won else -float(stake)
            for value, won in zip(fresh.end, fresh.success, strict=True)
        )
        return cls(tuple(end), -float(stake), fresh.success)


@lru_cache(maxsize=1 << 16)
def worm_gain_table(
    rules: Rules, grill_mask: int, own_top: int | None, opponent_tops: frozenset[int]
) -> TurnValues:
    """:meth:`TurnValues.worm_gain` from the only things it depends on (callers without a
    whole state, such as the batched bots, pass these); the engine's ``claims_for`` says
    which tiles each total could claim (the rules live in the engine alone)."""
    bust = -float(worms_on(own_top)) if own_top else 0.0
    tops = [[tile] for tile in opponent_tops]  # as stacks of others: nobody is seat -1
    end, success = [bust] * TILES[0], [False] * TILES[0]  # below 21 nothing (R11, R13)
    for total in range(TILES[0], MAX_TOTAL + 1):
        gains = [claim_gain(claim) for claim in claims_for(rules, grill_mask, tops, -1, total)]
        end.append(max(gains) if gains else bust)
        success.append(bool(gains))
    return TurnValues(tuple(end), bust, tuple(success))


def claim_gain(action: Action) -> float:
    """Worm swing of a claim: a steal counts the victim's loss as well."""
    return float(worms_on(action.tile) * (2 if action.kind == "steal" else 1))
