"""Pickomino (Heckmeck am Bratwurmeck) in Python.

The rules engine lives in :mod:`pickomino.core`; everything else (command line, solver,
bots, web app) is built on it.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pickomino")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

from pickomino.core import errors as _errors  # noqa: E402  (the standard library only)


def _in_english(error: _errors.PickominoError) -> str:
    """Errors carry message ids, not words; ``str(error)`` puts them into English for
    programmers. The catalogues (and Babel) load at the first error shown, not on import,
    so that ``import pickomino.core`` stays the standard library only."""
    try:
        from pickomino.i18n import describe_in_english
    except ImportError:  # pragma: no cover - a light install without the catalogues' Babel
        return f"{error.code} {error.params}"
    return describe_in_english(error)


_errors.describe = _in_english
