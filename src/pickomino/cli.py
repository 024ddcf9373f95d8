"""The ``pickomino`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pickomino import __version__
from pickomino.bots import BOTS, DIFFICULTIES, make_bot
from pickomino.core import Game, RecordError, Rules
from pickomino.core.render import describe_event, render_state


class RulesParam(click.ParamType):
    """``--rules official|short|bga`` or options such as ``short,lower_tile=any``."""

    name = "rules"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, Rules):
            return value
        try:
            return Rules.parse(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None. Tried for real, by opening it to append (a
    file created so is removed again): no permission bits, read-only disk or missing
    folder can mislead that."""
    if path.is_dir():
        return f"{path} is a folder"
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        return f"{folder} is not a folder"
    if not folder.exists():
        return f"the folder {folder} does not exist"
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()
    except OSError as error:
        return f"cannot write {path}: {error.strerror}"
    return None


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
        if self.formats and not path.is_dir():
            formats = self.formats()
            if not path.suffix:
                path = path.with_name(f"{path.name}.{formats[0]}")
            elif path.suffix[1:].lower() not in formats:
                self.fail(
                    f"cannot write a {path.suffix} file; give a name ending in "
                    f"{', '.join('.' + ending for ending in formats)}",
                    param,
                    ctx,
                )
        problem = unwritable(path)
        if problem:
            self.fail(problem, param, ctx)
        return path


def _image_formats() -> list[str]:
    """The file endings matplotlib can draw to, PNG first."""
    from matplotlib.backend_bases import FigureCanvasBase

    return sorted(FigureCanvasBase.get_supported_filetypes(), key=lambda ending: ending != "png")


RULES_OPTION = click.option(
    "--rules",
    type=RulesParam(),
    default="official",
    show_default=True,
    help="Preset (official, short, bga), optionally followed by options, "
    "e.g. 'official,lower_tile=any'.",
)


JSON_OPTION = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object for programs."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pickomino")
def main() -> None:
    """Pickomino (Heckmeck am Bratwurmeck): play, watch and study the dice game."""


_LEVELS = {bot: level for level, bot in DIFFICULTIES.items()}
#: Every name a bot answers to: "random (easy), simple (medium), ...".
BOT_NAMES = ", ".join(f"{bot} ({_LEVELS[bot]})" if bot in _LEVELS else bot for bot in BOTS)


def _players_is_now_seats(ctx: click.Context, param: click.Parameter, value: object) -> None:
    if value is not None:
        raise click.UsageError(
            f"--players is now --seats in '{ctx.info_name}' (the number of seats per game); "
            "in 'play', --players lists the players by name",
            ctx,
        )


def simulation_options(command: Callable[..., None]) -> Callable[..., None]:
    """--seats, --seed, --jobs, --rules, --json and --progress, shared by tournament and
    compare."""
    for option in reversed(
        (
            click.option(
                "--seats",
                type=click.IntRange(2, 7),
                default=2,
                show_default=True,
                help="Players in every game (2-7).",
            ),
            # the old name: refused with the new one, as 'play' gives --players another meaning
            click.option(
                "--players",
                hidden=True,
                expose_value=False,
                callback=_players_is_now_seats,
            ),
            click.option("--seed", type=int, default=0, show_default=True),
            click.option(
                "--jobs",
                type=click.IntRange(min=1),
                default=1,
                show_default=True,
                help="Processes to play in parallel (the result does not depend on it).",
            ),
            RULES_OPTION,
            JSON_OPTION,
            click.option(
                "--progress/--no-progress",
                default=None,
                help="Show a progress bar (default: when standard error is a terminal).",
            ),
        )
    ):
        command = option(command)
    return command


def _check_bots(names: list[str], hint: str) -> None:
    unknown = [name for name in names if name not in BOTS and name not in DIFFICULTIES]
    if unknown or not names:
        raise click.BadParameter(
            f"unknown bot(s) {', '.join(unknown) or '(none given)'}; bots are {BOT_NAMES}",
            param_hint=hint,
        )


def _progress_bar(games: int, progress: bool | None) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=games,
        unit="game",
        disable=None if progress is None else not progress,
        file=sys.stderr,
    )


@main.command()
@click.option(
    "--bots",
    default="simple,simple",
    show_default=True,
    help=f"Comma-separated bots, one per seat (2-7). Bots (difficulty): {BOT_NAMES}.",
)
@RULES_OPTION
@click.option("--seed", type=int, default=None, help="Seed for the dice and the bots.")
@click.option(
    "--start", "start_player", type=int, default=0, show_default=True, help="Seat that starts."
)
@click.option(
    "--save",
    type=OutputFile(),
    help="Write the game record (JSON) to this file (checked before the game is played).",
)
@click.option("--quiet", is_flag=True, help="Print only the final table, not every move.")
def selfplay(
    bots: str, rules: Rules, seed: int | None, start_player: int, save: Path | None, quiet: bool
) -> None:
    """Watch bots play one whole game, move by move."""
    from pickomino.tui.setup import draw_seed, seats_meta

    names = [name.strip() for name in bots.split(",") if name.strip()]
    _check_bots(names, "--bots")
    seed = draw_seed(seed)
    try:
        players = [make_bot(name, seed + seat) for seat, name in enumerate(names)]
        game = Game(
            [f"{name} ({seat + 1})" for seat, name in enumerate(names)], rules, start_player
        )
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    # the seed and the bots, as `play` records them: `play --resume` then keeps the seats
    game.record.meta = seats_meta(seed, names)
    rng = random.Random(seed)
    while not game.state.is_over:
        if game.state.is_chance():
            events = game.roll_random(rng)
        else:
            events = game.play(players[game.state.current].choose(game.state))
        if not quiet:
            for event in events:
                click.echo(describe_event(event, game.seats))
    click.echo(render_state(game.state, game.seats, ranking=quiet))  # the log ended with it
    if save:
        save.write_text(game.to_json(), encoding="utf-8")
        click.echo(f"Record saved to {save}")


@main.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def show(record: Path) -> None:
    """Replay a saved game RECORD and print it turn by turn, then the table."""
    try:
        game = Game.from_json(record.read_bytes())
    except RecordError as error:
        raise click.ClickException(f"{record}: {error}") from None
    click.echo(game.render_log())
    click.echo(render_state(game.state, game.seats, ranking=False))  # the log ended with it


def _percent(p: float) -> str:
    return f"{100 * p:6.2f}%"


@main.command()
@click.option(
    "--stake",
    type=float,
    default=0.0,
    show_default=True,
    help="Worms a bust costs, for the expected-worms figure.",
)
@JSON_OPTION
@click.option(
    "--plot",
    type=OutputFile(_image_formats),
    help="Also draw the >= T and = T curves to this image file (.png, or another ending "
    "matplotlib knows: .svg, .pdf, ...; no ending: .png is added).",
)
def odds(stake: float, as_json: bool, plot: Path | None) -> None:
    """Exact odds of a fresh turn with eight dice, under best play for each goal."""
    from pickomino.solver.odds import fresh_turn_odds, plot_odds

    if stake < 0:
        raise click.BadParameter(
            "a bust cannot gain worms; give a stake of 0 or more", param_hint="--stake"
        )
    result = fresh_turn_odds(stake)
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo("  T   P(total >= T)   P(total = T)    (with a worm; best play for each goal)")
        for tile, p in result["at_least"].items():
            click.echo(f" {tile}      {_percent(p)}        {_percent(result['exactly'][tile])}")
        click.echo(
            f"Best expected worms, all tiles on the grill, bust costs {stake:g}: "
            f"{result['expected_worms']:.4f} (bust {_percent(result['bust']).strip()})"
        )
    if plot:
        try:
            plot_odds(result, str(plot))
        except (OSError, RuntimeError) as error:  # a full disk; .pgf without LaTeX
            raise click.ClickException(f"cannot draw the plot to {plot}: {error}") from None
        click.echo(f"Plot written to {plot}", err=as_json)


@main.command()
@click.option("--me", default="", help="Your stack, bottom to top, e.g. '22 25'.")
@click.option(
    "--opponent",
    "opponents",
    multiple=True,
    help="An opponent's stack, bottom to top; repeat for each opponent.",
)
@click.option("--down", default="", help="Tiles turned face down, e.g. '35 36' or '33-36'.")
@click.option("--kept", default="", help="Dice kept so far this turn, e.g. 'WW44'.")
@click.option("--rolled", default=None, help="The dice just rolled, e.g. '4455W'.")
@RULES_OPTION
@JSON_OPTION
def advise(
    me: str,
    opponents: tuple[str, ...],
    down: str,
    kept: str,
    rolled: str | None,
    rules: Rules,
    as_json: bool,
) -> None:
    """Rank your choices in a situation: chance of a tile, expected worms, bust risk.

    Every tile not in a stack and not face down is on the grill. Expected worms count a
    steal twice (you gain, the victim loses) and a bust as the loss of your top tile.
    Example: pickomino advise --me 25 --opponent "27 30" --kept WW44 --rolled 4455
    """
    from pickomino.situation import situation
    from pickomino.solver.advice import advice_report

    try:
        state = situation(me, opponents or ("",), down, kept, rolled, rules)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    report = advice_report(state, 0, kept, rolled)
    if as_json:
        click.echo(json.dumps(report))
        return
    click.echo(
        f"Grill {' '.join(map(str, state.grill))}; kept {kept or '-'} = {report['total']}; "
        f"rolled {report['rolled'] or '-'}"
    )
    if report["phase"] == "bust":
        click.echo(f"Bust: {report['reason']}")
    elif report["phase"] == "roll":
        click.echo(
            f"Roll the dice. This turn: tile {_percent(report['tile'])}, "
            f"expected worms {report['expected_worms']:+.3f}, "
            f"bust {_percent(report['bust'])}"
        )
    else:
        click.echo("choice       P(tile)   E[worms]     bust")
        for c in report["choices"]:
            click.echo(
                f"{c['action']:<10} {_percent(c['tile'])}   {c['expected_worms']:+8.3f}  "
                f"{_percent(c['bust'])}"
            )
        click.echo(f"Best: {report['best']}")


@main.command()
@click.option(
    "--bots",
    required=True,
    help="Comma-separated bots to pit against each other, seated in rotation. "
    f"Bots (difficulty): {BOT_NAMES}.",
)
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@simulation_options
def tournament(
    bots: str,
    games: int,
    seats: int,
    seed: int,
    jobs: int,
    rules: Rules,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Play many seat-rotated games between bots and report win shares."""
    from pickomino.sim import run_tournament

    names = [name.strip() for name in bots.split(",") if name.strip()]
    _check_bots(names, "--bots")
    with _progress_bar(games, progress) as bar:
        result = run_tournament(names, seats, games, seed, rules, jobs, bar.update)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    click.echo(
        f"{result.games} games, {seats} players, seed {seed}, rules "
        f"{rules.preset_name or rules.to_dict()}"
    )
    click.echo(
        "bot            games     wins   ties   win share  95% CI             "
        "mean worms  mean turns"
    )
    for label, record in sorted(result.bots.items(), key=lambda item: -item[1].win_share):
        low, high = record.ci95
        click.echo(
            f"{label:<14} {record.games:>5} {record.wins:>8} {record.ties:>6}   "
            f"{_percent(record.win_share)}  [{_percent(low)}, {_percent(high)}]  "
            f"{record.worms / record.games:>10.2f}  {record.turns / record.games:>10.2f}"
        )


@main.command()
@click.argument("first")
@click.argument("second")
@click.option(
    "--against",
    required=True,
    help=f"The bot in every other seat, e.g. expected. Bots (difficulty): {BOT_NAMES}.",
)
@click.option("--games", type=click.IntRange(min=2), default=1000, show_default=True, help="Pairs.")
@simulation_options
def compare(
    first: str,
    second: str,
    against: str,
    games: int,
    seats: int,
    seed: int,
    jobs: int,
    rules: Rules,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Is bot FIRST stronger than bot SECOND? Each game is played twice on the same dice,
    once with each in the same seat against the same opponents; prints both win shares and
    their difference with a 95% interval (paired: far narrower than two tournaments give)."""
    from pickomino.sim import compare as run_compare

    _check_bots([first, second], "FIRST/SECOND")
    _check_bots([against], "--against")
    with _progress_bar(games, progress) as bar:
        result = run_compare(first, second, against, seats, games, seed, rules, jobs, bar.update)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    low, high = result.ci95
    click.echo(
        f"{games} pairs of games, {seats} players, seed {seed}, against {against}, "
        f"rules {rules.preset_name or rules.to_dict()}"
    )
    for name, share in zip(result.bots, result.shares, strict=True):
        click.echo(f"{name:<14} win share {_percent(share)}")
    click.echo(
        f"difference     {100 * result.difference:+.2f} points, 95% CI "
        f"[{100 * low:+.2f}, {100 * high:+.2f}]; {_percent(result.differing).strip()} of the "
        "games ended differently"
    )


@main.command()
@click.option(
    "--players",
    default=None,
    help="Seats in order, comma-separated: a name is a person (several share the keyboard), "
    "bot:NAME a bot or difficulty. Default: you (by your login name) against two hard "
    "bots, 'NAME,bot:hard,bot:hard'.",
)
@RULES_OPTION
@click.option("--seed", type=int, default=None, help="Seed for the dice and the bots.")
@click.option(
    "--speed",
    type=click.FloatRange(min=0),
    default=0.6,
    show_default=True,
    help="Seconds per step of a bot's turn (0: at once).",
)
@click.option(
    "--save",
    type=OutputFile(),
    default=None,
    help="Where the game is saved on leaving (quit, end of input, game over) and by ctrl+s "
    "(or 'save'). Default: the --resume file; for a new game pickomino-game.json, or "
    "pickomino-game-2.json, ... if that exists (never over an earlier game).",
)
@click.option(
    "--resume",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Continue the game saved in this file.",
)
@click.option(
    "--plain", is_flag=True, help="Line mode on standard input/output (used without a terminal)."
)
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
) -> None:
    """Play Pickomino in the terminal against bots or friends (hot seat)."""
    import sys

    from click.core import ParameterSource

    from pickomino.tui.setup import default_players, fresh_save_path, new_session, resume_session

    if resume:
        given = [
            f"--{name}"
            for name in ("players", "rules", "seed")
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)} cannot change a resumed game")
        try:
            session = resume_session(resume)
        except RecordError as error:
            raise click.ClickException(f"{resume}: {error}") from None
    else:
        try:
            session = new_session(default_players() if players is None else players, rules, seed)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--players") from None
    save_to = save or resume or fresh_save_path()
    problem = None if save else unwritable(save_to)  # --save was checked as it was read
    if problem:
        raise click.UsageError(f"the game could not be saved: {problem}; give --save FILE")
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from pickomino.tui.plain import run_plain

        ctx.exit(run_plain(session, save_to, sys.stdin, sys.stdout))
    from pickomino.tui.app import PickominoApp

    app = PickominoApp(session, speed, save_to)
    app.run()
    if app.farewell:
        click.echo(app.farewell, err=app.return_code != 0)
    ctx.exit(app.return_code or 0)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--database",
    default=None,
    help="SQLite file, or a postgresql://user:pass@host/db URL. "
    "Default: games.sqlite3 in your user data folder.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(min=0),
    default=0.8,
    show_default=True,
    help="Seconds a bot waits before each roll or decision, so people can follow it.",
)
@click.option(
    "--message-rate",
    type=click.FloatRange(min=1),
    default=20.0,
    show_default=True,
    help="Messages a second one client may send (after a short burst) before it is cut "
    "off as a flood.",
)
@click.option(
    "--new-games-per-minute",
    type=click.FloatRange(min=1),
    default=10.0,
    show_default=True,
    help="Games or score sheets one address may create a minute (ten at once).",
)
@click.option(
    "--abandon-after",
    type=click.FloatRange(min=0),
    default=168.0,
    show_default=True,
    help="Hours without a move or a join after which an unfinished game nobody is "
    "connected to is abandoned (kept for its replay, no longer played; 0: never).",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    bot_delay: float,
    message_rate: float,
    new_games_per_minute: float,
    abandon_after: float,
) -> None:
    """Play in the browser: lobby, games with people and bots, replays."""
    import gc

    import uvicorn

    from pickomino.web import create_app
    from pickomino.web.store import default_database

    target = database or str(default_database())
    try:
        app = create_app(
            target,
            bot_delay=bot_delay,
            message_rate=message_rate,
            new_games_per_minute=new_games_per_minute,
            abandon_after=abandon_after * 3600,
        )
    except Exception as error:  # a bad path or URL, a database that cannot be reached
        raise click.ClickException(f"cannot open the database {target}: {error}") from None
    click.echo(f"pickomino: games stored in {target}; open http://{host}:{port}/")
    # Long-lived objects (engine tables, loaded games) need no collecting: freezing them and
    # collecting less often keeps full collections from pausing every game (benchmarks/).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # states are small; compressing each cost more CPU
        log_level="warning",
    )
