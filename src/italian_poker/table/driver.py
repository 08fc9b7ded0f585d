"""The table driver: one match played by people and policies, a step at a time, players
named by their match name.

The online server's table state runs its match through a :class:`Table` (the terminal game,
the simulation and the evaluation drive a :class:`~italian_poker.table.machine.TableMachine`,
keyed by player id). The table asks the policy of the player to act for its action, through that
player's own view (:func:`~italian_poker.engine.observer.observe`); takes a person's action
(an illegal one raises and changes nothing); plays :func:`default_action` for a player whose
time ran out or whose policy answered with an illegal action; and reports what happened as
typed :data:`TableEvent` records. Each event carries the slice of the deal's operations log it
made (engine/operations.py), so a front end shows each viewer only what that viewer may see
with :func:`~italian_poker.engine.observer.observe_operations`.

Players are named by their match name; :attr:`Table.player_ids` gives the stable id of each
(``Seat.player_id``), which front ends use to key anything that outlives a name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from italian_poker.engine.actions import Action, LegalAction
from italian_poker.engine.card_source import CardSource
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import ActionRecord, DealStart, Operation
from italian_poker.engine.errors import IllegalActionError, NotYourTurnError
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.observer import PUBLIC, PublicView, SeatView, observe
from italian_poker.engine.policy import Policy
from italian_poker.table.defaults import DefaultReason, default_action, forced_action
from italian_poker.table.events import chips_added, round_bet_before


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal began: ``start`` says who is dealt in (names, player ids, stacks, dealer, what
    opens); ``operations`` are the antes and, once dealt, the hands (3.1)."""

    number: int
    start: DealStart
    operations: tuple[Operation, ...]


@dataclass(frozen=True, slots=True)
class MakeUpAsked:
    """5.5: ``player`` decides whether to pay ``amount`` to play the deal after a parol."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class MakeUpAnswered:
    """5.5: ``player`` made up (``action`` ``MAKE_UP`` with the amount) or sat out."""

    player: str
    action: Action
    default: DefaultReason | None = None
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """``player`` (seat ``seat`` of the deal) acted: ``record`` as the engine recorded it, and
    the ``operations`` the action made (the record first: cards served, a reshuffle, pots
    awarded, the end). ``default`` says why the table played the action for the player, and
    ``refused`` names the illegal action a policy chose, with the reason."""

    player: str
    seat: int
    record: ActionRecord
    operations: tuple[Operation, ...]
    default: DefaultReason | None = None
    refused: str | None = None
    added: int | None = None
    """The chips a call, an opening, a bet or a raise added to the player's round bet
    (the record's amount is the new total); None for any other action."""

    @property
    def action(self) -> Action:
        """The action, amounts filled in."""
        return self.record.action


@dataclass(frozen=True, slots=True)
class DealFinished:
    """A deal ended (won, passed or abandoned by parol): everything the match recorded."""

    completed: CompletedDeal


@dataclass(frozen=True, slots=True)
class NoDeal:
    """5.5: the answers left fewer than two players to deal in; the match waits, its pot
    carried."""

    carried: int


TableEvent = DealStarted | MakeUpAsked | MakeUpAnswered | ActionTaken | DealFinished | NoDeal
"""What :class:`Table` reports."""


class Table:
    """A :class:`Match` played by people and :class:`Policy` objects.

    ``policies`` maps the names of the players a policy plays for (bots); everyone else is a
    person, whose actions come through :meth:`act`. :meth:`step` lets the policy to act play,
    :meth:`play_policies` lets policies play until a person is to act or the deal is over, and
    :meth:`play_default` plays the default action for whoever is to act (a turn clock ran out).
    Each returns the events it caused, in order.
    """

    def __init__(self, match: Match, policies: Mapping[str, Policy] | None = None) -> None:
        self.match = match
        self.forced_shows = True
        """Whether the table plays the shows the rules leave no choice about; off only to
        replay a deal recorded when each show was a player's own move."""
        self.policies: dict[str, Policy] = dict(policies or {})
        self._seen = 0
        """Operations of the current deal already reported."""

    # --- where things stand ---------------------------------------------------------------

    @property
    def actor(self) -> str | None:
        """The player to act (a deal decision or a 5.5 make-up question), or None."""
        return self.match.actor

    @property
    def policy_to_act(self) -> bool:
        """Whether the player to act is played by a policy."""
        actor = self.match.actor
        return actor is not None and actor in self.policies

    @property
    def player_ids(self) -> dict[str, int]:
        """Each seated player's stable id, by name."""
        return {s.name: s.player_id for s in self.match.seats}

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        return self.match.legal_actions()

    def view(self, player: str) -> SeatView:
        """``player``'s view of the current (or last) deal."""
        return self.match.view(player)

    def public_view(self) -> PublicView | None:
        """What a spectator sees of the current (or last) deal; None before the first."""
        deal = self.match.deal
        return observe(deal, PUBLIC) if deal is not None else None

    # --- playing --------------------------------------------------------------------------

    def start_deal(
        self,
        source: CardSource | None = None,
        *,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
    ) -> list[TableEvent]:
        """Begin the next deal (first the 5.5 questions after a parol), its cards from
        ``source``; see :meth:`Match.start_deal`."""
        match = self.match
        before = len(match.completed)
        match.start_deal(source, deck=deck, seed=seed)
        return self._after(before)

    def act(self, player: str, action: Action) -> list[TableEvent]:
        """A person's ``action``. Raises the engine's IllegalActionError (changing nothing)
        when it is not ``player``'s turn or not allowed now."""
        if self.match.actor != player:
            actor = self.match.actor
            raise NotYourTurnError(
                "nobody is to act now" if actor is None else f"it is {actor}'s turn, not {player}'s"
            )
        return self._apply(player, action)

    def step(self) -> list[TableEvent]:
        """The policy of the player to act chooses, from that player's own view; an illegal
        choice is replaced by :func:`default_action` and reported in the event."""
        actor = self.match.actor
        if actor is None or actor not in self.policies:
            raise NotYourTurnError("no policy is to act now")
        choice = self.policies[actor].act(self.match.view(actor))
        try:
            return self._apply(actor, choice)
        except IllegalActionError as error:  # refused, nothing changed
            return self._apply(
                actor,
                default_action(self.match.legal_actions()),
                DefaultReason.ILLEGAL,
                f"{choice}: {error}",
            )

    def play_policies(self) -> list[TableEvent]:
        """Policies play until a person is to act, or nobody is (the deal is over)."""
        events: list[TableEvent] = []
        while self.policy_to_act:
            events.extend(self.step())
        return events

    def play_default(self, reason: DefaultReason = DefaultReason.TIMEOUT) -> list[TableEvent]:
        """Play :func:`default_action` for the player to act (their time ran out)."""
        actor = self.match.actor
        if actor is None:
            raise NotYourTurnError("nobody is to act now")
        return self._apply(actor, default_action(self.match.legal_actions()), reason)

    # --- reporting ------------------------------------------------------------------------

    def _apply(
        self,
        player: str,
        action: Action,
        default: DefaultReason | None = None,
        refused: str | None = None,
    ) -> list[TableEvent]:
        match = self.match
        before = len(match.completed)
        if match.phase is MatchPhase.MAKE_UP:
            recorded = match.verify(action, player)
            match.apply(action, player)
            events: list[TableEvent] = [MakeUpAnswered(player, recorded, default, refused)]
            return events + self._after(before)
        deal = match.deal
        assert deal is not None
        seat = match.deal_seats.index(player)
        bet_before = round_bet_before(deal, seat, action.kind)
        match.apply(action, player)
        record = deal.actions[-1]
        operations = tuple(deal.operations[self._seen :])
        self._seen = len(deal.operations)
        added = chips_added(record.action.amount, bet_before)
        events = [ActionTaken(player, seat, record, operations, default, refused, added)]
        if len(match.completed) > before:
            events.append(DealFinished(match.completed[-1]))
            return events
        return events + self._forced()

    def _forced(self) -> list[TableEvent]:
        """The action of the player to act when the rules leave them no choice
        (:func:`forced_action`), played at once; none when they have a choice."""
        match = self.match
        actor = match.actor
        if not self.forced_shows or match.phase is not MatchPhase.IN_DEAL or actor is None:
            return []
        action = forced_action(match.legal_actions())
        return [] if action is None else self._apply(actor, action)

    def _after(self, completed_before: int) -> list[TableEvent]:
        """The events of a deal start (after the 5.5 answers): a question, the deal, or none."""
        match = self.match
        if match.phase is MatchPhase.MAKE_UP:
            actor = match.actor
            assert actor is not None
            amount = match.make_up_due
            assert amount is not None
            return [MakeUpAsked(actor, amount)]
        if match.phase is MatchPhase.BETWEEN_DEALS and len(match.completed) == completed_before:
            return [NoDeal(match.carried)]
        deal = match.deal
        assert deal is not None
        operations = tuple(deal.operations)
        self._seen = len(operations)
        return [DealStarted(completed_before + 1, deal.start, operations)]


__all__ = [
    "ActionTaken",
    "DealFinished",
    "DealStarted",
    "DefaultReason",
    "MakeUpAnswered",
    "MakeUpAsked",
    "NoDeal",
    "Table",
    "TableEvent",
    "default_action",
]
