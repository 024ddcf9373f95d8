"""games: an index for the lobby's lists (each status's most recently active games: one
query per list, none summing every game), and the creator's network, hashed
(``created_from``, as ``profiles.claimed_from``): one address holds a few games waiting for
players at once, so nobody fills the lobby's open games with their own. Games made before
have none (not counted).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 13:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("created_from", sa.String(length=64), nullable=True))
    op.create_index("games_status_updated", "games", ["status", "updated"])
    op.create_index("games_created_from", "games", ["created_from", "status"])


def downgrade() -> None:
    op.drop_index("games_created_from", table_name="games")
    op.drop_index("games_status_updated", table_name="games")
    # Not in a batch: on SQLite that copies the games table, which the moves and seats refer
    # to. SQLite drops a column itself since 3.35 (2021): going down needs that one or newer.
    op.execute("ALTER TABLE games DROP COLUMN created_from")
