"""settings: the server's own values, first the fingerprint of the secret the networks are
hashed under (:mod:`pickomino.web.db.networks`). The games' ``created_from`` were plain
SHA-256 hashes, which give an IPv4 address back to whoever tries them all: forgotten (they
only counted for the lobby's limit, for a day). The profiles' ``claimed_from`` are kept until
each profile is next opened from its network, when the keyed hash replaces it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "settings",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.execute("UPDATE games SET created_from = NULL")


def downgrade() -> None:
    # The keyed hashes mean nothing to the version before (it compares plain ones): forgotten.
    op.execute("UPDATE games SET created_from = NULL")
    op.execute("UPDATE profiles SET claimed_from = NULL")
    op.drop_table("settings")
