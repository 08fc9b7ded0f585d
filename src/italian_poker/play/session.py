"""A session at the table: one human and bots playing a :class:`Match`, with no UI.

The session asks each bot for its action through the bot's own seat view
(``match.view(name)``) only, applies the human's choices, saves every completed deal's hand
history and keeps what the after-deal report and the session summary need. The terminal app
drives it; tests drive it directly.

Protocol: while :attr:`Session.state` is ``BETWEEN_DEALS`` call :meth:`Session.start_deal`;
``BOT_TURN``: :meth:`Session.step` (one bot decision) or :meth:`Session.play_bots`;
``HUMAN_TURN``: :meth:`Session.act` with one of :meth:`Session.legal_actions`; ``OVER``: the
match cannot go on. An illegal human action raises an
:class:`~italian_poker.engine.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from pathlib import Path

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Outcome
from italian_poker.engine.errors import (
    IllegalActionError,
    InvalidDrawError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import BettingStructure, Direction, Rules
from italian_poker.engine.view import PublicAction, SeatView
from italian_poker.play.storage import HistoryStore
from italian_poker.table.events import HAND_SIZE as HAND_SIZE
from italian_poker.table.events import BiggestPot as BiggestPot
from italian_poker.table.events import Event as Event
from italian_poker.table.events import FinishedDeal as FinishedDeal
from italian_poker.table.events import OverReason as OverReason
from italian_poker.table.events import PlayerSummary as PlayerSummary
from italian_poker.table.events import SessionSummary as SessionSummary
from italian_poker.table.events import hand_rank as hand_rank


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


_FALLBACK_ORDER = (
    ActionKind.CHECK,
    ActionKind.PASS,
    ActionKind.DECLINE,
    ActionKind.SHOW,
    ActionKind.DRAW,
    ActionKind.SIT_OUT,
    ActionKind.FOLD,
    ActionKind.CALL,
)


def fallback_action(legal: Sequence[LegalAction]) -> Action:
    """The safest legal action, played for a bot that chose an illegal one: check, pass,
    decline, show, stand pat, sit out, fold, or call."""
    kinds = {la.kind for la in legal}
    for kind in _FALLBACK_ORDER:
        if kind in kinds:
            return Action(kind)
    raise ValueError("no legal action to fall back on")


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
    (the kept cards no longer prove it). Always false for anyone but the opener."""
    if view.opener is None or view.opener != view.seat:
        return False
    kept = [card for card in view.hand if card not in discards]
    return not view.requirement.kept_proves(kept)


def spectator_view(view: SeatView) -> SeatView:
    """``view`` stripped of everything private to its seat (hand, discards, kept-apart
    cards, legal actions): what anyone watching the table knows."""
    face_up = view.rules.discards_face_up
    actions = tuple(
        dataclasses.replace(a, discards=())
        if a.kind is ActionKind.DRAW and a.discards and not face_up
        else a
        for a in view.actions
    )
    return dataclasses.replace(view, hand=(), actions=actions, legal_actions=(), kept_apart=())


class Session:
    """One human and bots at one table; see the module docstring for the protocol.

    ``bots`` maps every player but ``human`` to a :class:`Policy`. The human sits at the
    dealer's left for the first deal, so they speak first. ``seed`` makes the shuffles
    reproducible; ``store`` saves each completed deal's hand history.
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
    ) -> None:
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
        self.match = Match(rules, [(p, stack) for p in players], dealer=dealer, seed=seed)
        self.rules = rules
        self.human = human
        self.players = tuple(players)
        self.bots = dict(bots)
        self.store = store
        self.finished: list[FinishedDeal] = []
        self._start_stacks = {p: stack for p in players}

    # --- where things stand ---------------------------------------------------------------

    @property
    def human_seated(self) -> bool:
        """Whether the human still has a seat (not busted)."""
        return any(s.name == self.human for s in self.match.seats)

    @property
    def state(self) -> SessionState:
        """What the session waits for now."""
        if not self.human_seated:
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
        if not self.human_seated:
            return OverReason.HUMAN_BUSTED
        if all(s.name == self.human for s in self.match.seats):
            return OverReason.TABLE_WON
        return OverReason.MATCH_OVER

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

    def table_view(self) -> SeatView | None:
        """What the human sees of the table: their own view when dealt in, else a
        spectator's view (:func:`spectator_view`); None before the first deal."""
        if self.match.deal is None:
            return None
        if self.human_in_deal:
            return self.match.view(self.human)
        return spectator_view(self.match.view(self.match.deal_seats[0]))

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
        return OpeningRequirement(self.match.min_pair, self.rules.four_straight_flush_opens)

    # --- playing --------------------------------------------------------------------------

    def start_deal(self, *, deck: Sequence[Card] | None = None) -> None:
        """Begin the next deal (first the 5.5 make-up decisions after a parol). ``deck``
        stacks the deck for the players dealt in."""
        if self.state is not SessionState.BETWEEN_DEALS:
            raise SeatError("a deal is already under way, or the game is over")
        self.match.start_deal(deck=deck)

    def act(self, action: Action) -> Event:
        """Apply the human's ``action``. Raises an IllegalActionError subclass, changing
        nothing, if it is not allowed now."""
        if self.state is not SessionState.HUMAN_TURN:
            actor = self.match.actor
            raise NotYourTurnError(
                "it is not your turn" + (f": {actor} is to act" if actor is not None else "")
            )
        return self._apply(self.human, action)

    def step(self) -> Event:
        """Ask the bot to act for its decision, through its own seat view, and apply it."""
        if self.state is not SessionState.BOT_TURN:
            raise NotYourTurnError("no bot is to act now")
        name = self.match.actor
        assert name is not None
        view = self.match.view(name)
        action = self.bots[name].act(view)
        try:
            return self._apply(name, action)
        except IllegalActionError as error:
            safe = fallback_action(self.match.legal_actions())
            event = self._apply(name, safe)
            return dataclasses.replace(event, bot_error=f"{action}: {error}")

    def play_bots(self) -> list[Event]:
        """Let the bots act until the human is to act, the deal ends or the game is over."""
        events = []
        while self.state is SessionState.BOT_TURN:
            events.append(self.step())
        return events

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

    def _apply(self, name: str, action: Action) -> Event:
        match = self.match
        completed_before = len(match.completed)
        if match.phase is MatchPhase.MAKE_UP:
            amount = match.legal_actions()[0].min_amount
            match.apply(action, name)
            event = Event(name, action.kind, amount if action.kind is ActionKind.MAKE_UP else None)
        else:
            match.apply(action, name)
            assert match.deal is not None
            record = match.deal.actions[-1]
            done = record.action
            discards: tuple[Card, ...] = ()
            changed: int | None = None
            if done.kind is ActionKind.DRAW:
                changed = len(done.cards)
                if name == self.human or self.rules.discards_face_up:
                    discards = done.cards
            event = Event(name, done.kind, done.amount, changed, discards, done.split)
        if len(match.completed) > completed_before:
            self._finish(match.completed[-1])
        return event

    def _finish(self, completed: CompletedDeal) -> None:
        view = self.table_view()
        assert view is not None
        path: Path | None = None
        error: str | None = None
        if self.store is not None:
            try:
                path = self.store.save(completed)
            except OSError as problem:
                error = f"{problem.strerror or problem}" + (
                    f": {problem.filename}" if problem.filename else ""
                )
        self.finished.append(
            FinishedDeal(
                number=completed.number,
                view=view,
                human_in_deal=self.human_in_deal,
                next_requirement=OpeningRequirement(
                    self.match.min_pair, self.rules.four_straight_flush_opens
                ),
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
        )


def last_actions(view: SeatView) -> dict[int, PublicAction]:
    """Each seat's latest action in the deal of ``view`` (blinds and the draw included)."""
    latest: dict[int, PublicAction] = {}
    for action in view.actions:
        latest[action.seat] = action
    return latest
