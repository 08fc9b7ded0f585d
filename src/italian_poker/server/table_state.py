"""A table's state as its event log builds it: the seats' people, the status, the table
machine, the public log.

Everything that changes a table is an event ``(seq, kind, payload)``; :meth:`TableState.apply`
applies one and is the only way the state changes. The seats, the stacks and the deals are the
table machine's (:class:`~italian_poker.table.machine.TableMachine`): each event is one of its
commands (a seat taken, a deal started, a player's action, a bot's choice, a turn that ran out,
...), which it checks and carries out, and whose events the state reads back: the narration,
the ledger rows, who busted or left. The state keeps what the machine does not know: who sits
in each numbered seat (nickname, bot, the person's id, the seq of their ``seat`` event), the
table's status, its options and its public log. A restarted server replays a table's events
in order and arrives exactly where it was: each event gives back the cards it took
(:mod:`italian_poker.server.recorded_cards`). No I/O here: the runtime persists each event
(:attr:`Effects.record`) before anyone hears of it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import SECURE, SeededSource
from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import Rules
from italian_poker.server.deal_narration import DealOutcome, narrate, settle
from italian_poker.server.deal_records import DealRecords
from italian_poker.server.event_payloads import bank_of, play_command
from italian_poker.server.host_switches import HostSwitches
from italian_poker.server.i18n import line
from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.nicknames import nickname_key
from italian_poker.server.recorded_cards import TAKEN, DealCards, card_entries
from italian_poker.server.recorded_cards import recorded as recorded_cards
from italian_poker.table.commands import (
    Command,
    Leave,
    SetChips,
    SitIn,
    SitOut,
    StartDeal,
    TakeSeat,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ActionTaken,
    DealFinished,
    DealStarted,
    MakeUpAnswered,
    NoDeal,
    SeatLeft,
    TableEvent,
)
from italian_poker.table.narration import Line

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
    """A seat is emptied (kick, bot removed): ``{seat}``; for a player dealt in, at the end
    of the deal."""
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    STACK = "stack"
    """The host sets a seat's chips, between deals: ``{seat, amount}`` (a busted player is
    back with them)."""
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
    """The next deal begins: the cards it dealt (``taken``); ``seed`` only on tables set up
    with ``settings.seed`` (tests, replays)."""
    ACTION = "action"
    """A command of the seat to act (:mod:`italian_poker.server.event_payloads`): their own
    action, a bot's choice or a turn the table plays for them; ``taken``, the cards it took;
    ``bank``, the seat's time bank left after it (seats on the turn timer only)."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """A numbered public event of the table's log."""

    seq: int
    line: Line


@dataclass(slots=True)
class Slot:
    """A taken seat. ``player`` tells the person (or bot) apart from anyone who sat here or
    had this nickname before: the seq of the ``seat`` event that seated them, which also
    issued their token, and their id at the table machine. ``leaving`` empties the seat when
    the deal under way ends."""

    nickname: str
    bot: str | None
    player: int = 0
    sitting_out: bool = False
    leaving: bool = False
    last_action: Line | None = None
    changed: int | None = None


@dataclass(slots=True)
class Effects:
    """What applying an event produced: public log lines, ledger rows, the event as the log
    records it (its payload, with the cards it took) and whether the table played the
    default action for a bot whose choice the rules refused."""

    lines: list[Line] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    refused: str | None = None


PLAYERS_SEE_LEDGER = "players_see_ledger"
"""The table's option (``options``) that lets the players read the ledger from the start;
a table created without it keeps the ledger for the host until the host says otherwise."""

ADVICE = "advice"
"""The table's option (``options``) with the draw hint on from the start (the host may turn
it off and on again at any time); a table created without it, or on a server without an
advisor, has no hint."""


class TableState:
    """One table, rebuilt from its events. Seats are numbered 0..players-1 in table order,
    as at the table machine."""

    def __init__(self, name: str, rules: Rules, options: dict[str, Any], log_size: int = 50):
        self.name = name
        self.rules = rules
        self.options = options
        self.slots: list[Slot | None] = [None] * rules.players
        self.status = TableStatus.LOBBY
        self.machine = TableMachine(rules, audiences=False)
        """The seats, the stacks and the deals."""
        self.cards: DealCards | None = None
        """The card source of the deal under way (or about to begin): the cards the log
        recorded, then the live source."""
        self._forced: deque[tuple[int, ActionKind]] = deque()
        """In a deal of a version 1 log, the shows the table played because the rules left
        no choice (seat, kind), which that log records as the players' own events."""
        self._seats_to_come: dict[int, int] | None = None
        self.seq = 0
        self.log: deque[LogLine] = deque(maxlen=log_size)
        self.outcome: DealOutcome | None = None
        self.deals = DealRecords(self.machine, rules)
        """Who held which seat of which deal."""
        self.banks: dict[int, float] = {}
        """Time bank left per seat, as its last ``action`` event recorded it; a seat missing
        here has the full bank (:meth:`bank`)."""
        self.turn_since: int | None = None
        """Seq of the event that began the turn under way (None: nobody is on the clock)."""
        self._turn: TurnKey | None = None
        self.left_with: dict[int, int] = {}
        """The chips each person (:attr:`Slot.player`) still seated had when the table let
        them go for want of an ante (000 Art. 1): theirs until the host gives them chips or
        they leave the table, with them."""
        self.switches = HostSwitches(
            players_see_ledger=bool(options.get(PLAYERS_SEE_LEDGER, False)),
            advice_on=bool(options.get(ADVICE, False)),
        )
        """The host's switches: the table's options at creation, then as the last
        ``ledger_visibility``, ``advice`` and ``watch`` events set them."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def match(self) -> Match | None:
        """The engine's match (once two players have sat down), to read only."""
        return self.machine.match

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

    def _seat_of(self, player: int) -> int | None:
        """The seat of the person ``player``, if seated."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.player == player:
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
        return self.machine.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)

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
        player = self.machine.to_act
        return None if player is None else self._seat_of(player)

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
        return self.machine.legal_actions()

    @property
    def players_see_ledger(self) -> bool:
        """Whether the players may read the ledger (the host always may)."""
        return self.switches.players_see_ledger

    @property
    def advice_on(self) -> bool:
        """Whether the drawing seat is sent the draw hint (when the server has an advisor)."""
        return self.switches.advice_on

    @property
    def watch_hash(self) -> str | None:
        """The sha256 hash of the spectators' watch link; None while the host offers none."""
        return self.switches.watch_hash

    @property
    def watch_delay(self) -> bool:
        """Whether spectators see each deal only once it has ended."""
        return self.switches.watch_delay

    @property
    def deal_slots(self) -> list[int]:
        """The seat (slot) of each seat of the current (or last) deal."""
        return self.deals.deal_slots

    def deal_index(self, slot: int) -> int | None:
        """The seat number of ``slot`` in the current (or last) deal, if the person seated
        there now was dealt in (not someone who sat there before)."""
        seat = self.slots[slot] if 0 <= slot < len(self.slots) else None
        return None if seat is None else self.deals.index(slot, seat.player)

    def view(self, slot: int) -> SeatView | None:
        """``slot``'s view of the current (or last) deal, if it was dealt in."""
        index = self.deal_index(slot)
        return None if index is None else self.deals.view(index)

    def hands_played(self, player: int) -> list[int]:
        """The finished deals ``player`` (a :attr:`Slot.player`) was dealt in."""
        return self.deals.hands_played(player)

    def hand_seat(self, player: int, hand: int) -> tuple[CompletedDeal, int] | None:
        """Finished deal ``hand`` and the seat ``player`` held in it, if dealt in."""
        return self.deals.hand_seat(player, hand)

    def completed(self, hand: int) -> CompletedDeal | None:
        """The finished deal ``hand``."""
        return self.deals.completed(hand)

    def requirement(self) -> OpeningRequirement:
        """What opens the current (or next) deal."""
        return self.deals.requirement()

    def requirement_after(self, hand: int) -> OpeningRequirement:
        """What the deal after ``hand`` needs (needed) to open."""
        return self.deals.requirement_after(hand)

    def public_view(self) -> PublicView | None:
        """What everyone may know of the current (or last) deal (the observer's public view,
        which has no hidden card); None before the first deal."""
        return self.machine.public_view()

    def _planned(self) -> dict[int, int]:
        """The chips of each person with a seat at the machine, now or once the waiting
        changes are made (a newcomer's buy-in during a deal, say; a player leaving at the end
        of the deal still has theirs)."""
        if self._seats_to_come is None:
            chips = {s.player: s.chips for s in self.machine.seats}
            chips.update((s.player, s.chips) for s in self.machine.seats_to_come)
            self._seats_to_come = chips
        return self._seats_to_come

    def _handle(self, command: Command) -> list[TableEvent]:
        """Hand ``command`` to the machine."""
        try:
            return self.machine.handle(command)
        finally:
            self._seats_to_come = None

    def stack(self, slot: int) -> int:
        """The chips in front of ``slot`` now: in the deal under way, else the machine's
        (a newcomer's buy-in during a deal included), else what a busted player kept."""
        seat = self.slots[slot]
        if seat is None:
            return 0
        match = self.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is MatchPhase.IN_DEAL and deal is not None:
            ids = deal.start.player_ids
            if seat.player in ids:
                return deal.stacks[ids.index(seat.player)]
        planned = self._planned().get(seat.player)
        if planned is not None:
            return planned
        return self.left_with.get(seat.player, 0)

    def busted(self, slot: int) -> bool:
        """Whether the person in ``slot`` left the game for want of an ante (000 Art. 1) and
        has not been given chips since: they are not dealt in until the host does."""
        seat = self.slots[slot]
        return seat is not None and seat.player not in self._planned()

    def dealable(self) -> list[int]:
        """The seats that would be dealt in at the next deal (chips for an ante, not out)."""
        limit = self.rules.chips_to_be_dealt_in
        planned = self._planned()
        return [
            i
            for i, slot in enumerate(self.slots)
            if slot is not None
            and not (slot.leaving or slot.sitting_out)
            and planned.get(slot.player, 0) >= limit
        ]

    # --- applying ---------------------------------------------------------------------------

    def replay(self, events: Iterable[tuple[int, str, dict[str, Any]]]) -> None:
        """Apply a table's logged events in order: the same cards as when they were first
        played, since each event gives the cards it took as it is replayed (either version
        of the log: server/recorded_cards.py). A replica following the log replays its
        new events the same way, a few at a time."""
        for seq, kind, payload in events:
            self.apply(seq, EventKind(kind), payload)

    def apply(self, seq: int, kind: EventKind, payload: dict[str, Any]) -> Effects:
        """Apply event ``seq``. Raises a specific error (state unchanged) when the event is
        not allowed now. ``payload`` is not changed: :attr:`Effects.record` is the event as
        the log keeps it, with the cards a live event took (``taken``)."""
        if seq != self.seq + 1:
            raise ValueError(f"event {seq} out of order after {self.seq}")
        handler = getattr(self, f"_on_{kind.value}")
        effects: Effects = handler(payload)
        if not effects.record:
            effects.record = dict(payload)
        self.seq = seq
        key = self.turn_key()
        if key != self._turn:
            # A new turn (a move, a deal, a resume) begins with this event; one that leaves
            # the seat to act and the count of moves as they were does not restart it.
            self._turn, self.turn_since = key, None if key is None else seq
        for said in effects.lines:
            self.log.append(LogLine(seq, said))
        return effects

    def _slot(self, payload: dict[str, Any]) -> tuple[int, Slot]:
        seat = int(payload["seat"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        if slot is None:
            raise SeatError(f"seat {seat + 1} is empty")
        return seat, slot

    def _on_seat(self, payload: dict[str, Any]) -> Effects:
        seat, nickname, bot = int(payload["seat"]), str(payload["nickname"]), payload["bot"]
        if not 0 <= seat < len(self.slots) or self.slots[seat] is not None:
            raise SeatError(f"seat {seat + 1} is not free")
        match = self.match
        if self.slot_of(nickname) is not None or (
            self.in_deal and match is not None and nickname in match.deal_seats
        ):
            raise SeatError(f"the nickname {nickname!r} is taken at this table")
        stack, player = self.stack_default, self.seq + 1
        self._handle(TakeSeat(player, nickname, stack, seat))
        self.slots[seat] = Slot(nickname, bot, player)
        self.banks.pop(seat, None)  # a newcomer has the full time bank
        said = line("table_seat", name=nickname, seat=seat + 1)
        return Effects([said], [LedgerEntry(nickname, player, "buy_in", stack)])

    def _on_unseat(self, payload: dict[str, Any]) -> Effects:
        seat, slot = self._slot(payload)
        if slot.leaving:
            return Effects([line("table_leave_after_deal", name=slot.nickname)])
        if slot.player not in self._planned():  # busted: the machine let them go already
            return self._remove(seat, self.left_with.get(slot.player, 0))
        events = self._handle(Leave(slot.player))
        left = next((e for e in events if isinstance(e, SeatLeft)), None)
        if left is None:
            # A deal (or its 5.5 questions) is under way: the player leaves when it ends
            # (answered for meanwhile).
            slot.leaving = True
            return Effects([line("table_leave_after_deal", name=slot.nickname)])
        return self._remove(seat, left.chips)

    def _remove(self, seat: int, chips: int) -> Effects:
        slot = self.slots[seat]
        assert slot is not None
        self.slots[seat] = None
        self.banks.pop(seat, None)
        self.left_with.pop(slot.player, None)
        said = line("table_leave", name=slot.nickname)
        return Effects(
            [said], [LedgerEntry(slot.nickname, slot.player, "cash_out", chips, self.hand)]
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
        seat, slot = self._slot(payload)
        amount = int(payload["amount"])
        if self.in_deal:
            raise SeatError("stacks can be adjusted only between deals")
        if amount < 1:
            raise SeatError("a stack must be at least 1 chip")
        before = self.stack(seat)
        if slot.player in self._planned():
            self._handle(SetChips(slot.player, amount))
        else:  # busted: back at the table with the chips the host gives
            self._handle(TakeSeat(slot.player, slot.nickname, amount, seat))
            self.left_with.pop(slot.player, None)
            self._sit(slot)
        said = line("table_stack", name=slot.nickname, amount=amount)
        return Effects([said], [LedgerEntry(slot.nickname, slot.player, "adjust", amount - before)])

    def _sit(self, slot: Slot) -> None:
        """Tell the machine whether ``slot`` sits out, if it does not know yet (a change
        during a deal takes effect when it ends)."""
        planned = next((s for s in self.machine.seats_to_come if s.player == slot.player), None)
        if planned is None or planned.sitting_out == slot.sitting_out:
            return
        self._handle(SitOut(slot.player) if slot.sitting_out else SitIn(slot.player))

    def _on_sit_out(self, payload: dict[str, Any]) -> Effects:
        _, slot = self._slot(payload)
        slot.sitting_out = True
        self._sit(slot)
        return Effects([line("table_sit_out", name=slot.nickname)])

    def _on_sit_in(self, payload: dict[str, Any]) -> Effects:
        _, slot = self._slot(payload)
        slot.sitting_out = False
        self._sit(slot)
        return Effects([line("table_sit_in", name=slot.nickname)])

    def _on_ledger_visibility(self, payload: dict[str, Any]) -> Effects:
        self.switches, lines = self.switches.ledger_visibility(payload)
        return Effects(lines)

    def _on_advice(self, payload: dict[str, Any]) -> Effects:
        self.switches, lines = self.switches.advice(payload)
        return Effects(lines)

    def _on_watch(self, payload: dict[str, Any]) -> Effects:
        self.switches, lines = self.switches.watch(payload)
        return Effects(lines)

    # --- dealing ----------------------------------------------------------------------------

    def _on_deal(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.PLAYING:
            raise SeatError("the game is not in play")
        if self.in_deal:
            raise SeatError("a deal is already under way")
        if len(self.dealable()) < self.rules.min_players:
            # Refused before anything changes: a refused event changes nothing.
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in: the match waits"
            )
        seed = payload.get("seed")
        cards = DealCards(SECURE if seed is None else SeededSource(int(seed)))
        start = StartDeal(source=cards.source)
        self.machine.verify(start)
        cards.give(recorded_cards(payload))
        self.cards = cards
        self._forced.clear()
        events = self._handle(start)
        self.outcome = None
        for slot in self.slots:
            if slot is not None:
                slot.last_action, slot.changed = None, None
        effects = Effects([line("report_title", number=len(self.machine.completed) + 1)])
        self._after(events, payload, effects)
        return effects

    def _on_action(self, payload: dict[str, Any]) -> Effects:
        if self._repeats_a_forced_show(payload):
            return Effects()
        seat, slot = self._slot(payload)
        if not self.in_deal:
            raise SeatError("no deal is under way")
        command = play_command(slot.player, payload)
        bank = bank_of(payload)
        self.machine.verify(command)
        if self.cards is not None:
            self.cards.give(recorded_cards(payload))
        events = self._handle(command)
        played = events[0]
        assert isinstance(played, ActionTaken | MakeUpAnswered)
        if bank is not None:
            self.banks[seat] = bank
        effects = Effects(refused=played.refused)
        auto = played.default is not None or bool(payload.get("auto"))
        drawer = played.seat if isinstance(played, ActionTaken) else None
        added = played.added if isinstance(played, ActionTaken) else None
        self._describe(slot, played.action, effects, auto=auto, seat=drawer, added=added)
        for forced in events[1:]:
            # The shows the rules left no choice about, played by the table (5.4).
            if isinstance(forced, ActionTaken) and forced.seat < len(self.deals.deal_slots):
                at = self.deals.deal_slots[forced.seat]
                shower = self.slots[at]
                if shower is not None:
                    self._describe(shower, forced.action, effects, auto=False, seat=forced.seat)
                if self._version_1:
                    self._forced.append((at, forced.action.kind))
        self._after(events, payload, effects)
        return effects

    @property
    def _version_1(self) -> bool:
        """Whether the deal under way was dealt from a version 1 log's deck."""
        return self.cards is not None and self.cards.stacked is not None

    def _repeats_a_forced_show(self, payload: dict[str, Any]) -> bool:
        """Whether an ``action`` event of a version 1 log repeats a show the table played
        already, the rules leaving no choice (that log records it as the player's own)."""
        if not self._forced or "kind" not in payload:
            return False
        if (int(payload["seat"]), ActionKind(payload["kind"])) != self._forced[0]:
            return False
        self._forced.popleft()
        return True

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
        """The public log's line for ``slot``'s ``action`` from deal seat ``seat``, and the
        action shown at the seat (:func:`~italian_poker.server.deal_narration.narrate`)."""
        told = narrate(slot.nickname, action, self.rules, auto=auto, seat=seat, added=added)
        effects.lines.append(told.line)
        slot.last_action = told.last_action
        if told.changed is not None:
            slot.changed = told.changed

    def _after(self, events: list[TableEvent], payload: dict[str, Any], effects: Effects) -> None:
        """What the machine reported after a deal or an action: a deal that began, one that
        ended, no deal after the 5.5 answers; players who busted and players who left once
        the deal was over. The cards the event took go into its record."""
        taken: list[object] = []
        leaving: dict[int, int] = {}
        for event in events:
            if isinstance(event, DealStarted):
                self._began()
                taken.extend(event.operations)
            elif isinstance(event, ActionTaken):
                taken.extend(event.operations)
            elif isinstance(event, DealFinished):
                self._settle(event.completed, effects)
            elif isinstance(event, NoDeal):
                effects.lines.append(line("no_deal", pot=event.carried))
            elif isinstance(event, SeatLeft):
                if event.busted:
                    self.left_with[event.player] = event.chips
                else:
                    leaving[event.player] = event.chips
        for seat, slot in enumerate(self.slots):
            if slot is not None and slot.leaving and slot.player not in self._planned():
                chips = leaving.get(slot.player, self.left_with.get(slot.player, 0))
                removed = self._remove(seat, chips)
                effects.ledger.extend(removed.ledger)
                effects.lines.extend(removed.lines)
        entries = card_entries(taken)
        effects.record = dict(payload)
        if entries and not (TAKEN in payload or "deck" in payload or "reshuffles" in payload):
            effects.record[TAKEN] = entries

    def _began(self) -> None:
        """A deal began: which slot and which person holds each of its seats."""
        match = self.match
        assert match is not None and match.deal is not None
        players = match.deal.start.player_ids
        slots = [s for p in players if (s := self._seat_of(p)) is not None]
        self.deals.began(len(match.completed) + 1, players, slots)

    def _settle(self, completed: CompletedDeal, effects: Effects) -> None:
        """A deal ended: its narration and the ledger results."""
        view = self.public_view()
        assert view is not None
        self.outcome, rows = settle(
            completed, view, self.requirement(), self.deals.deal_slots, self.deals.deal_players
        )
        effects.lines.extend(self.outcome.lines[1:])
        effects.ledger.extend(rows)
