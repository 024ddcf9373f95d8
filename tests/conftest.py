"""Shared by every test: the program speaks English unless a test chooses a language, so
that the words the tests expect do not depend on the locale of whoever runs them."""

from __future__ import annotations

import pytest

#: The variables the program reads its language from (pickomino.i18n.pick_language).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def _english_unless_told(monkeypatch):
    """A locale that names no language of ours (English), restored after the test: the
    command line sets ``LANGUAGE`` for gettext when run in-process (click's CliRunner)."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
