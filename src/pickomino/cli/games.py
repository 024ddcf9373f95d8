"""Games from the command line: bots playing one (``selfplay``), a saved one replayed
(``show``), and a game to play in the terminal (``play``)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from pickomino.cli.language import words
from pickomino.cli.params import (
    RULES_OPTION,
    Number,
    OutputFile,
    bot_list,
    check_bots,
    fail,
    need_extra,
    unwritable,
    write_output,
)
from pickomino.core import BadInput, Game, PickominoError, RecordError, Rules
from pickomino.core.record import check_names_for_terminal
from pickomino.files import read_whole
from pickomino.i18n.text import event_lines, log_lines, render_state
from pickomino.table import Seat, SeededDice, advance, players
from pickomino.table.records import draw_seed, seats_meta


@click.command()
@click.option("--bots", default="simple,simple", show_default=True)
@RULES_OPTION
@click.option("--seed", type=int, default=None)
@click.option("--start", "start_player", type=int, default=0, show_default=True)
@click.option("--save", type=OutputFile())
@click.option("--quiet", is_flag=True)
@click.pass_context
def selfplay(
    ctx: click.Context,
    bots: str,
    rules: Rules,
    seed: int | None,
    start_player: int,
    save: Path | None,
    quiet: bool,
) -> None:
    """Watch bots play one whole game, move by move."""
    w = words()
    names = bot_list(bots)
    check_bots(names, "--bots")
    seats = [Seat(f"{name} ({number})", name) for number, name in enumerate(names, start=1)]
    seed = draw_seed(seed)
    try:
        game = Game([seat.name for seat in seats], rules, start_player)
    except PickominoError as error:  # too few or many bots (R1), or no such seat to start
        wrong = "start_player" if error.code == "start_seat" else "bots"
        fail(error, next(p for p in ctx.command.params if p.name == wrong), ctx)
    # the seed and the bots, as `play` records them: `play --resume` then keeps the seats
    game.record.meta = seats_meta(seed, seats)
    events = advance(game, players(seats, seed), SeededDice(seed))
    if save:  # before anything is printed: an output that fails (a full disk) loses no game
        write_output(save, game.to_json())
    if not quiet:
        for event in events:
            for line in event_lines(event, game.seats, w):
                click.echo(line)
    click.echo(render_state(game.state, game.seats, w, ranking=quiet))  # the log ended so
    if save:
        click.echo(w("cli.selfplay.saved", path=str(save)))


@click.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def show(record: Path) -> None:
    """Replay a saved game RECORD and print it turn by turn, then the table."""
    w = words()
    try:
        game = Game.from_json(read_whole(record))
        check_names_for_terminal(game.seats)
    except OSError as error:  # a pipe, a device, a file of gigabytes
        unreadable = RecordError("unreadable", path=str(record), why=error)
        raise click.ClickException(w.error(unreadable)) from None
    except RecordError as error:
        raise click.ClickException(f"{record}: {w.error(error)}") from None
    for line in log_lines(game.history, game.seats, w):
        click.echo(line)
    click.echo(render_state(game.state, game.seats, w, ranking=False))  # the log ended so


@click.command()
@click.option("--players", default=None)
@RULES_OPTION
@click.option("--seed", type=int, default=None)
@click.option("--speed", type=Number(min=0), default=0.6, show_default=True)
@click.option("--save", type=OutputFile(), default=None)
@click.option("--resume", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--plain", is_flag=True)
@click.option("--coach", default=None)
@click.option("--coach-threshold", type=Number(min=0), default=5.0, show_default=True)
@click.pass_context
def play(
    ctx: click.Context,
    players: str | None,
    rules: Rules,
    seed: int | None,
    speed: float,
    save: Path | None,
    resume: Path | None,
    plain: bool,
    coach: str | None,
    coach_threshold: float,
) -> None:
    """Play Pickomino in the terminal against bots or friends (hot seat)."""
    from pickomino.analysis import Coach
    from pickomino.tui.setup import (
        coached_seats,
        default_players,
        fresh_save_path,
        new_console,
        resume_console,
    )

    w = words()
    if resume:
        given = [
            f"--{name}"
            for name in ("players", "rules", "seed")
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(w("cli.play.resumed", options=", ".join(given)))
        try:
            console = resume_console(resume, w)
        except RecordError as error:  # a file it cannot read names itself
            where = "" if error.code == "unreadable" else f"{resume}: "
            raise click.ClickException(where + w.error(error)) from None
    else:
        try:
            console = new_console(
                default_players(w) if players is None else players, rules, seed, w
            )
        except PickominoError as error:
            fail(error, ctx.command.params[0], ctx)  # --players
    if coach is not None:
        try:
            seats = coached_seats(coach, console.session.seats)
        except BadInput as error:
            fail(error, next(p for p in ctx.command.params if p.name == "coach"), ctx)
        console.start_coaching(seats, Coach(coach_threshold / 100))
    save_to = save or resume or fresh_save_path()
    problem = None if save else unwritable(save_to)  # --save was checked as it was read
    if problem:
        raise click.UsageError(w("cli.play.unsavable", problem=problem))
    stdin = sys.stdin or io.StringIO()  # a standard input closed (<&-): its end, at once
    if plain or not (stdin.isatty() and sys.stdout.isatty()):
        from pickomino.tui.plain import run_plain

        ctx.exit(run_plain(console, save_to, stdin, sys.stdout))
    need_extra("terminal", "pickomino play")  # the full screen; --plain needs nothing more
    from pickomino.tui.app import PickominoApp

    app = PickominoApp(console, speed, save_to)
    app.run()
    if app.farewell:
        click.echo(app.farewell, err=app.return_code != 0)
    ctx.exit(app.return_code or 0)
