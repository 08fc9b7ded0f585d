"""Drop ``seats.connected_at``: nothing wrote or read it (who is connected lives in memory).

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


def upgrade() -> None:
    """Remove the column (a table copy on SQLite, which cannot drop columns in place)."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("connected_at")


def downgrade() -> None:
    """Put the column back, empty."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("connected_at", sa.DateTime(timezone=True), nullable=True))
