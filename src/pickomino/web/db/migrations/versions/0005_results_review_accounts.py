"""results: each seat's decisions, their summed cost and its luck, from the game's review
(issue 27: a profile's accuracy over its last games). Null until the game is reviewed: the
server reviews a game with results when it ends, and at start those still without.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 12:12:04.647618
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decisions", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("cost", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("luck", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("luck")
        batch_op.drop_column("cost")
        batch_op.drop_column("decisions")
