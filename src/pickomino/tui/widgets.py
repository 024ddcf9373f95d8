"""Pictures of the table for the full-screen game, as Rich text built from the engine's state.

Kept as plain functions of the state so that each view is redrawn whole after every step and
can be checked without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from pickomino.core import GameState, format_dice, worms_on
from pickomino.core.rules import TILES
from pickomino.i18n import Words
from pickomino.i18n.text import worm_column

TILE_STYLE = "bold black on #e8c170"
DOWN_STYLE = "grey50 on grey23"
GONE_STYLE = "grey35"
TOP_STYLE = "bold black on #e8c170"
WORM_DIE_STYLE = "bold red"


def grill_text(state: GameState) -> Text:
    """Two rows: each tile's number over its worms (``~``); ``▒▒`` for a tile turned face
    down, ``··`` for one held in a stack."""
    numbers, worms = Text(), Text()
    face_up, face_down = set(state.grill), set(state.face_down)
    for tile in TILES:
        if tile in face_up:
            numbers.append(f" {tile} ", TILE_STYLE)
            worms.append(f"{'~' * worms_on(tile):^4}", TILE_STYLE)
        elif tile in face_down:
            numbers.append(" ▒▒ ", DOWN_STYLE)
            worms.append(" ▒▒ ", DOWN_STYLE)
        else:
            numbers.append(" ·· ", GONE_STYLE)
            worms.append("    ")
        if tile != TILES[-1]:  # 79 columns: the grill fits on a line of 80
            numbers.append(" ")
            worms.append(" ")
    return Text("\n").join([numbers, worms])


def stacks_text(state: GameState, names: Sequence[str], words: Words) -> Text:
    """One row per player: whose turn, worms, and the stack with its (stealable) top lit."""
    width = max(len(name) for name in names)
    worms = worm_column(state.scores(), words)
    rows = []
    for seat, name in enumerate(names):
        playing = seat == state.current and not state.is_over
        row = Text("▶ " if playing else "  ", "bold green")
        row.append(f"{name:<{width}}", "bold" if playing else "")
        row.append(f"  {worms[seat]}  ")
        stack = state.stacks[seat]
        row.append(" ".join(map(str, stack[:-1])) + " " if len(stack) > 1 else "")
        row.append(f" {stack[-1]} " if stack else "-", TOP_STYLE if stack else "dim")
        rows.append(row)
    return Text("\n").join(rows)


def button_rows(labels: Sequence[str], width: int) -> list[list[str]]:
    """The labels of compact buttons (each its text plus a space either side and one
    between buttons) in rows no wider than ``width``, in order: a wrapping row of buttons,
    so that six keeps or many claims are all seen whole on a narrow screen."""
    rows: list[list[str]] = [[]]
    used = 0
    for label in labels:
        size = len(label) + 3
        if rows[-1] and used + size - 1 > width:
            rows.append([])
            used = 0
        rows[-1].append(label)
        used += size
    return rows


def dice_text(state: GameState, words: Words) -> Text:
    """The kept dice and their total, then the dice just rolled, each drawn as a small box."""
    kept_label, rolled_label = words("table.kept"), words("table.roll")
    kept_rows = _boxes(format_dice(state.kept_counts()), "green")
    roll_rows = _boxes(format_dice(state.roll), "bold")
    total = f" = {state.total}"
    rows = []
    for index, (kept_row, roll_row) in enumerate(zip(kept_rows, roll_rows, strict=True)):
        middle = index == 1
        row = Text(f"{kept_label}  " if middle else " " * (len(kept_label) + 2))
        row.append_text(kept_row)
        row.append(f"{total if middle else '':<8}")
        row.append(f"{rolled_label} " if middle else " " * (len(rolled_label) + 1))
        row.append_text(roll_row)
        rows.append(row)
    return Text("\n").join(rows)


def _boxes(faces: str, style: str) -> list[Text]:
    """Three rows drawing one small box per die face (a dash when there is none)."""
    rows = [Text(), Text(), Text()]
    if not faces:
        return [Text(" "), Text("-", "dim"), Text(" ")]
    for face in faces:
        face_style = WORM_DIE_STYLE if face == "W" else style
        for row, part in zip(rows, ("┌─┐", f"│{face}│", "└─┘"), strict=True):
            row.append(part, face_style)
    return rows
