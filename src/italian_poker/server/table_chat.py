"""A table's chat: no event, but messages its owner checks (:mod:`italian_poker.server.chat`),
stores in the chat's own table and sends to every connection at the table (and, through the
bus, to the other processes' players). It never takes the table's lock, so a chat never
waits for a deal's commits, nor a deal for a chat; it has its own, held while a message is
stored or removed, so the chat is written one change at a time and sent in the order of its
ids."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from italian_poker.server.chat import ChatRate, ChatRefusal, check_text
from italian_poker.server.chat_buckets import ChatBuckets, MemoryBuckets, RedisBuckets
from italian_poker.server.outbox import Client
from italian_poker.server.presence import Presence
from italian_poker.server.protocol import encode, error_message
from italian_poker.server.refusal import Refusal
from italian_poker.server.seats import Slot
from italian_poker.server.table_core import TableCore, TablePart

T = TypeVar("T")

log = logging.getLogger(__name__)


# --- what the chat sends (never part of a state) -----------------------------------------


def chat_message(message: dict[str, Any]) -> dict[str, Any]:
    """A new chat message (:meth:`ChatMessage.as_json`) for every connection at the table."""
    return {"type": "chat", "message": message}


def chat_log_message(
    messages: Sequence[dict[str, Any]], you: int | None, max_length: int
) -> dict[str, Any]:
    """The newest chat messages, oldest first, for a connection after its hello; ``you``:
    the connection's person id (their messages' ``player``), ``max_length``: the longest
    message the server takes."""
    return {"type": "chat_log", "you": you, "max_length": max_length, "messages": list(messages)}


def chat_removed_message(ids: Sequence[int]) -> dict[str, Any]:
    """Chat messages the host removed, for every connection at the table."""
    return {"type": "chat_removed", "ids": list(ids)}


class TableChat(TablePart):
    """The chat of a table: each person's allowance and the chat's lock."""

    def __init__(self, table: TableCore, presence: Presence) -> None:
        super().__init__(table)
        self.presence = presence
        self.chat_rate = ChatRate(self.settings.chat_burst, self.settings.chat_interval_seconds)
        peers = table.peers
        self.chat_buckets: ChatBuckets = (
            MemoryBuckets(self.chat_rate)
            if peers is None
            else RedisBuckets(
                peers.bus.client,
                self.chat_rate,
                f"{peers.bus.prefix}:table:{{{table.id}}}:chat-bucket",
            )
        )
        """Each person's chat allowance, by person id: in this process's memory, or in
        Redis (shared by the table's owners in turn) with several processes."""
        self.chat_lock = asyncio.Lock()
        """Held while a chat message is stored or removed: the table's chat is written one
        change at a time, and sent in the order of its ids."""

    def seat_of_person(self, player: int) -> int | None:
        """The seat of the person ``player`` now (None once they left)."""
        for seat, slot in enumerate(self.state.slots):
            if slot is not None and slot.player == player:
                return seat
        return None

    def checked(
        self, seat: int, text: str, player: int | None
    ) -> tuple[str, Slot | None, int | None]:
        """A chat message of the person in ``seat`` (``player``: that person, as the process
        that heard them knew it), checked: its text, the seat's slot and the person; refused
        (:class:`Refusal` with a ``chat_`` code) when the text breaks the rules."""
        try:
            message = check_text(text, self.settings.chat_max_length)
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message, refusal.status) from None
        slot = self.state.slots[seat] if 0 <= seat < len(self.state.slots) else None
        if player is None and slot is not None:
            player = slot.player
        return message, slot, player

    async def post(self, seat: int, message: str, slot: Slot | None, player: int | None) -> None:
        """The owner: store a checked message (:meth:`checked`), then send it to every
        connection at the table; refused when the person writes too fast, holds no seat
        here any more, or the message could not be stored (``chat_not_sent``)."""
        tokens = self.table.tokens
        if slot is None or slot.bot is not None or seat not in tokens or slot.player != player:
            raise Refusal(
                "chat_not_seated", "only a player seated at this table can write in its chat", 403
            )
        person = slot.player
        try:
            await self.chat_buckets.take(person, self.settings.clock())
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message, refusal.status) from None
        except Exception as error:  # Redis unreachable
            log.exception("table %s: the chat's rate could not be read", self.id)
            raise Refusal(
                "chat_not_sent", "the server could not send your message: send it again", 503
            ) from error
        async with self.chat_lock:
            try:
                stored = await self._database(
                    functools.partial(self.store.chat.add, self.id, person, slot.nickname, message)
                )
            except Exception as error:
                log.exception("table %s: a chat message could not be saved", self.id)
                with contextlib.suppress(Exception):
                    await self.chat_buckets.give_back(person, self.settings.clock())
                raise Refusal(
                    "chat_not_sent", "the server could not save your message: send it again", 503
                ) from error
            self.send(chat_message(stored.as_json(self.seat_of_person(person))))

    async def send_log(self, client: Client) -> None:
        """Send ``client`` the table's newest chat messages (after its hello). Caller holds
        the chat's lock."""
        slot = self.state.slots[client.seat]
        call = functools.partial(self.store.chat.messages, self.id, self.settings.chat_history)
        try:
            messages = await self._database(call)
        except Exception:
            log.exception("table %s: the chat could not be read", self.id)
            client.send(
                error_message("chat_unavailable", "the chat could not be read: reload the page")
            )
            return
        client.send(
            chat_log_message(
                [m.as_json(self.seat_of_person(m.player)) for m in messages],
                None if slot is None else slot.player,
                self.settings.chat_max_length,
            )
        )

    async def remove(self, message_id: int) -> list[int]:
        """The owner: remove chat message ``message_id`` (deleted, and gone from every page);
        404 ``no_message`` when the table has no such message."""
        async with self.chat_lock:
            call = functools.partial(self.store.chat.delete, self.id, message_id)
            if not await self._write(call):
                raise Refusal("no_message", "the chat has no such message (removed already?)", 404)
            self.send(chat_removed_message([message_id]))
        return [message_id]

    async def remove_of(self, player: int) -> list[int]:
        """The owner: remove every chat message of the person ``player``: their ids (none for
        someone seated who wrote nothing); 404 ``no_player`` for a person who neither sits
        here nor wrote here."""
        async with self.chat_lock:
            ids = await self._write(functools.partial(self.store.chat.delete_of, self.id, player))
            if not ids and self.seat_of_person(player) is None:
                raise Refusal(
                    "no_player", "no one with this player id sits or wrote at this table", 404
                )
            if ids:
                self.send(chat_removed_message(ids))
        return ids

    async def _write(self, call: Callable[[], T]) -> T:
        """A store call that changes the chat, off the event loop; a failure is a 503."""
        try:
            return await self._database(call)
        except Exception as error:
            log.exception("table %s: the chat could not be changed", self.id)
            raise Refusal(
                "not_saved", "the server could not change the chat, so nothing changed", 503
            ) from error

    def send(self, message: dict[str, Any]) -> None:
        """A chat message to every connection here and, from the owner, to the other
        processes' (:meth:`heard`)."""
        text = encode(message)
        for clients in self.presence.clients.values():
            for client in clients:
                client.send_text(text)
        peers = self.table.peers
        if peers is not None and self.owning:
            peers.chat(message)

    async def heard(self, data: dict[str, Any]) -> None:
        """A replica: the owner's chat message, for the players connected here."""
        if self.owning or data.get("type") not in ("chat", "chat_removed"):
            return
        async with self.chat_lock:  # after a connection's chat log, if one is being read
            self.send(data)
