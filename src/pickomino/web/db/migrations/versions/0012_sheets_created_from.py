"""sheets: the creator's network, hashed (``created_from``, as the games'), so that one address
makes at most so many score sheets a day (an audit's 20 addresses imported sheets of a
thousand entries each, 12 KB, at their pace: 177 MB a day from one address, never deleted).
Sheets made before have none (not counted).

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


def upgrade() -> None:  # a plain ADD COLUMN (SQLite too): the sheets' table is not copied
    op.add_column("sheets", sa.Column("created_from", sa.String(length=64), nullable=True))
    op.create_index("sheets_created_from", "sheets", ["created_from", "created"])


def downgrade() -> None:  # not in a batch either: SQLite drops a column itself (see 0008)
    op.drop_index("sheets_created_from", table_name="sheets")
    op.execute("ALTER TABLE sheets DROP COLUMN created_from")
