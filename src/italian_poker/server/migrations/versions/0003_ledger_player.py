"""Add ``ledger.player``: whose chips a row moves (the seq of the event that seated them), so
that two people who used one nickname at a table have separate rows.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column, empty in the rows already written (they knew the nickname only)."""
    with op.batch_alter_table("ledger") as batch:
        batch.add_column(sa.Column("player", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Remove the column."""
    with op.batch_alter_table("ledger") as batch:
        batch.drop_column("player")
