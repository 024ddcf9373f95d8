"""What the leaderboard and a player's page show: the rated players by their conservative
rating, and a profile's or bot level's figures (kept as its results are recorded:
:mod:`.results`), its latest results and its accuracy over its last reviewed games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from pickomino.analysis.decisions import pooled_accuracy
from pickomino.web.db.ratings import NEW, Rating, bot_level
from pickomino.web.db.tables import profiles, ratings, results, totals

#: A rating is provisional (below the ranked players) until its rated games were against
#: this many different opponents (a bot level is one).
ESTABLISHED_OPPONENTS = 5
#: A profile's accuracy is over its last this many reviewed games.
ACCURACY_GAMES = 20


class PlayerPages:
    """The reads of the players' pages (a part of
    :class:`~pickomino.web.db.profiles.ProfileStore`); each one query or a few."""

    engine: sa.Engine

    def leaderboard(self, limit: int = 100) -> list[dict[str, object]]:
        """The rated players, the established ones first (see
        :data:`ESTABLISHED_OPPONENTS`), each best conservative rating (μ − 3σ) first, with
        their rated games and share of wins in them."""
        ordinal = ratings.c.mu - 3 * ratings.c.sigma
        provisional = totals.c.opponents < ESTABLISHED_OPPONENTS
        query = (
            sa.select(ratings, provisional.label("provisional"), totals)
            .join(totals, totals.c.player == ratings.c.player)
            .where(totals.c.rated_games > 0)
            .order_by(provisional, ordinal.desc(), ratings.c.player)
            .limit(limit)
        )
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        names = self.names([row.player for row in rows if bot_level(row.player) is None])
        return [
            {
                **_who(row.player, names),
                "rating": _rating(Rating(row.mu, row.sigma)),
                "provisional": bool(row.provisional),
                "games": row.rated_games,
                "win_share": row.rated_wins / row.rated_games,
            }
            for row in rows
        ]

    def player(self, player: str, limit: int = 500) -> dict[str, object] | None:
        """A profile's or bot level's page: its rating, games (rated or not), share of wins,
        mean worms, its last ``limit`` results, oldest first (rated ones with the rating
        after them), and the accuracy of the last :data:`ACCURACY_GAMES` reviewed among
        them. ``None`` for an unknown profile."""
        names = self.names([player]) if bot_level(player) is None else {}
        if bot_level(player) is None and player not in names:
            return None
        with self.engine.connect() as db:
            rating = db.execute(ratings.select().where(ratings.c.player == player)).first()
            total = db.execute(totals.select().where(totals.c.player == player)).first()
            latest = results.select().where(results.c.player == player)
            latest = latest.order_by(results.c.finished.desc(), results.c.game_id.desc())
            rows = db.execute(latest.limit(limit)).all()
        # Its last reviewed games among these (a game with no decision of its own tells nothing).
        reviewed = [row for row in rows if row.decisions][:ACCURACY_GAMES]
        games, wins, worms, opponents = (
            (total.games, total.wins, total.worms, total.opponents) if total else (0, 0.0, 0, 0)
        )
        return {
            **_who(player, names),
            "rating": _rating(Rating(rating.mu, rating.sigma) if rating else NEW),
            "rated": rating is not None,
            "provisional": opponents < ESTABLISHED_OPPONENTS,
            "games": games,
            "win_share": wins / games if games else None,
            "mean_worms": worms / games if games else None,
            "accuracy": _accuracy(reviewed),
            "results": [
                {
                    "game": row.game_id,
                    "finished": row.finished,
                    "rank": row.rank,
                    "players": row.players,
                    "worms": row.worms,
                    "rated": row.rated,
                    "rating": _rating(Rating(row.mu, row.sigma)) if row.rated else None,
                    "left": row.left_game,
                    "accuracy": (
                        pooled_accuracy(row.cost, row.decisions) if row.decisions else None
                    ),
                    "luck": row.luck,
                }  # fmt: skip
                for row in reversed(rows)
            ],
        }

    def names(self, ids: list[str]) -> dict[str, str]:
        """Profiles' names by id (the pages show a profile by its name)."""
        if not ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(profiles.c.id, profiles.c.name).where(profiles.c.id.in_(ids))
            ).all()
        return {row.id: row.name for row in rows}


def _who(player: str, names: dict[str, str]) -> dict[str, object]:
    """A rated player as the pages show it: a profile's name, or a bot's level."""
    return {"player": player, "name": names.get(player), "bot": bot_level(player)}


def _accuracy(rows: Sequence[sa.Row[Any]]) -> dict[str, object] | None:
    """The accuracy of reviewed results' decisions together (``None`` without any), over
    how many games and decisions, and their mean luck."""
    if not rows:
        return None
    decisions = sum(row.decisions for row in rows)
    return {
        "value": pooled_accuracy(sum(row.cost for row in rows), decisions),
        "games": len(rows),
        "decisions": decisions,
        "luck": sum(row.luck for row in rows) / len(rows),
    }


def _rating(rating: Rating) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}
