"""games and sheets: the creator's site, hashed (``created_site``, beside ``created_from``: an
IPv6 /48, whose /64s share a larger budget than one address's: anyone may be given a /48, and
an audit's 2,000 /64s of one made 20,000 score sheets where one address makes 10). Games and
sheets made before have none (not counted).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:  # plain ADD COLUMNs (SQLite too): no table is copied
    for table, then in (("games", "status"), ("sheets", "created")):
        op.add_column(table, sa.Column("created_site", sa.String(length=64), nullable=True))
        op.create_index(f"{table}_created_site", table, ["created_site", then])


def downgrade() -> None:  # not in a batch either: SQLite drops a column itself (see 0008)
    for table in ("games", "sheets"):
        op.drop_index(f"{table}_created_site", table_name=table)
        op.execute(f"ALTER TABLE {table} DROP COLUMN created_site")
