"""A Griffe extension for the API page: docstrings' doctests shown as Python sessions.

Our docstrings hold plain ``>>>`` examples (run by ``pytest --doctest-modules``), not Google
"Examples:" sections; read as Markdown they would become quotes and their lists links.
Each run of example lines (a ``>>>`` line, its ``...`` lines and its output, up to a blank
line) is fenced as ``pycon`` before mkdocstrings renders it.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """Wrap every block of doctest lines in a ``pycon`` code fence."""
    out: list[str] = []
    indent: str | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        out.append(line)
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every object's docstring."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring's text once it is loaded."""
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(obj.docstring.value)
