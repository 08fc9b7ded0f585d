"""The REST API's request bodies and responses, as pydantic models: FastAPI checks every body
with them and writes every response through them, so that the OpenAPI schema
(``app.openapi()``) documents both.

A response's members are written in the order of its model's fields: the browser's pages
(``static/*.js``) and the tests read them by name, and the order is the one the API has
always had. Every whole number is checked against :mod:`italian_poker.server.limits`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from italian_poker.server.ledger import Summary
from italian_poker.server.limits import (
    MAX_STATS_TABLES,
    Ante,
    BankSeconds,
    Chips,
    SeatNumber,
    Seats,
    TurnSeconds,
)
from italian_poker.server.protocol import card_codes, cards_label
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableStatus
from italian_poker.table.narration import Line
from italian_poker.table.replay_frames import Frame, FrameAward, FrameSeat, HandFrames
from italian_poker.table.statistics import Statistics

BOT_LEVELS = ("random", "simple", "strong", "expert")


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
    watch: bool = Field(default=False, strict=True)
    """Whether spectators may watch from the start: the answer then has the watch link."""
    watch_delay: bool = Field(default=False, strict=True)
    """Whether spectators see each deal only once it has ended (the delay of one deal)."""
    advice: bool | None = Field(default=None, strict=True)
    """Whether the drawing seat is sent the draw hint (the host may change it at any time);
    left out: on when the server has an advisor. ``true`` on a server without one is a 422
    ``no_advisor``."""


class ServerInfo(Model):
    """``GET /api/server``: what this server offers the pages."""

    advice: bool
    """Whether the server can send the draw hint (false when it runs ``serve --no-advice``:
    the pages then leave the hint's box off and disabled)."""


class TakeSeat(Model):
    """``POST /api/tables/{invite}/seats``."""

    nickname: str


class AddBot(Model):
    """``POST /api/tables/{invite}/bots``."""

    level: str = Field(default="strong", json_schema_extra={"enum": list(BOT_LEVELS)})
    """``random``, ``simple``, ``strong`` or ``expert`` (another is a 422 ``bad_level``)."""


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


class AdviceSetting(Model):
    """``POST /api/tables/{invite}/advice``."""

    on: bool = Field(strict=True)
    """Whether the drawing seat is sent the draw hint, from its next state on (the draw
    under way included)."""


class LedgerVisibility(Model):
    """``POST /api/tables/{invite}/ledger-visibility``."""

    players: bool = Field(strict=True)
    """Whether the players may read the ledger (``true`` or ``false``)."""


class TableKey(Model):
    """A table of a group and the token of the seat held there."""

    invite: str = Field(max_length=64)
    """The table's invite (an unknown one is reported in the answer, ``no_table``)."""
    token: str = Field(max_length=128)
    """The player token of the seat held at the table (a wrong one is reported in the
    answer, ``forbidden``)."""


class GroupStatsQuery(Model):
    """``POST /api/stats``: the tables to count together, oldest first."""

    tables: list[TableKey] = Field(min_length=1, max_length=MAX_STATS_TABLES)
    """1 to ``MAX_STATS_TABLES`` (50) tables, each invite once."""

    @field_validator("tables")
    @classmethod
    def _each_once(cls, tables: list[TableKey]) -> list[TableKey]:
        invites = [table.invite for table in tables]
        if len(set(invites)) != len(invites):
            raise ValueError("each table may be asked for once only")
        return tables


# --- responses -----------------------------------------------------------------------------


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
            players_see_ledger=state.players_see_ledger,
            advice=state.advice_on,
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


class ChatRemoved(Model):
    """What the host's removal of chat messages removed."""

    ids: list[int]
    """The ids of the messages removed, oldest first (none for a person seated here who
    wrote nothing); every page at the table is sent ``chat_removed`` with them."""


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


class GroupTable(Model):
    """One table of ``POST /api/stats``, in the order asked: counted, or why not."""

    invite: str
    counted: bool
    """Whether its deals are in the statistics."""
    name: str | None
    """The table's name; None when it is not counted."""
    deals: int
    """Its finished deals counted (0 when it is not counted)."""
    error: str | None
    """Why it is not counted: ``no_table`` (no table has this invite) or ``forbidden`` (the
    token holds no seat there); None when counted."""
    message: str | None
    """The same for a person; None when counted."""


class GroupStats(Model):
    """``POST /api/stats``: each table asked for (counted, or why not), and every player's
    statistics over the finished deals of the tables counted, added up as ``italian-poker
    stats`` adds up folders (one player per name: ``table.statistics.statistics_of``)."""

    tables: list[GroupTable]
    players: list[PlayerStats]
    totals: StatsTotals

    @classmethod
    def of(cls, tables: list[GroupTable], statistics: Statistics) -> GroupStats:
        """The response for ``tables`` and the ``statistics`` of those counted."""
        return cls.model_validate({"tables": tables, **statistics.to_dict()})


# --- the hand replayer -----------------------------------------------------------------------


class Words(Model):
    """A sentence or a label in both languages."""

    en: str
    it: str

    @classmethod
    def of(cls, line: Line) -> Words:
        """A narration :class:`~italian_poker.table.narration.Line`."""
        return cls(en=line.en, it=line.it)


class ReplaySeat(Model):
    """A seat at one step of the replayer, as this viewer sees it."""

    seat: int
    """The seat in the deal (0 to n-1, table order)."""
    name: str
    stack: int
    bet: int
    """Chips bet in the betting round under way."""
    status: str = Field(json_schema_extra={"enum": ["active", "folded"]})
    cards: list[str]
    """The seat's cards this viewer sees: its own, or those shown at the showdown."""
    cards_label: Words | None
    """``cards`` in words; None when none is seen."""
    hidden: int
    """How many cards it holds face down to this viewer (0 once folded)."""
    changed: int | None
    """Cards changed at the draw, once drawn (0: *servito*)."""

    @classmethod
    def of(cls, seat: int, entry: FrameSeat) -> ReplaySeat:
        """A seat of a :class:`~italian_poker.table.replay_frames.Frame`."""
        return cls(
            seat=seat,
            name=entry.name,
            stack=entry.stack,
            bet=entry.bet,
            status="folded" if entry.folded else "active",
            cards=card_codes(entry.cards),
            cards_label=Words(**cards_label(entry.cards)) if entry.cards else None,
            hidden=0 if entry.folded else entry.held - len(entry.cards),
            changed=entry.changed,
        )


class ReplayAction(Model):
    """The step that led to a frame: a draw shows how many cards were changed, the discards
    only when this viewer may see them (their own, or face up under 003)."""

    seat: int
    kind: str
    """An ``ActionKind`` value (``open``, ``call``, ``draw``, ...)."""
    amount: int | None
    cards_changed: int | None
    discards: list[str]
    split: bool
    """The opener announced a split opening (4.4)."""
    phase: str
    """The phase it was played in."""


class ReplayFrame(Model):
    """The deal after ``index`` actions (0: as dealt, the antes in the pot)."""

    index: int
    phase: str
    """The phase the deal is in now (a ``Phase`` value; ``complete`` on the last frame)."""
    action: ReplayAction | None
    """None on frame 0."""
    line: Words
    """The step in words, as the table's log says it (frame 0: who deals, what opens)."""
    pot: int
    """Every chip in the middle; on the last frame, what is carried to the next deal."""
    current_bet: int
    to_act: int | None
    opener: int | None
    seats: list[ReplaySeat]
    proof: list[str]
    """The opener's proof, public once the deal is over (3.3, 4.4)."""
    blind: bool
    """A blind has been bet: the deal needs no opening (2, blind)."""

    @classmethod
    def of(cls, frame: Frame) -> ReplayFrame:
        """A :class:`~italian_poker.table.replay_frames.Frame`."""
        action = frame.action
        return cls(
            index=frame.index,
            phase=frame.phase.value,
            action=None
            if action is None
            else ReplayAction(
                seat=action.seat,
                kind=action.kind.value,
                amount=action.amount,
                cards_changed=action.cards_changed,
                discards=card_codes(action.discards),
                split=action.split,
                phase=action.phase.value,
            ),
            line=Words.of(frame.line),
            pot=frame.pot,
            current_bet=frame.current_bet,
            to_act=frame.actor,
            opener=frame.opener,
            seats=[ReplaySeat.of(i, seat) for i, seat in enumerate(frame.seats)],
            proof=card_codes(frame.proof),
            blind=frame.blind,
        )


class ReplayStreet(Model):
    """A phase the deal went through, and its first frame."""

    phase: str
    frame: int


class ReplayAward(Model):
    """A pot awarded at the deal's end, as the table's ``result.awards`` give it (the seats
    are the deal's, as in ``frames``)."""

    amount: int
    winners: list[int]
    shares: list[int]
    """Each winner's chips, in the order of ``winners``."""
    line: Words
    """Who won it, with what and why (the report's sentence)."""

    @classmethod
    def of(cls, award: FrameAward) -> ReplayAward:
        """A :class:`~italian_poker.table.replay_frames.FrameAward`."""
        return cls(
            amount=award.amount,
            winners=list(award.winners),
            shares=list(award.shares),
            line=Words.of(award.line),
        )


class HandReplay(Model):
    """``GET /api/tables/{invite}/histories/{hand}/frames``: a finished deal step by step,
    as the token's holder may see it: their own view if they were dealt in, else what
    everyone at the table saw (no hidden card)."""

    hand: int
    you: int | None
    """The viewer's seat in the deal; None: the public view."""
    dealer: int
    requirement: Words
    """What opened the deal (3.2)."""
    streets: list[ReplayStreet]
    frames: list[ReplayFrame]
    awards: list[ReplayAward]
    """The pots awarded at the end (none after a passed deal or a parol: the last frame's
    pot is carried); the page shows them on the last frame, as the table does after a
    deal."""
    result: list[Words]
    """The result explained, a sentence a line (the table's after-deal report)."""
    download: str | None
    """The deal's hand history (``.phh``) for this viewer; None for the public view."""

    @classmethod
    def of(cls, frames: HandFrames, invite: str) -> HandReplay:
        """The replayer's answer for ``frames`` of the table at ``invite``."""
        viewer = frames.viewer if isinstance(frames.viewer, int) else None
        requirement = frames.requirement
        return cls(
            hand=frames.number,
            you=viewer,
            dealer=frames.dealer,
            requirement=Words(en=requirement.describe("en"), it=requirement.describe("it")),
            streets=[ReplayStreet(phase=p.value, frame=i) for p, i in frames.streets()],
            frames=[ReplayFrame.of(frame) for frame in frames.frames],
            awards=[ReplayAward.of(award) for award in frames.awards],
            result=[Words.of(line) for line in frames.result],
            download=None
            if viewer is None
            else f"/api/tables/{invite}/histories/{frames.number}.phh",
        )
