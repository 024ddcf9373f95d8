"""totals and met: each player's results counted as they are recorded (games, wins, worms,
rated ones, different opponents met in rated games), and an index for a page's latest
results: the leaderboard and the player pages summed every result at each look (100,000
games: seconds, on the server's event loop). Filled from the results already kept.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 13:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

FILL_TOTALS = """
INSERT INTO totals (player, games, wins, worms, rated_games, rated_wins, opponents)
SELECT player, count(*), sum(win), sum(worms),
       sum(CASE WHEN rated THEN 1 ELSE 0 END), sum(CASE WHEN rated THEN win ELSE 0 END), 0
FROM results GROUP BY player
"""
FILL_MET = """
INSERT INTO met (player, opponent)
SELECT DISTINCT mine.player, theirs.player FROM results mine
JOIN results theirs ON theirs.game_id = mine.game_id AND theirs.player <> mine.player
WHERE mine.rated
"""
COUNT_OPPONENTS = """
UPDATE totals SET opponents = (SELECT count(*) FROM met WHERE met.player = totals.player)
"""


def upgrade() -> None:
    op.create_table(
        "totals",
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Float(), nullable=False),
        sa.Column("worms", sa.Integer(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("rated_wins", sa.Float(), nullable=False),
        sa.Column("opponents", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player"),
    )
    op.create_table(
        "met",
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("opponent", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("player", "opponent"),
    )
    op.create_index("results_player_finished", "results", ["player", "finished"])
    op.execute(FILL_TOTALS)
    op.execute(FILL_MET)
    op.execute(COUNT_OPPONENTS)


def downgrade() -> None:
    op.drop_index("results_player_finished", table_name="results")
    op.drop_table("met")
    op.drop_table("totals")
