"""The ``pickomino`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import random
from pathlib import Path

import click

from pickomino import __version__
from pickomino.bots import BOTS, make_bot
from pickomino.core import Game, RecordError, Rules
from pickomino.core.render import describe_event


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


RULES_OPTION = click.option(
    "--rules",
    type=RulesParam(),
    default="official",
    show_default=True,
    help="Preset (official, short, bga), optionally followed by options, "
    "e.g. 'official,lower_tile=any'.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pickomino")
def main() -> None:
    """Pickomino (Heckmeck am Bratwurmeck): play, watch and study the dice game."""


@main.command()
@click.option(
    "--bots",
    default="simple,simple",
    show_default=True,
    help=f"Comma-separated bots, one per seat (2-7). Bots: {', '.join(BOTS)}.",
)
@RULES_OPTION
@click.option("--seed", type=int, default=None, help="Seed for the dice and the bots.")
@click.option(
    "--start", "start_player", type=int, default=0, show_default=True, help="Seat that starts."
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the game record (JSON) to this file.",
)
@click.option("--quiet", is_flag=True, help="Print only the final table, not every move.")
def selfplay(
    bots: str, rules: Rules, seed: int | None, start_player: int, save: Path | None, quiet: bool
) -> None:
    """Watch bots play one whole game, move by move."""
    names = [name.strip() for name in bots.split(",") if name.strip()]
    try:
        players = [make_bot(name, (seed or 0) + seat) for seat, name in enumerate(names)]
        game = Game(
            [f"{name} ({seat + 1})" for seat, name in enumerate(names)], rules, start_player
        )
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    rng = random.Random(seed)
    while not game.state.is_over:
        if game.state.is_chance():
            events = game.roll_random(rng)
        else:
            events = game.play(players[game.state.current].choose(game.state))
        if not quiet:
            for event in events:
                click.echo(describe_event(event, game.seats))
    click.echo(str(game))
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
    click.echo(str(game))
