"""The table (and a score sheet) as plain JSON for the browser, and a finished (or running)
game as replay frames, one per turn, with the worm counts that the end-of-game chart draws.
Data only: the page words it.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> frames = replay_frames(game.record)
>>> [(f["turn"], f["table"]["worms"]) for f in frames]
[(0, [0, 0]), (1, [2, 0])]
>>> frames[1]["log"][-1]
{'type': 'took', 'seat': 0, 'tile': 27, 'total': 27}
"""

from __future__ import annotations

from functools import cache, lru_cache

from pickomino.core import Game, GameRecord, GameState
from pickomino.core.events import log_entries, standing_dict, tie_break
from pickomino.core.rules import FACE_SYMBOLS, TILES, worms_on
from pickomino.table.sheet import ScoreSheet


@cache  # 3,003 ways to count at most 8 dice over 6 faces; shared by the views: read only
def dice_list(counts: tuple[int, ...]) -> list[str]:
    """``(0, 0, 0, 2, 1, 1)`` → ``['4', '4', '5', 'W']``."""
    return [symbol for symbol, n in zip(FACE_SYMBOLS, counts, strict=True) for _ in range(n)]


def sheet_view(sheet_id: str, sheet: ScoreSheet) -> dict[str, object]:
    """A score sheet as the keeper's page draws it (the server's and the offline app's)."""
    return {
        "id": sheet_id,
        "names": sheet.names,
        "rules": sheet.rules.to_dict(),
        "count": len(sheet.entries),
        "revision": sheet.revision(),
        "table": table_view(sheet.state),
        "options": sheet.options(),
        "log": sheet.log_entries(),
        "can_undo": bool(sheet.entries),
        "can_redo": bool(sheet.undone),
    }


def table_view(state: GameState, ranked: bool = False) -> dict[str, object]:
    """Everything on the table: grill, stacks, whose turn, the dice and the result (the
    standings as a result also when ``ranked``: a game stopped unfinished). The grill
    and the dice lists are shared by every view of the same tiles or dice (the server builds
    a view at each action: most actions change neither): read them, never change them."""
    view: dict[str, object] = {
        "grill": _grill_view(state.grill_mask, state.face_down_mask),
        "stacks": [list(stack) for stack in state.stacks],
        "worms": state.scores(),
        "current": state.current,
        "turn": state.turn,
        "phase": state.phase.value,
        "roll": dice_list(state.roll) if state.phase.value == "keep" else [],
        "kept": dice_list(state.kept_counts()),
        "total": state.total,
        "dice_left": state.dice_left,
        "over": state.is_over,
    }
    if state.is_over or ranked:
        ranking = state.ranking()
        view["ranking"] = [standing_dict(standing) for standing in ranking]
        view["tie_break"] = tie_break(ranking)  # "tile", "shared" or None: worms decided
    return view


@lru_cache(maxsize=4096)  # a game sees a few dozen; a busy server's games share the early ones
def _grill_view(grill_mask: int, face_down_mask: int) -> list[dict[str, object]]:
    """The 16 tiles, each on the grill (its bit set in ``grill_mask``; bit 0 is tile 21),
    face down or taken."""

    def where(bit: int) -> str:
        return "grill" if grill_mask & bit else "down" if face_down_mask & bit else "taken"

    return [
        {"tile": tile, "worms": worms_on(tile), "where": where(1 << n)}
        for n, tile in enumerate(TILES)
    ]


def replay_frames(record: GameRecord) -> list[dict[str, object]]:
    """The table before the first turn and after every turn, with that turn's log (events)."""
    game = Game(record.seats, record.rules, record.start_player)
    frames: list[dict[str, object]] = [
        {"turn": 0, "seat": None, "log": [], "table": table_view(game.state)}
    ]
    played = 0  # history entries already in a frame
    for move in record.moves:
        turn, seat = game.state.turn, game.state.current
        game.push(move)
        if game.state.turn != turn or game.state.is_over:
            frames.append(_frame(game, turn, seat, played))
            played = len(game.history)
    if played < len(game.history):  # a turn still being played
        frames.append(_frame(game, game.state.turn, game.state.current, played))
    return frames


def _frame(game: Game, turn: int, seat: int, start: int) -> dict[str, object]:
    events = [entry for entry in log_entries(game.history[start:]) if entry["type"] != "turn"]
    return {"turn": turn, "seat": seat, "log": events, "table": table_view(game.state)}
