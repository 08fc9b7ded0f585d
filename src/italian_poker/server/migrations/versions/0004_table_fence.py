"""Add ``tables.fence``: the largest fencing token that has written to the table's log (issue
12's table leases, ``server/lease.py``), so that an owner whose lease was taken over cannot
write any more; 0 in the tables already there (no lease has written yet).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column, 0 in every row already written."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fence", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Remove the column."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fence")
