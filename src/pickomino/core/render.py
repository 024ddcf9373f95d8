"""Plain-text pictures of a state and plain-English lines for events.

Faces (terminal, web log, CLI) share these words so that a bust reason or a steal is
described the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pickomino.core.events import (
    BUST_REASONS,
    Bust,
    Event,
    GameOver,
    Kept,
    Rolled,
    Standing,
    TileReturned,
    TileStolen,
    TileTaken,
    TileTurned,
)
from pickomino.core.rules import FACE_SYMBOLS, TILES

if TYPE_CHECKING:
    from pickomino.core.state import GameState


def seat_names(num_players: int, names: Sequence[str] | None = None) -> list[str]:
    return list(names) if names else [f"Player {seat + 1}" for seat in range(num_players)]


def spaced_dice(counts: Sequence[int]) -> str:
    """``(0, 0, 0, 2, 1, 1)`` → ``'4 4 5 W'``."""
    return " ".join(s for s, n in zip(FACE_SYMBOLS, counts, strict=True) for _ in range(n)) or "-"


def worm_count(count: int) -> str:
    """``'1 worm'``, ``'3 worms'``."""
    return f"{count} worm{'' if count == 1 else 's'}"


def worms_column(count: int) -> str:
    """A worm count for a column of a table, 8 characters wide: ``' 1 worm '``, ``'12 worms'``."""
    number, word = worm_count(count).split()
    return f"{number:>2} {word:<5}"


def render_state(state: GameState, names: Sequence[str] | None = None, ranking: bool = True) -> str:
    """The table as text: grill, stacks with worms, whose turn, kept dice and the roll.

    On the grill ``##`` is a tile turned face down and ``..`` a tile held by a player. A
    finished game ends with the ranking, unless ``ranking`` is false (for a caller that
    has just printed the game's log, which ends with it).
    """
    names = seat_names(state.num_players, names)
    width = max(len(name) for name in names)
    grill_mask, down_mask = state.grill_mask, state.face_down_mask
    cells = []
    for index, tile in enumerate(TILES):
        bit = 1 << index
        cells.append(str(tile) if grill_mask & bit else "##" if down_mask & bit else "..")
    lines = ["Grill  " + " ".join(cells)]
    for seat, name in enumerate(names):
        marker = ">" if seat == state.current and not state.is_over else " "
        stack = state.stacks[seat]
        tiles = " ".join(str(t) for t in stack[:-1])
        if stack:
            tiles = f"{tiles} [{stack[-1]}]".strip()
        lines.append(f"{marker} {name:<{width}}  {worms_column(state.worms(seat))}  {tiles or '-'}")
    if state.is_over:
        if ranking:
            lines.append(game_over(state.ranking(), names))
        return "\n".join(lines)
    line = f"Turn {state.turn}: {names[state.current]}"
    if any(state.kept):
        line += f" kept {spaced_dice(state.kept)} = {state.total}, {state.dice_left} dice left"
    lines.append(line)
    if state.phase.value == "keep":
        lines.append(f"Rolled {spaced_dice(state.roll)}")
    actions = ", ".join(a.name for a in state.legal_actions())
    lines.append(f"Next: {actions or 'roll ' + str(state.dice_left) + ' dice'}")
    return "\n".join(lines)


def describe_event(event: Event, names: Sequence[str]) -> str:
    """One event in words, e.g. ``'Ann stole 27 from Bob'``."""
    match event:
        case Rolled(seat, dice):
            return f"{names[seat]} rolled {spaced_dice(dice)}"
        case Kept(seat, face, count, total):
            return f"{names[seat]} kept {count} x {FACE_SYMBOLS[face]} (total {total})"
        case TileTaken(seat, tile, total):
            return f"{names[seat]} took {tile} from the grill{_with(total)}"
        case TileStolen(seat, tile, victim, total):
            return f"{names[seat]} stole {tile} from {names[victim]}{_with(total)}"
        case Bust(seat, "reported", _):
            return f"{names[seat]} busts"
        case Bust(seat, reason, total):
            return f"{names[seat]} busts at {total}: {BUST_REASONS[reason]}"
        case TileReturned(seat, tile):
            return f"{names[seat]}'s {tile} goes back to the grill"
        case TileTurned(tile):
            return f"{tile} is turned face down"
        case GameOver(ranking):
            return game_over(ranking, names)
    raise TypeError(f"not an event: {event!r}")


def _with(total: int) -> str:
    """`` with 27``; nothing for a turn reported from a real table (total 0, unknown)."""
    return f" with {total}" if total else ""


def game_over(ranking: Iterable[Standing], names: Sequence[str]) -> str:
    """The line that ends a game's log (and its table): ``'Game over. 1. Ann ...'``."""
    return "Game over. " + describe_ranking(ranking, names)


def describe_ranking(ranking: Iterable[Standing], names: Sequence[str]) -> str:
    """The final order with the tie-break (R20) spelled out where it decided."""
    ranking = list(ranking)
    parts = []
    for standing in ranking:
        best = f", highest tile {standing.highest_tile}" if standing.highest_tile else ""
        parts.append(f"{standing.rank}. {names[standing.seat]} {worm_count(standing.worms)}{best}")
    text = "; ".join(parts)
    tie_break = describe_tie_break(ranking, names)
    return f"{text} ({tie_break})" if tie_break else text


def describe_tie_break(ranking: Iterable[Standing], names: Sequence[str]) -> str | None:
    """How a tie on worms for the win was settled (R20); ``None`` when worms alone decided."""
    ranking = list(ranking)
    winners = [s for s in ranking if s.rank == 1]
    tied = [s for s in ranking if s.worms == winners[0].worms]
    if len(winners) > 1:
        return "a shared win: tied on worms with no tiles to break the tie, R20"
    if len(tied) > 1:
        return f"{names[winners[0].seat]} wins the tie on worms with the highest tile, R20"
    return None
