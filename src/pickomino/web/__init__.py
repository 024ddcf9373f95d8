"""Pickomino in the browser: ``pickomino serve`` (see :mod:`pickomino.web.app`).

``create_app`` is imported when first asked for, so that a process importing only a light
part of the web (the review process: :mod:`pickomino.web.api.review_work`) does not load
FastAPI and the rest of the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pickomino.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from pickomino.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
