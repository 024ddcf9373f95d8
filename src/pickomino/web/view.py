"""The table as plain JSON for the browser, and a finished (or running) game as replay
frames, one per turn, with the worm counts that the end-of-game chart draws.

>>> from pickomino.core import Game
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> frames = replay_frames(game.record)
>>> [(f["turn"], f["table"]["worms"]) for f in frames]
[(0, [0, 0]), (1, [2, 0])]
>>> frames[1]["lines"][-1]
'Ann took 27 from the grill with 27'
"""

from __future__ import annotations

from pickomino.core import Game, GameRecord, GameState
from pickomino.core.render import describe_event, describe_ranking, describe_tie_break
from pickomino.core.rules import FACE_SYMBOLS, TILES, worms_on


def dice_list(counts: tuple[int, ...] | list[int]) -> list[str]:
    """``(0, 0, 0, 2, 1, 1)`` → ``['4', '4', '5', 'W']``."""
    return [symbol for symbol, n in zip(FACE_SYMBOLS, counts, strict=True) for _ in range(n)]


def table_view(state: GameState, names: list[str]) -> dict[str, object]:
    """Everything on the table: grill, stacks, whose turn, the dice and the result."""
    grill, down = set(state.grill), set(state.face_down)
    view: dict[str, object] = {
        "grill": [
            {
                "tile": tile,
                "worms": worms_on(tile),
                "where": "grill" if tile in grill else "down" if tile in down else "taken",
            }
            for tile in TILES
        ],
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
    if state.is_over:
        ranking = state.ranking()
        view["ranking"] = [
            {"seat": s.seat, "rank": s.rank, "worms": s.worms, "highest_tile": s.highest_tile}
            for s in ranking
        ]
        view["result"] = describe_ranking(ranking, names)  # with the tie-break explained
        view["tie_break"] = describe_tie_break(ranking, names)  # None: worms decided
    return view


def replay_frames(record: GameRecord) -> list[dict[str, object]]:
    """The table before the first turn and after every turn, with that turn's log lines."""
    game = Game(record.seats, record.rules, record.start_player)
    frames: list[dict[str, object]] = [
        {"turn": 0, "seat": None, "lines": [], "table": table_view(game.state, game.seats)}
    ]
    lines: list[str] = []
    for move in record.moves:
        turn, seat = game.state.turn, game.state.current
        events = game.push(move)
        lines.extend(describe_event(event, game.seats) for event in events)
        if game.state.turn != turn or game.state.is_over:
            frames.append(
                {
                    "turn": turn,
                    "seat": seat,
                    "lines": lines,
                    "table": table_view(game.state, game.seats),
                }
            )
            lines = []
    if lines:  # a turn still being played
        frames.append(
            {
                "turn": game.state.turn,
                "seat": game.state.current,
                "lines": lines,
                "table": table_view(game.state, game.seats),
            }
        )
    return frames
