"""seat_networks: the networks each person's seat of a game was played from, hashed as
``profiles.claimed_from`` (:mod:`pickomino.web.db.networks`): two profiles whose seats were
played from one network do not rate each other, however far apart they were claimed (an
audit claimed spare profiles once from other addresses, then played them all from home).
Games played before have none.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_networks",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("network", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "network"),
    )


def downgrade() -> None:
    op.drop_table("seat_networks")
