"""Results and ratings in the web app's database (beside the games, same engine).

- ``results``: one row per seat of a finished game played by a profile or a bot level, with
  its rank and worms and, when the game was rated, the rating after it (the history the
  profile page charts); and, once the game is reviewed, the seat's decisions, their cost and
  its luck (a profile's accuracy over its last games: :mod:`.player_pages`);
- ``ratings``: each rated player's rating now;
- ``totals`` and ``met``: each player's figures, kept as its results are recorded (what the
  leaderboard and the player pages read: :mod:`.player_pages`);
- ``pending``: games whose results are still to be recorded. A game goes in *before* it has
  a profile's seat or is set up as rated, and leaves in the very transaction that records
  its results: a game is rated exactly once, and a crash between the game's end and its
  results only delays them to the next start.

Which seat is whose travels in the game's record (``meta.profiles``, a profile id or
``null`` per seat), as ``meta.bots`` says which seat is a bot: a game is its record.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from pickomino.web.db.database import first_insert
from pickomino.web.db.player_pages import ESTABLISHED_OPPONENTS
from pickomino.web.db.ratings import BOT_PREFIX, NEW, Rating, bot_level, bot_player, rate
from pickomino.web.db.tables import (
    games,
    met,
    pending,
    profiles,
    ratings,
    results,
    seat_networks,
    totals,
)

log = logging.getLogger("pickomino.web")

#: Two profiles' games together past this many rated ones in a day are not rated.
PAIR_GAMES_A_DAY = 5
DAY = 24 * 3600.0
#: At start, the server reviews at most this many games left without a review.
UNREVIEWED = 20


#: The figures kept, counted from the results (:meth:`ResultStore.recount`).
RECOUNT = (
    """INSERT INTO totals (player, games, wins, worms, rated_games, rated_wins, opponents)
    SELECT player, count(*), sum(win), sum(worms), sum(CASE WHEN rated THEN 1 ELSE 0 END),
           sum(CASE WHEN rated THEN win ELSE 0 END), 0
    FROM results GROUP BY player""",
    """INSERT INTO met (player, opponent)
    SELECT DISTINCT mine.player, theirs.player FROM results mine
    JOIN results theirs ON theirs.game_id = mine.game_id AND theirs.player <> mine.player
    WHERE mine.rated""",
    "UPDATE totals SET opponents = (SELECT count(*) FROM met WHERE met.player = totals.player)",
)


def seat_players(meta: dict[str, Any], seats: int) -> list[str | None]:
    """Who each seat is for the ratings: a profile id, a bot level (``bot-hard``), or
    ``None`` for a person without a profile (whose game is then not rated: :func:`is_rated`)."""
    profile_ids = meta.get("profiles") or [None] * seats
    bots = meta.get("bots") or [None] * seats
    return [
        profile_id or (bot_player(bot) if bot else None)
        for profile_id, bot in zip(profile_ids, bots, strict=True)
    ]


def is_rated(meta: dict[str, Any], seats: int) -> bool:
    """A game set up as rated moves ratings if a profile plays, every person plays as a
    profile (a seat nobody is rated for could throw the game to one who is: the creator
    holds every invite link) and it has two rated players at least (profiles, bot levels):
    bots' ratings move only in games with people. (Who played whom may still make it
    unrated: see :meth:`ResultStore.record`.)"""
    players = seat_players(meta, seats)
    people = any(meta.get("profiles") or [])
    everyone = all(players)  # a bot level, or a profile, in every seat
    return (
        bool(meta.get("rated"))
        and people
        and everyone
        and len({player for player in players if player}) > 1
    )


def counted_ranks(
    ranking: Sequence[dict[str, Any]], left: set[int], unfinished: bool = False
) -> dict[int, int]:
    """Each seat's rank as its results count it: the people who left the game
    (:mod:`pickomino.web.game.stand_ins`: a bot played most of their seat, or they left it
    ``unfinished``) after all the others, the others in their order. Between those who left
    a finished game, nothing: they share the place (what their bots achieved is not theirs);
    between people who all left an unfinished game, the standings when they left.

    >>> ranking = [{"seat": 2, "rank": 1}, {"seat": 0, "rank": 2}, {"seat": 1, "rank": 2}]
    >>> counted_ranks(ranking, left={2})
    {2: 3, 0: 1, 1: 1}
    >>> counted_ranks(ranking, left={2, 0}), counted_ranks(ranking, {2, 0}, unfinished=True)
    ({2: 2, 0: 2, 1: 1}, {2: 2, 0: 3, 1: 1})
    """
    stayed = [standing["rank"] for standing in ranking if standing["seat"] not in left]
    gone = [standing["rank"] for standing in ranking if standing["seat"] in left]

    def place(standing: dict[str, Any]) -> int:
        if standing["seat"] not in left:
            return 1 + sum(rank < standing["rank"] for rank in stayed)
        before = sum(rank < standing["rank"] for rank in gone) if unfinished else 0
        return len(stayed) + 1 + before

    return {standing["seat"]: place(standing) for standing in ranking}


def recorded_players(meta: dict[str, Any], seats: int) -> list[str | None]:
    """Per seat, who a game's end is recorded for: every rated player of a rated game, else
    the profiles alone (an unrated game counts among a profile's games, not a bot's)."""
    if is_rated(meta, seats):
        return seat_players(meta, seats)
    return meta.get("profiles") or [None] * seats


def has_results(meta: dict[str, Any], seats: int) -> bool:
    """Whether a game's end will be recorded, as far as its seats are known now (a profile
    taking a seat later marks the game then)."""
    return any(recorded_players(meta, seats))


class ResultStore:
    """The results and ratings of finished games (a part of
    :class:`~pickomino.web.db.profiles.ProfileStore`); every method is one transaction."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------- results
    def expect_results(self, game_id: str) -> None:
        """Mark a game whose results are to be recorded when it ends (before the seat or
        setup that makes it so is stored)."""
        with self.engine.begin() as db:
            if db.execute(pending.select().where(pending.c.game_id == game_id)).first() is None:
                db.execute(pending.insert().values(game_id=game_id))

    def record(self, game_id: str, meta: dict[str, Any], seats: int) -> bool:
        """Record a finished game's results (see :func:`recorded_players`) and, if it is
        rated (:func:`is_rated`, and its profiles may rate each other: :meth:`_fair`), their
        new ratings: once (``False`` if it was not pending: done before)."""
        now = time.time()
        left = set(meta.get("left") or ())
        worms = {standing["seat"]: standing["worms"] for standing in meta["ranking"]}
        ranks = counted_ranks(meta["ranking"], left, unfinished=bool(meta.get("unfinished")))
        winners = sum(rank == 1 for seat, rank in ranks.items() if seat not in left)
        with self.engine.begin() as db:
            done = db.execute(pending.delete().where(pending.c.game_id == game_id)).rowcount
            recorded = db.execute(sa.select(results.c.seat).where(results.c.game_id == game_id))
            if not done or recorded.first() is not None:
                return False
            rated = is_rated(meta, seats) and self._fair(
                db, game_id, meta.get("profiles") or [], now
            )
            profiles_only = meta.get("profiles") or [None] * seats
            players = seat_players(meta, seats) if rated else profiles_only
            seated = [(n, player) for n, player in enumerate(players) if player is not None]
            after: dict[str, Rating] = {}
            if rated:
                before = self._ratings(db, [player for _, player in seated], now)
                after = rate([(player, ranks[n]) for n, player in seated], before)
                bots = sorted({player for _, player in seated if bot_level(player)})
                people = [p for p in profiles_only if p is not None]
                if not self._moves_bots(db, people, bots, now):
                    after |= {player: before[player] for player in after if bot_level(player)}
                self._save_ratings(db, after, now)
            rows = [
                {
                    "game_id": game_id,
                    "seat": n,
                    "player": player,
                    "rank": ranks[n],
                    "worms": 0 if n in left else worms[n],  # a stand-in's are not theirs
                    "players": seats,
                    "win": 1 / winners if ranks[n] == 1 and n not in left else 0.0,
                    "left_game": n in left,
                    "rated": rated,
                    "mu": after[player].mu if rated else None,
                    "sigma": after[player].sigma if rated else None,
                    "finished": now,
                }  # fmt: skip
                for n, player in seated
            ]
            if rows:
                db.execute(results.insert(), rows)
                self._count(db, rows, rated)
        return True

    def _moves_bots(
        self, db: sa.Connection, profile_ids: list[str], bots: list[str], now: float
    ) -> bool:
        """Whether a rated game moves its bots' ratings: one of its profiles has met
        :data:`ESTABLISHED_OPPONENTS` other profiles in rated games, and none of them played
        :data:`PAIR_GAMES_A_DAY` rated games with one of its bot levels in the last day. An
        audit's throw-away profiles lost to a bot on purpose, ten claimed a minute from one
        address: 600 thrown games would have put ``bot-easy`` at the top of the leaderboard;
        the next audit made six of them established at once, in one six-seat game, each then
        free to throw game after game; the one after, each of seven profiles claimed from one
        /24 throwing five (counted by the site claimed from now). Their own ratings still move
        (a bot is a fixed point for them)."""
        people = sa.select(met.c.player).where(
            met.c.player.in_(profile_ids), sa.not_(met.c.opponent.startswith(BOT_PREFIX))
        )
        established = people.group_by(met.c.player).having(sa.func.count() >= ESTABLISHED_OPPONENTS)
        if db.execute(established.limit(1)).first() is None:
            return False
        sites = [self._claimed_alike(db, person) for person in profile_ids]  # once each
        return not any(self._often_together(db, site, [bot], now) for site in sites for bot in bots)

    def _count(self, db: sa.Connection, rows: list[dict[str, Any]], rated: bool) -> None:
        """Add a game's results to its players' totals (and, rated, who met whom), by
        increments, each player's row once and in one order: several processes may record
        games of the same players at once (in other seat orders), and must neither lose an
        increment nor wait for each other in a circle."""
        added: dict[str, dict[str, float]] = {}
        for row in rows:  # a bot level may sit in several seats: one update of its row
            mine = added.setdefault(row["player"], dict.fromkeys(("games", "wins", "worms"), 0))
            mine["games"] += 1
            mine["wins"] += row["win"]
            mine["worms"] += row["worms"]
        for player in sorted(added):
            mine = added[player]
            first_insert(
                db, totals, player=player, games=0, wins=0.0, worms=0, rated_games=0,
                rated_wins=0.0, opponents=0,
            )  # fmt: skip
            db.execute(
                totals.update()
                .where(totals.c.player == player)
                .values(
                    games=totals.c.games + mine["games"],
                    wins=totals.c.wins + mine["wins"],
                    worms=totals.c.worms + mine["worms"],
                    rated_games=totals.c.rated_games + (mine["games"] if rated else 0),
                    rated_wins=totals.c.rated_wins + (mine["wins"] if rated else 0.0),
                )
            )
        if not rated:
            return
        for one, other in itertools.permutations(sorted(added), 2):
            if first_insert(db, met, player=one, opponent=other):  # a first meeting
                db.execute(
                    totals.update()
                    .where(totals.c.player == one)
                    .values(opponents=totals.c.opponents + 1)
                )

    def note_review(self, game_id: str, review: dict[str, Any]) -> int:
        """Keep a finished game's review (as the API sends it) in its results: each seat's
        decisions with a choice, their summed cost and its luck (from its ``players``, as
        :meth:`~pickomino.analysis.PlayerReview.to_dict` gives them). Rows noted before
        stay as they are (several processes may review one game). The decisions a stand-in
        bot made for a person (the record's ``meta.stood_in``) are not theirs: not counted.
        The rows noted (none for a game without results)."""
        noted = 0
        with self.engine.begin() as db:
            header = db.execute(sa.select(games.c.header).where(games.c.id == game_id)).scalar()
            played = json.loads(header).get("meta", {}).get("stood_in", []) if header else []
            for account in review["players"]:
                seat, decisions, cost = account["seat"], account["decisions"], account["cost"]
                if any(run[0] == seat for run in played):
                    costs = _own_costs(review["decisions"], seat, played)
                    decisions, cost = len(costs), sum(costs)
                noted += db.execute(
                    results.update()
                    .where(results.c.game_id == game_id, results.c.seat == seat)
                    .where(results.c.decisions.is_(None))
                    .values(decisions=decisions, cost=cost, luck=account["luck"])
                ).rowcount
        return noted

    def unreviewed(self, limit: int = UNREVIEWED, within: float = DAY) -> list[str]:
        """The last ``limit`` games of the last ``within`` seconds whose results have no
        review yet (the server stopped before it was made), the latest first: a game whose
        review fails, or the games of before reviews were kept, are not tried at every
        start. Not an abandoned game's: its results have no review to wait for."""
        query = (
            sa.select(results.c.game_id)
            .where(results.c.decisions.is_(None), results.c.finished > time.time() - within)
            .where(
                ~sa.exists().where(games.c.id == results.c.game_id, games.c.status == "abandoned")
            )
            .group_by(results.c.game_id)
            .order_by(sa.func.max(results.c.finished).desc(), results.c.game_id)
            .limit(limit)
        )
        with self.engine.connect() as db:
            return list(db.execute(query).scalars())

    def _fair(
        self, db: sa.Connection, game_id: str, profile_ids: list[str | None], now: float
    ) -> bool:
        """Whether the profiles of a rated game may rate each other: not two claimed from
        one site (one person's spare profiles: an IPv4 /24, an IPv6 /48, see
        :func:`~pickomino.web.addresses.rating_site_of`), not two whose seats were played
        from one site (spares claimed elsewhere, then all played from home: an audit), not a
        pair of the sites claimed from that played :data:`PAIR_GAMES_A_DAY` rated games
        together in the last day."""
        people = sorted({profile for profile in profile_ids if profile})
        profile_seats = [seat for seat, profile in enumerate(profile_ids) if profile]
        shared_network = (
            sa.select(seat_networks.c.network)
            .where(seat_networks.c.game_id == game_id, seat_networks.c.seat.in_(profile_seats))
            .group_by(seat_networks.c.network)
            .having(sa.func.count(sa.distinct(seat_networks.c.seat)) > 1)
        )
        if db.execute(shared_network.limit(1)).first() is not None:
            return False
        addresses = db.execute(
            sa.select(profiles.c.claimed_from).where(
                profiles.c.id.in_(people), profiles.c.claimed_from.is_not(None)
            )
        ).scalars().all()  # fmt: skip
        if len(addresses) != len(set(addresses)):
            return False
        alike = {person: self._claimed_alike(db, person) for person in people}
        return not any(
            self._often_together(db, alike[one], alike[other], now)
            for one, other in itertools.combinations(people, 2)
        )

    @staticmethod
    def _claimed_alike(db: sa.Connection, profile_id: str) -> list[str]:
        """The profiles claimed from the site ``profile_id`` was claimed from (itself alone,
        its site unknown): a pair's daily games are counted by the sites claimed from, so
        that new spares from the same addresses start no new count (an audit: two fresh
        spares from the same two addresses were rated at once, the pair's count passed)."""
        claimed = sa.select(profiles.c.claimed_from).where(profiles.c.id == profile_id)
        site = db.execute(claimed).scalar()
        if site is None:
            return [profile_id]
        same = sa.select(profiles.c.id).where(profiles.c.claimed_from == site)
        return list(db.execute(same).scalars())

    @staticmethod
    def _often_together(
        db: sa.Connection, players: list[str], others: list[str], now: float
    ) -> bool:
        """Whether one of ``players`` and one of ``others`` (profiles, or a bot level) met
        in :data:`PAIR_GAMES_A_DAY` rated games in the last day."""
        mine, theirs = results.alias(), results.alias()
        together = db.execute(
            sa.select(sa.func.count(sa.distinct(mine.c.game_id)))
            .join(theirs, theirs.c.game_id == mine.c.game_id)
            .where(mine.c.player.in_(players), theirs.c.player.in_(others), mine.c.rated)
            .where(mine.c.finished > now - DAY)
        ).scalar_one()
        return together >= PAIR_GAMES_A_DAY

    def recount(self) -> bool:
        """At start: count the figures kept (``totals``, ``met``) again from the results if
        they disagree (a database from before they were kept, or a process of that version
        recording games during a rolling upgrade); whether they did."""
        with self.engine.begin() as db:
            if db.dialect.name == "postgresql":  # processes starting together: one at a time
                db.execute(sa.text("LOCK TABLE totals IN SHARE ROW EXCLUSIVE MODE"))
            recorded = db.execute(sa.select(sa.func.count()).select_from(results)).scalar_one()
            kept = db.execute(sa.select(sa.func.sum(totals.c.games))).scalar() or 0
            if recorded == kept:
                return False
            db.execute(met.delete())
            db.execute(totals.delete())
            for statement in RECOUNT:
                db.execute(sa.text(statement))
        log.info("counted the players' figures again from %d results", recorded)
        return True

    def pending_among(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` whose results are still to be recorded."""
        with self.engine.connect() as db:
            found = db.execute(sa.select(pending.c.game_id).where(pending.c.game_id.in_(game_ids)))
            return sorted(found.scalars())

    def abandoned_pending(self) -> list[str]:
        """The abandoned games whose results are still to be recorded (the server stopped
        between a game's abandonment and its results)."""
        with self.engine.connect() as db:
            return sorted(
                db.execute(
                    sa.select(games.c.id)
                    .join(pending, pending.c.game_id == games.c.id)
                    .where(games.c.status == "abandoned")
                ).scalars()
            )

    def forget_pending(self, game_id: str) -> None:
        """A game whose results there are none of after all (abandoned before it started)."""
        with self.engine.begin() as db:
            db.execute(pending.delete().where(pending.c.game_id == game_id))

    def settle(self) -> list[str]:
        """At start: record the results of pending games that ended (the server stopped
        between a game's end and its results; abandoned ones:
        :meth:`~pickomino.web.lifespan.ResultReviews.settle_abandoned`). The ids recorded."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games.c.id, games.c.header)
                .join(pending, pending.c.game_id == games.c.id)
                .where(games.c.status == "over")
            ).all()
        recorded = []
        for row in rows:
            try:
                header = json.loads(row.header)
                if self.record(row.id, header["meta"], len(header["seats"])):
                    recorded.append(row.id)
            except Exception:  # still pending: the next start tries again
                log.exception("could not record the results of game %s", row.id)
        return recorded

    def _ratings(self, db: sa.Connection, players: list[str], now: float) -> dict[str, Rating]:
        """The players' ratings now (a new player's made, at :data:`NEW`), locked until the
        transaction ends (PostgreSQL; SQLite has one writer at a time): two processes rating
        one bot level at once each build on the other's result, none lost. Made and locked
        in one order, so never waiting in a circle."""
        for player in sorted(set(players)):
            first_insert(db, ratings, player=player, mu=NEW.mu, sigma=NEW.sigma, updated=now)
        query = ratings.select().where(ratings.c.player.in_(set(players)))
        rows = db.execute(query.order_by(ratings.c.player).with_for_update()).all()
        return {row.player: Rating(row.mu, row.sigma) for row in rows}

    def _save_ratings(self, db: sa.Connection, after: dict[str, Rating], now: float) -> None:
        for player in sorted(after):
            values = {"mu": after[player].mu, "sigma": after[player].sigma, "updated": now}
            db.execute(ratings.update().where(ratings.c.player == player).values(**values))


def _own_costs(decisions: list[dict[str, Any]], seat: int, played: list[list[int]]) -> list[float]:
    """The costs of ``seat``'s decisions with a choice, but for those a stand-in bot made
    (``played``: its runs of moves, ``[seat, first, end)``)."""
    by_bot = [(first, end) for bot_seat, first, end in played if bot_seat == seat]
    return [
        decision["cost"]
        for decision in decisions
        if decision["seat"] == seat and not decision["forced"]
        if not any(first <= decision["move"] < end for first, end in by_bot)
    ]
