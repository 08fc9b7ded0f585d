"""A table's chat messages in the database (their own table, ``chat_messages``: never an
event, so never in the log or a history)."""

from __future__ import annotations

from sqlalchemy import Engine, delete, insert, select

from italian_poker.server.chat import ChatMessage
from italian_poker.server.models import utcnow
from italian_poker.server.rows import CHAT, utc

__all__ = ["ChatStore"]


class ChatStore:
    """The chat messages of every table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, table_id: int, player: int, nickname: str, text: str) -> ChatMessage:
        """Store a chat message of ``player`` (as ``nickname``) at the table, written now;
        the message with its id."""
        created = utcnow()
        with self.engine.begin() as connection:
            result = connection.execute(
                insert(CHAT).values(
                    table_id=table_id, player=player, nickname=nickname, text=text, created=created
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            found = int(key[0])
        return ChatMessage(found, player, nickname, text, created)

    def messages(self, table_id: int, limit: int) -> list[ChatMessage]:
        """The table's newest ``limit`` chat messages, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(CHAT.c.id, CHAT.c.player, CHAT.c.nickname, CHAT.c.text, CHAT.c.created)
                .where(CHAT.c.table_id == table_id)
                .order_by(CHAT.c.id.desc())
                .limit(limit)
            ).all()
        return [
            ChatMessage(int(n), int(player), nickname, text, utc(created))
            for n, player, nickname, text, created in reversed(rows)
        ]

    def delete(self, table_id: int, message_id: int) -> bool:
        """Delete chat message ``message_id`` of the table; whether there was one."""
        with self.engine.begin() as connection:
            result = connection.execute(
                delete(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.id == message_id)
            )
        return bool(result.rowcount)

    def delete_of(self, table_id: int, player: int) -> list[int]:
        """Delete every chat message ``player`` wrote at the table; their ids, in order."""
        where = (CHAT.c.table_id == table_id) & (CHAT.c.player == player)
        with self.engine.begin() as connection:
            ids = [
                int(n)
                for n in connection.execute(
                    select(CHAT.c.id).where(where).order_by(CHAT.c.id)
                ).scalars()
            ]
            if ids:
                connection.execute(delete(CHAT).where(where, CHAT.c.id.in_(ids)))
        return ids
