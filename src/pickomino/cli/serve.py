"""``pickomino serve``: the web app, on an embedded SQLite file by default."""

from __future__ import annotations

import click

from pickomino.cli.language import words


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--database", default=None)
@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.8, show_default=True)
@click.option("--message-rate", type=click.FloatRange(min=1), default=20.0, show_default=True)
@click.option(
    "--new-games-per-minute", type=click.FloatRange(min=1), default=10.0, show_default=True
)
@click.option("--abandon-after", type=click.FloatRange(min=0), default=168.0, show_default=True)
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

    w = words()
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
        raise click.ClickException(
            w("cli.serve.no_database", database=target, why=str(error))
        ) from None
    click.echo(w("cli.serve.started", database=target, url=f"http://{host}:{port}/"))
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
