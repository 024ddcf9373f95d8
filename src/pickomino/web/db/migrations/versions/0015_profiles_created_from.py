"""profiles: the claimer's network and site, hashed (``created_from``, ``created_site``, as
the games' and sheets'), indexed with the time: one address claims so many profiles a day (an
audit claimed 600 names from one address at the per-minute rate alone, each kept for good).
Profiles claimed before have none (not counted).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:  # plain ADD COLUMNs (SQLite too): no table is copied
    for column in ("created_from", "created_site"):
        op.add_column("profiles", sa.Column(column, sa.String(length=64), nullable=True))
        op.create_index(f"profiles_{column}", "profiles", [column, "created"])


def downgrade() -> None:  # not in a batch either: SQLite drops a column itself (see 0008)
    for column in ("created_from", "created_site"):
        op.drop_index(f"profiles_{column}", table_name="profiles")
        op.execute(f"ALTER TABLE profiles DROP COLUMN {column}")
