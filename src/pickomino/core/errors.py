"""How the engine says no: a message id with its parameters (and the rule, where one
forbids it), never a sentence. The faces put them into words from their catalogues
(:mod:`pickomino.i18n`); the package's ``__init__`` installs English from there as the text
of ``str(error)``, for programmers and tracebacks, loading the catalogues only then.

>>> error = IllegalAction("R6", "face_kept", face="W")
>>> error.rule, error.code, error.params
('R6', 'face_kept', {'face': 'W'})
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Puts an error into words. Core has none: ``pickomino/__init__.py`` sets this (English).
describe: Callable[[PickominoError], str] | None = None


class PickominoError(ValueError):
    """A refusal with a message id (``code``), its ``params`` and the ``rule`` behind it.

    A ``ValueError``, so callers that only need to know *that* something was refused can
    catch that.
    """

    def __init__(self, code: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(code, params)
        self.code, self.rule, self.params = code, rule, params

    def __str__(self) -> str:
        if describe is not None:
            return describe(self)
        return f"{self.code} {self.params}"  # pragma: no cover - i18n installs English

    def to_dict(self) -> dict[str, Any]:
        """The error as it travels to a client: ``{"id", "rule", "params"}`` (nested errors
        in the parameters likewise), for the client to put into words."""
        params = {
            name: value.to_dict() if isinstance(value, PickominoError) else value
            for name, value in self.params.items()
        }
        return {"id": self.code, "rule": self.rule, "params": params}

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across processes, with its params
        return (_rebuild, (type(self), self.code, self.rule, self.params))


def _rebuild(cls: type[PickominoError], code: str, rule: str | None, params: dict) -> Any:
    error = cls.__new__(cls)
    PickominoError.__init__(error, code, rule, **params)
    return error


class IllegalAction(PickominoError):
    """An action or roll the rules do not allow here; the state is left unchanged.

    ``rule`` names the rule that forbids it (e.g. ``"R6"``; pickomino/i18n/en/rules.md).
    """

    def __init__(self, rule: str | None, code: str, **params: Any) -> None:
        super().__init__(code, rule, **params)


class RecordError(PickominoError):
    """A game record (or score sheet) that is malformed, of an unknown version, or does not
    replay."""


class BadInput(PickominoError):
    """Words or numbers that name nothing in the game: a tile that does not exist, a face
    that is not on a die, an unknown rule option or action, a wrong number of players."""
