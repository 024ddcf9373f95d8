"""What games and score sheets were made from, by site too: a sheet's creator's network,
hashed (``sheets.created_from``, as the games'), so that one address makes at most so many
sheets a day (an audit's 20 addresses imported sheets of a thousand entries each, 12 KB, at
their pace: 177 MB a day from one address, never deleted); and the creator's site, hashed, for
games and sheets (``created_site``: an IPv6 /48, whose /64s share a larger budget: an audit's
2,000 /64s of one /48 made 20,000 sheets where one address makes 10). Games and sheets made
before have none (not counted).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 09:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:  # plain ADD COLUMNs (SQLite too): no table is copied
    op.add_column("games", sa.Column("created_site", sa.String(length=64), nullable=True))
    op.create_index("games_created_site", "games", ["created_site", "status"])
    for column in ("created_from", "created_site"):
        op.add_column("sheets", sa.Column(column, sa.String(length=64), nullable=True))
        op.create_index(f"sheets_{column}", "sheets", [column, "created"])


def downgrade() -> None:  # not in a batch either: SQLite drops a column itself (see 0008)
    for column in ("created_from", "created_site"):
        op.drop_index(f"sheets_{column}", table_name="sheets")
        op.execute(f"ALTER TABLE sheets DROP COLUMN {column}")
    op.drop_index("games_created_site", table_name="games")
    op.execute("ALTER TABLE games DROP COLUMN created_site")
