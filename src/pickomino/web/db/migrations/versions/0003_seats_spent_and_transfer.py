"""seats: a seat's spent invite link, and its pending one-time transfer (issue 24: a seat's
secret belongs to whoever holds it).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 22:11:15.155540
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("spent", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("transfer", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("transfer")
        batch_op.drop_column("spent")
