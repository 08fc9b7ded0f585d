"""The lobby's models: what the server offers, a new table and its tokens, a seat taken, and a
table as anyone with its link sees it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from italian_poker.server.limits import Ante, BankSeconds, Chips, Count, Seats, TurnSeconds
from italian_poker.server.schemas.base import Model
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableStatus


class ServerInfo(Model):
    """``GET /api/server``: what this server offers the pages."""

    advice: bool
    """Whether the server can send the draw hint (false when it runs ``serve --no-advice``:
    the pages then leave the hint's box off and disabled)."""
    spectator_cap: int | None = None
    """The most spectators a table may have at once (the host's page shows the count
    against it); null: no cap."""


class CreateTable(Model):
    """``POST /api/tables``."""

    name: str = Field(default="Tavolo", min_length=1, max_length=60)
    preset: str = Field(default="standard", max_length=40)
    seats: Seats = 4
    stack: Chips = 200
    """At most ``MAX_CHIPS`` (2147483647) for the whole table: ``stack * seats`` must fit."""
    ante: Ante | None = None
    structure: str | None = Field(default=None, max_length=40)
    turn_seconds: TurnSeconds | None = 30
    time_bank_seconds: BankSeconds = 60
    host_nickname: str
    lang: str = Field(default="it", pattern="^(it|en)$")
    players_see_ledger: bool = Field(default=False, strict=True)
    """Whether the players may read the ledger from the start (the host may change it)."""
    watch: bool = Field(default=False, strict=True)
    """Whether spectators may watch from the start: the answer then has the watch link."""
    watch_delay: bool = Field(default=False, strict=True)
    """Whether spectators see each deal only once it has ended (the delay of one deal)."""
    advice: bool | None = Field(default=None, strict=True)
    """Whether the drawing seat is sent the draw hint (the host may change it at any time);
    left out: on when the server has an advisor. ``true`` on a server without one is a 422
    ``no_advisor``."""
    format: str = Field(default="cash", max_length=20)
    """The match format: ``cash`` (join, leave and rebuy at will), ``fixed`` (a number of
    ``deals`` or of ``minutes``, then the standings) or ``sit-and-go`` (everyone starts with
    ``stack`` chips, the antes follow ``schedule``, busted players are out unless the host
    approves their re-entry, one winner). Anything the format does not allow is a 422
    ``bad_format`` with the reason."""
    deals: Count | None = None
    """The deals of a fixed match."""
    minutes: Count | None = None
    """The minutes of a fixed match: no deal begins after them (the deal under way ends)."""
    schedule: str | None = Field(default=None, max_length=400)
    """The ante schedule: a preset (``turbo``, ``standard``, ``slow``) or levels written
    ``ANTExDEALS`` or ``ANTE/MIN/MAXxDEALS``, ``m`` after the number for minutes, separated by
    commas (``1x10m,2x10m,4x10m``). A sit and go needs one; a fixed match may have one."""
    prize_pool: Count = 0
    """Play chips shared by ``shares`` at the end of a sit and go."""
    shares: list[Count] = Field(default_factory=list, max_length=10)
    """Percentages of the prize pool, first place first, adding up to 100."""
    re_entry_levels: Count = 0
    """A sit and go's re-entry window: busted players may re-enter up to this level."""
    re_entry_deals: Count = 0
    """Or: while fewer deals than this are over."""
    keep_days: int | None = Field(default=None, ge=0, le=3650, strict=True)
    """Once the table has expired (nobody joined or played for the server's ``expire_days``)
    and its game is deleted: the days its ledger and finished deals' histories are kept (0:
    deleted with the game); left out: the server's ``keep_days``."""


class TableCreated(Model):
    """``POST /api/tables``: the table, and the host's tokens (seat 0 is the host's)."""

    invite: str
    invite_url: str
    """The table's page, ``/t/{invite}``."""
    host_token: str
    player_token: str
    seat: int
    watch: str | None = None
    """The watch link's secret when ``watch`` was asked for (the server keeps only its
    hash); else None."""
    watch_url: str | None = None
    """The spectators' page, ``/w/{watch}``; None without a watch link."""


class TakeSeat(Model):
    """``POST /api/tables/{invite}/seats``."""

    nickname: str


class SeatTaken(Model):
    """``POST /api/tables/{invite}/seats``: the new player's token and seat; at a locked
    table the seat is null and ``waiting`` true until the host answers
    (``GET /api/tables/{invite}/seat-request`` with the token)."""

    player_token: str
    seat: int | None
    waiting: bool = False


class LobbySeat(Model):
    """A seat as the lobby shows it; an empty seat has no nickname, bot or stack."""

    seat: int
    nickname: str | None
    bot: str | None
    """The bot's level; None for a person."""
    stack: int | None
    sitting_out: bool
    connected: bool
    """A bot, or a person with the table's page open."""


class LobbyTable(Model):
    """A table as the lobby shows it: no cards, ever."""

    name: str
    status: TableStatus
    rules: dict[str, Any]
    """The rules in play (``Rules.to_dict``)."""
    options: dict[str, Any]
    """The table's settings as created (preset, seats, stack, ante, structure, clocks,
    language)."""
    seats: list[LobbySeat]
    hand: int | None
    """The current deal, else the last one; None before the first."""
    players_see_ledger: bool
    """Whether the players may read the ledger now (the host always may)."""
    advice: bool
    """Whether the drawing seat is sent the draw hint now (the host's switch)."""

    @classmethod
    def of(cls, runtime: TableRuntime) -> LobbyTable:
        """The lobby's view of ``runtime``."""
        state = runtime.state
        seats = [
            LobbySeat(
                seat=i,
                nickname=slot.nickname if slot else None,
                bot=slot.bot if slot else None,
                stack=state.stack(i) if slot else None,
                sitting_out=bool(slot and slot.sitting_out),
                connected=bool(slot and (slot.bot is not None or i in runtime.clients)),
            )
            for i, slot in enumerate(state.slots)
        ]
        return cls(
            name=state.name,
            status=state.status,
            rules=state.rules.to_dict(),
            options=state.options,
            seats=seats,
            hand=state.hand,
            players_see_ledger=state.switches.players_see_ledger,
            advice=state.switches.advice_on,
        )
