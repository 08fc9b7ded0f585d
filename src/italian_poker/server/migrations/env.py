"""Alembic environment: runs on the connection handed over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from italian_poker.server.models import Base


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if _connection is None:
    raise RuntimeError("run the migrations through italian_poker.server.database.upgrade")
_run(_connection)
