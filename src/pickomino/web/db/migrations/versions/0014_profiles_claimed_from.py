"""profiles: an index on the site each was claimed from (``claimed_from``): a rated game's
pair of profiles counts its daily games by the sites they were claimed from, read as the game
is recorded (an audit's fresh spare profiles, claimed from the same addresses, started a new
count of their own).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 12:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("profiles_claimed_from", "profiles", ["claimed_from"])


def downgrade() -> None:
    op.drop_index("profiles_claimed_from", table_name="profiles")
