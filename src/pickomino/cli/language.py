"""The command line in the user's language: ``--lang`` (anywhere on the line) or the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) picks it, English when neither names a
language we have. Help texts come from the terminal catalogue (``cli.<command>``,
``cli.<command>.<option>``, ``cli.option.<option>`` for the shared ones), and click's own
words (``Usage:``, ``Options``, its error lines) through gettext, as click intends, from a
message file made from the same catalogue (``cli.click.*``).
"""

from __future__ import annotations

import contextlib
import gettext
import hashlib
import os
import sys
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import click
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from platformdirs import user_cache_path

from pickomino import __version__
from pickomino.bots import bot_names
from pickomino.core.rules import PRESETS, Rules
from pickomino.i18n import DEFAULT, LANGUAGES, Words, language_of, pick_language

LANG_OPTION = "--lang"
#: click's messages (gettext ids) by our message id; a pair is a singular and its plural.
CLICK_MESSAGES: dict[str, str | tuple[str, str]] = {
    "usage": "Usage:",
    "options": "Options",
    "commands": "Commands",
    "help": "Show this message and exit.",
    "version": "Show the version and exit.",
    "version_line": "%(prog)s, version %(version)s",
    "error": "Error: {message}",
    "try": "Try '{command} {option}' for help.",
    "no_option": "No such option {name!r}.",
    "no_command": "No such command {name!r}.",
    "missing_command": "Missing command.",
    "missing_argument": "Missing argument",
    "missing_option": "Missing option",
    "missing_parameter": "Missing parameter",
    "missing_type": "Missing {param_type}",
    "invalid_for": "Invalid value for {param_hint}: {message}",
    "invalid": "Invalid value: {message}",
    "not_a_number": "{value!r} is not a valid {number_type}.",
    "not_in_range": "{value} is not in the range {range}.",
    "default": "default: {default}",
    "required": "required",
    "aborted": "Aborted!",
    "not_exist": "{name} {filename!r} does not exist.",
    "is_directory": "{name} {filename!r} is a directory.",
    "is_file": "{name} {filename!r} is a file.",
    "not_readable": "{name} {filename!r} is not readable.",
    "not_writable": "{name} {filename!r} is not writable.",
    "file": "file",
    "directory": "directory",
    "path": "path",
    "takes_no_value": "Option {name!r} does not take a value.",
    "not_boolean": "{value!r} is not a valid boolean. Recognized values: {states}",
    "requires": (
        "Option {name!r} requires an argument.",
        "Option {name!r} requires {nargs} arguments.",
    ),
    "extra_args": (
        "Got unexpected extra argument ({args})",
        "Got unexpected extra arguments ({args})",
    ),
    "did_you_mean": ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    "not_choice": ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
}
_PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")  # gettext's form order (Babel)


def language_in(args: Sequence[str]) -> str | None:
    """The value of ``--lang X`` or ``--lang=X`` anywhere on the command line."""
    for index, arg in enumerate(args):
        if arg == LANG_OPTION and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(LANG_OPTION + "="):
            return arg.split("=", 1)[1]
    return None


class LocalisedGroup(click.Group):
    """A group that speaks the user's language: chosen before click reads the line, so
    that help, errors and output all come in it."""

    words: Words = Words(DEFAULT)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(_lang_option())

    def add_command(self, command: click.Command, name: str | None = None) -> None:
        """Every command takes ``--lang`` too (read before parsing; see :func:`language_in`)."""
        command.params.append(_lang_option())
        super().add_command(command, name)

    def main(  # type: ignore[override]  # click's overloads only type standalone_mode
        self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any
    ) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        self.speak(pick_language(language_in(args)))
        try:
            return super().main(args, prog_name=prog_name or "pickomino", **extra)
        except OSError as error:  # none of ours says: the output failing (a full disk)
            why = self.words.system(error)
            where = f"{error.filename}: " if error.filename else ""
            with contextlib.suppress(OSError):
                click.echo(self.words("cli.click.error", message=where + why), err=True)
            sys.exit(1)

    def speak(self, language: str) -> None:
        words = LocalisedGroup.words = Words(language)
        install_click_words(words)  # first: click's words made from here on are in it
        localise(self, "main", words)
        for name, command in self.commands.items():
            localise(command, name, words)
        # click words --version when it is made: made now, it speaks the language
        self.params = [param for param in self.params if param.name != "version"]
        click.version_option(__version__, prog_name="pickomino")(self)


def _lang_option() -> click.Option:
    """``--lang``: read before click parses the line, accepted anywhere on it; one we do not
    have is refused (the run would speak English instead, and say nothing of it)."""
    return click.Option([LANG_OPTION], expose_value=False, metavar="CODE", callback=_known_language)


def _known_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None and language_of(value) is None:
        known = ", ".join(LANGUAGES)
        raise click.BadParameter(words()("cli.lang.unknown", given=value, languages=known))


def words() -> Words:
    """The words of the language this run speaks."""
    return LocalisedGroup.words


#: What ``--rules`` help says it takes, from the presets and the options' own description.
RULES_WORDS = {
    "presets": ", ".join(PRESETS),
    "options": ", ".join(
        f"{o.name}={'|'.join(str(c).lower() for c in o.choices)}" for o in Rules.options()
    ),
}


def localise(command: click.Command, name: str, words: Words) -> None:
    """Help texts and placeholders of one command, from the catalogue (help texts may name
    the ``{bots}``). An option's id is its long flag: ``--new-games-per-minute`` →
    ``cli.serve.new_games_per_minute``, else the shared ``cli.option.…``."""
    bots = bot_names()
    command.help = words(f"cli.{name}", bots=bots)
    command._help_option = None  # click keeps --help as first made (in the last language)
    command.options_metavar = words("cli.usage.options")
    if isinstance(command, click.Group):
        command.subcommand_metavar = words("cli.usage.command")
    for param in command.params:
        if isinstance(param.type, click.Path):  # named when click was imported: in English
            kind = "directory" if param.type.dir_okay and not param.type.file_okay else "file"
            param.type.name = words(f"cli.click.{kind}")
        if isinstance(param, click.Argument):
            param.metavar = words(f"cli.{name}.{param.name}")
            continue
        flag = max(param.opts, key=len).lstrip("-").split("/")[0].replace("-", "_")
        own, shared = f"cli.{name}.{flag}", f"cli.option.{flag}"
        key = own if words.has(own) else shared
        if not words.has(key):  # a hidden option needs no help
            continue
        param.help = words(key, bots=bots, **RULES_WORDS)
        for kind in (f"cli.metavar.{flag}", f"cli.metavar.{param.type.name.split()[0]}"):
            if words.has(kind) and not param.is_flag:  # type: ignore[attr-defined]
                param.metavar = words(kind)
                break


def install_click_words(words: Words) -> None:
    """Make click speak ``words``' language through gettext: its messages, compiled from
    the catalogue into a message file in the user's cache (once per catalogue version)."""
    os.environ["LANGUAGE"] = words.language  # whom gettext looks up
    if words.language == DEFAULT:
        return
    gettext.bindtextdomain(gettext.textdomain(), str(_message_folder(words.language)))


@cache
def _message_folder(language: str) -> Path:
    words = Words(language)
    catalog = Catalog(locale=language, domain="messages")
    tags = {*words.locale.plural_form.tags, "other"}
    order = [tag for tag in _PLURAL_ORDER if tag in tags]
    for key, message in CLICK_MESSAGES.items():
        text = words.messages[f"cli.click.{key}"]
        if isinstance(message, tuple):
            catalog.add(message, tuple(text.get(tag, text["other"]) for tag in order))
        else:
            catalog.add(message, text)
    content = repr(sorted(words.messages.items())).encode()
    version = hashlib.sha256(content).hexdigest()[:12]
    for base in (user_cache_path("pickomino"), Path(tempfile.gettempdir()) / "pickomino"):
        folder = base / "locale" / version
        target = folder / language / "LC_MESSAGES" / "messages.mo"
        try:
            if not target.exists():  # written aside, then moved: never seen half written
                target.parent.mkdir(parents=True, exist_ok=True)
                with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as file:
                    write_mo(file, catalog)
                os.replace(file.name, target)
            return folder
        except OSError:  # an unwritable cache: try the next place
            continue
    return Path(tempfile.gettempdir())  # nowhere to write: click stays English
