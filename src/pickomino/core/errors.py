"""The two ways the engine says no: an illegal action, and a record it will not load."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action or roll the rules do not allow here; the state is left unchanged.

    ``rule`` names the rule of docs/rules.md that forbids it (e.g. ``"R6"``).
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message


class RecordError(ValueError):
    """A game record that is malformed, of an unknown version, or does not replay."""
