"""The command line in the user's language (issue 15): ``--lang`` anywhere on the line, else
the locale; help, output, refusals and click's own words all from the catalogue.

Expected texts come from the catalogue (``words_in``, see conftest), never written here, so
these tests hold whatever a translation says; a terminal catalogue not translated yet is
pseudo-translated, so English that slips past the catalogue still shows.
"""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from pickomino import __version__
from pickomino.bots import bot_names
from pickomino.cli import main
from pickomino.cli.language import RULES_WORDS, localise
from pickomino.core import PickominoError, Rules
from pickomino.i18n import LANGUAGES, Words, catalogue
from pickomino.i18n.text import refusal
from pickomino.solver.odds import fresh_turn_odds

#: click's own words, by our message id (see pickomino.cli.language.CLICK_MESSAGES).
CLICK_WORDS = ("usage", "options", "commands", "help")


def invoke(*args: str, env: dict[str, str] | None = None):
    """``pickomino ARGS`` in this process, in a locale of ``env`` (the command sets
    ``LANGUAGE`` for click's gettext; the runner puts back what it is given)."""
    env = {"LANGUAGE": None, **(env or {})}
    return CliRunner().invoke(main, list(args), env=env, prog_name="pickomino")


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (help is wrapped)."""
    return " ".join(text.split())


def click_word(words, key: str) -> str:
    return words.messages[f"cli.click.{key}"]


# ------------------------------------------------------------------ output
def test_odds_speaks_dutch_with_lang(words_in, english_of):
    dutch = words_in("nl")
    result = invoke("--lang", "nl", "odds")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    odds = fresh_turn_odds(0.0)
    assert lines[0] == dutch("cli.odds.header")
    for line, (tile, p) in zip(lines[1:-1], odds["at_least"].items(), strict=True):
        # numbers in the Dutch way: a decimal comma
        assert line.split() == [tile, dutch.percent(p, 2), dutch.percent(odds["exactly"][tile], 2)]
    assert lines[-1] == dutch(
        "cli.odds.summary",
        stake=dutch.number(0),
        worms=dutch.number(odds["expected_worms"], 4),
        bust=dutch.percent(odds["bust"], 2),
    )
    english = english_of(["cli.odds.header", "cli.odds.summary"], dutch)
    assert english and not [text for text in english if text in result.output]


def test_the_dutch_odds_words_are_translated():
    """Issue 15: ``pickomino --lang nl odds`` has no English left (the real catalogue)."""
    english, dutch = catalogue("en", "terminal"), catalogue("nl", "terminal")
    untranslated = [
        key
        for key in english
        if key.startswith("cli.odds") and dutch.get(key, english[key]) == english[key]
    ]
    assert not untranslated


def test_a_refusal_in_dutch(words_in):
    dutch = words_in("nl")
    with pytest.raises(PickominoError) as refused:
        Rules.parse("house")
    result = invoke("--lang", "nl", "selfplay", "--rules", "house")
    assert result.exit_code == 2
    why = refusal(refused.value, dutch)
    invalid = click_word(dutch, "invalid_for").format(param_hint="'--rules'", message=why)
    assert click_word(dutch, "error").format(message=invalid) in result.output.splitlines()
    assert refusal(refused.value, words_in("en")) not in result.output


def test_dutch_from_the_shell():
    """The same as a user runs it (a process of its own, the real catalogues): Dutch
    numbers in the odds, the engine's refusal in Dutch."""
    dutch = Words("nl")
    odds = subprocess.run(
        [sys.executable, "-m", "pickomino", "--lang", "nl", "odds"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert odds.returncode == 0, odds.stderr
    worms = dutch.number(fresh_turn_odds(0.0)["expected_worms"], 4)
    assert odds.stdout.splitlines()[0] == dutch("cli.odds.header") and "," in worms
    assert worms in odds.stdout.splitlines()[-1]
    refused = subprocess.run(
        [sys.executable, "-m", "pickomino", "selfplay", "--rules", "house"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "LANG": "nl_NL.UTF-8"},
    )  # fmt: skip
    with pytest.raises(PickominoError) as error:
        Rules.parse("house")
    assert refused.returncode == 2 and refusal(error.value, dutch) in refused.stderr
    assert refusal(error.value, Words("en")) not in refused.stderr


def test_an_error_of_the_program_in_dutch(words_in, tmp_path):
    """Not only the engine's refusals: the command's own messages come from the catalogue."""
    dutch = words_in("nl")
    result = invoke("--lang", "nl", "selfplay", "--save", str(tmp_path))
    assert result.exit_code == 2
    assert flat(dutch("cli.file.is_folder", path=str(tmp_path))) in flat(result.output)


# -------------------------------------------------------------------- help
def test_help_follows_the_locale(words_in):
    dutch = words_in("nl")
    result = invoke("--help", env={"LANG": "nl_NL.UTF-8"})
    assert result.exit_code == 0
    assert flat(dutch("cli.main")) in flat(result.output)
    assert flat(dutch("cli.option.lang")) in flat(result.output)
    rows = dict(
        line.split(maxsplit=1) for line in result.output.split(click_word(dutch, "commands"))[-1]
        .splitlines() if line.strip() and not line.endswith(":")
    )  # fmt: skip
    assert set(rows) == set(main.commands)
    for name, shown in rows.items():  # the start of the command's help, cut short
        assert flat(dutch(f"cli.{name}", bots=bot_names())).startswith(shown.removesuffix("...")), (
            name
        )


def test_a_command_s_help_follows_the_locale(words_in):
    dutch = words_in("nl")
    shown = flat(invoke("selfplay", "--help", env={"LC_ALL": "nl_NL.UTF-8"}).output)
    for key in ("cli.selfplay", "cli.selfplay.bots", "cli.selfplay.quiet", "cli.option.rules"):
        assert flat(dutch(key, bots=bot_names(), **RULES_WORDS)) in shown, key


def test_click_s_own_words_come_from_the_catalogue(words_in, english_of):
    finnish = words_in("fi")
    shown = invoke("--lang", "fi", "odds", "--help").output
    lines = shown.splitlines()
    assert lines[0].startswith(click_word(finnish, "usage") + " pickomino odds ")
    assert click_word(finnish, "options") + ":" in lines
    assert flat(click_word(finnish, "help")) in flat(shown)
    english = english_of([f"cli.click.{key}" for key in CLICK_WORDS], finnish)
    assert english and not [text for text in english if text in shown]


def test_version_speaks_the_language(words_in):
    finnish = words_in("fi")
    line = click_word(finnish, "version_line") % {"prog": "pickomino", "version": __version__}
    assert invoke("--lang", "fi", "--version").output == line + "\n"
    helped = invoke("--help", env={"LANG": "fi_FI.UTF-8"}).output
    assert flat(click_word(finnish, "version")) in flat(helped)
    assert invoke("--version").output == f"pickomino, version {__version__}\n"


def test_click_s_error_lines_come_from_the_catalogue(words_in):
    danish = words_in("da")
    result = invoke("--lang", "da", "odds", "--stake", "many")
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0].startswith(click_word(danish, "usage") + " pickomino odds ")
    assert lines[1] == click_word(danish, "try").format(command="pickomino odds", option="--help")
    assert lines[-1].startswith(click_word(danish, "error").format(message="")[:4])


@pytest.mark.parametrize(("args", "given"), [(("--lang", "xx"), "xx"), (("--lang=tlh",), "tlh")])
def test_an_unknown_language_is_refused_in_english_naming_ours(words_in, args, given):
    """An audit: ``--lang dee`` spoke English and said nothing of it (a typo unseen)."""
    english = words_in("en")
    result = invoke(*args, "odds")
    ours = ", ".join(LANGUAGES)
    assert result.exit_code == 2
    assert english("cli.lang.unknown", given=given, languages=ours) in flat(result.output)
    assert "en, de, fr, nl, fi, da" in result.output  # every language we have
    helped = invoke(*args, "--help")  # help asked for is shown, in English
    assert helped.output.startswith("Usage: pickomino ")
    assert "Show this message and exit." in helped.output
    assert flat(english("cli.main")) in flat(helped.output)


def test_lang_comes_before_the_locale_and_may_stand_anywhere(words_in):
    german, danish = words_in("de"), words_in("da")
    for args in (("--lang", "de", "odds"), ("odds", "--lang", "de"), ("odds", "--lang=de")):
        result = invoke(*args, env={"LANG": "da_DK.UTF-8"})
        assert result.output.splitlines()[0] == german("cli.odds.header"), args
    result = invoke("odds", env={"LANG": "da_DK.UTF-8"})
    assert result.output.splitlines()[0] == danish("cli.odds.header")


def test_every_option_a_person_can_give_has_its_help(words_in):
    """Each command's every visible option shows a help text in ``--help`` (``--db-pool``
    had none); the catalogues' keys are the same in every language (test_i18n)."""
    english = words_in("en")
    for name, command in main.commands.items():
        localise(command, name, english)
        bare = [
            param.opts
            for param in command.params
            if isinstance(param, click.Option) and not param.hidden and not param.help
        ]
        assert bare == [], name


def test_a_missing_file_argument_is_said_in_the_language_all_through(words_in, tmp_path):
    """An audit: ``--lang de show nothere.json`` kept click's English "File" in the middle
    of German ("'PROTOKOLL': File 'nothere.json' gibt es nicht"): an argument's type is
    named in the language too, as an option's is."""
    german = words_in("de")
    missing = str(tmp_path / "nothere.json")
    result = invoke("--lang", "de", "show", missing)
    assert result.exit_code == 2, result.output
    assert f"{german('cli.click.file')} '{missing}'" in result.output
    assert "File" not in result.output


def test_the_systems_reason_is_said_in_the_language_too(words_in, tmp_path):
    """The operating system's reasons stayed in English inside translated lines ("kann …
    nicht schreiben: File name too long"): the command line words them too, and so does
    the terminal game's ``save``."""
    german = words_in("de")
    result = invoke("--lang", "de", "selfplay", "--save", str(tmp_path / ("a" * 300 + ".json")))
    assert result.exit_code == 2, result.output
    assert f": {german('system.ENAMETOOLONG')}" in flat(result.output)
    assert "File name too long" not in result.output
    finnish = words_in("fi")
    played = CliRunner().invoke(
        main,
        ["--lang", "fi", "play", "--plain", "--players", "Ann,Bob",
         "--save", str(tmp_path / "peli.json")],
        input="save " + str(tmp_path / ("b" * 300 + ".json")) + "\nquit\n",
        env={"LANGUAGE": None},
    )  # fmt: skip
    assert f": {finnish('system.ENAMETOOLONG')}" in played.output, played.output
