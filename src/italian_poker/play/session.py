"""A session at the table: one human and bots playing a :class:`Match`, with no UI.

The session drives a table machine (:class:`~italian_poker.table.machine.TableMachine`):
it asks each bot for its action through the bot's own seat view only and hands the choice to
the machine (:class:`~italian_poker.table.commands.BotAct`, which plays
:func:`~italian_poker.table.defaults.default_action` for an illegal one), and hands it the
human's choices (:class:`~italian_poker.table.commands.Act`). Players are the machine's ids:
the index of each name in ``players``. The session turns the machine's events into
:class:`~italian_poker.table.events.Event` records as the human may know them (the observer,
:mod:`italian_poker.engine.observer`, decides what the human sees), saves every completed
deal's hand history and keeps what the after-deal report and the session summary need.
The terminal app drives it; tests drive it directly.

With ``fair`` each deal comes from a provably fair deck (docs/fairness.md): before the deal the
session seals a seed and keeps its commitment (:attr:`Session.fair_decks`), every seated
player, bots and human alike, gives a value, and the saved history records the commitment and
the values; the seeds go into each history (``Reveal.DEAL``) or, at the table's close, into
the session folder's reveal file (:meth:`Session.reveal`).

Protocol: while :attr:`Session.state` is ``BETWEEN_DEALS`` call :meth:`Session.start_deal`;
``BOT_TURN``: :meth:`Session.step` (one bot decision) or :meth:`Session.play_bots`;
``HUMAN_TURN``: :meth:`Session.act` with one of :meth:`Session.legal_actions`; ``OVER``: the
match cannot go on. An illegal human action raises an
:class:`~italian_poker.engine.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Outcome
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.errors import InvalidDrawError, NotYourTurnError, SeatError
from italian_poker.engine.fair_shuffle import new_value
from italian_poker.engine.fair_source import (
    FairSource,
    Reveal,
    SealedDeck,
    reproducible_seed,
    reproducible_value,
)
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.observer import (
    PublicAction,
    PublicView,
    SeatView,
)
from italian_poker.engine.opening import OpeningRequirement, opening_groups
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import BettingStructure, Direction, Rules
from italian_poker.play.storage import HistoryStore
from italian_poker.table.commands import (
    Act,
    AnswerChips,
    AskChips,
    BotAct,
    StartDeal,
    TakeSeat,
)
from italian_poker.table.events import (
    BiggestPot,
    Event,
    FinishedDeal,
    OverReason,
    PlayerSummary,
    SessionSummary,
)
from italian_poker.table.formats import CASH, MatchFormat
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ActionTaken,
    ChipsAsked,
    DealFinished,
    MakeUpAnswered,
    NoDeal,
    Observed,
    TableEvent,
)

TableView = SeatView | PublicView
"""What the human sees of the table: their own seat's view when dealt in, else the public
view (:meth:`Session.table_view`)."""


class SessionState(StrEnum):
    """What the session waits for."""

    BETWEEN_DEALS = "between-deals"
    """No deal under way: :meth:`Session.start_deal` begins the next one."""
    HUMAN_TURN = "human-turn"
    BOT_TURN = "bot-turn"
    OVER = "over"
    """The human has left the table or fewer than two players can be dealt in."""


def default_stack(rules: Rules) -> int:
    """Chips each player starts with when none is chosen: twenty of the largest bets of the
    second round (a hundred minimum bets under pot or no limit), and at least fifty antes."""
    if rules.structure is BettingStructure.FIXED_LIMIT:
        largest = rules.big_bet
    elif rules.structure is BettingStructure.SPREAD_LIMIT:
        largest = rules.max_bet
    else:
        largest = 5 * rules.min_bet
    if rules.second_round_doubled:
        largest *= 2
    return max(20 * largest, 50 * (rules.ante + rules.dealer_ante))


def cards_to_come(view: SeatView) -> int:
    """4.2: how many cards the seat of ``view`` is still owed at the draw. A player who
    changes four gets three at once and the fourth after everyone else has drawn, so for a
    while the hand holds four cards. 0 before the cards are dealt (the blind, Art. 2) and
    once the hand has its five cards."""
    if not view.hand:
        return 0
    return max(0, HAND_SIZE - len(view.hand))


def breaks_opening(view: SeatView, discards: Collection[Card]) -> bool:
    """4.4: whether the opener, discarding ``discards``, would break the opening combination
    (must announce the split). The engine decides: on the opener's draw it is the offered
    draw's :meth:`~italian_poker.engine.actions.LegalAction.breaks_opening`; before then (the
    opener choosing cards ahead of the turn) the same test on the groups the engine will offer
    (:func:`~italian_poker.engine.opening.opening_groups`). Always false for anyone but an
    opener who has still to draw."""
    for legal in view.legal_actions:
        if legal.kind is ActionKind.DRAW:
            return legal.breaks_opening(discards)
    seat = view.seat
    if view.opener != seat or view.folded[seat] or view.cards_changed[seat] is not None:
        return False
    if view.result is not None or not view.hand:
        return False
    groups = opening_groups(view.hand, view.requirement)
    return LegalAction(ActionKind.DRAW, split_unless_kept=groups).breaks_opening(discards)


class Session:
    """One human and bots at one table; see the module docstring for the protocol.

    ``bots`` maps every player but ``human`` to a :class:`Policy`. The human sits at the
    dealer's left for the first deal, so they speak first. ``seed`` makes the shuffles
    reproducible; ``store`` saves each completed deal's hand history. ``match_format`` is
    the table's (:mod:`italian_poker.table.formats`; a sit and go's starting chips are
    ``stack``). :attr:`machine` is the table machine the session drives (:attr:`match`, its
    match, is there to read).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        human: str,
        bots: Mapping[str, Policy],
        *,
        stack: int,
        seed: int | None = None,
        store: HistoryStore | None = None,
        match_format: MatchFormat = CASH,
        fair: bool = False,
        reveal: Reveal = Reveal.CLOSE,
    ) -> None:
        if reveal not in tuple(Reveal):
            raise SeatError(
                f"the seeds are revealed at the table's close or each deal's end, not {reveal!r}"
            )
        if human not in players:
            raise SeatError(f"the human player {human!r} is not among the players")
        others = [p for p in players if p != human]
        missing = [p for p in others if p not in bots]
        if missing:
            raise SeatError(f"no bot for {', '.join(missing)}")
        extra = sorted(set(bots) - set(others))
        if extra:
            raise SeatError(f"bots given for players not at the table: {', '.join(extra)}")
        step = 1 if rules.direction is Direction.CLOCKWISE else -1
        dealer = (list(players).index(human) - step) % len(players)
        self.machine = TableMachine(
            rules,
            [TakeSeat(i, name, stack) for i, name in enumerate(players)],
            dealer=dealer,
            seed=seed,
            match_format=match_format,
        )
        """The table machine: the bots' choices and the human's actions go to it."""
        self.bots: dict[str, Policy] = dict(bots)
        """The bots' policies by name."""
        self.rules = rules
        self.human = human
        self.players = tuple(players)
        self.store = store
        self.finished: list[FinishedDeal] = []
        self.no_deal: NoDeal | None = None
        """5.5: the make-up answers left fewer than two players to deal in (the last
        :meth:`start_deal` dealt nothing; the pot waits), else None."""
        self.shows: tuple[Event, ...] = ()
        """The shows the table played at once after the last decision (:meth:`act` or
        :meth:`step`), for the players the rules left no choice (5.4)."""
        self._start_stacks = {p: stack for p in players}
        """The chips each player brought: the starting stack and the human's rebuys."""
        self._stack = stack
        """The starting stack (a rebuy's chips)."""
        self.seed = seed
        self.fair = fair
        self.reveal_each_deal = reveal == Reveal.DEAL
        self.fair_decks: dict[int, FairSource] = {}
        """The fair deck of each deal by number (its commitment is published as it is made)."""

    # --- where things stand ---------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The match being played (the machine's), to read: every change goes through
        :attr:`machine`."""
        match = self.machine.match
        assert match is not None  # the session seats two players or more
        return match

    def player_id(self, name: str) -> int:
        """The machine's id of player ``name``."""
        return self.players.index(name)

    @property
    def human_seated(self) -> bool:
        """Whether the human still has a seat (not busted)."""
        return any(s.name == self.human for s in self.match.seats)

    @property
    def state(self) -> SessionState:
        """What the session waits for now."""
        if not self.human_seated or self.machine.finished:
            return SessionState.OVER
        phase = self.match.phase
        if phase is MatchPhase.OVER:
            return SessionState.OVER
        if phase is MatchPhase.BETWEEN_DEALS:
            return SessionState.BETWEEN_DEALS
        return SessionState.HUMAN_TURN if self.match.actor == self.human else SessionState.BOT_TURN

    @property
    def over_reason(self) -> OverReason | None:
        """Why the session cannot go on, or None while it can."""
        if self.state is not SessionState.OVER:
            return None
        if self.machine.finished:
            return OverReason.MATCH_FINISHED
        if not self.human_seated:
            return OverReason.HUMAN_BUSTED
        if all(s.name == self.human for s in self.match.seats):
            return OverReason.TABLE_WON
        return OverReason.MATCH_OVER

    @property
    def can_rebuy(self) -> bool:
        """Whether the human, busted, may buy back in: the human is the host of their own
        table, so the machine's chip request is theirs to approve (in a sit and go, a
        re-entry while the window is open)."""
        if self.over_reason is not OverReason.HUMAN_BUSTED:
            return False
        return self.machine.can(AskChips(self.player_id(self.human), self._stack))

    def rebuy(self) -> int:
        """The busted human buys back in with the starting stack: a chip request
        (:mod:`~italian_poker.table.chip_requests`; in a sit and go, a re-entry) the human,
        host of the table, approves; back in their seat for the next deal. Returns the chips;
        raises what the machine refuses (a
        :class:`~italian_poker.table.chip_requests.ChipRequestError`, or a sit and go's
        :class:`~italian_poker.table.formats.ReEntryClosedError`) and changes nothing."""
        player, chips = self.player_id(self.human), self._stack
        asked = self.machine.handle(AskChips(player, chips))
        number = next(e.request.number for e in asked if isinstance(e, ChipsAsked))
        self.machine.handle(AnswerChips(number, True))
        self._start_stacks[self.human] += chips
        return chips

    @property
    def actor(self) -> str | None:
        """The player to act, or None."""
        return self.match.actor

    @property
    def deal_number(self) -> int:
        """The number of the current deal (or of the next one, between deals)."""
        completed = len(self.match.completed)
        return completed if self.state is SessionState.BETWEEN_DEALS else completed + 1

    @property
    def human_in_deal(self) -> bool:
        """Whether the human is dealt into the current (or last) deal."""
        return self.match.deal is not None and self.human in self.match.deal_seats

    def human_view(self) -> SeatView | None:
        """The human's view of the current (or last) deal; None if not dealt in."""
        return self.match.view(self.human) if self.human_in_deal else None

    def table_view(self) -> TableView | None:
        """What the human sees of the table: their own view when dealt in, else the public
        view a spectator has (the observer's :class:`PublicView`, which has no hidden field);
        None before the first deal."""
        if self.match.deal is None:
            return None
        if self.human_in_deal:
            return self.match.view(self.human)
        return self.machine.public_view()

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the human may do now (empty when it is not their turn)."""
        if self.state is not SessionState.HUMAN_TURN:
            return ()
        return self.match.legal_actions()

    @property
    def requirement(self) -> OpeningRequirement:
        """The opening requirement of the current (or next) deal (3.3, 3.5, 5.5)."""
        deal = self.match.deal
        if deal is not None and self.match.phase is MatchPhase.IN_DEAL:
            current: OpeningRequirement = deal.requirement
            return current
        return self.match.requirement

    # --- playing --------------------------------------------------------------------------

    def start_deal(self, *, deck: Sequence[Card] | None = None) -> None:
        """Begin the next deal (first the 5.5 make-up decisions after a parol). ``deck``
        stacks the deck for the players dealt in."""
        if self.state is not SessionState.BETWEEN_DEALS:
            raise SeatError("a deal is already under way, or the game is over")
        self.no_deal = None
        if deck is None and self.fair:
            source = self._fair_source()
            self._report(self.machine.handle(StartDeal(source=source)))
            return
        self._report(self.machine.handle(StartDeal(None if deck is None else tuple(deck))))

    def _fair_source(self) -> FairSource:
        """The next deal's fair deck: the seed sealed (reproducible from the session's seed,
        if any) and its commitment kept first, then a value from every seated player in seat
        order (from the seed too, if any)."""
        number = len(self.match.completed) + 1
        seed = None if self.seed is None else reproducible_seed(self.seed, number)
        sealed = SealedDeck.new(number, seed)
        seated = range(len(self.match.seats))
        values = [
            new_value() if self.seed is None else reproducible_value(self.seed, number, seat)
            for seat in seated
        ]
        source = sealed.source(values)
        self.fair_decks[number] = source
        return source

    def reveal(self) -> Path | None:
        """At the table's close: write the seeds of the deals saved without them to the
        session folder's reveal file (``seeds.reveal``); its path, or None when there is
        nothing to reveal. Raises :class:`OSError` if it cannot be written."""
        if self.store is None or self.reveal_each_deal:
            return None
        saved = {deal.number for deal in self.finished if deal.history_path is not None}
        decks = [s.record(reveal=True) for n, s in sorted(self.fair_decks.items()) if n in saved]
        if not decks:
            return None
        return self.store.save_reveals(decks)

    def act(self, action: Action) -> Event:
        """Apply the human's ``action`` (the shows the table played after it in :attr:`shows`).
        Raises an IllegalActionError subclass, changing
        nothing, if it is not allowed now."""
        if self.state is not SessionState.HUMAN_TURN:
            actor = self.match.actor
            raise NotYourTurnError(
                "it is not your turn" + (f": {actor} is to act" if actor is not None else "")
            )
        return self._decision(self.machine.handle(Act(self.player_id(self.human), action)))

    def step(self) -> Event:
        """One bot decision: the bot chooses from its own seat view and the machine plays it
        (the default action, with ``bot_error`` set, if the bot's is illegal)."""
        if self.state is not SessionState.BOT_TURN:
            raise NotYourTurnError("no bot is to act now")
        return self._decision(self.machine.handle(self._bot_choice()))

    def _decision(self, events: Iterable[TableEvent]) -> Event:
        """The decision among the machine's ``events``; the shows it played after it in
        :attr:`shows`."""
        event, *shows = self._report(events)
        self.shows = tuple(shows)
        return event

    def play_bots(self) -> list[Event]:
        """Let the bots act until the human is to act, the deal ends or the game is over."""
        events: list[Event] = []
        while self.state is SessionState.BOT_TURN:
            events.extend(self._report(self.machine.handle(self._bot_choice())))
        return events

    def _bot_choice(self) -> BotAct:
        """The choice of the bot to act, from its own seat view."""
        player = self.machine.to_act
        assert player is not None
        name = self.players[player]
        return BotAct(player, self.bots[name].act(self.machine.view(player)))

    def draw_action(self, positions: Collection[int]) -> Action:
        """The human's draw discarding the cards at ``positions`` (0-based, in hand order),
        announcing the split (4.4) when the opener breaks the opening."""
        view = self.human_view()
        if view is None:
            raise NotYourTurnError("you are not in this deal")
        bad = sorted(p for p in positions if not 0 <= p < len(view.hand))
        if bad:
            listed = ", ".join(str(p + 1) for p in bad)
            raise InvalidDrawError(f"card positions are 1 to {len(view.hand)}, not {listed}")
        discards = tuple(view.hand[p] for p in sorted(set(positions)))
        split = breaks_opening(view, discards) and view.rules.opener_may_split
        return Action(ActionKind.DRAW, cards=discards, split=split)

    # --- the machine's events, as the human knows them ------------------------------------

    def _report(self, events: Iterable[TableEvent]) -> list[Event]:
        """The machine's ``events`` as the session reports them: one :class:`Event` per
        decision, as the human saw it, and each finished deal saved and kept
        (:attr:`finished`)."""
        human = self.player_id(self.human)
        reported: list[Event] = []
        taken: ActionTaken | None = None
        for event in events:
            if isinstance(event, ActionTaken):
                taken = event
            elif (
                isinstance(event, Observed) and taken is not None and event.audience.reaches(human)
            ):
                reported.append(self._action_event(taken, event))
                taken = None
            elif isinstance(event, MakeUpAnswered):
                action = event.action
                amount = action.amount if action.kind is ActionKind.MAKE_UP else None
                name = self.players[event.player]
                reported.append(Event(name, action.kind, amount, bot_error=event.refused))
            elif isinstance(event, DealFinished):
                self._finish(event.completed)
            elif isinstance(event, NoDeal):
                self.no_deal = event
        return reported

    def _action_event(self, event: ActionTaken, seen_by_human: Observed) -> Event:
        """A decision in the deal as the human saw it: the first operation of what the
        machine told the human (the observer decides whether the discards of a draw are seen:
        the human's own, or everyone's when face up, 003)."""
        seen = seen_by_human.operations[0]
        assert isinstance(seen, PublicAction)
        return Event(
            self.players[event.player],
            seen.kind,
            seen.amount,
            seen.cards_changed,
            seen.discards,
            seen.split,
            event.refused,
            event.added,
        )

    def _finish(self, completed: CompletedDeal) -> None:
        view = self.table_view()
        assert view is not None
        path: Path | None = None
        error: str | None = None
        if self.store is not None:
            try:
                deck = self.fair_decks.get(completed.number)
                fair = None if deck is None else deck.record(reveal=self.reveal_each_deal)
                path = self.store.save(completed, fair=fair)
            except OSError as problem:
                error = f"{problem.strerror or problem}" + (
                    f": {problem.filename}" if problem.filename else ""
                )
        self.finished.append(
            FinishedDeal(
                number=completed.number,
                view=view,
                human_in_deal=self.human_in_deal,
                next_requirement=self.match.requirement,
                history_path=path,
                save_error=error,
            )
        )

    # --- the summary ----------------------------------------------------------------------

    def summary(self) -> SessionSummary:
        """The session so far: deals by outcome, each player's chips and pots won, the
        biggest pot, where the hand histories are."""
        completed = self.match.completed
        pots_won = dict.fromkeys(self.players, 0)
        biggest: BiggestPot | None = None
        for deal in completed:
            names = deal.start.names
            winnings = deal.result.winnings
            for seat in winnings:
                pots_won[names[seat]] += 1
            total = sum(award.amount for award in deal.result.awards)
            if total and (biggest is None or total > biggest.amount):
                winners = tuple(names[s] for s in sorted(winnings))
                biggest = BiggestPot(total, winners, deal.number)
        seated = {s.name: s.stack for s in self.match.seats}
        departed = dict(self.match.departed)
        current = self.match.deal
        abandoned = self.match.phase is MatchPhase.IN_DEAL and current is not None
        if abandoned and current is not None:
            # A deal left unfinished does not count: chips as they were before it.
            seated.update(zip(current.start.names, current.start.stacks, strict=True))
        players = tuple(
            PlayerSummary(
                name=name,
                start=self._start_stacks[name],
                end=seated.get(name, departed.get(name, 0)),
                pots_won=pots_won[name],
                left=name not in seated,
            )
            for name in self.players
        )
        outcomes = [deal.result.outcome for deal in completed]
        return SessionSummary(
            human=self.human,
            deals=len(completed),
            won=outcomes.count(Outcome.WON),
            passed=outcomes.count(Outcome.PASSED),
            parol=outcomes.count(Outcome.PAROL),
            players=players,
            biggest_pot=biggest,
            histories=self.store.directory if self.store is not None else None,
            over=self.over_reason,
            abandoned=abandoned,
            standings=() if self.machine.match_format is CASH else self.machine.standings,
        )


def last_actions(view: TableView) -> dict[int, PublicAction]:
    """Each seat's latest action in the deal of ``view`` (blinds and the draw included)."""
    latest: dict[int, PublicAction] = {}
    for action in view.actions:
        latest[action.seat] = action
    return latest
