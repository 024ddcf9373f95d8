"""Shared by every test: the program speaks English unless a test chooses a language, so
that the words the tests expect do not depend on the locale of whoever runs them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

import pytest
from web.browser import loop_unmarked  # tests/web/browser.py, as the web tests import it

#: The variables the program reads its language from (pickomino.i18n.pick_language).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, the others in their usual order: with ``-n`` the
    workers then end on short tests, instead of one of them starting a game of a minute while
    the other has nothing left to run."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """Every test but the browser's runs (set-up and tear-down too) without the event loop
    mark that the browser, open for the whole run, leaves in the thread: see
    tests/web/browser.py."""
    with loop_unmarked("browser" in getattr(item, "fixturenames", ())):
        return (yield)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: half as many workers again as cores. Many tests spend much of their
    time waiting (for a browser, a server process, a database, a clock), so a third worker
    on two cores fills the cores better: the suite took 9 min 39 s with three, about 12
    with two, on the same quiet 2-core machine."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) * 3 // 2 or 1


@pytest.fixture(autouse=True)
def _english_unless_told(monkeypatch):
    """A locale that names no language of ours (English), restored after the test: the
    command line sets ``LANGUAGE`` for gettext when run in-process (click's CliRunner)."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


# ------------------------------------------------------------ other languages
#: Look-alike letters that make every English word a different string, for catalogues
#: not written yet (pseudo-translation: the words still read, and none is English).
PSEUDO_LETTERS = str.maketrans("aeiouyAEIOUY", "áéíóúýÁÉÍÓÚÝ")
#: Parts of a template that stay as they are: ``{name}``, ``{name!r}``, ``%(prog)s``.
PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[sd])")


def pseudo_translated(template: Any, language: str) -> Any:
    """English with every vowel accented, placeholders untouched (plural forms kept), marked
    with the language's code so that two such languages differ: ``'nl·Sávéd tó {path}'``."""
    if isinstance(template, dict):
        return {form: pseudo_translated(text, language) for form, text in template.items()}
    parts = PLACEHOLDER.split(template)
    accented = (p if PLACEHOLDER.fullmatch(p) else p.translate(PSEUDO_LETTERS) for p in parts)
    return f"{language}·" + "".join(accented)


@pytest.fixture
def words_in(monkeypatch, tmp_path):
    """``words_in("da")``: the words of a language as every face gets them, to compare a
    face's output with. What the language's catalogues lack so far (a whole
    ``terminal.json`` before it is translated, or the words added since) is
    pseudo-translated from English for the test, so that a face that ignores the language,
    or a word that bypasses the catalogue, still shows as English; once the real
    translation exists, the test checks it instead."""
    from pickomino import i18n
    from pickomino.cli import language

    real = i18n.catalogue

    def catalogue(code: str, kind: str) -> dict[str, Any]:
        found = real(code, kind)
        if code == i18n.DEFAULT:
            return found
        english = real(i18n.DEFAULT, kind).items()
        missing = {key: pseudo_translated(text, code) for key, text in english if key not in found}
        return {**missing, **found}

    monkeypatch.setattr(i18n, "catalogue", catalogue)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # click's message files
    language._message_folder.cache_clear()  # made per language, from the catalogue
    yield i18n.Words
    language._message_folder.cache_clear()


@pytest.fixture
def english_of():
    """``english_of(keys, words)``: see :func:`english_fragments`."""
    return english_fragments


def english_fragments(keys: Iterable[str], words: Any) -> set[str]:
    """The English of these messages that a face in ``words``' language must not show:
    each template's text between placeholders (at least four characters, with a letter),
    unless the language's own template holds it too (inside a longer word: Dutch "beste"
    holds "best"), or the language uses it as a word of its own elsewhere (Danish "over")."""
    from pickomino.i18n import Words

    def fragments(template: Any) -> set[str]:
        texts = template.values() if isinstance(template, dict) else [template]
        return {
            part.strip()
            for text in texts
            for part in PLACEHOLDER.split(text)
            if not PLACEHOLDER.fullmatch(part)
            and len(part.strip()) >= 4
            and any(c.isalpha() for c in part)
        }

    def text_of(template: Any) -> str:
        return " ".join(template.values() if isinstance(template, dict) else [template])

    english = Words("en")
    everything = " ".join(text_of(template) for template in words.messages.values())
    found: set[str] = set()
    for key in keys:
        own = text_of(words.messages[key])
        found |= {
            part
            for part in fragments(english.messages[key])
            if part not in own and not re.search(rf"(?<!\w){re.escape(part)}(?!\w)", everything)
        }
    return found
