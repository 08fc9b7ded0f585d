"""The deal under way at a table: a player's action, a bot's choice, a turn played for a
player, a 5.5 answer, the cards a chance-sourced deal is given, and the events each causes.

:class:`DealPlay` is the part of the :class:`~italian_poker.table.machine.TableMachine` that
plays the engine's :class:`~italian_poker.engine.match.Match` of the table's seats
(:class:`~italian_poker.table.table_seats.TableSeats`): it names the player to act by their
id, applies what they do, reports each step's operations to its audiences, plays at once the
actions the rules force (5.4) and, at a deal's end, makes the seating changes that waited for
it. Every method refuses an illegal step with a specific error and changes nothing.
"""

from __future__ import annotations

import copy

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Operation
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    CardsNotAvailableError,
    DealOverError,
    DealStartError,
    IllegalActionError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.match import Match, MatchPhase, Seat
from italian_poker.table.commands import Act, AnswerMakeUp, BotAct, StartDeal, TimeOut
from italian_poker.table.defaults import DefaultReason, default_action, forced_action
from italian_poker.table.events import ROUND_TOTAL_KINDS
from italian_poker.table.machine_events import (
    ActionTaken,
    CardsDealt,
    DealAnnounced,
    DealFinished,
    DealStarted,
    Defaulted,
    MakeUpAnswered,
    MakeUpAsked,
    NoDeal,
    TableEvent,
    observed,
)
from italian_poker.table.table_seats import TableSeats

_DEALING = (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)
_IN_DEAL = MatchPhase.IN_DEAL
_MAKE_UP = MatchPhase.MAKE_UP


class DealPlay:
    """The deals of the match of ``seats``; a table nobody watches (``audiences`` false)
    reports no :class:`~italian_poker.table.machine_events.Observed` event."""

    def __init__(self, seats: TableSeats, audiences: bool) -> None:
        self._seats = seats
        self.audiences = audiences
        self._seen = 0
        """Operations of the current deal already reported."""

    # --- the player to act ----------------------------------------------------------------

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        match = self._seats.match
        if match is None:
            return ()
        deal = match.deal
        if match.phase is _IN_DEAL and deal is not None:
            return deal.legal_actions()
        return match.legal_actions()

    def to_act(self) -> int | None:
        """The id of the player to act (a decision in the deal or a 5.5 question), or None."""
        match = self._seats.match
        if match is None:
            return None
        deal = match.deal
        if match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            return None if seat is None else deal.start.player_ids[seat]
        name = match.actor
        return None if name is None else self.id_of(name)

    def id_of(self, name: str) -> int:
        """The id of the player seated at the match as ``name``."""
        match = self._seats.match
        assert match is not None
        return match.seat(name).player_id

    # --- checking -------------------------------------------------------------------------

    def verify(self, command: Act | AnswerMakeUp | TimeOut | BotAct) -> None:
        """Raise what :meth:`play_command` would raise for ``command``; nothing changes."""
        if isinstance(command, Act):
            self.match_or_raise().verify(command.action, self.turn(command.player))
        elif isinstance(command, AnswerMakeUp):
            self.match_or_raise().verify(self.answer(command), self.turn(command.player))
        else:
            self.turn(command.player)

    def match_or_raise(self) -> Match:
        """The match; :class:`SeatError` while too few players are seated for one."""
        if self._seats.match is None:
            raise SeatError(
                f"fewer than {self._seats.rules.min_players} players can be dealt in: the "
                "table waits for players to sit down"
            )
        return self._seats.match

    def check_start(self, command: StartDeal, *, trial: bool = True) -> None:
        """Refuse a start the match would refuse; with a stacked deck (and ``trial``), by
        starting a copy."""
        match = self.match_or_raise()
        if match.phase in _DEALING:
            raise SeatError("a deal is already under way")
        if match.phase is MatchPhase.OVER:
            raise SeatError(
                f"fewer than {self._seats.rules.min_players} players can be dealt in: the "
                "match waits for players to join, sit in or make up"
            )
        if command.seed is not None and type(command.seed) is not int:
            raise DealStartError(f"a seed is a whole number, not {command.seed!r}")
        if trial and command.deck is not None:
            _start(copy.deepcopy(match), command)

    def due_deal(self) -> Deal:
        """The deal under way, which waits for cards; :class:`CardsNotAvailableError` if none
        does."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is None or deal is None or match.phase is not _IN_DEAL or not deal.cards_due():
            raise CardsNotAvailableError("no cards are due now")
        return deal

    def turn(self, player: int) -> str:
        """The name of ``player``, who must be the one to act."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            if seat is not None and deal.start.player_ids[seat] == player:
                return deal.start.names[seat]
        actor = None if match is None else match.actor
        if actor is None:
            raise DealOverError("nobody is to act now: start the next deal")
        acting = self.id_of(actor)
        if player != acting:
            raise NotYourTurnError(f"it is {actor}'s turn, not player {player!r}'s")
        return actor

    def answer(self, command: AnswerMakeUp) -> Action:
        """The engine's action for a 5.5 answer; refused when nobody is asked."""
        match = self._seats.match
        if match is None or match.phase is not _MAKE_UP:
            raise ActionNotAvailableError("nobody is asked to make up now (5.5)")
        return Action(ActionKind.MAKE_UP if command.make_up else ActionKind.SIT_OUT)

    # --- playing --------------------------------------------------------------------------

    def start(self, command: StartDeal) -> list[TableEvent]:
        """Begin the next deal (first the 5.5 questions after a parol)."""
        self.check_start(command, trial=False)
        match = self.match_or_raise()
        before = len(match.completed)
        _start(match, command)
        return self.after_start(before, self._seats.records())

    def act(self, command: Act) -> list[TableEvent]:
        """An :class:`Act`: the seat to act read from the deal at once."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            if seat is not None and deal.start.player_ids[seat] == command.player:
                return self.play(command.player, deal.start.names[seat], command.action)
        return self.play(command.player, self.turn(command.player), command.action)

    def play_command(self, command: Act | AnswerMakeUp | TimeOut | BotAct) -> list[TableEvent]:
        """The command of the player to act: their action, their 5.5 answer, a turn that ran
        out (the default action) or a bot's choice (the default action if it is illegal)."""
        if isinstance(command, Act):
            return self.act(command)
        name = self.turn(command.player)
        if isinstance(command, AnswerMakeUp):
            return self.play(command.player, name, self.answer(command))
        if isinstance(command, TimeOut):
            fallback = default_action(self.legal_actions())
            return self.play(command.player, name, fallback, DefaultReason.TIMEOUT)
        try:
            return self.play(command.player, name, command.action)
        except IllegalActionError as error:  # refused, nothing changed
            fallback = default_action(self.legal_actions())
            reason = f"{command.action}: {error}"
            return self.play(command.player, name, fallback, DefaultReason.ILLEGAL, reason)

    def deal_cards(self, cards: tuple[Card, ...]) -> list[TableEvent]:
        """Deal ``cards``, the cards due; raises and changes nothing if they are not."""
        match = self._seats.match
        deal = self.due_deal()
        assert match is not None
        seats_before = match.seats  # the end of a deal makes a new list
        match.deal_cards(cards)
        operations = tuple(deal.operations[self._seen :])
        self._seen = len(deal.operations)
        events: list[TableEvent] = [CardsDealt(operations), *self._observed(deal, operations)]
        return events + self._after_play(match, deal, seats_before)

    def play(
        self,
        player: int,
        name: str,
        action: Action,
        default: DefaultReason | None = None,
        refused: str | None = None,
    ) -> list[TableEvent]:
        """Apply ``action`` for ``player`` (``name``), to act (checked by :meth:`turn`); raises
        and changes nothing when it is illegal."""
        match = self._seats.match
        assert match is not None
        if match.phase is _MAKE_UP:
            before = len(match.completed)
            seated = self._seats.records()
            recorded = match.verify(action, name)
            match.apply(action, name)
            events: list[TableEvent] = [MakeUpAnswered(player, recorded, default, refused)]
            return events + self.after_start(before, seated)
        deal = match.deal
        assert deal is not None
        seats_before = match.seats  # the end of a deal makes a new list
        seat = deal.actor
        assert seat is not None
        bet_before = deal.round_bet[seat] if action.kind in ROUND_TOTAL_KINDS else None
        match.apply(action)  # the player to act: checked by the caller (_turn)
        record = deal.actions[-1]
        log, seen = deal.operations, self._seen
        operations = (record,) if len(log) == seen + 1 else tuple(log[seen:])
        self._seen = len(log)
        amount = record.action.amount
        added = None if amount is None or bet_before is None else amount - bet_before
        events = [ActionTaken(player, seat, record, operations, default, refused, added)]
        if default is not None:
            events.append(Defaulted(player, default))
        if self.audiences:
            events.extend(observed(deal, operations))
        if deal.result is None and (deal.actor is None or len(deal.legal_actions()) != 1):
            return events  # nothing follows at once (the common case, read without a call)
        events.extend(self._after_play(match, deal, seats_before))
        return events

    def _after_play(self, match: Match, deal: Deal, seats_before: list[Seat]) -> list[TableEvent]:
        """After a step of ``deal``: its end (and the changes between deals), else the action
        the rules force next (:meth:`_forced`)."""
        if deal.result is not None:
            events: list[TableEvent] = [DealFinished(match.completed[-1])]
            events.extend(self._seats.between({s.player_id: s for s in seats_before}))
            return events
        return self._forced()

    def _forced(self) -> list[TableEvent]:
        """The action of the player to act when the rules leave them no choice
        (:func:`forced_action`), played at once; none when they have a choice."""
        match = self._seats.match
        assert match is not None
        deal = match.deal
        if match.phase is not _IN_DEAL or deal is None or deal.actor is None:
            return []
        legal = deal.legal_actions()
        action = forced_action(legal) if len(legal) == 1 else None
        if action is None:
            return []
        seat = deal.actor
        return self.play(deal.start.player_ids[seat], deal.names[seat], action)

    def _observed(self, deal: Deal, operations: tuple[Operation, ...]) -> list[TableEvent]:
        """``operations`` for each audience (none at a table nobody watches)."""
        return list(observed(deal, operations)) if self.audiences else []

    def after_start(self, completed_before: int, seated: dict[int, Seat]) -> list[TableEvent]:
        """The events of a deal start (after the 5.5 answers): a question, the deal, or none."""
        match = self._seats.match
        assert match is not None
        if match.phase is MatchPhase.MAKE_UP:
            actor, amount = match.actor, match.make_up_due
            assert actor is not None and amount is not None
            return [MakeUpAsked(self.id_of(actor), amount)]
        if match.phase is not MatchPhase.IN_DEAL:
            events: list[TableEvent] = [NoDeal(match.carried)]
            return events + self._seats.between(seated)
        deal = match.deal
        assert deal is not None
        operations = tuple(deal.operations)
        self._seen = len(operations)
        start = deal.start
        return [
            DealStarted(completed_before + 1, start, operations),
            DealAnnounced(
                completed_before + 1,
                start.player_ids,
                start.stacks,
                start.dealer,
                start.carried,
                deal.requirement.min_pair,
            ),
            *self._observed(deal, operations),
        ]


def _start(match: Match, command: StartDeal) -> None:
    """Every deal of a table begins here."""
    match.start_deal(command.source, deck=command.deck, seed=command.seed)


__all__ = ["DealPlay"]
