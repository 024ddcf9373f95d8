"""totals and met: each player's results counted as they are recorded (games, wins, worms,
rated ones, different opponents met in rated games), and an index for a page's latest
results: the leaderboard and the player pages summed every result at each look (100,000
games: seconds, on the server's event loop). Filled from the results already kept at the
next start (:meth:`pickomino.web.db.results.ResultStore.recount`), as whenever they disagree.

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


def downgrade() -> None:
    op.drop_index("results_player_finished", table_name="results")
    op.drop_table("met")
    op.drop_table("totals")
