"""Names as people see them: the confusable skeleton of Unicode's UTS #39, and the
characters a name may not hold because nobody sees them.

Two strings look alike when their skeletons are equal. The skeleton replaces each character
by the prototype Unicode's ``confusables.txt`` gives it (Cyrillic "А" and fullwidth "Ａ" by
"A", "m" by "rn"). The data is the ``confusable-homoglyphs`` package's copy of that file,
which it stores both ways (each character with its prototype, each prototype with its
characters): a prototype is the centre of its group, and a group of two, where the centre
cannot be told, is named by either of its two, the same for both.

>>> skeleton("Аnn") == skeleton("Ann") != skeleton("Anna")  # the first A is Cyrillic
True
>>> skeleton("rn") == skeleton("m")
True
>>> skeleton("ᴀnn") == skeleton("Ann")  # a small capital A: not in confusables.txt
True
>>> [invisible(c) for c in "A\\u2800\\u3164\\ufe0f\\u200b "]
[False, True, True, True, True, False]
"""

from __future__ import annotations

import unicodedata
from functools import cache

import regex  # type: ignore[import-untyped]
from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

#: Characters that are neither format nor ignorable and still draw nothing.
BLANK_SYMBOLS = frozenset("\u2800")  # BRAILLE PATTERN BLANK
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
#: Direction marks the package's data keeps around right-to-left characters.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _prototypes() -> dict[str, str]:
    """Each character that looks like another, with its prototype (its characters
    prototypes too)."""
    groups: dict[str, set[str]] = {}
    for char, homoglyphs in confusables_data.items():
        members = groups.setdefault(char.translate(_MARKS), set())
        members.update(glyph["c"].translate(_MARKS) for glyph in homoglyphs)
    prototypes: dict[str, str] = {}
    for char, (other, *more) in groups.items():
        if len(char) != 1 or more:  # a sequence, or a centre: a prototype
            continue
        if len(other) > 1 or len(groups.get(other, ())) > 1:
            prototypes[char] = other
        else:  # a group of two
            prototypes[char] = min(char, other)
    return {
        char: "".join(prototypes.get(c, c) for c in prototype)
        for char, prototype in prototypes.items()
    }


#: Where Unicode keeps its small capitals (IPA, phonetic extensions, Latin extended-D, …).
_SMALL_CAPITAL_BLOCKS = ((0x0250, 0x02FF), (0x1D00, 0x1DBF), (0xA720, 0xA7FF), (0xAB30, 0xAB6F),
                         (0x1DF00, 0x1DFFF))  # fmt: skip


@cache
def _small_capitals() -> dict[str, str]:
    """Each Latin small capital letter ("ᴀ", "ɴ") with its capital, for those confusables.txt
    leaves out (an audit's "ᴀnn" and "Aɴɴ" passed as other names than "Ann"); the ones it
    names it likens to a letter already ("ɪ" to "i")."""
    table: dict[str, str] = {}
    for first, last in _SMALL_CAPITAL_BLOCKS:
        for code in range(first, last + 1):
            name = unicodedata.name(chr(code), "")
            if not name.startswith("LATIN LETTER SMALL CAPITAL "):
                continue
            try:
                capital = unicodedata.lookup(name.replace("LETTER SMALL CAPITAL", "CAPITAL LETTER"))
            except KeyError:  # no capital of that name (a turned or reversed letter)
                continue
            table[chr(code)] = capital
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, without default-ignorable characters, each character by its
    prototype (a Latin small capital it has none for by its capital's), NFD again."""
    prototypes, capitals = _prototypes(), _small_capitals()

    def prototype(char: str) -> str:
        found = prototypes.get(char, char)  # confusables.txt first: "ɪ" looks like "i"
        if found != char or char not in capitals:
            return found
        capital = capitals[char]  # a small capital it leaves out: as its capital
        return prototypes.get(capital, capital)

    decomposed = unicodedata.normalize("NFD", _IGNORABLE.sub("", text))
    return unicodedata.normalize("NFD", "".join(prototype(c) for c in decomposed))


def invisible(char: str) -> bool:
    """Whether a character shows nothing a reader can tell: a control or format character,
    a separator other than the space, a private or unassigned one, a default-ignorable one
    (variation selectors, Hangul fillers, the combining grapheme joiner), a blank symbol."""
    return (
        (not char.isprintable() and char != " ")
        or _IGNORABLE.match(char) is not None
        or char in BLANK_SYMBOLS
    )
