"""Studying the game from the command line: the exact odds of a fresh turn (``odds``) and
advice in a situation with real dice (``advise``)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.core import ParameterSource

from pickomino.cli.language import words
from pickomino.cli.params import (
    JSON_OPTION,
    RULES_OPTION,
    Number,
    OutputFile,
    draw_plot,
    image_formats,
    percent,
)
from pickomino.core import GameState, IllegalAction, Phase, PickominoError, Rules, format_dice
from pickomino.core.rules import TILES, worms_on
from pickomino.i18n.text import cited, refusal

#: The most ``--stake`` can mean: every worm of the game (a bust costs one tile's, 4 at most).
MOST_WORMS = sum(worms_on(tile) for tile in TILES)


@click.command()
@click.option("--stake", type=Number(max=MOST_WORMS), default=0.0, show_default=True)
@JSON_OPTION
@click.option("--plot", type=OutputFile(image_formats))
def odds(stake: float, as_json: bool, plot: Path | None) -> None:
    """Exact odds of a fresh turn with eight dice, under best play for each goal."""
    from pickomino.solver.odds import PLOT_WORDS, fresh_turn_odds, plot_odds

    w = words()
    if stake < 0:
        raise click.BadParameter(w("cli.odds.negative_stake"), param_hint="--stake")
    stake += 0.0  # -0 is 0 (an audit: "a bust costing -0")
    result = fresh_turn_odds(stake)
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(w("cli.odds.header"))
        for tile, p in result["at_least"].items():
            click.echo(f" {tile}      {percent(p)}         {percent(result['exactly'][tile])}")
        summary = w(
            "cli.odds.summary",
            stake=w.number(stake, 1 if stake % 1 else 0),
            worms=w.number(result["expected_worms"], 4),
            bust=w.percent(result["bust"], 2),
        )
        click.echo(summary)
    if plot:
        labels = {part: w(f"cli.odds.plot.{part}") for part in PLOT_WORDS}
        draw_plot(lambda path: plot_odds(result, path, labels), plot, err=as_json)


@click.command()
@click.option("--me", default="")
@click.option("--opponent", "opponents", multiple=True)
@click.option("--down", default="")
@click.option("--kept", default="")
@click.option("--rolled", default=None)
@click.option("--position", default=None)
@RULES_OPTION
@JSON_OPTION
@click.pass_context
def advise(
    ctx: click.Context,
    me: str,
    opponents: tuple[str, ...],
    down: str,
    kept: str,
    rolled: str | None,
    position: str | None,
    rules: Rules,
    as_json: bool,
) -> None:
    """Rank your choices in a situation: win chance, chance of a tile, expected worms, bust
    risk."""
    from pickomino.analysis.hint import advice_with_chances
    from pickomino.core.position import parse_tiles

    w = words()
    if position is not None:
        given = [f"--{name}" for name in ("me", "opponent", "down", "kept", "rolled", "rules")
                 if ctx.get_parameter_source(name if name != "opponent" else "opponents")
                 is ParameterSource.COMMANDLINE]  # fmt: skip
        if given:
            raise click.UsageError(w("cli.advise.position_alone", options=", ".join(given)))
    try:
        if position is not None:
            state = GameState.from_text(position)
            if state.is_over:
                raise IllegalAction("R18", "game_over")
            seat, kept, rolled = state.current, format_dice(state.kept_counts()), None
            if state.phase is Phase.KEEP:
                rolled = format_dice(state.roll)
        else:
            stacks = [parse_tiles(me), *(parse_tiles(o) for o in opponents or ("",))]
            start = GameState.from_position(stacks, parse_tiles(down), 0, rules)
            state, seat = start.with_real_dice(kept, rolled), 0
    except PickominoError as error:
        raise click.UsageError(refusal(error, w)) from None
    report = advice_with_chances(state, seat, kept, rolled)
    if as_json:
        click.echo(json.dumps(report))
        return
    grill = " ".join(map(str, state.grill))
    click.echo(
        w("cli.advise.situation", grill=grill, kept=kept.upper() or "-", total=report["total"],
          rolled=report["rolled"] or "-")
    )  # fmt: skip
    if report["phase"] == "bust":
        click.echo(cited(w("cli.advise.bust", reason=report["reason"]), report["rule"], w))
    elif report["phase"] == "roll":
        click.echo(
            w("cli.advise.roll", win=w.percent(report["win"], 2), tile=w.percent(report["tile"], 2),
              worms=w.signed(report["expected_worms"], 3), bust=w.percent(report["bust"], 2))
        )  # fmt: skip
    else:
        labels = {c["action"]: w.action(c["action"]) for c in report["choices"]}
        width = max(len(label) for label in labels.values())
        click.echo(w("cli.advise.header", choice=w("cli.advise.choice").ljust(width)))
        for c in report["choices"]:
            worms = w.signed(c["expected_worms"], 3)
            win, tile, bust = percent(c["win"]), percent(c["tile"]), percent(c["bust"])
            click.echo(f"{labels[c['action']]:<{width}}  {win}  {tile}   {worms:>8}  {bust}")
        click.echo(w("cli.advise.best", action=report["best"]))
