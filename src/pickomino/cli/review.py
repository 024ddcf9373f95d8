"""``pickomino analyse``: a saved game reviewed move by move (or a kept score sheet, as far
as one can be), as text, JSON or a chart of everyone's win chance; several games added up
per player. The files are only read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pickomino.cli.language import words
from pickomino.cli.params import (
    JSON_OPTION,
    OutputFile,
    draw_plot,
    image_formats,
    write_output,
)
from pickomino.core import Game, GameRecord, RecordError
from pickomino.core.record import check_names_for_terminal
from pickomino.files import read_whole
from pickomino.table.sheet import FORMAT as SHEET_FORMAT
from pickomino.table.sheet import ScoreSheet


@click.command()
@click.argument(
    "record", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--seat", default=None)
@JSON_OPTION
@click.option("--plot", type=OutputFile(image_formats))
@click.option("--annotate", type=OutputFile(lambda: ["json"]))
def analyse(
    record: tuple[Path, ...], seat: str | None, as_json: bool, plot: Path | None,
    annotate: Path | None,
) -> None:  # fmt: skip
    """Analyse a saved game RECORD move by move (or a score sheet, as far as it can be);
    several records: each player's totals across them."""
    from pickomino.analysis import review, review_sheet
    from pickomino.analysis.chart import CHART_WORDS, plot_chances
    from pickomino.i18n.review import review_lines, sheet_review_lines

    w = words()
    given = [path.resolve() for path in record]
    twice = next(
        (path for path, real in zip(record, given, strict=True) if given.count(real) > 1), None
    )
    if twice is not None:  # an audit: the same game counted twice in the totals
        raise click.UsageError(w("cli.analyse.twice", path=str(twice)))
    if annotate is not None and annotate.resolve() in given:  # the record is only read
        raise click.UsageError(w("cli.analyse.annotate_input", path=str(annotate)))
    if len(record) > 1:
        if annotate is not None:
            raise click.UsageError(w("cli.analyse.annotate_one"))
        _analyse_games(record, seat, as_json, plot)
        return
    loaded = _load(record[0])
    if annotate is not None and isinstance(loaded, ScoreSheet):
        raise click.UsageError(w("cli.analyse.annotate_one"))
    names = loaded.names if isinstance(loaded, ScoreSheet) else loaded.seats
    chosen = None if seat is None else _seat(seat, names)
    if isinstance(loaded, ScoreSheet):
        sheet = review_sheet(loaded)
        data, lines = sheet.to_dict(chosen), sheet_review_lines(sheet, w, chosen)
        chances, turns = sheet.chances, sheet.chart_turns
    else:
        game = review(loaded)
        data, lines = game.to_dict(chosen), review_lines(game, w, chosen)
        chances, turns = game.chances, game.turns
    click.echo(json.dumps(data) if as_json else "\n".join(lines))
    if annotate is not None and isinstance(loaded, GameRecord):
        annotated = Game.from_record(loaded)
        annotated.record.meta = {**annotated.record.meta, "review": game.to_dict()}
        write_output(annotate, annotated.to_json())
        click.echo(w("cli.analyse.annotated", path=str(annotate)), err=as_json)
    if plot:
        labels = {part: w(f"cli.analyse.plot.{part}") for part in CHART_WORDS}
        draw_plot(lambda path: plot_chances(chances, turns, names, path, labels), plot, as_json)


def _analyse_games(paths: tuple[Path, ...], seat: str | None, as_json: bool, plot: Path | None):
    """Several game records reviewed and added up per player (``--seat``: one, by name). Every
    file is loaded and checked before the first review."""
    from pickomino.analysis import review
    from pickomino.analysis.totals import totals
    from pickomino.i18n.review import totals_lines

    w = words()
    if plot is not None:
        raise click.UsageError(w("cli.analyse.plot_one"))
    records = []
    for path in paths:
        loaded = _load(path)
        if isinstance(loaded, ScoreSheet):
            raise click.ClickException(f"{path}: {w('cli.analyse.sheet_alone')}")
        folded = [name.casefold() for name in loaded.seats]
        if twice := next(
            (name for name in loaded.seats if folded.count(name.casefold()) > 1), None
        ):
            raise click.ClickException(f"{path}: {w('cli.analyse.same_name', name=twice)}")
        records.append(loaded)
    players = totals([review(game) for game in records])
    if seat is not None:
        chosen = [p for p in players if p.name.casefold() == seat.strip().casefold()]
        if not chosen:
            names = w.join([p.name for p in players], "or")
            raise click.BadParameter(
                w("cli.analyse.no_player", given=seat[:40], names=names), param_hint="--seat"
            )
        players = chosen
    if as_json:
        games = [
            {
                "file": str(path),
                "seats": game.seats,
                "finished": Game.from_record(game).state.is_over,
            }
            for path, game in zip(paths, records, strict=True)
        ]
        data = {"format": "pickomino-totals", "version": 1, "games": games,
                "players": [player.to_dict() for player in players]}  # fmt: skip
        click.echo(json.dumps(data))
    else:
        click.echo("\n".join(totals_lines(players, len(records), w)))


def _load(path: Path) -> GameRecord | ScoreSheet:
    """The game record (checked by replaying it) or score sheet in ``path``; one that does
    not load is a clear error naming what is wrong."""
    w = words()
    try:
        text = read_whole(path)
        data: Any = json.loads(text)
        if isinstance(data, dict) and data.get("format") == SHEET_FORMAT:
            sheet = ScoreSheet.from_dict(data)
            check_names_for_terminal(sheet.names)
            return sheet
        record = Game.from_json(text).record
        check_names_for_terminal(record.seats)
        return record
    except OSError as error:
        problem = RecordError("unreadable", path=str(path), why=error)
    except RecordError as error:  # a ValueError too: before the next
        problem = error
    except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep or long a number
        problem = RecordError("record_not_json")
    raise click.ClickException(f"{path}: {w.error(problem)}")


def _seat(given: str, names: list[str]) -> int:
    """A seat by its number (0 is the first) or its player's name (any case)."""
    folded = [name.casefold() for name in names]
    if given.strip().isdigit() and int(given) < len(names):
        return int(given)
    if given.strip().casefold() in folded:
        return folded.index(given.strip().casefold())
    w = words()
    message = w(
        "cli.analyse.no_seat", given=given[:40], high=len(names) - 1, names=w.join(names, "or")
    )
    raise click.BadParameter(message, param_hint="--seat")
