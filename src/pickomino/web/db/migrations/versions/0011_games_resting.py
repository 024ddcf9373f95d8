"""games: whether an unfinished game rests (nothing can happen in it until somebody comes: a
person to move, nobody connected): no process holds it in memory or its lease, a start does not
replay it, and the lease sweeps pass it by; the process that loads it for somebody drives it
(:meth:`pickomino.web.game.rooms.Rooms.unload_dormant`). Games stored before: not resting.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 01:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:  # a plain ADD COLUMN (SQLite too): the games' table is not copied
    op.add_column(
        "games", sa.Column("resting", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:  # not in a batch either: SQLite drops a column itself (see 0008)
    op.execute("ALTER TABLE games DROP COLUMN resting")
