"""Add what unloading and expiring tables need: ``tables.active`` (last use, filled from
``created`` for the tables already there), ``tables.expired`` and ``tables.keep_until``, the
turn kept by an unloaded table (``kept_since``, ``kept_elapsed``), and ``hand_archives``, the
finished deals' histories an expired table keeps.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (``active`` as ``created``) and the archive table."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("active", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("expired", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("keep_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("kept_since", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("kept_elapsed", sa.Float(), nullable=True))
    op.execute("UPDATE tables SET active = created")
    op.create_table(
        "hand_archives",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("history", sa.Text(), nullable=False),
    )
    op.create_index("ix_hand_archives_table_id", "hand_archives", ["table_id"])


def downgrade() -> None:
    """Remove the archive table and the columns."""
    op.drop_index("ix_hand_archives_table_id", "hand_archives")
    op.drop_table("hand_archives")
    with op.batch_alter_table("tables") as batch:
        for column in ("kept_elapsed", "kept_since", "keep_until", "expired", "active"):
            batch.drop_column(column)
