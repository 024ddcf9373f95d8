"""results: whether the person left the game (a stand-in bot played most of their seat, or
the game was abandoned unfinished): such a result counts last, whatever the bot achieved.
Results recorded before were all played to their end by their people, as far as is known.
Games abandoned before this version are not scored now: the version before forgot their
results at its next start, and so does this migration (the rest are scored as abandoned).
Going down does not bring those back (they were to be forgotten).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06 13:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("left_game", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.execute(
        "DELETE FROM pending WHERE game_id IN (SELECT id FROM games WHERE status = 'abandoned')"
    )


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("left_game")
