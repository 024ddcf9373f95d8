"""The ``pickomino`` command: one entry point, a subcommand per job, in the user's language
(``--lang`` or the locale; see :mod:`pickomino.cli.language`).

- games: ``selfplay``, ``show``, ``play`` (:mod:`pickomino.cli.games`);
- study: ``odds``, ``advise`` (:mod:`pickomino.cli.study`), ``analyse``
  (:mod:`pickomino.cli.review`);
- bots against bots: ``tournament``, ``compare`` (:mod:`pickomino.cli.sims`);
- the web app: ``serve``, and its offline app: ``build-app`` (:mod:`pickomino.cli.serve`).
"""

from __future__ import annotations

import click

from pickomino.cli.games import play, selfplay, show
from pickomino.cli.language import LocalisedGroup
from pickomino.cli.review import analyse
from pickomino.cli.serve import build_app, serve
from pickomino.cli.sims import compare, tournament
from pickomino.cli.study import advise, odds


@click.group(cls=LocalisedGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Pickomino (Heckmeck am Bratwurmeck): play, watch and study the dice game."""


for command in (selfplay, show, analyse, odds, advise, tournament, compare, play, serve, build_app):
    main.add_command(command)
