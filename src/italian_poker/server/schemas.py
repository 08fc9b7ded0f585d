"""The REST API's request bodies and responses, as pydantic models: FastAPI checks every body
with them and writes every response through them, so that the OpenAPI schema
(``app.openapi()``) documents both.

A response's members are written in the order of its model's fields: the browser's pages
(``static/*.js``) and the tests read them by name, and the order is the one the API has
always had. Every whole number is checked against :mod:`italian_poker.server.limits`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from italian_poker.server.ledger import Summary
from italian_poker.server.limits import (
    Ante,
    BankSeconds,
    Chips,
    SeatNumber,
    Seats,
    TurnSeconds,
)
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableStatus
from italian_poker.table.statistics import Statistics

BOT_LEVELS = ("random", "simple", "strong")


class Model(BaseModel):
    """A model whose fields' docstrings describe them in the OpenAPI schema."""

    model_config = ConfigDict(use_attribute_docstrings=True)


# --- request bodies ------------------------------------------------------------------------


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


class TakeSeat(Model):
    """``POST /api/tables/{invite}/seats``."""

    nickname: str


class AddBot(Model):
    """``POST /api/tables/{invite}/bots``."""

    level: str = Field(default="strong", json_schema_extra={"enum": list(BOT_LEVELS)})
    """``random``, ``simple`` or ``strong`` (another is a 422 ``bad_level``)."""


class SetStack(Model):
    """``POST /api/tables/{invite}/stacks``."""

    seat: SeatNumber
    amount: Chips


class LedgerVisibility(Model):
    """``POST /api/tables/{invite}/ledger-visibility``."""

    players: bool = Field(strict=True)
    """Whether the players may read the ledger (``true`` or ``false``)."""


# --- responses -----------------------------------------------------------------------------


class TableCreated(Model):
    """``POST /api/tables``: the table, and the host's tokens (seat 0 is the host's)."""

    invite: str
    invite_url: str
    """The table's page, ``/t/{invite}``."""
    host_token: str
    player_token: str
    seat: int


class SeatTaken(Model):
    """``POST /api/tables/{invite}/seats``: the new player's token and seat."""

    player_token: str
    seat: int


class BotAdded(Model):
    """``POST /api/tables/{invite}/bots``: the bot's seat and name."""

    seat: int
    nickname: str
    level: str


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
            players_see_ledger=state.players_see_ledger,
        )


class LedgerEntry(Model):
    """One movement of play chips."""

    nickname: str
    player: int | None
    """Who, whatever their nickname (the seq of the event that seated them); None in rows
    written before migration 0003."""
    kind: str
    """``buy_in``, ``adjust``, ``result`` (a deal's net) or ``cash_out``."""
    amount: int
    hand: int | None
    created: str
    """When, in ISO 8601."""


class LedgerPerson(Model):
    """One person's line of the summary."""

    player: int | None
    """As in the rows; None for the rows of a nickname written without one."""
    nickname: str
    """The latest nickname."""
    bought_in: int
    """Buy-ins, and the chips the host added."""
    cashed_out: int
    """Cash-outs, and the chips the host took off."""
    stack: int
    """The chips in front of them now; 0 once they left."""
    net: int
    """``stack + cashed_out - bought_in``."""
    seated: bool


class LedgerTotals(Model):
    """Every line summed, the pot's included: ``net`` is 0."""

    bought_in: int
    cashed_out: int
    stack: int
    """The players' chips and the pot's."""
    net: int


class LedgerSummary(Model):
    """The ledger per person (in the order they first came), the pot and the totals."""

    people: list[LedgerPerson]
    in_pot: int
    """The chips in no one's stack: the pot of the deal under way, or the pot carried to the
    next deal (everyone passed, 3.5; everyone said parol, 5.4(a))."""
    totals: LedgerTotals

    @classmethod
    def of(cls, summary: Summary) -> LedgerSummary:
        """The response's form of ``summary``."""
        totals = summary.totals
        return cls(
            people=[
                LedgerPerson(
                    player=p.player,
                    nickname=p.nickname,
                    bought_in=p.bought_in,
                    cashed_out=p.cashed_out,
                    stack=p.stack,
                    net=p.net,
                    seated=p.seated,
                )
                for p in summary.people
            ],
            in_pot=summary.in_pot,
            totals=LedgerTotals(
                bought_in=totals.bought_in,
                cashed_out=totals.cashed_out,
                stack=totals.stack,
                net=totals.net,
            ),
        )


class Ledger(Model):
    """``GET /api/tables/{invite}/ledger``: the rows, oldest first, and their summary."""

    ledger: list[LedgerEntry]
    summary: LedgerSummary


class Hands(Model):
    """``GET /api/tables/{invite}/histories``: the finished deals of the token's holder."""

    hands: list[int]


class PlayerStats(Model):
    """One player's statistics over the table's finished deals (``table/statistics.py``
    defines each number)."""

    name: str
    """The name the deals record: the nickname the player had then."""
    played: int
    """Deals dealt in (passed and parol deals included)."""
    opened: int
    """Deals the player opened (3.3); a blind is no opening."""
    showdowns: int
    """Deals in which the player showed or mucked at the showdown."""
    showdowns_won: int
    """Of those, deals in which the player won a pot (each sharer of a split pot counts)."""
    won_without_showdown: int
    """Deals won uncalled, everyone else having folded (3.7, 5.4(c))."""
    net: int
    """Chips won less chips lost, antes and make-ups included."""
    biggest_pot: int
    """The most chips won from the pots in one deal."""


class StatsTotals(Model):
    """The deals counted; the players' nets add up to ``carried_in - carried_out``."""

    deals: int
    opened: int
    passed: int
    parols: int
    showdowns: int
    carried_in: int
    """Chips the deals' pots held from earlier deals (3.5, 5.5)."""
    carried_out: int
    """Chips the deals' pots carried on to the next deal."""
    net: int
    unfinished: int


class TableStats(Model):
    """``GET /api/tables/{invite}/stats``: every player's statistics over the table's finished
    deals, in the order the players first sat in a deal; all of it public."""

    players: list[PlayerStats]
    totals: StatsTotals

    @classmethod
    def of(cls, statistics: Statistics) -> TableStats:
        """The response for ``statistics`` (``table.statistics.statistics_of``)."""
        return cls.model_validate(statistics.to_dict())
