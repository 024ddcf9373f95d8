"""What a score sheet's page may ask, answered without a web framework: open a stored sheet,
take one from a file, enter a turn's result, undo, redo, advise on the real dice. The
server's keeper router (:mod:`pickomino.web.api.keeper`) and the offline app's answers in the
browser (:mod:`pickomino.offline.answers`) both answer through here, so a sheet behaves the
same in both; each refusal carries the HTTP status the page reads it by.

>>> sheet = open_sheet(json.dumps(ScoreSheet(["Ann", "Bob"]).to_dict()), count=0)
>>> change(sheet, "entries", "take 26"); sheet.state.stacks
[[26], []]
>>> try:
...     change(sheet, "entries", "take 26")
... except SheetRefusal as refusal:
...     print(refusal.status, refusal.to_dict())
400 {'id': 'take_from_stack', 'rule': 'R11', 'params': {'tile': 26}}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pickomino.core import GameState, IllegalAction, PickominoError, RecordError
from pickomino.table.sheet import ScoreSheet

#: What advises on real dice: (the turn with the dice, whose turn, kept, rolled) → report.
Advisor = Callable[[GameState, int, str, str | None], dict[str, Any]]


class SheetRefusal(PickominoError):
    """A request about a sheet refused, with its HTTP status; nothing was changed."""

    def __init__(self, status: int, code: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(code, rule, **params)
        self.status = status

    @classmethod
    def of(cls, status: int, error: PickominoError) -> SheetRefusal:
        """The engine's refusal (an illegal entry, say) with a status."""
        return cls(status, error.code, error.rule, **error.params)


def open_sheet(data: str, count: int | None = None, revision: str | None = None) -> ScoreSheet:
    """A stored sheet (its JSON); ``count``: the number of entries the asking page shows, and
    ``revision`` the sheet it shows (:meth:`.ScoreSheet.revision`), so that a page out of date
    (a double tap, another phone) cannot act on another state."""
    try:
        sheet = ScoreSheet.from_dict(json.loads(data))
    except RecordError as error:  # a ValueError too: before the next
        raise SheetRefusal(500, "sheet_damaged", why=error) from None
    except (ValueError, RecursionError):  # not JSON: too deep, too long a number
        raise SheetRefusal(500, "sheet_damaged", why=RecordError("record_not_json")) from None
    if (count is not None and count != len(sheet.entries)) or (
        revision is not None and revision != sheet.revision()
    ):
        raise SheetRefusal(409, "sheet_changed")
    return sheet


def imported(record: Any) -> ScoreSheet:
    """A sheet from a file another keeper saved (the server's, the offline app's: the same
    record format), refused with what is wrong if it is not one."""
    try:
        return ScoreSheet.from_dict(record)
    except RecordError as error:
        raise SheetRefusal(400, "not_a_sheet_file", why=error) from None


def change(sheet: ScoreSheet, step: str, entry: str = "") -> None:
    """``entries`` (enter ``entry``: ``take 26``, ``steal 27``, ``bust``), ``undo`` or
    ``redo``."""
    try:
        if step == "entries":
            sheet.enter(entry)
        elif step == "undo":
            sheet.undo()
        else:
            sheet.redo()
    except IllegalAction as error:
        raise SheetRefusal.of(400 if step == "entries" else 409, error) from None


def advise(sheet: ScoreSheet, kept: str, rolled: str | None, advisor: Advisor) -> dict[str, Any]:
    """What to do with the real dice, for the player whose turn it is on the sheet."""
    state = sheet.state
    if state.is_over:
        raise SheetRefusal(409, "game_over", "R18")
    try:
        turn = state.with_real_dice(kept, rolled)
    except PickominoError as error:
        raise SheetRefusal.of(400, error) from None
    return advisor(turn, state.current, kept, rolled)
