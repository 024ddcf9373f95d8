"""The game in words for the Python faces (terminal, command line): events, the turn by turn
log, the final ranking and a plain picture of the table, in any language of
:mod:`pickomino.i18n`. The browser does the same from the same catalogue in JavaScript.

>>> from pickomino.core import Game
>>> from pickomino.i18n import Words
>>> game = Game(["Ann", "Bob"])
>>> for move in ["dice 1233WWW5", "keep W", "roll", "dice 44455", "keep 4", "stop"]:
...     _ = game.push(move)
>>> print("\\n".join(log_lines(game.history, game.seats, Words("en"))))
Turn 1 – Ann
  Ann rolled 1 2 3 3 5 W W W
  Ann kept W W W (total 15)
  Ann rolled 4 4 4 5 5
  Ann kept 4 4 4 (total 27)
  Ann took 27 from the grill with 27
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pickomino.core import Event, GameOver, GameState, PickominoError, Standing
from pickomino.core.events import BUST_RULES, event_dict, tie_break
from pickomino.core.rules import FACE_SYMBOLS, TILES
from pickomino.i18n import Words


def spaced_dice(dice: Sequence[int] | str) -> str:
    """``(0, 0, 0, 2, 1, 1)`` or ``"44W5"`` → ``'4 4 5 W'``; ``-`` for no dice."""
    if isinstance(dice, str):
        faces = sorted(dice.upper(), key=FACE_SYMBOLS.index)
    else:
        faces = [symbol for symbol, n in zip(FACE_SYMBOLS, dice, strict=True) for _ in range(n)]
    return " ".join(faces) or "-"


def describe_event(event: Event | dict[str, Any], names: Sequence[str], words: Words) -> str:
    """One event in words, e.g. ``'Ann stole 27 from Bob with 27'``."""
    data: dict[str, Any] = event if isinstance(event, dict) else event_dict(event)
    kind = data["type"]
    name = names[data["seat"]] if "seat" in data else ""
    match kind:
        case "rolled":
            return words("event.rolled", name=name, dice=spaced_dice(data["dice"]))
        case "kept":
            dice = spaced_dice(data["face"] * data["count"])
            return words("event.kept", name=name, dice=dice, total=data["total"])
        case "took" | "stole":
            key = f"event.{kind}" if data["total"] else f"event.{kind}_reported"
            victim = names[data["victim"]] if "victim" in data else ""
            return words(key, name=name, tile=data["tile"], victim=victim, total=data["total"])
        case "bust" if data["reason"] == "reported":
            return words("event.bust_reported", name=name)
        case "bust":
            text = words("event.bust", name=name, total=data["total"], reason=data["reason"])
            return cited(text, BUST_RULES[data["reason"]], words)
        case "returned":
            return words("event.returned", name=name, tile=data["tile"])
        case "turned":
            return words("event.turned", tile=data["tile"])
        case "game_over":
            return words("event.game_over")
    raise TypeError(f"not an event: {event!r}")


def cited(text: str, rule: str | None, words: Words) -> str:
    """A text with the rule behind it, for the reader to look up: ``'… (R10)'``."""
    return words("cited", text=text, rule=rule) if rule else text


def refusal(error: PickominoError, words: Words) -> str:
    """Why something was refused, with its rule: ``'the roll shows no 3 (R6)'``."""
    return cited(words.error(error), error.rule, words)


def event_lines(event: Event, names: Sequence[str], words: Words) -> list[str]:
    """An event's lines for a log: one, or for the end of the game the ranking too."""
    lines = [describe_event(event, names, words)]
    if isinstance(event, GameOver):
        lines.extend(ranking_lines(event.ranking, names, words))
    return lines


def ranking_lines(ranking: Iterable[Standing], names: Sequence[str], words: Words) -> list[str]:
    """The final order, one line a player, then how a tie was broken (R20) if it was."""
    ranking = tuple(ranking)
    lines = []
    for standing in ranking:
        worms = words("worms", count=standing.worms)
        name = names[standing.seat]
        if standing.highest_tile:
            place = words(
                "ranking.place_tile",
                rank=standing.rank, name=name, worms=worms, tile=standing.highest_tile,
            )  # fmt: skip
        else:
            place = words("ranking.place", rank=standing.rank, name=name, worms=worms)
        lines.append(place)
    decided = tie_break(ranking)
    if decided == "shared":
        lines.append(words("ranking.shared"))
    elif decided == "tile":
        lines.append(words("ranking.tile", name=names[ranking[0].seat]))
    return lines


def log_lines(
    history: Iterable[tuple[int, int, Any, Sequence[Event]]],
    names: Sequence[str],
    words: Words,
    last_turn: int | None = None,
) -> list[str]:
    """A heading for every turn and an indented line for every event, from a game's
    ``history`` of ``(turn, seat, move, events)`` (``last_turn``: the turn already headed
    by earlier lines, so a continued log heads only new turns)."""
    lines: list[str] = []
    for turn, seat, _move, events in history:
        if turn != last_turn:
            lines.append(words("turn.heading", turn=turn, name=names[seat]))
            last_turn = turn
        lines.extend("  " + line for event in events for line in event_lines(event, names, words))
    return lines


def worm_column(counts: Sequence[int], words: Words) -> list[str]:
    """Worm counts for a column of a table, numbers right-aligned, all one width:
    ``[' 3 worms', ' 1 worm ', '12 worms']``."""
    texts = []
    for count in counts:
        text, number = words("worms", count=count), words.number(count)
        texts.append(f"{number:>2}{text[len(number) :]}" if text.startswith(number) else text)
    width = max(map(len, texts))
    return [text.ljust(width) for text in texts]


def render_state(state: GameState, names: Sequence[str], words: Words, ranking: bool = True) -> str:
    """The table as text: grill, stacks with worms, whose turn, kept dice and the roll.

    On the grill ``##`` is a tile turned face down and ``..`` a tile held by a player. A
    finished game ends with the ranking, unless ``ranking`` is false (for a caller that
    has just printed the game's log, which ends with it).

    >>> from pickomino.core import GameState
    >>> print(render_state(GameState.from_position([[22, 25], []]), ["Ann", "Bob"], Words()))
    Grill  21 .. 23 24 .. 26 27 28 29 30 31 32 33 34 35 36
    > Ann   3 worms  22 [25]
      Bob   0 worms  -
    Turn 1: Ann – roll 8 dice
    """
    width = max(len(name) for name in names)
    grill, down = set(state.grill), set(state.face_down)
    cells = [str(t) if t in grill else "##" if t in down else ".." for t in TILES]
    lines = [f"{words('table.grill')}  " + " ".join(cells)]
    worms = worm_column(state.scores(), words)
    for seat, name in enumerate(names):
        marker = ">" if seat == state.current and not state.is_over else " "
        stack = state.stacks[seat]
        tiles = " ".join(str(t) for t in stack[:-1])
        if stack:
            tiles = f"{tiles} [{stack[-1]}]".strip()
        lines.append(f"{marker} {name:<{width}}  {worms[seat]}  {tiles or '-'}")
    if state.is_over:
        if ranking:
            lines.append(words("event.game_over"))
            lines.extend(ranking_lines(state.ranking(), names, words))
        return "\n".join(lines)
    lines.append(_turn_line(state, names, words))
    if state.phase.value == "keep":
        lines.append(words("table.rolled", dice=spaced_dice(state.roll)))
    return "\n".join(lines)


def _turn_line(state: GameState, names: Sequence[str], words: Words) -> str:
    name = names[state.current]
    if not any(state.kept):
        if not state.is_chance():  # the first roll is on the next line
            return words("table.turn_rolled", turn=state.turn, name=name)
        dice = words("dice", count=state.dice_left)
        return words("table.turn_start", turn=state.turn, name=name, dice=dice)
    return words(
        "table.turn",
        turn=state.turn, name=name, kept=spaced_dice(state.kept_counts()),
        total=state.total, left=words("dice", count=state.dice_left),
    )  # fmt: skip
