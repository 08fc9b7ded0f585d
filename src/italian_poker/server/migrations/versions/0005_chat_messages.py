"""Add ``chat_messages``: the table's chat, stored with the table and never in its
event log, so that the game's log and hand histories hold no chat and a message the host
removes is gone from the database.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table, empty."""
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])


def downgrade() -> None:
    """Drop the table."""
    op.drop_index("ix_chat_messages_table_id", table_name="chat_messages")
    op.drop_table("chat_messages")
