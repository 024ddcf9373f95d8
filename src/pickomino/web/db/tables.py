"""The database's tables, every one, in one place: the schema the migrations
(:mod:`pickomino.web.db.migrations`) build and compare with. It imports nothing of the web
app, so the store, the profiles, the rematches and the migrations all read it without a
circle. A new table or column goes here, and into a new revision."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# ---------------------------------------------------------------- games (web.store)
games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("header", sa.Text, nullable=False),  # the record without its moves, as JSON
    sa.Column("status", sa.String(16), nullable=False),  # open | playing | over | abandoned
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    # The turn being played, or the number of turns played once over, for the lobby (NULL
    # for a game stored before this column existed, until its next turn).
    sa.Column("turns", sa.Integer),
    # Who plays each person's seat now and the running clock (pickomino.web.game.seating, as
    # JSON); NULL until a game needs it (no clock, nobody ever away).
    sa.Column("seating", sa.Text),
    # The creator's network, hashed (as profiles.claimed_from; NULL: a rematch, or made before
    # 0009): one address holds a few games waiting for players at once.
    sa.Column("created_from", sa.String(64)),
    sa.Column("created_site", sa.String(64)),  # its site, hashed (an IPv6 /48): 0013
    # Unfinished, and nothing can happen in it until somebody comes: held by no process, not
    # leased, not replayed at a start (pickomino.web.game.rooms: Rooms.unload_dormant). 0011
    sa.Column("resting", sa.Boolean, nullable=False, server_default=sa.false()),
)

sa.Index("games_status_updated", games.c.status, games.c.updated)  # the lobby's lists: 0008
sa.Index("games_created_from", games.c.created_from, games.c.status)
sa.Index("games_created_site", games.c.created_site, games.c.status)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(32)),  # bot or difficulty name; NULL for a person
    sa.Column("token", sa.String(64)),  # the person's secret; NULL for a bot
    sa.Column("claimed", sa.Boolean, nullable=False, default=False),
    # True: a person's seat anyone may take from the lobby; else only by its invite link
    # (NULL for a seat stored before this column existed: invite only).
    sa.Column("open_seat", sa.Boolean),
    # The secret of the last link that gave the seat to its person (its invite link, or a
    # transfer's), spent: refused as such, never opening the seat again (NULL: none).
    sa.Column("spent", sa.String(64)),
    # A one-time secret the seat's holder made to take the seat on another device (NULL:
    # none); using it gives the seat a new secret.
    sa.Column("transfer", sa.String(64)),
)

sheets = sa.Table(  # score sheets of games played with the real box (pickomino.table.sheet)
    "sheets",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("data", sa.Text, nullable=False),  # the sheet as JSON
    sa.Column("status", sa.String(16), nullable=False),  # playing | over
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    # The key in the sheet's link, asked for every request about the sheet; NULL for a sheet
    # stored before sheets had keys (its id alone opens it, as it did then).
    sa.Column("secret", sa.String(64)),
    sa.Column("created_from", sa.String(64)),  # the creator's network, hashed (as the games')
    sa.Column("created_site", sa.String(64)),  # and site: 0013
)
sa.Index("sheets_created_from", sheets.c.created_from, sheets.c.created)  # migration 0012
sa.Index("sheets_created_site", sheets.c.created_site, sheets.c.created)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # 0, 1, 2, … within the game
    sa.Column("move", sa.String(32), nullable=False),
)

table_events = sa.Table(  # the table's log entries beside the engine's: timeouts, away, back
    "table_events",
    metadata,
    sa.Column("game_id", sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # 0, 1, 2, … within the game
    sa.Column("seq", sa.Integer, nullable=False),  # the moves played before it
    sa.Column("entry", sa.Text, nullable=False),  # the log entry as JSON
)

# ----------------------------------------- profiles and ratings (web.profiles)
profiles = sa.Table(
    "profiles",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("key_hash", sa.String(64), nullable=False),  # SHA-256 of the key, in hex
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("look_key", sa.String(64)),  # the name's other key (see name_keys); NULL: old
    sa.Column("claimed_from", sa.String(64)),  # see db.networks; NULL: claimed before
    # The claimer's network and site, hashed (as the games' and sheets'): the profiles one
    # address claims a day are counted (NULL: claimed before 0015, not counted).
    sa.Column("created_from", sa.String(64)),
    sa.Column("created_site", sa.String(64)),
)
sa.Index("profiles_look_key", profiles.c.look_key, unique=True)  # migration 0004
sa.Index("profiles_claimed_from", profiles.c.claimed_from)  # a site's profiles: 0014
sa.Index("profiles_created_from", profiles.c.created_from, profiles.c.created)  # 0015
sa.Index("profiles_created_site", profiles.c.created_site, profiles.c.created)

results = sa.Table(
    "results",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(32), nullable=False, index=True),  # profile id or bot-LEVEL
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("worms", sa.Integer, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),  # seats in the game
    sa.Column("win", sa.Float, nullable=False),  # 1 for a win, 1/k for a win shared by k, else 0
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("mu", sa.Float),  # the rating after the game (rated games only)
    sa.Column("sigma", sa.Float),
    sa.Column("finished", sa.Float, nullable=False),
    # The person left the game (a stand-in played most of the seat, or it was abandoned):
    # counted last, whatever the bot did (pickomino.web.game.stand_ins).
    sa.Column("left_game", sa.Boolean, nullable=False, server_default=sa.false()),
    # From the game's review, once made (null until then): the decisions with a choice, their
    # summed cost in win chance, and the luck of the dice (win chance).
    sa.Column("decisions", sa.Integer),
    sa.Column("cost", sa.Float),
    sa.Column("luck", sa.Float),
)

# The player pages' and leaderboard's figures, kept as each result is recorded (migration
# 0007): summing every result at each look took seconds with many games (a bot level has one
# a game) and held the server's event loop meanwhile.
sa.Index("results_player_finished", results.c.player, results.c.finished)  # a page's latest

totals = sa.Table(
    "totals",
    metadata,
    sa.Column("player", sa.String(32), primary_key=True),  # profile id or bot-LEVEL
    sa.Column("games", sa.Integer, nullable=False),  # its results, rated or not
    sa.Column("wins", sa.Float, nullable=False),
    sa.Column("worms", sa.Integer, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False),
    sa.Column("rated_wins", sa.Float, nullable=False),
    sa.Column("opponents", sa.Integer, nullable=False),  # different ones in rated games: met
)

met = sa.Table(
    "met",  # who met whom in a rated game (a bot level counts once)
    metadata,
    sa.Column("player", sa.String(32), primary_key=True),
    sa.Column("opponent", sa.String(32), primary_key=True),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

pending = sa.Table("pending", metadata, sa.Column("game_id", sa.String(32), primary_key=True))

# -------------------------------------------------- rematches (web.rematch)
rematches = sa.Table(
    "rematches",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),  # the finished game
    sa.Column("new_game_id", sa.String(32), nullable=False),  # drawn with the offer
    sa.Column("status", sa.String(16), nullable=False),  # offered | declined | started
    sa.Column("offered_by", sa.Integer, nullable=False),
    sa.Column("accepted", sa.Text, nullable=False),  # JSON list of seat numbers
    sa.Column("declined_by", sa.Integer),
    sa.Column("updated", sa.Float, nullable=False),
)

# The networks each person's seat of a game was played from (hashed as profiles.claimed_from):
# two profiles' seats played from one network do not rate each other (web.db.results).
seat_networks = sa.Table(
    "seat_networks",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("network", sa.String(64), primary_key=True),
)

# -------------------------------------------------- the server's own (web.db.networks)
settings = sa.Table(
    "settings",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
