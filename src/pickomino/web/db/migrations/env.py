"""Alembic's environment: run the revisions on the connection that
:func:`pickomino.web.db.migrations.upgrade` (or :func:`~pickomino.web.db.migrations.new_revision`)
hands over, inside its transaction (no alembic.ini, no URL of its own)."""

from __future__ import annotations

from alembic import context

from pickomino.web.db.migrations import target_metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=target_metadata(),
    render_as_batch=True,  # SQLite alters a table by copying it: Alembic's batch mode
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
