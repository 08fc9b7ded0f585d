"""Add ``tables.watch_hash``: the sha256 hash of the table's watch link for spectators (issue
13), empty while the host offers none; unique, so that a watch link finds one table.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column, empty in every table already there."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("watch_hash", sa.String(64), nullable=True))
        batch.create_index("ix_tables_watch_hash", ["watch_hash"], unique=True)


def downgrade() -> None:
    """Remove the column."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_watch_hash")
        batch.drop_column("watch_hash")
