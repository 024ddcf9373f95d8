"""Pickomino (Heckmeck am Bratwurmeck) in Python.

The rules engine lives in :mod:`pickomino.core`; everything else (command line, solver,
bots, web app) is built on it.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pickomino")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

# Errors carry message ids, not words; this gives them English text for programmers.
import pickomino.i18n  # noqa: E402, F401
