"""Bots against bots, many games at a time: seat-rotated ``tournament``s and paired
``compare``-isons, in parallel and reproducible from their seed."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from pickomino.cli.language import words
from pickomino.cli.params import bot_list, check_bots, percent, simulation_options
from pickomino.core import Rules

if TYPE_CHECKING:
    from pickomino.sim.engines import Engine


def _progress_bar(games: int, progress: bool | None) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=games,
        unit=words()("cli.progress.unit"),
        disable=None if progress is None else not progress,
        file=sys.stderr,
    )


@contextmanager
def _engine(jobs: int, cluster: str | None) -> Iterator[Engine]:
    """This machine's ``jobs`` processes, or the Dask cluster at ``cluster``, reached before
    any game is played: no scheduler there, or one without workers, is a usage error (exit
    code 2), as is --jobs beside --cluster (the cluster's workers are what plays)."""
    from pickomino.sim import engines

    if cluster is None:
        with engines.local_engine(jobs) as local:
            yield local
        return
    w = words()
    if click.get_current_context().get_parameter_source("jobs") is ParameterSource.COMMANDLINE:
        raise click.BadParameter(w("cli.cluster.jobs"), param_hint="--jobs")
    with ExitStack() as stack:
        try:
            engine = stack.enter_context(engines.cluster_engine(cluster))
        except ImportError:
            raise click.UsageError(w("cli.cluster.missing")) from None
        except engines.ClusterUnreachable as error:
            message = w("cli.cluster.unreachable", address=cluster, why=error.why)
            raise click.BadParameter(message, param_hint="--cluster") from None
        except engines.ClusterHasNoWorkers:
            message = w("cli.cluster.no_workers", address=cluster)
            raise click.BadParameter(message, param_hint="--cluster") from None
        yield engine


def _rules_name(rules: Rules) -> str:
    return rules.preset_name or ",".join(f"{k}={v}" for k, v in rules.to_dict().items())


@click.command()
@click.option("--bots", required=True)
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@simulation_options
def tournament(
    bots: str,
    games: int,
    seats: int,
    seed: int,
    jobs: int,
    cluster: str | None,
    rules: Rules,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Play many seat-rotated games between bots and report win shares."""
    from pickomino.sim import run_tournament

    w = words()
    names = bot_list(bots)
    check_bots(names, "--bots")
    with _engine(jobs, cluster) as engine, _progress_bar(games, progress) as bar:
        result = run_tournament(
            names, seats, games, seed, rules, progress=bar.update, engine=engine
        )
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    click.echo(
        w(
            "cli.tournament.title",
            count=result.games,
            seats=seats,
            seed=seed,
            rules=_rules_name(rules),
        )
    )
    click.echo(w("cli.tournament.header"))
    for label, record in sorted(result.bots.items(), key=lambda item: -item[1].win_share):
        low, high = record.ci95
        click.echo(
            f"{label:<14} {w.number(record.games):>6} {w.number(record.wins):>7} "
            f"{w.number(record.ties):>6}   {percent(record.win_share)}  "
            f"{w('cli.tournament.interval', low=percent(low), high=percent(high))}  "
            f"{w.number(record.worms / record.games, 2):>10}  "
            f"{w.number(record.turns / record.games, 2):>10}"
        )


@click.command()
@click.argument("first")
@click.argument("second")
@click.option("--against", required=True)
@click.option("--games", type=click.IntRange(min=2), default=1000, show_default=True)
@simulation_options
def compare(
    first: str,
    second: str,
    against: str,
    games: int,
    seats: int,
    seed: int,
    jobs: int,
    cluster: str | None,
    rules: Rules,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Is bot FIRST stronger than bot SECOND? Paired games on the same dice."""
    from pickomino.sim import compare as run_compare

    w = words()
    check_bots([first, second], f"{w('cli.compare.first')}/{w('cli.compare.second')}")
    if len(bot_list(against)) > 1:  # an audit: "unknown bot(s) simple,random"
        raise click.BadParameter(
            w("cli.compare.one_against", given=against), param_hint="--against"
        )
    check_bots([against], "--against")
    with _engine(jobs, cluster) as engine, _progress_bar(games, progress) as bar:
        result = run_compare(
            first, second, against, seats, games, seed, rules, progress=bar.update, engine=engine
        )
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    low, high = result.ci95
    click.echo(
        w("cli.compare.title", games=games, seats=seats, seed=seed, against=against,
          rules=_rules_name(rules))
    )  # fmt: skip
    for name, share in zip(result.bots, result.shares, strict=True):
        click.echo(f"{name:<14} " + w("cli.compare.share", share=percent(share).strip()))
    click.echo(
        w("cli.compare.difference", difference=w.signed(100 * result.difference),
          low=w.signed(100 * low), high=w.signed(100 * high),
          differing=w.percent(result.differing, 2))
    )  # fmt: skip
