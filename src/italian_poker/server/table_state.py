"""A table's state as its event log builds it: seats, status, the match, the public log.

Everything that changes a table is an event ``(seq, kind, payload)``; :meth:`TableState.apply`
applies one, with the engine checking every action, and is the only way the state changes.
A restarted server replays a table's events in order and arrives exactly where it was. No
I/O here: the runtime persists each event before anyone hears of it.

The match is played through the table driver (:class:`~italian_poker.table.driver.Table`):
a person's action through :meth:`Table.act`, a bot's decision through :meth:`Table.step`
and a turn that ran out through :meth:`Table.play_default`, the action played then being
written into the event, so that a replay plays exactly what was played. Each seated person
is the match's player of the same id (:attr:`Slot.player` is their ``player_id``): a seat, a
player of the match and a seat of a deal are matched by that id, never by a name.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import SECURE, SeededSource
from italian_poker.engine.cards import Card, parse_card
from italian_poker.engine.deal import Deal
from italian_poker.engine.errors import ItalianPokerError, SeatError
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase, Seat
from italian_poker.engine.observer import PUBLIC, PublicView, SeatView, observe, sees_discards
from italian_poker.engine.opening import OpeningRequirement, opening_requirement
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import Rules
from italian_poker.server.i18n import line
from italian_poker.server.limits import MAX_CHIPS, whole_number
from italian_poker.server.nicknames import nickname_key
from italian_poker.server.recorded_cards import TAKEN, DealCards, card_entries
from italian_poker.server.recorded_cards import recorded as recorded_cards
from italian_poker.table.driver import (
    ActionTaken,
    DealFinished,
    DealStarted,
    DefaultReason,
    MakeUpAnswered,
    NoDeal,
    Table,
    TableEvent,
)
from italian_poker.table.events import Event, FinishedDeal
from italian_poker.table.narration import Line, action_line, award_lines, event_line, report_lines

TurnKey = tuple[int | None, int, int]
"""What tells one turn from the next: (deal, seat to act, moves so far)."""


class TableStatus(StrEnum):
    """Where a table stands."""

    LOBBY = "lobby"
    PLAYING = "playing"
    PAUSED = "paused"


class EventKind(StrEnum):
    """The kinds of events in a table's log."""

    SEAT = "seat"
    """A player or a bot takes a seat: ``{seat, nickname, bot}``."""
    UNSEAT = "unseat"
    """A seat is emptied (kick, bot removed): ``{seat}``; during a deal, at its end."""
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    STACK = "stack"
    """The host sets a seat's chips for the next deal: ``{seat, amount}``."""
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    LEDGER_VISIBILITY = "ledger_visibility"
    """The host lets the players see the ledger, or no longer: ``{players}`` (a bool)."""
    ADVICE = "advice"
    """The host turns the draw hint on or off for the table: ``{on}`` (a bool); it holds
    from the next state the players are sent, the draw under way included."""
    WATCH = "watch"
    """The host opens the table to spectators, gives them a new link, closes it, or sets the
    delay of one deal: ``{hash, delay}``, ``hash`` the sha256 of the watch link's secret
    (null: no link), ``delay`` a bool (spectators see each deal once it has ended)."""
    DEAL = "deal"
    """The next deal begins: ``{players}`` once dealt (the person in each seat) and the cards
    it dealt (``taken``, server/recorded_cards.py); ``seed`` only on tables set up with
    ``settings.seed`` (tests, replays) and in logs written before live tables shuffled without
    one."""
    ACTION = "action"
    """``{seat, kind, amount, cards, split, auto, bank}``; ``players`` when it began a deal
    (after the 5.5 make-ups); ``taken``, the cards the deal took with it
    (server/recorded_cards.py). ``bank``: the seat's time bank left after
    the action (seats on the turn timer only; logs written before it was recorded lack it,
    and the bank then stays as it was). An event the runtime makes without ``kind`` has the
    table choose: the seat's bot (:meth:`TableState.apply`'s ``policy``), or else the default
    action (:func:`~italian_poker.table.defaults.default_action`, the turn ran out); the action
    played is then written into it, with ``auto`` and ``default`` (``"timeout"`` or
    ``"illegal"``: the bot's choice was not allowed) when it was the default."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """A numbered public event of the table's log."""

    seq: int
    line: Line


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A ledger row produced by an event. ``player`` is the person the chips belong to
    (:attr:`Slot.player`), whatever their nickname: a newcomer who takes a departed player's
    name has rows of their own."""

    nickname: str
    player: int
    kind: str
    amount: int
    hand: int | None = None


@dataclass(slots=True)
class Slot:
    """A taken seat. ``chips_due`` is what the player (re)joins the match with at the next
    deal (a new seat, or the host's adjustment); ``leaving`` empties the seat when the deal
    under way ends. ``player`` tells the person (or bot) apart from anyone who sat here or
    had this nickname before: the seq of the ``seat`` event that seated them, which also
    issued their token."""

    nickname: str
    bot: str | None
    chips_due: int | None
    player: int = 0
    sitting_out: bool = False
    leaving: bool = False
    last_action: Line | None = None
    changed: int | None = None


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """The public result of the last deal: narration and pots (winners as seat numbers)."""

    hand: int
    lines: tuple[Line, ...]
    awards: tuple[dict[str, Any], ...]


@dataclass(slots=True)
class Effects:
    """What applying an event produced: public log lines and ledger rows."""

    lines: list[Line] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)


SEATED_BY_ID = "player_ids"
"""The key a ``deal`` event gets (``true``) once its table seats the match's players by
their stable id. A ``deal`` event of a log written before, which lacks it, seats them as the
server did then (:meth:`TableState._reseat_as_before`), so that old logs replay alike."""

PLAYERS_SEE_LEDGER = "players_see_ledger"
"""The table's option (``options``) that lets the players read the ledger from the start;
a table created without it keeps the ledger for the host until the host says otherwise."""

ADVICE = "advice"
"""The table's option (``options``) with the draw hint on from the start (the host may turn
it off and on again at any time); a table created without it, or on a server without an
advisor, has no hint."""

_SHA256 = re.compile(r"[0-9a-f]{64}")
"""A ``watch`` event's ``hash``: a sha256 hex digest, as ``store.token_hash`` writes it."""

_LEGACY_IDS = 1 << 40
"""Match ids given when re-seating as before: above any :attr:`Slot.player` (a seq)."""


class TableState:
    """One table, rebuilt from its events. Seats are numbered 0..players-1 in table order."""

    def __init__(self, name: str, rules: Rules, options: dict[str, Any], log_size: int = 50):
        self.name = name
        self.rules = rules
        self.options = options
        self.slots: list[Slot | None] = [None] * rules.players
        self.status = TableStatus.LOBBY
        self.table: Table | None = None
        """The driver playing the match (from the first deal)."""
        self.cards: DealCards | None = None
        """The card source of the deal under way (or about to begin): the cards the log
        recorded, then the live source."""
        self._ids: dict[int, int] = {}
        """The match id of a :attr:`Slot.player` where it is not that number (tables whose
        log was written before the ids were stable, re-seated as then)."""
        self._reseated = 0
        self.seq = 0
        self.log: deque[LogLine] = deque(maxlen=log_size)
        self.outcome: DealOutcome | None = None
        self.deal_slots: list[int] = []
        """Slot of each seat of the current (or last) deal."""
        self.deal_players: tuple[int, ...] = ()
        """The person (:attr:`Slot.player`) in each seat of the current (or last) deal."""
        self.hand_players: dict[int, tuple[int, ...]] = {}
        """Per deal number, the person in each of its seats (the ``players`` its first
        event recorded): histories belong to them, whatever their name or seat now."""
        self.banks: dict[int, float] = {}
        """Time bank left per seat, as its last ``action`` event recorded it; a seat missing
        here has the full bank (:meth:`bank`)."""
        self.turn_since: int | None = None
        """Seq of the event that began the turn under way (None: nobody is on the clock)."""
        self._turn: TurnKey | None = None
        self.left_with: dict[int, int] = {}
        """The chips each person (:attr:`Slot.player`) still seated had when the match let
        them go for want of an ante (000 Art. 1): theirs until the host gives them chips or
        they leave the table, with them."""
        self._departed = 0
        """How many players had left the match when the current (or last) deal began."""
        self.players_see_ledger = bool(options.get(PLAYERS_SEE_LEDGER, False))
        """Whether the players may read the ledger (the host always may): the table's option
        at creation, then as the last ``ledger_visibility`` event set it."""
        self.advice_on = bool(options.get(ADVICE, False))
        """Whether the drawing seat is sent the draw hint (when the server has an advisor):
        the table's option at creation, then as the last ``advice`` event set it."""
        self.watch_hash: str | None = None
        """The sha256 hash of the spectators' watch link, as the last ``watch`` event set it;
        None while the host offers none."""
        self.watch_delay = False
        """Whether spectators see each deal only once it has ended (the last ``watch``
        event's ``delay``)."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def match(self) -> Match | None:
        """The match (from the first deal)."""
        return self.table.match if self.table is not None else None

    def match_id(self, slot: Slot) -> int:
        """The match's ``player_id`` of the person in ``slot``."""
        return self._ids.get(slot.player, slot.player)

    def _slot_of_id(self, player_id: int) -> int | None:
        """The seat of the match's player ``player_id``, if seated."""
        for i, slot in enumerate(self.slots):
            if slot is not None and self.match_id(slot) == player_id:
                return i
        return None

    def _match_seat(self, slot: Slot) -> Seat | None:
        """The match's seat of the person in ``slot``, if they have one."""
        match = self.match
        if match is None:
            return None
        player_id = self.match_id(slot)
        return next((s for s in match.seats if s.player_id == player_id), None)

    @property
    def stack_default(self) -> int:
        """The chips a new seat buys in for."""
        return int(self.options["stack"])

    def slot_of(self, nickname: str) -> int | None:
        """The seat of ``nickname``, if seated."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.nickname == nickname:
                return i
        return None

    def look_alike(self, nickname: str) -> str | None:
        """The nickname of a seated player (or of one still in the deal) that ``nickname``
        would be confused with (:func:`~italian_poker.server.nicknames.nickname_key`)."""
        key = nickname_key(nickname)
        names = [slot.nickname for slot in self.slots if slot is not None]
        if self.in_deal and self.match is not None:
            names.extend(self.match.deal_seats)
        return next((name for name in names if nickname_key(name) == key), None)

    def chips(self) -> int:
        """Every chip at the table: the seats' stacks and the pot (or the chips carried to
        the next deal)."""
        return sum(self.stack(i) for i, s in enumerate(self.slots) if s is not None) + self.pot()

    def pot(self) -> int:
        """The chips in no one's stack: the pot of the deal under way (with what it carried
        in), else the pot carried to the next deal (everyone passed, 3.5, or said parol,
        5.4(a); 0 after a deal that was won)."""
        match = self.match
        if match is None:
            return 0
        deal = match.deal
        if match.phase is MatchPhase.IN_DEAL and deal is not None:
            return sum(deal.start.stacks) + deal.start.carried - sum(deal.stacks)
        return match.carried

    def free_seat(self) -> int | None:
        """The lowest empty seat."""
        return next((i for i, s in enumerate(self.slots) if s is None), None)

    @property
    def in_deal(self) -> bool:
        """Whether a deal (or its 5.5 make-up decisions) is under way."""
        return self.match is not None and self.match.phase in (
            MatchPhase.IN_DEAL,
            MatchPhase.MAKE_UP,
        )

    @property
    def hand(self) -> int | None:
        """The id of the current deal, else of the last one; None before the first."""
        if self.match is None:
            return None
        if self.in_deal:
            return len(self.match.completed) + 1
        return len(self.match.completed) or None

    def actor_slot(self) -> int | None:
        """The seat to act, if any."""
        match = self.match
        actor = None if match is None else match.actor
        if match is None or actor is None:
            return None
        return self._slot_of_id(match.seat(actor).player_id)

    def turn_key(self) -> TurnKey | None:
        """The turn under way: (deal, seat to act, moves so far in the deal, or -1 during
        the 5.5 make-up decisions); None when nobody is to act or the game is not in play."""
        match = self.match
        actor = self.actor_slot()
        if actor is None or match is None or self.status is not TableStatus.PLAYING:
            return None
        count = len(match.deal.actions) if match.deal is not None else 0
        if match.phase is MatchPhase.MAKE_UP:
            count = -1
        return (self.hand, actor, count)

    def bank(self, slot: int) -> float:
        """The time bank ``slot`` has left: spent only beyond a turn's seconds, never
        refilled while the player keeps the seat."""
        return self.banks.get(slot, float(self.options.get("time_bank_seconds") or 0))

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the seat to act may do."""
        return self.match.legal_actions() if self.match is not None else ()

    def deal_index(self, slot: int) -> int | None:
        """The seat number of ``slot`` in the current (or last) deal, if the person seated
        there now was dealt in (not someone who sat there before)."""
        seat = self.slots[slot] if 0 <= slot < len(self.slots) else None
        if seat is None:
            return None
        try:
            index = self.deal_slots.index(slot)
        except ValueError:
            return None
        players = self.deal_players
        if index < len(players) and players[index] != seat.player:
            return None
        return index

    def hands_played(self, player: int) -> list[int]:
        """The finished deals ``player`` (a :attr:`Slot.player`) was dealt in."""
        match = self.match
        done = len(match.completed) if match is not None else 0
        return [n for n, players in self.hand_players.items() if n <= done and player in players]

    def hand_seat(self, player: int, hand: int) -> tuple[CompletedDeal, int] | None:
        """Finished deal ``hand`` and the seat ``player`` held in it, if dealt in."""
        completed = self.completed(hand)
        players = self.hand_players.get(hand, ())
        if completed is None or player not in players:
            return None
        return completed, players.index(player)

    def view(self, slot: int) -> SeatView | None:
        """``slot``'s view of the current (or last) deal, if it was dealt in."""
        match = self.match
        index = self.deal_index(slot)
        if match is None or match.deal is None or index is None:
            return None
        return observe(match.deal, index)

    def public_view(self) -> PublicView | None:
        """What everyone may know of the current (or last) deal (the observer's public view,
        which has no hidden card); None before the first deal."""
        return self.table.public_view() if self.table is not None else None

    def stack(self, slot: int) -> int:
        """The chips in front of ``slot`` now: those due at the next deal (a newcomer's
        buy-in, also while a deal goes on; the host's adjustment), else the match's."""
        seat = self.slots[slot]
        if seat is None:
            return 0
        if seat.chips_due is not None:
            return seat.chips_due
        match = self.match
        if match is not None:
            deal = match.deal
            player_id = self.match_id(seat)
            if match.phase is MatchPhase.IN_DEAL and deal is not None:
                ids = deal.start.player_ids
                if player_id in ids:
                    return deal.stacks[ids.index(player_id)]
            in_match = self._match_seat(seat)
            if in_match is not None:
                return in_match.stack
            return self.left_with.get(seat.player, 0)
        return seat.chips_due or 0

    def busted(self, slot: int) -> bool:
        """Whether the person in ``slot`` left the match for want of an ante (000 Art. 1) and
        has not been given chips since: they are not dealt in until the host does."""
        seat = self.slots[slot]
        return (
            seat is not None
            and seat.chips_due is None
            and self.match is not None
            and self._match_seat(seat) is None
        )

    def requirement(self) -> OpeningRequirement:
        """What opens the current (or next) deal."""
        match = self.match
        if match is not None and match.phase is MatchPhase.IN_DEAL and match.deal is not None:
            return match.deal.requirement
        min_pair = match.min_pair if match is not None else self.rules.min_pair
        return opening_requirement(min_pair, self.rules.four_straight_flush_opens)

    def dealable(self) -> list[int]:
        """The seats that would be dealt in at the next deal (chips for an ante, not out)."""
        limit = self.rules.chips_to_be_dealt_in
        out = []
        for i, slot in enumerate(self.slots):
            if slot is None or slot.leaving or slot.sitting_out:
                continue
            if self.stack(i) >= limit and (slot.chips_due is not None or self._in_match(slot)):
                out.append(i)
        return out

    def _in_match(self, slot: Slot) -> bool:
        return self._match_seat(slot) is not None

    def completed(self, hand: int) -> CompletedDeal | None:
        """The finished deal ``hand``."""
        if self.match is None or not 1 <= hand <= len(self.match.completed):
            return None
        return self.match.completed[hand - 1]

    def requirement_after(self, hand: int) -> OpeningRequirement:
        """What the deal after ``hand`` needs (needed) to open: that of the next finished
        deal, else of the deal under way or to come (:meth:`requirement`)."""
        following = self.completed(hand + 1)
        if following is None:
            return self.requirement()
        start = following.start
        return opening_requirement(
            start.min_pair or start.rules.min_pair, start.rules.four_straight_flush_opens
        )

    # --- applying ---------------------------------------------------------------------------

    def replay(self, events: Iterable[tuple[int, str, dict[str, Any]]]) -> None:
        """Apply a table's logged events in order: the same cards as when they were first
        played, since each event gives the cards it took as it is replayed (either version
        of the log: server/recorded_cards.py). A replica following the log replays its
        new events the same way, a few at a time."""
        for seq, kind, payload in events:
            self.apply(seq, EventKind(kind), payload)

    def apply(
        self, seq: int, kind: EventKind, payload: dict[str, Any], policy: Policy | None = None
    ) -> Effects:
        """Apply event ``seq``. Raises a specific error (state unchanged) when the event is
        not allowed now. A live ``deal`` or ``action`` event that made the deal take cards gets
        them added to ``payload`` (``taken``), so that the log records them; an
        ``action`` without ``kind`` gets the action played: ``policy``'s (the seat's bot),
        or the default action."""
        if seq != self.seq + 1:
            raise ValueError(f"event {seq} out of order after {self.seq}")
        if kind is EventKind.ACTION or kind is EventKind.DEAL:
            mark = self._card_mark()
            effects = (
                self._on_action(payload, policy)
                if kind is EventKind.ACTION
                else (self._on_deal(payload))
            )
            self._record_cards(mark, payload)
        else:
            handler = getattr(self, f"_on_{kind.value}")
            effects = handler(payload)
        self.seq = seq
        key = self.turn_key()
        if key != self._turn:
            # A new turn (a move, a deal, a resume) begins with this event; one that leaves
            # the seat to act and the count of moves as they were does not restart it.
            self._turn, self.turn_since = key, None if key is None else seq
        for said in effects.lines:
            self.log.append(LogLine(seq, said))
        return effects

    def _card_mark(self) -> tuple[Deal | None, int]:
        """The deal under way (or the last) and how long its operations log is."""
        deal = self.match.deal if self.match is not None else None
        return deal, len(deal.operations) if deal is not None else 0

    def _record_cards(self, mark: tuple[Deal | None, int], payload: dict[str, Any]) -> None:
        """Record in a live event's ``payload`` the cards the deal took since ``mark`` (the
        end of one deal, the start of the next); a replayed event has them already."""
        if TAKEN in payload or "deck" in payload or "reshuffles" in payload:
            return
        before, logged = mark
        deal = self.match.deal if self.match is not None else None
        taken = [] if before is None else list(before.operations[logged:])
        if deal is not None and deal is not before:
            taken += deal.operations
        entries = card_entries(taken)
        if entries:
            payload[TAKEN] = entries

    def _on_seat(self, payload: dict[str, Any]) -> Effects:
        seat, nickname, bot = int(payload["seat"]), str(payload["nickname"]), payload["bot"]
        if not 0 <= seat < len(self.slots) or self.slots[seat] is not None:
            raise SeatError(f"seat {seat + 1} is not free")
        match = self.match
        if self.slot_of(nickname) is not None or (
            self.in_deal and match is not None and nickname in match.deal_seats
        ):
            raise SeatError(f"the nickname {nickname!r} is taken at this table")
        stack = self.stack_default
        slot = self.slots[seat] = Slot(nickname, bot, chips_due=stack, player=self.seq + 1)
        self.banks.pop(seat, None)  # a newcomer has the full time bank
        said = line("table_seat", name=nickname, seat=seat + 1)
        return Effects([said], [LedgerEntry(nickname, slot.player, "buy_in", stack)])

    def _on_unseat(self, payload: dict[str, Any]) -> Effects:
        seat = int(payload["seat"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        if slot is None:
            raise SeatError(f"seat {seat + 1} is empty")
        match = self.match
        deal = None if match is None else match.deal
        asking = match is not None and match.phase is MatchPhase.MAKE_UP
        if (asking and self._match_seat(slot) is not None) or (
            self.in_deal and deal is not None and self.match_id(slot) in deal.start.player_ids
        ):
            # A deal (or its 5.5 questions) is under way: the match's seats change between
            # deals only, so the player leaves when it ends (answered for meanwhile).
            slot.leaving = True
            return Effects([line("table_leave_after_deal", name=slot.nickname)])
        return self._remove(seat)

    def _remove(self, seat: int) -> Effects:
        slot = self.slots[seat]
        assert slot is not None
        amount = self.stack(seat)
        in_match = self._match_seat(slot)
        if self.match is not None and in_match is not None:
            self.match.leave(in_match.name)
        self.slots[seat] = None
        self.banks.pop(seat, None)
        self.left_with.pop(slot.player, None)
        said = line("table_leave", name=slot.nickname)
        return Effects(
            [said], [LedgerEntry(slot.nickname, slot.player, "cash_out", amount, self.hand)]
        )

    def _on_start(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.LOBBY:
            raise SeatError("the game has already started")
        if len(self.dealable()) < self.rules.min_players:
            raise SeatError(
                f"at least {self.rules.min_players} seated players (or bots) are needed to start"
            )
        self.status = TableStatus.PLAYING
        return Effects([line("table_start")])

    def _on_pause(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.PLAYING:
            raise SeatError("only a game in play can be paused")
        self.status = TableStatus.PAUSED
        return Effects([line("table_pause")])

    def _on_resume(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.PAUSED:
            raise SeatError("the game is not paused")
        self.status = TableStatus.PLAYING
        return Effects([line("table_resume")])

    def _on_stack(self, payload: dict[str, Any]) -> Effects:
        seat, amount = int(payload["seat"]), int(payload["amount"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        if slot is None:
            raise SeatError(f"seat {seat + 1} is empty")
        if self.in_deal:
            raise SeatError("stacks can be adjusted only between deals")
        if amount < 1:
            raise SeatError("a stack must be at least 1 chip")
        before = self.stack(seat)
        slot.chips_due = amount
        said = line("table_stack", name=slot.nickname, amount=amount)
        return Effects([said], [LedgerEntry(slot.nickname, slot.player, "adjust", amount - before)])

    def _on_sit_out(self, payload: dict[str, Any]) -> Effects:
        slot = self._slot(payload)
        slot.sitting_out = True
        return Effects([line("table_sit_out", name=slot.nickname)])

    def _on_sit_in(self, payload: dict[str, Any]) -> Effects:
        slot = self._slot(payload)
        slot.sitting_out = False
        return Effects([line("table_sit_in", name=slot.nickname)])

    def _on_ledger_visibility(self, payload: dict[str, Any]) -> Effects:
        players = payload.get("players")
        if not isinstance(players, bool):
            raise ValueError(f"'players' is true or false, not {players!r}")
        self.players_see_ledger = players
        return Effects([line("table_ledger_shown" if players else "table_ledger_hidden")])

    def _on_advice(self, payload: dict[str, Any]) -> Effects:
        on = payload.get("on")
        if not isinstance(on, bool):
            raise ValueError(f"'on' is true or false, not {on!r}")
        self.advice_on = on
        return Effects([line("table_advice_on" if on else "table_advice_off")])

    def _on_watch(self, payload: dict[str, Any]) -> Effects:
        hashed, delay = payload.get("hash"), payload.get("delay")
        if hashed is not None and not (isinstance(hashed, str) and _SHA256.fullmatch(hashed)):
            raise ValueError("'hash' is a sha256 hex digest or null")
        if not isinstance(delay, bool):
            raise ValueError(f"'delay' is true or false, not {delay!r}")
        before, delayed = self.watch_hash, self.watch_delay
        self.watch_hash, self.watch_delay = hashed, delay
        lines: list[Line] = []
        if hashed is None:
            if before is not None:
                lines.append(line("table_watch_closed"))
        elif before is None:
            lines.append(line("table_watch_opened_delayed" if delay else "table_watch_opened"))
        else:
            if hashed != before:
                lines.append(line("table_watch_new_link"))
            if delay != delayed:
                lines.append(line("table_watch_delay_on" if delay else "table_watch_delay_off"))
        return Effects(lines)

    def _slot(self, payload: dict[str, Any]) -> Slot:
        seat = int(payload["seat"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        if slot is None:
            raise SeatError(f"seat {seat + 1} is empty")
        return slot

    def _on_deal(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.PLAYING:
            raise SeatError("the game is not in play")
        if self.in_deal:
            raise SeatError("a deal is already under way")
        # A deal event stored before the match's ids were stable (a dealt deal's event, with
        # its deck or its players, and not the key) seats the players as the server did then.
        if ("deck" in payload or "players" in payload) and not payload.get(SEATED_BY_ID):
            self._reseat_as_before()
        else:
            if self.match is not None and len(self.dealable()) < self.rules.min_players:
                # Refused before the seats change: a refused event changes nothing.
                raise SeatError(
                    f"fewer than {self.rules.min_players} players can be dealt in: the match waits"
                )
            self._reconcile()
            payload[SEATED_BY_ID] = True
        table = self.table
        assert table is not None
        match = table.match
        seed = payload.get("seed")
        cards = DealCards(SECURE if seed is None else SeededSource(int(seed)))
        cards.give(recorded_cards(payload))
        # A version 1 deal (its deck recorded) was played when every show was the player's
        # own event: the table replays those shows as they come.
        table.forced_shows = "deck" not in payload
        events = table.start_deal(cards.source)
        self.cards = cards
        self.outcome = None
        for slot in self.slots:
            if slot is not None:
                slot.last_action, slot.changed = None, None
        effects = Effects()
        number = len(match.completed) + 1
        effects.lines.append(line("report_title", number=number))
        self._after(events, payload, effects)
        return effects

    def _on_action(self, payload: dict[str, Any], policy: Policy | None = None) -> Effects:
        table = self.table
        if table is None or not self.in_deal:
            raise SeatError("no deal is under way")
        match = table.match
        seat = int(payload["seat"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        in_match = None if slot is None else self._match_seat(slot)
        if slot is None or in_match is None:
            raise SeatError(f"seat {seat + 1} is empty")
        bank = _bank(payload)
        chosen = "kind" not in payload
        action = None if chosen else _payload_action(payload)
        if chosen and match.actor != in_match.name:
            raise SeatError(f"it is not seat {seat + 1}'s turn")
        if self.cards is not None:
            self.cards.give(recorded_cards(payload))
        if "deck" in payload:  # a version 1 deal begun by this 5.5 answer: see _on_deal
            table.forced_shows = False
        if action is not None:
            events = table.act(in_match.name, action)
        elif policy is not None:
            table.policies = {in_match.name: policy}
            try:
                events = table.step()
            finally:
                table.policies = {}
        else:
            events = table.play_default(DefaultReason.TIMEOUT)
        played = events[0]
        assert isinstance(played, ActionTaken | MakeUpAnswered)
        if action is None:
            # Written into the event, which a replay plays as it is.
            action = played.action
            auto = played.default is not None or bool(payload.get("auto"))
            filled = _action_payload(seat, action, auto, bank)
            if played.default is not None:
                filled["default"] = played.default.value
            payload.clear()
            payload.update(filled)
        if bank is not None:
            self.banks[seat] = bank
        effects = Effects()
        recorded = played.action if isinstance(played, ActionTaken) else action
        drawer = played.seat if isinstance(played, ActionTaken) else None
        added = played.added if isinstance(played, ActionTaken) else None
        self._describe(
            slot, recorded, effects, auto=bool(payload.get("auto")), seat=drawer, added=added
        )
        for forced in events[1:]:
            # The shows the rules left no choice about, played by the table (5.4).
            at = forced.seat if isinstance(forced, ActionTaken) else len(self.deal_slots)
            shower = self.slots[self.deal_slots[at]] if at < len(self.deal_slots) else None
            if isinstance(forced, ActionTaken) and shower is not None:
                self._describe(shower, forced.action, effects, auto=False, seat=forced.seat)
        self._after(events, payload, effects)
        return effects

    def _describe(
        self,
        slot: Slot,
        action: Action,
        effects: Effects,
        *,
        auto: bool,
        seat: int | None,
        added: int | None = None,
    ) -> None:
        """The public log's line for ``action`` of deal seat ``seat``: its discards only when
        everyone sees them (the observer's rule, 003); ``added``, the chips a bet added."""
        changed = len(action.cards) if action.kind is ActionKind.DRAW else None
        public = seat is not None and sees_discards(PUBLIC, seat, self.rules)
        event = Event(
            player=slot.nickname,
            kind=action.kind,
            amount=action.amount,
            cards_changed=changed,
            discards=action.cards if public and action.kind is ActionKind.DRAW else (),
            split=action.split,
            added=added,
        )
        effects.lines.append(event_line(event, automatic=auto))
        slot.last_action = action_line(action.kind, action.amount, added)
        if changed is not None:
            slot.changed = changed

    def _after(self, events: list[TableEvent], payload: dict[str, Any], effects: Effects) -> None:
        """After a deal or an action, what the driver reported: record the deck of a deal
        that began, settle one that ended; when the 5.5 answers left too few to deal (no
        deal), who was to leave at the end of the deal leaves now."""
        match = self.match
        assert match is not None
        for event in events:
            if isinstance(event, DealStarted):
                self._began(match, payload)
            elif isinstance(event, DealFinished):
                completed = event.completed
                if self.deal_slots and len(self.deal_slots) == len(completed.start.names):
                    self._settle(completed, effects)
            elif isinstance(event, NoDeal):
                effects.lines.append(line("no_deal", pot=event.carried))
                self._remove_leavers(effects)

    def _began(self, match: Match, payload: dict[str, Any]) -> None:
        """A deal began with this event: which slot and which person holds each of its
        seats; the event records the persons (a replay reads them)."""
        deal = match.deal
        assert deal is not None
        slots = [self._slot_of_id(player_id) for player_id in deal.start.player_ids]
        self.deal_slots = [s for s in slots if s is not None]
        players = tuple(slot.player for s in self.deal_slots if (slot := self.slots[s]))
        recorded = payload.get("players")
        if isinstance(recorded, list) and len(recorded) == len(players):
            players = tuple(int(p) for p in recorded)
        self.deal_players = players
        self.hand_players[len(match.completed) + 1] = players
        self._departed = len(match.departed)
        payload.setdefault("players", list(players))

    def _settle(self, completed: CompletedDeal, effects: Effects) -> None:
        """A deal ended: its narration, the ledger results, and seats leaving."""
        match = self.match
        assert match is not None and match.deal is not None
        view = self.public_view()
        assert view is not None
        finished = FinishedDeal(completed.number, view, False, self.requirement())
        lines = report_lines(finished)
        result = completed.result
        explained = award_lines(finished)
        awards = tuple(
            {
                "amount": award.amount,
                "winners": [self.deal_slots[w] for w in award.winners],
                "shares": list(award.shares),
                "reason": award.reason,
                "line": explained[i].as_json() if i < len(explained) else None,
            }
            for i, award in enumerate(result.awards)
        )
        self.outcome = DealOutcome(completed.number, tuple(lines), awards)
        effects.lines.extend(lines[1:])
        for i, name in enumerate(completed.start.names):
            net = result.stacks[i] - completed.start.stacks[i]
            player = self.deal_players[i]
            effects.ledger.append(LedgerEntry(name, player, "result", net, completed.number))
        self._keep_left_chips(match)
        self._remove_leavers(effects)

    def _keep_left_chips(self, match: Match) -> None:
        """The players the match let go at the end of the deal (too few chips for an ante)
        keep what they had on their seats (:attr:`left_with`)."""
        for name, chips in match.departed[self._departed :]:
            seat = self.slot_of(name)
            slot = None if seat is None else self.slots[seat]
            if slot is not None and self._match_seat(slot) is None:
                self.left_with[slot.player] = chips

    def _remove_leavers(self, effects: Effects) -> None:
        """Between deals: empty the seats of the players who were to leave."""
        for seat, slot in enumerate(self.slots):
            if slot is not None and slot.leaving:
                removed = self._remove(seat)
                effects.ledger.extend(removed.ledger)
                effects.lines.extend(removed.lines)

    def _target(self) -> list[tuple[int, Slot, int]]:
        """Who is to be seated in the match for the next deal, in seat order: (seat, slot,
        chips); a busted player is back only when the host gives them chips."""
        target: list[tuple[int, Slot, int]] = []
        for i, slot in enumerate(self.slots):
            if slot is None or slot.leaving:
                continue
            if slot.chips_due is None and not self._in_match(slot):
                continue
            target.append((i, slot, self.stack(i)))
        return target

    def _reconcile(self) -> None:
        """Bring the match's seats in line with the table's (between deals), through the
        match's seating: newcomers join where they sit, each by their own id; stacks the host
        set and sitting out follow; the dealer button stays where it is."""
        target = self._target()
        table = self.table
        if table is None:
            if len(target) < 2:
                raise SeatError("at least two players are needed")
            seats = [(slot.nickname, chips, self.match_id(slot)) for _, slot, chips in target]
            table = self.table = Table(Match(self.rules, seats))
        match = table.match
        wanted = {self.match_id(slot) for _, slot, _ in target}
        for gone in [s for s in match.seats if s.player_id not in wanted]:
            match.leave(gone.name)
        for index, (_, slot, chips) in enumerate(target):
            seat = self._match_seat(slot)
            if seat is None:
                match.join(slot.nickname, chips, player_id=self.match_id(slot), position=index)
                seat = match.seats[index]
            if seat.stack != chips:  # the host's adjustment
                match.set_stack(seat.name, chips)
            if slot.sitting_out and not seat.sitting_out:
                match.sit_out(seat.name)
            elif seat.sitting_out and not slot.sitting_out:
                match.sit_in(seat.name)
        self._chips_settled()

    def _chips_settled(self) -> None:
        """Every seat's chips are the match's now."""
        for taken in self.slots:
            if taken is not None:
                taken.chips_due = None

    def _reseat_as_before(self) -> None:
        """:meth:`_reconcile` as the server did it before the match's ids were stable, for a
        ``deal`` event of such a log: any change seated everyone again under new ids (so a
        parol pot's 5.5 dues, kept by id, were forgotten) and put the button back by hand.
        Kept so that those logs replay to the same state; live deals never come here."""
        target = self._target()
        wanted = [(slot, chips, slot.sitting_out) for _, slot, chips in target]
        table = self.table
        if table is None:
            if len(wanted) < 2:
                raise SeatError("at least two players are needed")
            seats = [(slot.nickname, chips, self.match_id(slot)) for slot, chips, _ in wanted]
            table = self.table = Table(Match(self.rules, seats))
        match = table.match
        current = [(s.name, s.stack, s.sitting_out) for s in match.seats]
        if current != [(slot.nickname, chips, out) for slot, chips, out in wanted]:
            dealer = match.dealer_name
            names = [slot.nickname for slot, _, _ in wanted]
            if dealer not in names:
                order = [slot.nickname if slot else None for slot in self.slots]
                start = order.index(dealer) if dealer in order else 0
                ring = order[start:] + order[:start]
                dealer = next((n for n in ring if n in names), names[0] if names else dealer)
            for seat in list(match.seats):
                match.leave(seat.name)
            for slot, chips, out in wanted:
                self._ids[slot.player] = _LEGACY_IDS + self._reseated
                self._reseated += 1
                match.join(slot.nickname, chips, player_id=self.match_id(slot))
                if out:
                    match.sit_out(slot.nickname)
            if dealer in names:
                match.dealer_name = dealer
        self._chips_settled()


def _bank(payload: dict[str, Any]) -> float | None:
    """The ``bank`` of an ``action`` payload: seconds, at least 0; None when absent."""
    value = payload.get("bank")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a time bank is a number of seconds, not {value!r}")
    return max(0.0, float(value))


def _payload_action(payload: dict[str, Any]) -> Action:
    """The action an ``action`` event's payload records."""
    return Action(
        ActionKind(payload["kind"]),
        None if payload.get("amount") is None else int(payload["amount"]),
        tuple(parse_card(c) for c in payload.get("cards") or ()),
        bool(payload.get("split", False)),
    )


def action_payload(
    seat: int, action: Action, auto: bool, bank: float | None = None
) -> dict[str, Any]:
    """The ``action`` event's payload; ``bank``: the seat's time bank left after it."""
    payload: dict[str, Any] = {
        "seat": seat,
        "kind": action.kind.value,
        "amount": action.amount,
        "cards": [str(c) for c in action.cards],
        "split": action.split,
    }
    if auto:
        payload["auto"] = True
    if bank is not None:
        payload["bank"] = bank
    return payload


_action_payload = action_payload


def parse_action(data: dict[str, Any]) -> Action:
    """An :class:`Action` from the client's ``action`` object; raises ``ValueError``."""
    try:
        kind = ActionKind(str(data.get("kind")))
    except ValueError:
        raise ValueError(f"unknown action kind {data.get('kind')!r}") from None
    amount = data.get("amount")
    if amount is not None:
        whole_number(amount, 0, MAX_CHIPS, "amount (a number of chips, or null)")
    raw_cards = data.get("cards") or []
    if not isinstance(raw_cards, list) or len(raw_cards) > 5:
        raise ValueError("cards must be a list of at most 5 card codes")
    cards: list[Card] = []
    for text in raw_cards:
        if not isinstance(text, str) or len(text) > 3:
            raise ValueError("each card is a code like 'Ah' or 'Td'")
        try:
            cards.append(parse_card(text))
        except ItalianPokerError as error:
            raise ValueError(str(error)) from None
    split = data.get("split", False)
    if not isinstance(split, bool):
        raise ValueError("split must be true or false")
    return Action(kind, amount, tuple(cards), split)
