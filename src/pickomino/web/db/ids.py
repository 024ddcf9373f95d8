"""The ids of games and sheets: which texts the store looks up, and how a refusal quotes one
that names nothing (a 404 must not echo whatever was asked for)."""

from __future__ import annotations

import re


def valid_id(text: str) -> bool:
    """Ids are URL-safe tokens; anything else (e.g. a NUL, which PostgreSQL refuses) names
    no game or sheet and is not looked up."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text) is not None


def shown_id(text: str, limit: int = 40) -> str:
    """An id as a refusal quotes it: cut to ``limit`` characters, so that a 404 does not
    echo whatever huge text was asked for, and with every invisible character (a control,
    a right-to-left mark) shown as ``�``. Not in quotes: the words around it (in the
    reader's language) quote it as that language does.

    >>> shown_id("a" + chr(0x202E) + "b"), shown_id("x" * 50, 4)  # a right-to-left mark
    ('a�b', 'xxxx…')
    """
    shown = "".join(char if char.isprintable() else "\ufffd" for char in text[:limit])
    return shown + ("…" if len(text) > limit else "")
