"""A table's state as its event log builds it: the seats' people, the status, the table
machine, the public log.

Everything that changes a table is an event ``(seq, kind, payload)``, its kind one of
:class:`~italian_poker.server.event_kinds.EventKind`; :meth:`TableState.apply` applies one with
its kind's handler and is the only way the state changes. The seats, the stacks and the deals
are the table machine's (:class:`~italian_poker.table.machine.TableMachine`): each event is one
of its commands (a seat taken, a deal started, a player's action, a bot's choice, a turn that
ran out, ...), which it checks and carries out, and whose events the state reads back: the
narration, the ledger rows, who busted or left. The state keeps what the machine does not know:
who sits in each numbered seat (nickname, bot, the person's id, the seq of their ``seat``
event), the table's status, its options and its public log. Its parts are modules of their own:
the seats' people (:mod:`~italian_poker.server.seats`), who held which seat of which deal
(:mod:`~italian_poker.server.deal_records`), the narration of the deals
(:mod:`~italian_poker.server.deal_narration`) and the host's switches
(:mod:`~italian_poker.server.host_switches`). A restarted server replays a table's events in
order and arrives exactly where it was: each event gives back the cards it took
(:mod:`italian_poker.server.recorded_cards`). No I/O here: the runtime persists each event
(:attr:`Effects.record <italian_poker.server.effects.Effects.record>`) before anyone hears of
it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from italian_poker.engine.actions import Action, LegalAction
from italian_poker.engine.card_source import SECURE, SeededSource
from italian_poker.engine.errors import DealOverError, SeatError
from italian_poker.engine.fair_source import FairSource
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import Rules
from italian_poker.server.deal_narration import DealOutcome, narrate, settle
from italian_poker.server.deal_records import DealRecords
from italian_poker.server.effects import Effects
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import bank_of, play_command
from italian_poker.server.fair_deal import FairDeals
from italian_poker.server.forced_shows import ForcedShows
from italian_poker.server.home_desk import HomeDesk
from italian_poker.server.host_switches import HostSwitches
from italian_poker.server.i18n import line
from italian_poker.server.match_status import format_lines, match_format_of
from italian_poker.server.recorded_cards import TAKEN, DealCards, card_entries
from italian_poker.server.recorded_cards import recorded as recorded_cards
from italian_poker.server.seats import Seats, Slot
from italian_poker.table.commands import StartDeal
from italian_poker.table.formats import MatchFormat
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ActionTaken,
    DealFinished,
    DealStarted,
    MakeUpAnswered,
    MatchFinished,
    NoDeal,
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


@dataclass(frozen=True, slots=True)
class LogLine:
    """A numbered public event of the table's log."""

    seq: int
    line: Line


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
        self.base_rules = rules
        """The rules the table was made with (a schedule raises their ante and bets)."""
        self.options = options
        self.status = TableStatus.LOBBY
        self.machine = TableMachine(rules, audiences=False, match_format=match_format_of(options))
        """The seats, the stacks and the deals."""
        self.deals = DealRecords(self.machine, rules)
        """Who held which seat of which deal."""
        self.seats = Seats(self.machine, rules, self.deals)
        """Who sits in each seat, with their chips and time banks."""
        self.desk = HomeDesk(self.machine, self.seats, self.deals)
        """The lock, the co-host, the seat and chip requests."""
        self.switches = HostSwitches(
            players_see_ledger=bool(options.get(PLAYERS_SEE_LEDGER, False)),
            advice_on=bool(options.get(ADVICE, False)),
        )
        """The host's switches: the table's options at creation, then as the last
        ``ledger_visibility``, ``advice`` and ``watch`` events set them."""
        self.fair = FairDeals()
        """The fair decks: the one sealed for the next deal, each deal's, the reveals."""
        self.cards: DealCards | None = None
        """The card source of the deal under way (or about to begin): the cards the log
        recorded, then the live source."""
        self._forced = ForcedShows()
        """In a deal of a version 1 log, the shows the table played (5.4) that the log is
        yet to record as the players' own events."""
        self.seq = 0
        self.log: deque[LogLine] = deque(maxlen=log_size)
        self.outcome: DealOutcome | None = None
        self.turn_since: int | None = None
        """Seq of the event that began the turn under way (None: nobody is on the clock)."""
        self._turn: TurnKey | None = None
        self._views: dict[int, SeatView | None] = {}
        """The deal seats' views read since the last event (an event may change them all)."""
        self._public: tuple[PublicView | None] | None = None
        """The public view read since the last event, if any."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of the current (or next) deal: the table's, at its schedule's level."""
        return self.machine.rules

    @property
    def match_format(self) -> MatchFormat:
        """How long the match lasts and how its antes rise."""
        return self.machine.match_format

    @property
    def finished(self) -> bool:
        """Whether the match format says the match is over: no deal begins any more."""
        return self.machine.finished

    @property
    def match(self) -> Match | None:
        """The engine's match (once two players have sat down), to read only."""
        return self.machine.match

    @property
    def stack_default(self) -> int:
        """The chips a new seat buys in for."""
        return int(self.options["stack"])

    @property
    def slots(self) -> list[Slot | None]:
        """Who sits in each seat (None: an empty seat)."""
        return self.seats.slots

    def slot_of(self, nickname: str) -> int | None:
        """The seat of ``nickname``, if seated."""
        return self.seats.slot_of(nickname)

    def look_alike(self, nickname: str) -> str | None:
        """The nickname of a seated player (or of one still in the deal) that ``nickname``
        would be confused with."""
        return self.seats.look_alike(nickname)

    def free_seat(self) -> int | None:
        """The lowest empty seat."""
        return self.seats.free_seat()

    def stack(self, slot: int) -> int:
        """The chips in front of ``slot`` now."""
        return self.seats.stack(slot)

    def busted(self, slot: int) -> bool:
        """Whether the person in ``slot`` left the game for want of an ante (000 Art. 1) and
        has not been given chips since."""
        return self.seats.busted(slot)

    def dealable(self) -> list[int]:
        """The seats that would be dealt in at the next deal (chips for an ante, not out)."""
        return self.seats.dealable()

    def chips(self) -> int:
        """Every chip at the table: the seats' stacks and the pot (or the chips carried to
        the next deal)."""
        return sum(self.stack(i) for i, s in enumerate(self.slots) if s is not None) + self.pot()

    def pot(self) -> int:
        """The chips in no one's stack (:meth:`DealRecords.pot
        <italian_poker.server.deal_records.DealRecords.pot>`)."""
        return self.deals.pot()

    @property
    def in_deal(self) -> bool:
        """Whether a deal (or its 5.5 make-up decisions) is under way."""
        return self.deals.in_deal

    @property
    def hand(self) -> int | None:
        """The id of the current deal, else of the last one; None before the first."""
        return self.deals.hand

    def actor_slot(self) -> int | None:
        """The seat to act, if any."""
        player = self.machine.to_act
        return None if player is None else self.seats.seat_of(player)

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
        return self.seats.banks.get(slot, float(self.options.get("time_bank_seconds") or 0))

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the seat to act may do."""
        return self.machine.legal_actions()

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
        """``slot``'s view of the current (or last) deal, if it was dealt in (built once per
        event: the views are immutable)."""
        index = self.deal_index(slot)
        if index is None:
            return None
        views = self._views
        if index in views:
            return views[index]
        view = views[index] = self.deals.view(index)
        return view

    def public_view(self) -> PublicView | None:
        """What everyone may know of the current (or last) deal (the observer's public view,
        which has no hidden card); None before the first deal. Built once per event."""
        if self._public is None:
            self._public = (self.machine.public_view(),)
        return self._public[0]

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
        handler = _HANDLERS[kind]
        self._forget_views()
        try:
            effects = handler(self, payload)
        finally:
            self._forget_views()
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

    def _forget_views(self) -> None:
        """Drop the views read so far: the event being applied may change them."""
        if self._views:
            self._views.clear()
        self._public = None

    def release_views(self) -> None:
        """Drop the views read so far (the next reader builds them again): once a change
        has been told, so that they are freed at once rather than kept until the next
        event, and the garbage collector's freeze does not scan them."""
        self._forget_views()

    # --- dealing ----------------------------------------------------------------------------

    def _on_commit(self, payload: dict[str, Any]) -> Effects:
        if self.status is not TableStatus.PLAYING:
            raise SeatError("the game is not in play")
        if self.in_deal:
            raise SeatError("a deal is already under way")
        number = (len(self.match.completed) if self.match is not None else 0) + 1
        return Effects(self.fair.commit(payload, number))

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
        seed, now = payload.get("seed"), payload.get("now")
        fair = self.fair.start(payload)
        live = SECURE if seed is None else SeededSource(int(seed))
        cards = DealCards(live if fair is None else fair[0])
        start = StartDeal(source=cards.source, now=None if now is None else float(now))
        self.machine.verify(start)
        if fair is None:
            cards.give(recorded_cards(payload))
        else:
            # The fair deck deals again what it dealt (the stream where it was: fair_deal.py).
            self.fair.began(fair[1])
        self.cards = cards
        self._forced.clear()
        number = len(self.machine.completed) + 1
        events = self.seats.handle(start)
        effects = Effects()
        if not any(isinstance(event, MatchFinished) for event in events):  # else no deal
            self.outcome = None
            for slot in self.slots:
                if slot is not None:
                    slot.last_action, slot.changed = None, None
            effects.lines.append(line("report_title", number=number))
        self._after(events, payload, effects)
        return effects

    def _on_action(self, payload: dict[str, Any]) -> Effects:
        if self._forced.repeats(payload):
            return Effects()
        seat, slot = self.seats.taken(payload)
        if not self.in_deal:
            raise DealOverError("no deal is under way: nobody is to act")
        command = play_command(slot.player, payload)
        bank = bank_of(payload)
        recorded = recorded_cards(payload)
        if self.cards is not None and not recorded.empty and not self._fair:
            # The recorded cards go to the deal only once the event is known to be accepted.
            self.machine.verify(command)
            self.cards.give(recorded)
        events = self.seats.handle(command)
        played = events[0]
        assert isinstance(played, ActionTaken | MakeUpAnswered)
        if bank is not None:
            self.seats.banks[seat] = bank
        effects = Effects(refused=played.refused)
        auto = played.default is not None or bool(payload.get("auto"))
        drawer = played.seat if isinstance(played, ActionTaken) else None
        added = played.added if isinstance(played, ActionTaken) else None
        self._describe(slot, played.action, effects, auto=auto, seat=drawer, added=added)
        for forced in events[1:]:
            # The shows the rules left no choice about, played by the table (5.4).
            if isinstance(forced, ActionTaken) and forced.seat < len(self.deal_slots):
                at = self.deal_slots[forced.seat]
                shower = self.slots[at]
                if shower is not None:
                    self._describe(shower, forced.action, effects, auto=False, seat=forced.seat)
                if self._version_1:
                    self._forced.played(at, forced.action.kind)
        self._after(events, payload, effects)
        return effects

    @property
    def _fair(self) -> bool:
        """Whether the deal under way is dealt from a fair deck (it deals its cards again)."""
        return self.cards is not None and isinstance(self.cards.live, FairSource)

    @property
    def _version_1(self) -> bool:
        """Whether the deal under way was dealt from a version 1 log's deck."""
        return self.cards is not None and self.cards.stacked is not None

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
        for event in events:
            if isinstance(event, DealStarted):
                self._began()
                taken.extend(event.operations)
            elif isinstance(event, ActionTaken):
                taken.extend(event.operations)
            elif isinstance(event, DealFinished):
                self._settle(event.completed, effects)
                self.fair.finished(len(self.machine.completed))
            elif isinstance(event, NoDeal):
                effects.lines.append(line("no_deal", pot=event.carried))
            else:
                effects.lines.extend(format_lines(event))
        self.seats.depart(events, effects)
        self.desk.arrived(events, effects)
        entries = card_entries(taken)
        effects.record = dict(payload)
        if entries and not (TAKEN in payload or "deck" in payload or "reshuffles" in payload):
            effects.record[TAKEN] = entries

    def _began(self) -> None:
        """A deal began: which slot and which person holds each of its seats."""
        match = self.match
        assert match is not None and match.deal is not None
        players = match.deal.start.player_ids
        slots = [s for p in players if (s := self.seats.seat_of(p)) is not None]
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


Handler = Callable[[TableState, dict[str, Any]], Effects]
"""How one kind of event changes a table: the state and the event's payload in, what it
caused out; raises, changing nothing, when the event is not allowed now."""


def _status(was: TableStatus, now: TableStatus, refusal: str, said: str) -> Handler:
    """The change of the table's status from ``was`` to ``now`` (refused otherwise)."""

    def change(state: TableState, payload: dict[str, Any]) -> Effects:
        if state.status is not was:
            raise SeatError(refusal)
        if now is TableStatus.PLAYING and was is TableStatus.LOBBY:
            needed = state.rules.min_players
            if len(state.dealable()) < needed:
                raise SeatError(f"at least {needed} seated players (or bots) are needed to start")
        state.status = now
        return Effects([line(said)])

    return change


def _switch(name: str) -> Handler:
    """A host switch of :class:`~italian_poker.server.host_switches.HostSwitches`."""

    def turn(state: TableState, payload: dict[str, Any]) -> Effects:
        state.switches, lines = getattr(state.switches, name)(payload)
        return Effects(lines)

    return turn


def _deals_done(state: TableState) -> int:
    return len(state.match.completed) if state.match is not None else 0


_HANDLERS: dict[EventKind, Handler] = {
    EventKind.SEAT: lambda t, p: t.seats.take(p, t.seq + 1, t.stack_default),
    EventKind.UNSEAT: lambda t, p: t.seats.unseat(p),
    EventKind.STACK: lambda t, p: t.seats.set_chips(p),
    EventKind.SIT_OUT: lambda t, p: t.seats.sit(p, out=True),
    EventKind.SIT_IN: lambda t, p: t.seats.sit(p, out=False),
    EventKind.LOCK: lambda t, p: t.desk.lock(p),
    EventKind.CO_HOST: lambda t, p: t.desk.name_co_host(p),
    EventKind.CHIP_CAPS: lambda t, p: t.desk.caps(p),
    EventKind.CHIP_ASK: lambda t, p: t.desk.ask_chips(p),
    EventKind.CHIP_ANSWER: lambda t, p: t.desk.answer_chips(p),
    EventKind.SEAT_ASK: lambda t, p: t.desk.ask_seat(p, t.seq + 1, t.stack_default),
    EventKind.SEAT_ANSWER: lambda t, p: t.desk.answer_seat(p),
    EventKind.START: _status(
        TableStatus.LOBBY, TableStatus.PLAYING, "the game has already started", "table_start"
    ),
    EventKind.PAUSE: _status(
        TableStatus.PLAYING, TableStatus.PAUSED, "only a game in play can be paused", "table_pause"
    ),
    EventKind.RESUME: _status(
        TableStatus.PAUSED, TableStatus.PLAYING, "the game is not paused", "table_resume"
    ),
    EventKind.LEDGER_VISIBILITY: _switch("ledger_visibility"),
    EventKind.ADVICE: _switch("advice"),
    EventKind.WATCH: _switch("watch"),
    EventKind.FAIR_REVEAL: lambda t, p: Effects(t.fair.switch(p)),
    EventKind.REVEAL: lambda t, p: Effects(t.fair.reveal(_deals_done(t))),
    EventKind.COMMIT: TableState._on_commit,
    EventKind.DEAL: TableState._on_deal,
    EventKind.ACTION: TableState._on_action,
}
"""Each kind of event's :data:`Handler`."""
