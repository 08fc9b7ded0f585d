"""The host's moderation of the table's chat (the host's token): remove one message, or
every message of one person. The chat itself travels on the WebSocket
(:mod:`.table_socket`); what a message may hold is :mod:`italian_poker.server.chat`'s."""

from __future__ import annotations

from fastapi import APIRouter

from italian_poker.server.dependencies import HostTableDep
from italian_poker.server.errors import error_responses
from italian_poker.server.limits import ChatMessageInPath, PlayerInPath
from italian_poker.server.schemas.host import ChatRemoved

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["chat"],
    responses=error_responses(403, 404, 422),
)


@router.delete("/chat/{message}")
async def remove_message(runtime: HostTableDep, message: ChatMessageInPath) -> ChatRemoved:
    """Delete one chat message (its ``id``): gone from the database and from every page;
    404 ``no_message`` when the table has no such message."""
    return ChatRemoved(ids=await runtime.play.remove_chat(message))


@router.delete("/players/{player}/chat")
async def remove_messages_of(runtime: HostTableDep, player: PlayerInPath) -> ChatRemoved:
    """Delete every chat message of one person (a message's ``player``), wherever they sit
    now or after they left; 404 ``no_player`` for an id that neither sits nor wrote here."""
    return ChatRemoved(ids=await runtime.play.remove_chat_of(player))
