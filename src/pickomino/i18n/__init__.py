"""Every word a player sees, in their language: catalogues, and the rules to fill them.

A language is a folder here (``en/``, ``de/``, …) holding one catalogue per kind of face —
``game.json`` (events, refusals, rankings: shared by every face, the browser included),
``terminal.json`` (the terminal game and the command line), ``web.json`` (the browser's
pages) — and ``rules.md`` (the rules). Adding a language is adding such a folder and one
line to :data:`LANGUAGES`.

A catalogue maps a message id to a template with ``{named}`` placeholders, or, where a
number decides the grammar, to its plural forms by CLDR category (``one``, ``other``, …)
chosen by the ``count`` parameter. Plural categories, numbers and lists come from Babel's
CLDR data here, and from ``Intl`` in the browser, so both agree.

>>> words = Words("en")
>>> words("worms", count=1), words("worms", count=3), words.percent(0.256, 1)
('1 worm', '3 worms', '25.6%')
"""

from __future__ import annotations

import decimal
import errno
import json
import math
import os
import re
import socket
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from pickomino.core import errors
from pickomino.files import NotAFileError

#: The languages there are catalogues for, by code, each named in itself. Register a new
#: language here (after adding its folder).
LANGUAGES = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "nl": "Nederlands",
    "fi": "Suomi",
    "da": "Dansk",
}
DEFAULT = "en"
#: The kinds of catalogue, one per kind of face; ``game`` is shared by all.
KINDS = ("game", "terminal", "web")

#: How a list is joined (CLDR): ``a, b, and c`` or ``a, b, or c``.
ListStyle = Literal["standard", "or"]
_FIELD = re.compile(r"\{(\w+)\}")
#: A name lookup's errors (``socket.gaierror``) by name: their numbers are not ``errno``'s.
_LOOKUP_ERRORS = {socket.EAI_NONAME: "EAI_NONAME", socket.EAI_AGAIN: "EAI_AGAIN"}
#: Parameters that name a message of a family: ``waiting="keep"`` → ``waiting.keep``.
FAMILIES = {"waiting": "waiting", "reason": "bust"}


def pick_language(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``requested`` (``--lang``) if given, else the first of the
    POSIX locale variables that names one we have (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``); English when nothing matches, never an error.

    >>> pick_language(None, {"LANG": "fi_FI.UTF-8"}), pick_language("nl-BE", {})
    ('fi', 'nl')
    >>> pick_language("tlh", {"LANG": "C.UTF-8"})
    'en'
    """
    environ = os.environ if environ is None else environ
    candidates = [requested] if requested else []
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        candidates.extend(environ.get(variable, "").split(":"))
    for candidate in candidates:
        code = language_of(candidate)
        if code is not None:
            return code
        if requested and candidate == requested:  # an unknown --lang: English (then refused)
            return DEFAULT
    return DEFAULT


def language_of(tag: str | None) -> str | None:
    """The language we have that a tag or locale names (``nl-BE``, ``fi_FI.UTF-8``), or
    ``None``.

    >>> language_of("fi_FI.UTF-8"), language_of("tlh")
    ('fi', None)
    """
    code = re.split(r"[-_.@]", (tag or "").strip().lower())[0]
    return code if code in LANGUAGES else None


@cache
def catalogue(language: str, kind: str) -> dict[str, Any]:
    """One catalogue as stored (message id → template or plural forms); empty if the
    language has none of that kind yet."""
    path = files("pickomino.i18n") / language / f"{kind}.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def rules_text(language: str) -> str:
    """The rules in Markdown, with an anchor per rule id."""
    return (files("pickomino.i18n") / language / "rules.md").read_text(encoding="utf-8")


class Words:
    """The messages of one language for the Python faces (game + terminal catalogues),
    with numbers, plurals and lists formatted for that language. Unknown language codes
    fall back to English, and so does a message a catalogue lacks (the tests see that
    none does)."""

    def __init__(self, language: str = DEFAULT, kinds: Sequence[str] = ("game", "terminal")):
        self.language = language if language in LANGUAGES else DEFAULT
        self.locale = Locale.parse(self.language)
        self.messages: dict[str, Any] = {}
        for language in dict.fromkeys((DEFAULT, self.language)):  # English under any gap
            for kind in kinds:
                self.messages.update(catalogue(language, kind))

    def __call__(self, key: str, **params: Any) -> str:
        """The message ``key`` with its placeholders filled (see :meth:`value`)."""
        template = self.messages[key]
        if isinstance(template, dict):
            template = template.get(self.plural_category(params["count"]), template["other"])
        return _FIELD.sub(lambda match: self.value(match[1], params[match[1]]), template)

    def has(self, key: str) -> bool:
        return key in self.messages

    def plural_category(self, count: int | float) -> str:
        return self.locale.plural_form(abs(count))

    # ------------------------------------------------------------ parameters
    def value(self, name: str, value: Any) -> str:
        """A parameter in words. By name: ``waiting`` is a phase of the game, ``reason`` a
        bust's reason (both named by a message of their family), ``action``/``choices``
        are action names; by type: an error is described, a number formatted, a list
        joined as this language joins lists."""
        if isinstance(value, errors.PickominoError):
            return self.error(value)
        if isinstance(value, OSError):
            return self.system(value)
        if name in FAMILIES:
            return self(f"{FAMILIES[name]}.{value}")
        if name in ("action", "choices"):
            actions = [value] if isinstance(value, str) else value
            return self.join([self.action(a) for a in actions], "or")
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int):
            return self.number(value)
        if isinstance(value, list | tuple):
            return self.join([self.value(name, item) for item in value])
        return str(value)

    def action(self, name: str) -> str:
        """``"take 26"`` → ``"take 26"`` / ``"26 nehmen"`` …; a name that is no action as is."""
        verb, _, what = name.partition(" ")
        key = f"action.{verb}"
        if not self.has(key):
            return name
        return self(key, face=what, tile=what) if what else self(key)

    def error(self, error: errors.PickominoError) -> str:
        key = f"error.{error.code}"
        if not self.has(key):
            return self("error.unknown", code=error.code)
        return self(key, **error.params)

    def system(self, error: OSError) -> str:
        """The operating system's reason (a full disk, a port in use) in this language, by
        the error's name (``ENOSPC``); the system's own text (English on most machines)
        for one the catalogues do not name.

        >>> Words("de").system(OSError(errno.ENOSPC, "No space left on device"))
        'Auf dem Gerät ist kein Speicherplatz mehr frei'
        """
        if isinstance(error, NotAFileError):  # a device, a pipe or a socket
            return self("save.not_a_file")
        if isinstance(error, socket.gaierror):
            name = _LOOKUP_ERRORS.get(error.errno or 0)
        else:
            name = errno.errorcode.get(error.errno or 0)
        if name and self.has(f"system.{name}"):
            return self(f"system.{name}")
        return error.strerror or str(error)

    def reason(self, error: Exception) -> str:
        """Why something failed, in words: one of our refusals, or the system's reason, or
        (for anything else) the error's own text."""
        if isinstance(error, errors.PickominoError | OSError):
            return self.value("why", error)
        return str(error)

    # --------------------------------------------------------------- numbers
    def number(self, value: int | float, decimals: int = 0) -> str:
        """``value`` as the language writes numbers, however long (a seed of 30 digits
        passes the 28 digits of Python's default decimal precision)."""
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
        with decimal.localcontext() as context:
            digits = len(str(int(value))) if math.isfinite(value) else 0
            context.prec = max(context.prec, digits + decimals + 2)
            return format_decimal(value, format=pattern, locale=self.locale)

    def signed(self, value: float, decimals: int = 2) -> str:
        """``+0.25`` / ``−1.50``: the sign always shown (a gain or a loss of worms)."""
        rounded = round(value, decimals)
        return ("−" if rounded < 0 else "+") + self.number(abs(rounded), decimals)

    def percent(self, value: float, decimals: int = 0) -> str:
        """The language's own percent pattern (``45 %`` in Finnish, ``45%`` in English)
        with ``decimals`` digits after the decimal sign."""
        pattern = self.locale.percent_formats[None].pattern
        last = pattern.rindex("0")
        pattern = (
            pattern[: last + 1] + ("." + "0" * decimals if decimals else "") + pattern[last + 1 :]
        )
        return format_percent(value, format=pattern, locale=self.locale)

    def join(self, items: Sequence[str], style: ListStyle = "standard") -> str:
        if not items:
            return self("list.none")
        return format_list(list(items), style=style, locale=self.locale)


@cache
def words(language: str = DEFAULT) -> Words:
    """The Python faces' words of a language (cached: catalogues are read once)."""
    return Words(language)


def describe_in_english(error: errors.PickominoError) -> str:
    """An engine error in English, with the rule that forbids it: ``str(error)``."""
    text = words(DEFAULT).error(error)
    return f"{error.rule}: {text}" if error.rule else text
