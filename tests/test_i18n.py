"""The catalogues: every language complete, no word missing or unused, and every event,
bust reason, refusal and ranking line rendered in every language.

Checked against the code, not against a list kept here: the message ids the code uses are
read from its source (Python and the browser's files), the event types and bust reasons
from the engine, and the refusal codes from every ``IllegalAction``/``BadInput``/
``RecordError`` the source raises.
"""

from __future__ import annotations

import errno
import json
import re
import socket
from importlib.resources import files
from pathlib import Path

import pytest
from babel import Locale

from pickomino.bots import BOTS, DIFFICULTIES
from pickomino.core import Game, GameState, Phase
from pickomino.core.events import BUST_RULES, EVENT_TYPES
from pickomino.core.rules import PRESETS
from pickomino.i18n import KINDS, LANGUAGES, Words, catalogue, pick_language, rules_text
from pickomino.i18n.text import describe_event, log_lines, ranking_lines, render_state

SRC = Path(__file__).resolve().parents[1] / "src" / "pickomino"
OTHERS = [code for code in LANGUAGES if code != "en"]
FIELD = re.compile(r"\{(\w+)\}")
#: A refusal made in a page's script (the offline app's engine that did not start).
SCRIPT_REFUSAL = re.compile(r"\{ id: \"([a-z_]+)\", rule: ")
#: Families of message ids built from data (``event.{type}``), and where their members come
#: from: each family in English must be exactly these.
ERROR_CALL = re.compile(
    r"(?:IllegalAction|BadInput|RecordError|BustWarning|Refused|SheetRefusal|SoloRefusal|BuildError|SlowerStart|BadMessage"
    r"|refused"
    r"|address_limit)"
    r"\(\s*(?:[\w.\"]+,\s*)??\"([a-z_]+)\""
)


def placeholders(template: object) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {name for text in texts for name in FIELD.findall(str(text))}


def source_files() -> list[Path]:
    return [p for p in SRC.rglob("*") if p.suffix in (".py", ".js", ".html") and p.is_file()]


def raised_codes() -> set[str]:
    """Every refusal code the source raises."""
    codes = set()
    for path in source_files():
        pattern = ERROR_CALL if path.suffix == ".py" else SCRIPT_REFUSAL
        codes.update(pattern.findall(path.read_text(encoding="utf-8")))
    return codes


# ------------------------------------------------------------ completeness
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", OTHERS)
def test_every_catalogue_has_the_keys_and_placeholders_of_english(language, kind):
    english, other = catalogue("en", kind), catalogue(language, kind)
    assert set(other) == set(english), (
        f"{language}/{kind}.json: missing {sorted(set(english) - set(other))}, "
        f"extra {sorted(set(other) - set(english))}"
    )
    for key, template in english.items():
        assert placeholders(other[key]) == placeholders(template), f"{language}: {key}"
        assert isinstance(other[key], dict) == isinstance(template, dict), f"{language}: {key}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_plural_forms_are_the_languages_own(language, kind):
    """A plural message has ``other`` and only categories the language has (CLDR)."""
    allowed = {*Locale.parse(language).plural_form.tags, "other"}
    for key, template in catalogue(language, kind).items():
        if isinstance(template, dict):
            assert "other" in template and set(template) <= allowed, f"{language}: {key}"
            assert "{count}" in "".join(template.values()) or key.startswith("cli"), key


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_catalogues_are_valid_json_files_of_text(language):
    for kind in KINDS:
        path = files("pickomino.i18n") / language / f"{kind}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            texts = value.values() if isinstance(value, dict) else [value]
            assert all(isinstance(t, str) and t.strip() for t in texts), f"{language}: {key}"


#: In French a space sits before « : ; ? ! » » and after « « »; one the line may break at
#: leaves the mark alone at the start of a line.
BREAKABLE_FRENCH_SPACE = re.compile(r"[ \t\n](?=[:;?!»])|«[ \t\n]")


def test_french_marks_are_held_by_a_non_breaking_space():
    """Issue 24, item 15: about 125 plain spaces before « : ; ? ! » » and after « « » sat
    next to some 240 non-breaking ones (U+00A0), and a line could break before the mark."""
    messages = [
        text
        for kind in KINDS
        for value in catalogue("fr", kind).values()
        for text in (value.values() if isinstance(value, dict) else [value])
    ]
    slips = [
        text[max(0, match.start() - 20) : match.end() + 5]
        for text in [*messages, rules_text("fr")]
        for match in BREAKABLE_FRENCH_SPACE.finditer(text)
    ]
    assert slips == []


# --------------------------------------------------------------- families
def family(kind: str, prefix: str) -> set[str]:
    return {key[len(prefix) :] for key in catalogue("en", kind) if key.startswith(prefix)}


def test_event_and_bust_messages_are_exactly_the_engines():
    types = set(EVENT_TYPES.values())
    reported = {f"{kind}_reported" for kind in ("took", "stole", "bust")}
    assert family("game", "event.") == types | reported
    assert family("game", "bust.") == set(BUST_RULES)
    assert family("game", "waiting.") == {phase.value for phase in Phase}
    assert family("game", "bot.") == set(BOTS) | set(DIFFICULTIES)
    assert family("game", "preset.") == set(PRESETS)


def test_every_refusal_the_code_raises_has_words_and_no_words_are_for_nothing():
    raised = raised_codes()
    assert raised, "the source scan found no refusal at all"
    known = family("game", "error.") - {"unknown"}
    assert raised - known == set(), f"refusals without words: {sorted(raised - known)}"
    assert known - raised == set(), f"words for refusals never raised: {sorted(known - raised)}"


def test_the_systems_reasons_are_named_by_real_error_names_and_the_rest_are_the_systems():
    """The operating system's reasons are worded by their errno name (``system.ENOSPC``): a
    name that is no error would never be said; an error without words keeps the system's
    text, and a failed name lookup is named by its own numbers (not errno's)."""
    lookups = {"EAI_NONAME", "EAI_AGAIN"}
    assert family("terminal", "system.") - lookups <= set(errno.errorcode.values())
    german = Words("de")
    full = OSError(errno.ENOSPC, "No space left on device")
    assert german.reason(full) == german("system.ENOSPC") != "No space left on device"
    unnamed = OSError(errno.EXDEV, "Invalid cross-device link")
    assert german.reason(unnamed) == "Invalid cross-device link"
    with pytest.raises(socket.gaierror) as lookup:
        socket.getaddrinfo("no-such-host.invalid", 80)  # reserved: never a host (RFC 2606)
    assert german.reason(lookup.value) in (german("system.EAI_NONAME"), german("system.EAI_AGAIN"))
    assert german.reason(ValueError("embedded null byte")) == "embedded null byte"


def test_no_message_is_unused():
    """Every id outside the families above is written somewhere in the source."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in source_files())
    families = ("event.", "bust.", "waiting.", "bot.", "preset.", "error.", "action.", "cli.")
    families += ("option.",)  # named by the rule options' description: the test below
    families += ("system.",)  # named by the error's errno: the test below
    for kind in KINDS:
        for key in catalogue("en", kind):
            if key.startswith(families):
                continue
            assert f'"{key}"' in text or f"'{key}'" in text or f"`{key}`" in text, (
                f"{kind}: {key} is not used"
            )


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_rule_option_and_choice_has_words_and_no_words_are_left_over(language):
    """The rules editor names each option (and each choice that is not yes or no) by the
    catalogue key its description gives; no such words stay behind for an option gone."""
    from pickomino.core import Rules

    wanted = set()
    for option in Rules.options():
        wanted.add(option.key)
        if not option.is_switch:
            wanted.update(f"{option.key}.{choice}" for choice in option.choices)
    found = {key for key in catalogue(language, "game") if key.startswith("option.")}
    assert found == wanted


# ------------------------------------------------------- rendering, all languages
def finished_game() -> Game:
    """A whole game of bots (every kind of event but a steal is likely; steals below)."""
    from pickomino.bots import make_bot
    from pickomino.table import SeededDice, advance

    game = Game(["Ann", "Bob", "Cy"])
    advance(game, [make_bot("simple"), make_bot("random", 1), make_bot("expected")], SeededDice(4))
    return game


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_event_and_ranking_renders_in_every_language(language):
    words = Words(language)
    game = finished_game()
    lines = log_lines(game.history, game.seats, words)
    assert len(lines) > 50 and all("{" not in line and line.strip() for line in lines)
    state = GameState.from_position([[22, 27], [25]])
    events = [*state.copy().report_turn("steal 25"), *state.copy().report_turn(None)]
    for event in events:
        assert describe_event(event, ["Ann", "Bob"], words).strip()
    # ties: shared (nobody holds a tile) and broken by the highest tile (R20)
    for stacks in ([[], []], [[25], [26]]):
        lines = ranking_lines(GameState.from_position(stacks).ranking(), ["Ann", "Bob"], words)
        assert len(lines) == 3 and all("{" not in line for line in lines)
    assert "{" not in render_state(game.state, game.seats, words)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_refusal_renders_in_every_language(language):
    words = Words(language)
    for key, template in catalogue("en", "game").items():
        if key.startswith("error."):
            params = {name: _sample(name) for name in placeholders(template)}
            text = words(key, **params)
            assert text.strip() and "{" not in text, f"{language}: {key}"


def _sample(name: str) -> object:
    return {
        "waiting": "keep", "reason": "no_worm", "action": "take 26",
        "choices": ["steal 27", "take 26"], "tops": [27, 30], "why": "…",
    }.get(name, 3)  # fmt: skip


# ---------------------------------------------------------------- choosing
@pytest.mark.parametrize(
    ("requested", "environ", "expected"),
    [
        (None, {"LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        (None, {"LANGUAGE": "xx:nl", "LANG": "C"}, "nl"),
        ("da", {"LANG": "fi_FI.UTF-8"}, "da"),
        ("FI", {}, "fi"),
        ("klingon", {"LANG": "de_DE.UTF-8"}, "en"),  # an unknown --lang: English, no error
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_the_language_comes_from_the_option_then_the_locale_then_english(
    requested, environ, expected
):
    assert pick_language(requested, environ) == expected


def test_an_unknown_language_speaks_english():
    assert Words("tlh").language == "en"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_rules_exist_in_every_language_with_every_rule_id(language):
    english_ids = re.findall(r'<a id="([RC]\d+[a-c]?)"></a>', rules_text("en"))
    assert len(english_ids) > 30
    assert re.findall(r'<a id="([RC]\d+[a-c]?)"></a>', rules_text(language)) == english_ids
