"""What databases gained before migrations existed: the tables ``create_all`` made and the
columns the store added at start, each only where it is missing (a database made before
migrations may hold any part of it: it is stamped at 0001 and upgraded from there).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def tables() -> dict[str, list[sa.schema.SchemaItem]]:
    """The tables added after the first schema (new objects on every call: a column
    belongs to one table)."""
    return {
        "sheets": [
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        ],
        "table_events": [
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("entry", sa.Text, nullable=False),
        ],
        "profiles": [
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("name_key", sa.String(64), nullable=False),
            sa.Column("key_hash", sa.String(64), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.UniqueConstraint("name_key"),
        ],
        "results": [
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("player", sa.String(32), nullable=False, index=True),
            sa.Column("rank", sa.Integer, nullable=False),
            sa.Column("worms", sa.Integer, nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("win", sa.Float, nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False),
            sa.Column("mu", sa.Float),
            sa.Column("sigma", sa.Float),
            sa.Column("finished", sa.Float, nullable=False),
        ],
        "ratings": [
            sa.Column("player", sa.String(32), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        ],
        "pending": [sa.Column("game_id", sa.String(32), primary_key=True)],
        "rematches": [
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("new_game_id", sa.String(32), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("offered_by", sa.Integer, nullable=False),
            sa.Column("accepted", sa.Text, nullable=False),
            sa.Column("declined_by", sa.Integer),
            sa.Column("updated", sa.Float, nullable=False),
        ],
    }


def columns() -> list[tuple[str, sa.Column]]:
    """The nullable columns added to tables of the first schema (and to sheets), so that
    the rows already there stay valid."""
    return [
        ("games", sa.Column("turns", sa.Integer)),
        ("games", sa.Column("seating", sa.Text)),
        ("seats", sa.Column("open_seat", sa.Boolean)),
        ("sheets", sa.Column("secret", sa.String(64))),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    for name, items in tables().items():
        if name not in present:
            op.create_table(name, *items)
    for table, column in columns():
        if table in present and column.name in {c["name"] for c in inspector.get_columns(table)}:
            continue
        with op.batch_alter_table(table) as batch:
            batch.add_column(column)


def downgrade() -> None:
    for table, column in reversed(columns()):
        if table != "sheets":
            with op.batch_alter_table(table) as batch:
                batch.drop_column(column.name)
    for name in reversed(tables()):
        op.drop_table(name)
