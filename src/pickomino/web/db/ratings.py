"""Ratings from finished games, by OpenSkill's Weng-Lin model (Plackett-Luce, the
``openskill`` package): every player is a mean skill μ and an uncertainty σ, a game's ranking
(ties share a rank) moves them all at once, for 2 to 7 players.

Who is rated: a profile by its id, a bot by its level (``bot-easy`` … ``bot-expert``; a bot
named by its kind is the level that plays it: ``simple`` is ``medium``). A bot level sitting in
several seats of one game is one player: its new rating is the mean of its seats' updates.

>>> before = {"ann": Rating(25.0, 25 / 3), "bot-hard": Rating(25.0, 25 / 3)}
>>> after = rate([("ann", 1), ("bot-hard", 2)], before)
>>> after["ann"].mu > 25 > after["bot-hard"].mu, after["ann"].sigma < 25 / 3
(True, True)
>>> round(Rating(25.0, 25 / 3).ordinal, 6)  # the conservative rating shown: μ − 3σ
0.0
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

from pickomino.bots import DIFFICULTIES

MODEL = PlackettLuce()
#: A bot's rated name by its level; bots named by their kind are rated as that kind's level.
BOT_LEVELS = {
    **{kind: level for level, kind in DIFFICULTIES.items()},
    **{level: level for level in DIFFICULTIES},
}
BOT_PREFIX = "bot-"


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What a player is at least worth, nearly surely (μ − 3σ): new players start at 0."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


def bot_player(bot: str) -> str | None:
    """The rated name of a seat's bot (``None`` for a bot no level plays)."""
    level = BOT_LEVELS.get(bot)
    return None if level is None else BOT_PREFIX + level


def bot_level(player: str) -> str | None:
    """The level of a rated bot name, ``None`` for anything else (a profile's id)."""
    level = player.removeprefix(BOT_PREFIX)
    return level if player.startswith(BOT_PREFIX) and level in DIFFICULTIES else None


def rate(standings: list[tuple[str, int]], ratings: dict[str, Rating]) -> dict[str, Rating]:
    """Every player's rating after a game: ``standings`` are ``(player, rank)`` per seat (1 is
    first, ties share a rank), ``ratings`` the ratings before (a missing player is new)."""
    teams = [[MODEL.rating(*_values(ratings.get(player, NEW)))] for player, _ in standings]
    rated = MODEL.rate(teams, ranks=[rank for _, rank in standings])
    updates: dict[str, list[Rating]] = defaultdict(list)
    for (player, _), [new] in zip(standings, rated, strict=True):
        updates[player].append(Rating(new.mu, new.sigma))
    return {
        player: Rating(fmean(r.mu for r in seats), fmean(r.sigma for r in seats))
        for player, seats in updates.items()
    }


def _values(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma
