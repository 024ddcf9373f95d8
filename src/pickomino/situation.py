"""A game situation described in a few words, for `pickomino advise` and the dice helper.

Syntax (every part optional; the player to advise is "me"):

- tiles: numbers separated by spaces or commas, ranges allowed: ``"21-24 30"``;
- my stack and each opponent's stack list tiles bottom to top (the last one is the top);
- face-down tiles are out of the game; every other tile lies face up on the grill;
- dice: faces ``1``–``5`` and ``W``, e.g. ``"WW44"`` kept, ``"4455W"`` rolled.

>>> state = situation(me="25", opponents=["28 31"], down="36", kept="WW44", rolled="4455")
>>> state.grill[-1], state.top(1), state.total, state.roll
(35, 31, 18, (0, 0, 0, 2, 2, 0))
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pickomino.core import BadInput, GameState, IllegalAction, Rules, parse_dice
from pickomino.core.rules import NUM_DICE, worms_on


def parse_tiles(text: str) -> list[int]:
    """``"21-23, 30"`` → ``[21, 22, 23, 30]``; anything else is a clear error."""
    tiles: list[int] = []
    for part in filter(None, re.split(r"[\s,]+", text.strip())):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not match:
            raise BadInput("not_tiles", "R3", given=part[:20])
        low, high = int(match[1]), int(match[2] or match[1])
        for tile in range(low, high + 1):
            worms_on(tile)  # refuses numbers that are not tiles
            tiles.append(tile)
        if high < low:
            raise BadInput("range_backwards", given=part[:20])
    return tiles


def situation(
    me: str = "",
    opponents: Sequence[str] = ("",),
    down: str = "",
    kept: str = "",
    rolled: str | None = None,
    rules: Rules | None = None,
) -> GameState:
    """The state in which "me" (seat 0) decides; refuses impossible descriptions."""
    stacks = [parse_tiles(me), *(parse_tiles(o) for o in opponents or ("",))]
    return situation_at(stacks, parse_tiles(down), 0, rules, kept, rolled)


def situation_at(
    stacks: Sequence[Sequence[int]],
    face_down: Sequence[int],
    current: int,
    rules: Rules | None,
    kept: str = "",
    rolled: str | None = None,
) -> GameState:
    """The state of ``current``'s turn with the real dice ``kept`` so far and just
    ``rolled`` (not yet, with ``None``), e.g. for the score keeper's dice helper."""
    kept_counts = parse_dice(kept)
    if sum(kept_counts) >= NUM_DICE:
        raise BadInput("turn_already_over", "R8")
    if kept_counts.count(0) == 0:
        raise BadInput("turn_already_over", "R8")
    state = GameState.from_position(stacks, face_down, current, rules, kept=kept_counts)
    if rolled is None:
        return state
    roll = parse_dice(rolled)
    left = NUM_DICE - sum(kept_counts)
    if sum(roll) != left:
        raise BadInput("rolled_count", "R5", given=sum(roll), count=left)
    try:
        if any(kept_counts):
            state.apply("roll")
        state.apply_roll(roll)
    except IllegalAction as error:  # pragma: no cover - checked above
        raise BadInput(error.code, error.rule, **error.params) from None
    return state
