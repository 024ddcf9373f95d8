"""How the web app says no: a message id, its parameters and the rule (if one forbids it),
for the page to put into its reader's words — never a sentence (the server never
translates). Over HTTP: ``{"detail": {"id": "no_open_seat", "params": {}, "rule": null}}``
with a 4xx status; over a WebSocket: ``{"type": "error", "id": …, "params": …, "rule": …}``.

>>> refusal_message(Refused("not_your_turn", "R4", name="Bob"))
'{"type": "error", "id": "not_your_turn", "rule": "R4", "params": {"name": "Bob"}}'
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException

from pickomino.core import PickominoError


class Refused(PickominoError):
    """What the server will not do (a move out of turn, a seat that is not free, …); it
    changed nothing, and goes to the asker only."""


def refused(status: int, code: str, rule: str | None = None, **params: Any) -> HTTPException:
    """An HTTP refusal of the API: the status, and the error as data."""
    return refusal(status, Refused(code, rule, **params))


def refusal(status: int, error: PickominoError) -> HTTPException:
    """Any refusal (the engine's too) as an HTTP error."""
    return HTTPException(status, error.to_dict())


def refusal_message(error: PickominoError) -> str:
    """A refusal as a WebSocket message."""
    return json.dumps({"type": "error", **error.to_dict()})
