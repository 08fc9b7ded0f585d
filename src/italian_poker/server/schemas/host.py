"""The host's models: bots, stacks, the watch link, the draw hint and the chat's moderation."""

from __future__ import annotations

from pydantic import Field

from italian_poker.server.limits import Chips, SeatNumber
from italian_poker.server.schemas.base import Model

BOT_LEVELS = ("random", "simple", "strong", "expert")


class AddBot(Model):
    """``POST /api/tables/{invite}/bots``."""

    level: str = Field(default="strong", json_schema_extra={"enum": list(BOT_LEVELS)})
    """``random``, ``simple``, ``strong`` or ``expert`` (another is a 422 ``bad_level``)."""


class BotAdded(Model):
    """``POST /api/tables/{invite}/bots``: the bot's seat and name."""

    seat: int
    nickname: str
    level: str


class SetStack(Model):
    """``POST /api/tables/{invite}/stacks``."""

    seat: SeatNumber
    amount: Chips


class WatchSettings(Model):
    """``POST /api/tables/{invite}/watch``."""

    open: bool = Field(strict=True)
    """Whether spectators may watch through a watch link: ``true`` makes one if there is
    none; ``false`` closes it, and its spectators' connections, at once."""
    delay: bool | None = Field(default=None, strict=True)
    """Whether spectators see each deal only once it has ended (the delay of one deal);
    left out, as it is."""
    new_link: bool = Field(default=False, strict=True)
    """With ``open``: a new link, the one before void at once (its spectators closed)."""


class WatchLink(Model):
    """``POST /api/tables/{invite}/watch``: the spectators' access now. The link's secret is
    in the answer that made it only (the server keeps its hash): keep it."""

    open: bool
    delay: bool
    """Spectators see each deal only once it has ended."""
    watch: str | None
    """The new link's secret when this call made one; else None (the link, if open, is the
    one given before)."""
    watch_url: str | None
    """The spectators' page, ``/w/{watch}``; None as ``watch``."""


class AdviceSetting(Model):
    """``POST /api/tables/{invite}/advice``."""

    on: bool = Field(strict=True)
    """Whether the drawing seat is sent the draw hint, from its next state on (the draw
    under way included)."""


class ChatRemoved(Model):
    """What the host's removal of chat messages removed."""

    ids: list[int]
    """The ids of the messages removed, oldest first (none for a person seated here who
    wrote nothing); every page at the table is sent ``chat_removed`` with them."""
