"""profiles: a name's second look-alike key, and the network that claimed it (hashed), for
ratings only from fair games (issue 24). The old rows are keyed at start by
ProfileStore._key_old_names: the keys come from code (the Unicode data of the day).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 22:22:25.081911
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("profiles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("look_key", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("claimed_from", sa.String(length=64), nullable=True))
        batch_op.create_index("profiles_look_key", ["look_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("profiles", schema=None) as batch_op:
        batch_op.drop_index("profiles_look_key")
        batch_op.drop_column("claimed_from")
        batch_op.drop_column("look_key")
