"""A position written as one line of text that reads back to the same state (as FEN does for
chess), and the shorthand for tiles and real dice that the score keeper and ``advise`` read.

Eight fields, separated by spaces::

    22,30/-/25  36  0  7  keep  WW44  4455  official
    stacks      down to turn phase kept rolled rules

- *stacks*: each seat's tiles bottom to top, joined by ``,``; seats joined by ``/``; an
  empty stack is ``-``. Every tile in no stack and not face *down* lies face up on the grill;
- *down*: the face-down tiles (out of the game), or ``-``;
- *to*: the seat whose turn it is (from 0); *turn*: the turn's number (from 1);
- *phase*: what the state waits for: ``roll``, ``keep``, ``roll_or_stop``, ``claim`` or
  ``over`` (see :class:`~pickomino.core.state.Phase`);
- *kept*: the dice kept so far this turn (``WW44``), or ``-``; *rolled*: the dice just rolled
  (``keep`` only), or ``-``;
- *rules*: a preset, or a preset followed by options (``official,lower_tile=any``).

A position that no game can reach (a roll that leaves nothing to keep, a choice of one
claim, a finished game with tiles on the grill) is refused, as the engine would refuse it.

>>> from pickomino.core import GameState
>>> state = GameState.from_text("22,30/-/25 36 0 7 keep WW44 4455 official")
>>> state.top(0), state.total, [action.name for action in state.legal_actions()]
(30, 18, ['keep 5'])
>>> GameState.from_text(state.to_text()) == state
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pickomino.core.actions import keep
from pickomino.core.dice import Counts, format_dice, parse_dice, points
from pickomino.core.errors import BadInput, IllegalAction
from pickomino.core.rules import NUM_DICE, TILES, Rules, worms_on
from pickomino.core.state import _NO_DICE, GameState, Phase, _bit

NONE = "-"
FIELDS = ("stacks", "down", "to", "turn", "phase", "kept", "rolled", "rules")


def parse_tiles(text: str) -> list[int]:
    """``"21-23, 30"`` → ``[21, 22, 23, 30]``: tiles separated by spaces or commas, ranges
    allowed; anything else is a clear error.

    >>> parse_tiles("21-23, 30")
    [21, 22, 23, 30]
    """
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


def with_real_dice(state: GameState, kept: str = "", rolled: str | None = None) -> GameState:
    """``state`` (the start of a turn) with the real dice ``kept`` so far and just
    ``rolled`` (not yet, with ``None``): the score keeper's dice helper and ``advise``. A
    roll that leaves nothing to keep busts, as in the game: the turn has then passed on.

    >>> from pickomino.core import GameState
    >>> turn = with_real_dice(GameState.from_position([[25], [28, 31]]), "WW44", "4455")
    >>> turn.total, turn.phase.value
    (18, 'keep')
    """
    kept_counts = parse_dice(kept)
    if sum(kept_counts) >= NUM_DICE or kept_counts.count(0) == 0:
        raise BadInput("turn_already_over", "R8")
    turn = state.from_position(
        state.stacks, state.face_down, state.current, state.rules, kept=kept_counts
    )
    if rolled is None:
        return turn
    roll = parse_dice(rolled)
    left = NUM_DICE - sum(kept_counts)
    if sum(roll) != left:
        raise BadInput("rolled_count", "R5", given=sum(roll), count=left)
    try:
        if any(kept_counts):
            turn.apply("roll")
        turn.apply_roll(roll)
    except IllegalAction as error:  # pragma: no cover - checked above
        raise BadInput(error.code, error.rule, **error.params) from None
    return turn


def to_text(state: GameState) -> str:
    """The position's line (see the module's docstring)."""
    stacks = "/".join(_tiles_text(stack) for stack in state.stacks)
    return " ".join(
        [
            stacks,
            _tiles_text(state.face_down),
            str(state.current),
            str(state.turn),
            state.phase.value,
            format_dice(state.kept_counts()) or NONE,
            format_dice(state.roll) or NONE,
            state.rules.to_text(),
        ]
    )


def from_text(text: str) -> GameState:
    """The state a position's line describes, built through the engine's own moves so
    that only reachable positions are accepted."""
    fields = str(text).split()
    if len(fields) != len(FIELDS):
        raise BadInput("position_fields", given=len(fields), fields=" ".join(FIELDS))
    stacks_text, down, to, turn, phase_text, kept, rolled, rules_text = fields
    stacks = [_tiles(part) for part in stacks_text.split("/")]
    phase = next((p for p in Phase if p.value == phase_text), None)
    if phase is None:
        raise BadInput("position_phase", given=phase_text[:20], phases=[p.value for p in Phase])
    rules = Rules.parse(rules_text)
    kept_counts = parse_dice("" if kept == NONE else kept)
    roll = None if rolled == NONE else rolled
    if (roll is not None) != (phase is Phase.KEEP):
        raise BadInput("position_roll", phase=phase.value)
    if phase is Phase.OVER:
        state = _finished(stacks, _tiles(down), _number(to), rules, kept_counts)
    else:
        start = GameState.from_position(stacks, _tiles(down), _number(to), rules)
        state = _reach(start, phase, kept, kept_counts, roll)
    state.turn = _number(turn, least=1)
    return state


def _reach(
    start: GameState, phase: Phase, kept: str, kept_counts: Counts, roll: str | None
) -> GameState:
    """From the start of the turn to ``phase`` with the dice given, by the engine's moves."""
    if phase is Phase.KEEP:
        state = with_real_dice(start, "" if kept == NONE else kept, roll)
    elif phase is Phase.ROLL:
        state = with_real_dice(start, "" if kept == NONE else kept)
        if any(kept_counts):
            state.apply("roll")
    elif phase is Phase.CLAIM and _ends_turn(kept_counts):
        state = _keep_last(start, kept_counts)
    elif any(kept_counts):  # roll_or_stop, claim: with dice kept
        state = with_real_dice(start, kept)
        if phase is Phase.CLAIM:
            state.apply("stop")
    else:
        state = start
    if state.phase is not phase or state.current != start.current:
        raise BadInput("position_unreachable", phase=phase.value)
    return state


def _ends_turn(kept: Counts) -> bool:
    """No dice left, or every face kept: the turn ended with the keep (R8)."""
    return sum(kept) >= NUM_DICE or all(kept)


def _keep_last(start: GameState, kept: Counts) -> GameState:
    """The turn whose last keep (of the highest face kept) ended it (R8): the dice before,
    a roll that shows that face as often (and faces already kept for any other dice left),
    and the keep."""
    face = max(f for f, count in enumerate(kept) if count)
    before = [*kept[:face], 0, *kept[face + 1 :]]
    rolled = [0] * 6
    rolled[face] = kept[face]
    extra = NUM_DICE - sum(before) - kept[face]
    if extra:  # all six faces kept with dice to spare: they show a face kept before
        rolled[next(f for f, count in enumerate(before) if count)] += extra
    state = with_real_dice(start, format_dice(before), format_dice(rolled))
    if state.current == start.current and state.phase is not Phase.OVER:
        state.apply(keep(face))
    return state


def _finished(
    stacks: Sequence[Sequence[int]],
    down: list[int],
    last: int,
    rules: Rules,
    kept: Counts,
) -> GameState:
    """A finished game: every tile in a stack or face down (R18)."""
    held = sorted([*(tile for stack in stacks for tile in stack), *down])
    if held != list(TILES) or sum(kept) > NUM_DICE:
        raise BadInput("position_unreachable", phase=Phase.OVER.value)
    state = GameState(len(stacks), rules, last)
    state.stacks = [list(stack) for stack in stacks]
    state.face_down_mask = sum(_bit(tile) for tile in down)
    state.grill_mask = 0
    state.phase, state.claims, state.roll = Phase.OVER, (), _NO_DICE
    state.kept, state.dice_left = list(kept), NUM_DICE - sum(kept)
    state.total = points(kept)
    return state


def _tiles_text(tiles: Sequence[int]) -> str:
    return ",".join(map(str, tiles)) or NONE


def _tiles(text: str) -> list[int]:
    return [] if text == NONE else parse_tiles(text)


def _number(text: str, least: int = 0) -> int:
    if not text.isdigit() or int(text) < least:
        raise BadInput("position_number", given=text[:20])
    return int(text)
