"""What the commands read from the line, checked before any work is done: rule presets and
options, files to write later (a record, a plot), bot names; and the options several
commands share."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from pickomino.bots import BOTS, DIFFICULTIES, bot_names
from pickomino.cli.language import words
from pickomino.core import PickominoError, Rules
from pickomino.files import write_problem, write_whole
from pickomino.i18n.text import refusal

#: The optional parts of the install (pyproject's extras) and the libraries each needs to
#: start (psycopg, in ``web`` too, only for a PostgreSQL URL, which says so itself).
EXTRAS = {
    "web": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "openskill", "markdown_it", "regex"),
    "terminal": ("textual",),
    "plot": ("matplotlib",),
}


def need_extra(extra: str, what: str) -> None:
    """Refuse ``what`` (a command or option) with the install command that brings what it
    needs, when a light install left that part out: a clear line instead of a traceback."""
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise click.UsageError(words()("cli.extra.missing", what=what, extra=extra)) from None


def fail(
    error: PickominoError, param: click.Parameter | None, ctx: click.Context | None
) -> NoReturn:
    """A refusal of the engine as click's usage error, in the user's language."""
    raise click.BadParameter(refusal(error, words()), ctx, param)


class Number(click.FloatRange):
    """A number in a range, that is a number: click's own lets ``nan`` through (no
    comparison holds for it) and ``inf`` through a range open above (``--request-timeout
    nan`` made every request fail)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(words()("cli.number.not_finite", value=str(value)), param, ctx)
        return number


class RulesParam(click.ParamType):
    """``--rules official|short|bga`` or options such as ``short,lower_tile=any``."""

    name = "rules"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, Rules):
            return value
        try:
            return Rules.parse(str(value))
        except PickominoError as error:
            fail(error, param, ctx)


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, in the user's words, or None (see
    :func:`pickomino.files.write_problem`)."""
    problem = write_problem(path)
    if problem is None:
        return None
    what, where, why = problem
    return words()(f"cli.file.{what}", path=str(where), why=why)


class OutputFile(click.ParamType):
    """A file the command writes later (a record, a plot), checked when the command starts,
    so that no game or computation is lost to a path that cannot be written.

    With ``formats`` (a function giving the accepted endings), another ending is refused
    with the list, and a name without one gets the first ending (the command says the name
    it wrote)."""

    name = "file"

    def __init__(self, formats: Callable[[], list[str]] | None = None) -> None:
        self.formats = formats

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        path = Path(str(value))
        if _not_a_file(path):  # /dev/stdout refused as named, not as /dev/stdout.png
            self.fail(unwritable(path) or "", param, ctx)
        if self.formats and not path.is_dir():
            formats = self.formats()
            if not path.suffix:
                path = path.with_name(f"{path.name}.{formats[0]}")
            elif path.suffix[1:].lower() not in formats:
                endings = words().join(["." + ending for ending in formats], "or")
                self.fail(
                    words()("cli.file.ending", ending=path.suffix, endings=endings), param, ctx
                )
        problem = unwritable(path)
        if problem:
            self.fail(problem, param, ctx)
        return path


def _not_a_file(path: Path) -> bool:
    """Whether ``path`` is there but neither a file nor a folder (a device, a pipe); asking
    about a name can fail (too long a name, a loop of links): then :func:`unwritable` says."""
    try:
        return path.exists() and not path.is_dir() and not path.is_file()
    except OSError:
        return False


#: Endings matplotlib offers that need a program of their own (PGF: LaTeX, found missing
#: only after the work).
NEEDS_A_PROGRAM = frozenset({"pgf"})


def image_formats() -> list[str]:
    """The file endings matplotlib can draw to by itself, PNG first."""
    need_extra("plot", "--plot")
    from matplotlib.backend_bases import FigureCanvasBase

    endings = set(FigureCanvasBase.get_supported_filetypes()) - NEEDS_A_PROGRAM
    return sorted(endings, key=lambda ending: ending != "png")


def draw_plot(draw: Callable[[str], None], path: Path, err: bool = False) -> None:
    """Draw a plot with ``draw(path)`` and say where it went (on standard error with
    ``err``: after JSON on standard output); a disk that fills up, or an ending that needs
    what is missing (.pgf without LaTeX), is a clear error."""
    try:
        draw(str(path))
    except (OSError, RuntimeError) as error:
        raise click.ClickException(
            words()("cli.odds.plot_failed", path=str(path), why=words().reason(error))
        ) from None
    click.echo(words()("cli.odds.plotted", path=str(path)), err=err)


def write_output(path: Path, text: str) -> None:
    """``text`` in ``path``, whole or not at all: a write that fails (a full disk) is a clear
    error and leaves a file that was there as it was."""
    try:
        write_whole(path, text)
    except OSError as error:
        raise click.ClickException(
            words()("cli.file.unwritable", path=str(path), why=error)
        ) from None


def check_bots(names: list[str], hint: str) -> None:
    if not names:
        raise click.BadParameter(words()("cli.no_bots", bots=bot_names()), param_hint=hint)
    unknown = [name for name in names if name not in BOTS and name not in DIFFICULTIES]
    if unknown:
        given = ", ".join(unknown)
        raise click.BadParameter(
            words()("cli.unknown_bots", given=given, bots=bot_names()), param_hint=hint
        )


def bot_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def percent(p: float) -> str:
    """A share in a table column, two decimals, 7 characters wide."""
    return f"{words().percent(p, 2):>7}"


# ------------------------------------------------------------ shared options
RULES_OPTION = click.option("--rules", type=RulesParam(), default="official", show_default=True)
JSON_OPTION = click.option("--json", "as_json", is_flag=True)


def _players_is_now_seats(ctx: click.Context, param: click.Parameter, value: object) -> None:
    if value is not None:
        raise click.UsageError(words()("cli.players_is_seats", command=ctx.info_name or ""), ctx)


def simulation_options(command: Callable[..., None]) -> Callable[..., None]:
    """--seats, --seed, --jobs, --cluster, --rules, --json and --progress, shared by
    tournament and compare."""
    for option in reversed(
        (
            click.option("--seats", type=click.IntRange(2, 7), default=2, show_default=True),
            # the old name: refused with the new one, as 'play' gives --players another meaning
            click.option(
                "--players", hidden=True, expose_value=False, callback=_players_is_now_seats
            ),
            click.option("--seed", type=int, default=0, show_default=True),
            click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True),
            click.option("--cluster"),
            RULES_OPTION,
            JSON_OPTION,
            click.option("--progress/--no-progress", default=None),
        )
    ):
        command = option(command)
    return command
