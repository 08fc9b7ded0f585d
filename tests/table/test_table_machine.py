"""The table machine (table/machine.py): every command and its refusals, the changes that
wait for the end of a deal, the audiences of its events, and a property test over random
command sequences from several players (chips conserved, ``can`` agreeing with ``handle``,
nobody receiving another player's cards)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from italian_poker.ai.config import game_config
from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Outcome
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    DealOverError,
    DealStartError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.observer import PUBLIC, PublicView, observe, observe_operations
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.engine.rules import preset
from italian_poker.table.commands import (
    Act,
    AddChips,
    AnswerMakeUp,
    BotAct,
    Command,
    Leave,
    SetChips,
    SitIn,
    SitOut,
    StartDeal,
    TakeSeat,
    TimeOut,
)
from italian_poker.table.defaults import DefaultReason
from italian_poker.table.machine import MalformedCommandError, TableMachine
from italian_poker.table.machine_events import (
    EVERYONE,
    HOST,
    ActionTaken,
    Audience,
    ChangeDropped,
    ChangeWaits,
    ChipsChanged,
    DealAnnounced,
    DealFinished,
    DealStarted,
    Defaulted,
    MakeUpAnswered,
    MakeUpAsked,
    NoDeal,
    Observed,
    SatIn,
    SatOut,
    SeatLeft,
    SeatTaken,
    TableEvent,
    only,
)
from italian_poker.table.seating import (
    AlreadySeatedError,
    BadChipsError,
    SittingError,
    TableFullError,
    UnknownPlayerError,
)

K = ActionKind
NAMES = ("Ada", "Bea", "Cid", "Dan", "Eva", "Fio")
STANDARD = preset("standard")


def table(players: int = 4, chips: int = 100, seed: int = 1, **kw: Any) -> TableMachine:
    return TableMachine(
        STANDARD, [TakeSeat(i, NAMES[i], chips) for i in range(players)], seed=seed, **kw
    )


def snapshot(machine: TableMachine) -> bytes:
    """Everything the machine holds, its match and deal included (the deal's memo of the
    legal actions filled first, as any reading fills it)."""
    machine.legal_actions()
    return pickle.dumps(machine)


def refused(machine: TableMachine, command: Command, error: type[Exception]) -> None:
    """``command`` is refused with ``error`` by verify and handle, and nothing changes."""
    before = snapshot(machine)
    assert not machine.can(command)
    with pytest.raises(error):
        machine.verify(command)
    with pytest.raises(error):
        machine.handle(command)
    assert snapshot(machine) == before


def accepted(machine: TableMachine, command: Command) -> list[TableEvent]:
    assert machine.can(command)
    machine.verify(command)
    return machine.handle(command)


def random_action(rng: random.Random, legal: tuple[LegalAction, ...]) -> Action:
    choice = rng.choice(legal)
    if choice.kind in AMOUNT_KINDS and choice.min_amount is not None:
        assert choice.max_amount is not None
        return Action(choice.kind, rng.randint(choice.min_amount, choice.max_amount))
    return Action(choice.kind)


def play_out(machine: TableMachine) -> list[TableEvent]:
    """Time every player out until the deal under way is over."""
    events: list[TableEvent] = []
    while machine.to_act is not None:
        events.extend(machine.handle(TimeOut(machine.to_act)))
    return events


def at_make_up() -> TableMachine:
    """A four-player table whose first deal ended in a parol, asking the first 5.5 question
    (random play, seeded)."""
    rng = random.Random(25)
    machine = table(seed=25)
    while machine.phase is not MatchPhase.MAKE_UP:
        if machine.to_act is None:
            machine.handle(StartDeal())
        else:
            machine.handle(BotAct(machine.to_act, random_action(rng, machine.legal_actions())))
    return machine


def after_a_parol() -> TableMachine:
    """The table of :func:`at_make_up` between its parol deal and the next start (5.5)."""
    rng = random.Random(25)
    machine = table(seed=25)
    while not machine.completed or machine.to_act is not None:
        if machine.to_act is None:
            machine.handle(StartDeal())
        else:
            machine.handle(BotAct(machine.to_act, random_action(rng, machine.legal_actions())))
    assert machine.completed[-1].result.outcome is Outcome.PAROL
    return machine


# --- the one rule for who can be dealt in ------------------------------------------------------


def test_the_chips_to_be_dealt_in_are_one_public_rule() -> None:
    rules_003 = preset("003")  # Art. 1 and 003: the dealer's extra ante counts
    assert rules_003.chips_to_be_dealt_in == rules_003.ante + rules_003.dealer_ante
    assert STANDARD.chips_to_be_dealt_in == STANDARD.ante
    match = Match(rules_003, [("a", 10), ("b", 10)])
    assert match.chips_to_play("a") == rules_003.chips_to_be_dealt_in  # no parol pot carried
    assert table().chips_to_play(0) == STANDARD.chips_to_be_dealt_in


def test_the_ai_configuration_asks_for_the_chips_to_be_dealt_in() -> None:
    rules = preset("standard", ante=2)
    with pytest.raises(ValueError, match=f"at least {rules.chips_to_be_dealt_in}$"):
        game_config({"ante": 2, "stack": 1})


# --- seating ---------------------------------------------------------------------------------


def test_seats_are_taken_one_by_one_and_the_match_begins_with_two() -> None:
    machine = TableMachine(STANDARD, seed=3)
    assert machine.match is None and machine.phase is MatchPhase.OVER and machine.seats == ()
    assert accepted(machine, TakeSeat(7, "Ada", 50)) == [SeatTaken(7, "Ada", 50)]
    assert machine.match is None and machine.seats[0].player == 7
    refused(machine, StartDeal(), SeatError)
    assert accepted(machine, TakeSeat(3, "Bea", 60)) == [SeatTaken(3, "Bea", 60)]
    assert machine.match is not None and machine.phase is MatchPhase.BETWEEN_DEALS
    assert [(s.player, s.name, s.chips) for s in machine.seats] == [(7, "Ada", 50), (3, "Bea", 60)]
    assert machine.name_of(3) == "Bea" and machine.chips_brought == 110


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (TakeSeat(0, "Zoe", 10), AlreadySeatedError),  # the id is seated
        (TakeSeat(9, "Ada", 10), AlreadySeatedError),  # the name is taken
        (TakeSeat(9, " ", 10), SeatError),
        (TakeSeat(-1, "Zoe", 10), SeatError),
        (TakeSeat(9, "Zoe", 0), BadChipsError),
        (TakeSeat(9, "Zoe", True), BadChipsError),
        (Leave(9), UnknownPlayerError),
        (SitOut(9), UnknownPlayerError),
        (SitIn(0), SittingError),
        (SetChips(0, -1), BadChipsError),
        (SetChips(9, 5), UnknownPlayerError),
        (AddChips(0, 0), BadChipsError),
        (AddChips(0, 2.5), BadChipsError),  # type: ignore[arg-type]
    ],
)
def test_a_refused_seating_change_changes_nothing(command: Command, error: type) -> None:
    refused(table(), command, error)


def test_everyone_may_leave_while_a_parol_pot_is_carried() -> None:
    """5.5: the carried pot waits with nobody seated; the last to leave is not refused."""
    machine = after_a_parol()
    carried = machine.chips_at_table - sum(s.chips for s in machine.seats)
    assert carried > 0
    for seat in machine.seats:
        assert accepted(machine, Leave(seat.player)) == [
            SeatLeft(seat.player, seat.name, seat.chips)
        ]
    assert machine.seats == () and machine.phase is MatchPhase.OVER
    assert machine.chips_at_table == carried
    accepted(machine, TakeSeat(7, "Zoe", 50))
    accepted(machine, TakeSeat(8, "Ugo", 50))
    assert machine.dealer == 7


@pytest.mark.parametrize(
    ("seat", "error"), [(99, SeatError), (-1, SeatError), (0, AlreadySeatedError)]
)
def test_a_seat_number_off_the_table_or_taken_is_refused(seat: int, error: type) -> None:
    machine = TableMachine(STANDARD, [TakeSeat(0, "Ada", 9), TakeSeat(1, "Bea", 9)])
    refused(machine, TakeSeat(9, "Zoe", 10, seat=seat), error)


def test_seats_are_numbered_and_table_order_is_their_order() -> None:
    machine = TableMachine(STANDARD, [TakeSeat(0, "Ada", 9, seat=0), TakeSeat(1, "Bea", 9, seat=3)])
    accepted(machine, TakeSeat(5, "Eva", 30, seat=2))
    assert [(s.seat, s.player) for s in machine.seats] == [(0, 0), (2, 5), (3, 1)]
    accepted(machine, TakeSeat(6, "Ugo", 30))  # the lowest free seat
    assert [(s.seat, s.player) for s in machine.seats][:2] == [(0, 0), (1, 6)]
    lobby = TableMachine(STANDARD, [TakeSeat(4, "Dan", 9, seat=3), TakeSeat(3, "Cid", 9, seat=1)])
    assert [s.player for s in lobby.seats] == [3, 4]


def test_until_the_first_deal_the_button_is_on_the_first_seat() -> None:
    """Whoever sat down first, the first deal is dealt by the first seat in table order."""
    machine = TableMachine(STANDARD, [TakeSeat(4, "Dan", 9, seat=3), TakeSeat(3, "Cid", 9, seat=2)])
    accepted(machine, TakeSeat(7, "Ada", 9, seat=0))
    assert machine.dealer == 7


def test_a_player_who_sat_down_during_a_deal_may_leave_at_once() -> None:
    machine = table(players=3)
    machine.handle(StartDeal(seed=1))
    assert isinstance(accepted(machine, TakeSeat(8, "Zoe", 40))[0], ChangeWaits)
    assert accepted(machine, Leave(8)) == [SeatLeft(8, "Zoe", 40)]
    assert machine.waiting == () and 8 not in [s.player for s in machine.seats_to_come]


def test_a_full_table_takes_nobody_more() -> None:
    machine = TableMachine(
        preset("standard", players=2), [TakeSeat(0, "a", 9), TakeSeat(1, "b", 9)]
    )
    refused(machine, TakeSeat(2, "c", 9), TableFullError)


def test_leave_sit_out_sit_in_and_chips_between_deals() -> None:
    machine = table()
    assert accepted(machine, Leave(3)) == [SeatLeft(3, "Dan", 100)]
    assert [s.player for s in machine.seats] == [0, 1, 2]
    assert accepted(machine, SitOut(1)) == [SatOut(1)]
    refused(machine, SitOut(1), SittingError)
    assert machine.seats[1].sitting_out
    accepted(machine, StartDeal())
    assert machine.deal_players == (0, 2)  # who sits out is not dealt in
    play_out(machine)
    assert accepted(machine, SitIn(1)) == [SatIn(1)]
    before = machine.seats[0].chips
    assert accepted(machine, SetChips(0, 40)) == [ChipsChanged(0, 40, 40 - before)]


def test_set_and_add_chips_report_the_change_and_count_what_was_brought() -> None:
    machine = table()
    assert accepted(machine, SetChips(0, 30)) == [ChipsChanged(0, 30, -70)]
    assert accepted(machine, AddChips(1, 25)) == [ChipsChanged(1, 125, 25)]
    assert machine.chips_brought == 400 - 70 + 25 == machine.chips_at_table


def test_the_first_dealer_is_the_player_named() -> None:
    machine = table(dealer=2)
    (started,) = [e for e in accepted(machine, StartDeal()) if isinstance(e, DealAnnounced)]
    assert started.players[started.dealer] == 2
    with pytest.raises(UnknownPlayerError):
        table(dealer=9)


# --- changes during a deal wait for its end --------------------------------------------------


def test_seating_changes_during_a_deal_wait_for_its_end() -> None:
    machine = table()
    accepted(machine, StartDeal())
    waiting: list[Command] = [Leave(3), TakeSeat(8, "Dan", 70), AddChips(0, 5), SitOut(1)]
    for command in waiting:
        assert accepted(machine, command) == [ChangeWaits(command)]  # type: ignore[arg-type]
    assert machine.waiting == tuple(waiting)
    assert [s.player for s in machine.seats] == [0, 1, 2, 3]  # nothing changed yet
    refused(machine, TakeSeat(9, "Dan", 5), AlreadySeatedError)  # the name is spoken for
    refused(machine, Leave(3), UnknownPlayerError)  # leaving already
    events = play_out(machine)
    finished = next(i for i, e in enumerate(events) if isinstance(e, DealFinished))
    after = events[finished + 1 :]
    assert [type(e) for e in after] == [SeatLeft, SeatTaken, ChipsChanged, SatOut]
    assert machine.waiting == ()
    assert [(s.player, s.name) for s in machine.seats] == [
        (0, "Ada"),
        (1, "Bea"),
        (2, "Cid"),
        (8, "Dan"),
    ]
    assert machine.seats[1].sitting_out
    assert machine.chips_at_table + sum(d.chips for d in machine.departed) == machine.chips_brought


def test_a_waiting_change_for_a_busted_player_is_dropped() -> None:
    machine = table(players=3)
    accepted(machine, SetChips(2, 0))  # not dealt in, and busted once the next deal is over
    accepted(machine, SitOut(2))
    accepted(machine, StartDeal())
    assert machine.deal_players == (0, 1)
    accepted(machine, SitIn(2))
    events = play_out(machine)
    (left,) = [e for e in events if isinstance(e, SeatLeft)]
    assert left == SeatLeft(2, "Cid", 0, busted=True) and machine.departed[-1].busted
    (dropped,) = [e for e in events if isinstance(e, ChangeDropped)]
    assert dropped.command == SitIn(2) and "no seat" in dropped.reason
    assert machine.chips_at_table == machine.chips_brought == 200


@pytest.mark.parametrize("sitting_out", [False, True])
def test_a_rebuy_asked_during_a_deal_keeps_the_seat_of_a_player_who_busts(
    sitting_out: bool,
) -> None:
    machine = table(players=4)
    accepted(machine, SetChips(1, 0))  # busted once the next deal is over
    if sitting_out:
        accepted(machine, SitOut(1))
    accepted(machine, StartDeal())
    accepted(machine, AddChips(1, 10))
    events = play_out(machine)
    assert not any(isinstance(e, SeatLeft | ChangeDropped) for e in events)
    assert ChipsChanged(1, 10, 10) in events and machine.departed == ()
    assert [(s.player, s.chips > 0, s.sitting_out) for s in machine.seats][1] == (
        1,
        True,
        sitting_out,
    )
    assert [s.player for s in machine.seats] == [0, 1, 2, 3]
    assert machine.chips_at_table == machine.chips_brought


# --- dealing and acting ----------------------------------------------------------------------


def test_a_deal_starts_with_its_events_for_each_audience() -> None:
    machine = table()
    events = accepted(machine, StartDeal())
    started, announced, *observed = events
    assert isinstance(started, DealStarted) and started.audience == HOST
    assert isinstance(announced, DealAnnounced) and announced.audience == EVERYONE
    assert announced.players == (0, 1, 2, 3) and announced.stacks == (100,) * 4
    public, *own = observed
    assert isinstance(public, Observed) and public.audience == Audience(besides=(0, 1, 2, 3))
    assert public.operations == observe_operations(started.operations, PUBLIC, STANDARD)
    for seat, event in enumerate(own):
        assert isinstance(event, Observed) and event.audience == only(seat)
        assert event.operations == observe_operations(started.operations, seat, STANDARD)
    refused(machine, StartDeal(), SeatError)  # a deal is under way
    assert machine.view(1).seat == 1  # no hand before the blind is settled (Art. 2)
    refused_view = 9
    with pytest.raises(SeatError):
        machine.view(refused_view)
    public_view = machine.public_view()
    assert isinstance(public_view, PublicView) and public_view == observe(
        machine.match.deal, PUBLIC
    )  # type: ignore[union-attr]


def test_a_stacked_deck_that_does_not_fit_is_refused() -> None:
    machine = table()
    deck = tuple(Card.from_index(i) for i in range(20))  # not the deck of four players
    refused(machine, StartDeal(deck), DealStartError)


def test_acting_is_for_the_player_to_act_only() -> None:
    machine = table()
    refused(machine, Act(0, Action(K.CHECK)), DealOverError)  # nobody is to act
    refused(machine, TimeOut(0), DealOverError)
    accepted(machine, StartDeal())
    actor = machine.to_act
    assert actor is not None
    other = (actor + 1) % 4
    refused(machine, Act(other, Action(K.DECLINE)), NotYourTurnError)
    refused(machine, TimeOut(other), NotYourTurnError)
    refused(machine, BotAct(other, Action(K.DECLINE)), NotYourTurnError)
    refused(machine, Act(actor, Action(K.BLIND, 999)), InvalidAmountError)
    refused(machine, AnswerMakeUp(actor, make_up=True), ActionNotAvailableError)
    events = accepted(machine, Act(actor, Action(K.DECLINE)))
    taken = events[0]
    assert isinstance(taken, ActionTaken) and taken.player == actor and taken.default is None
    assert taken.audience == HOST and taken.action == Action(K.DECLINE)


def test_a_time_out_plays_the_default_action() -> None:
    machine = table()
    accepted(machine, StartDeal())
    actor = machine.to_act
    assert actor is not None
    events = accepted(machine, TimeOut(actor))
    assert isinstance(events[0], ActionTaken) and events[0].action == Action(K.DECLINE)
    assert events[1] == Defaulted(actor, DefaultReason.TIMEOUT)


def test_a_bots_illegal_choice_is_replaced_and_reported() -> None:
    machine = table()
    accepted(machine, StartDeal())
    actor = machine.to_act
    assert actor is not None
    events = accepted(machine, BotAct(actor, Action(K.RAISE, 999)))
    taken = events[0]
    assert isinstance(taken, ActionTaken) and taken.default is DefaultReason.ILLEGAL
    assert taken.refused is not None and taken.refused.startswith("raise 999: ")
    assert Defaulted(actor, DefaultReason.ILLEGAL) in events


def test_make_up_answers_5_5() -> None:
    machine = at_make_up()
    asked = machine.to_act
    assert asked is not None
    other = next(s.player for s in machine.seats if s.player != asked)
    refused(machine, AnswerMakeUp(other, make_up=True), NotYourTurnError)
    refused(machine, Act(asked, Action(K.CHECK)), ActionNotAvailableError)
    kinds = {la.kind for la in machine.legal_actions()}
    answer = AnswerMakeUp(asked, make_up=K.MAKE_UP in kinds)
    events = accepted(machine, answer)
    assert isinstance(events[0], MakeUpAnswered) and events[0].player == asked
    assert events[0].audience == EVERYONE
    assert isinstance(events[1], MakeUpAsked | DealStarted | NoDeal)


def test_a_command_the_table_does_not_know_is_refused() -> None:
    refused(table(), "start", MalformedCommandError)  # type: ignore[arg-type]


def test_audiences_reach_whom_they_name() -> None:
    assert EVERYONE.reaches(None) and EVERYONE.reaches(3)
    assert not HOST.reaches(None) and not HOST.reaches(3)
    assert only(3).reaches(3) and not only(3).reaches(4) and not only(3).reaches(None)
    besides = Audience(besides=(1, 2))
    assert besides.reaches(None) and besides.reaches(3) and not besides.reaches(1)


# --- random command sequences ----------------------------------------------------------------


def cards_in(value: object) -> set[Card]:
    """Every card anywhere inside ``value``."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return cards_in(tuple(getattr(value, f.name) for f in dataclasses.fields(value)))
    return set()


def check_privacy(
    machine: TableMachine, events: list[TableEvent], held: dict[int, set[Card]]
) -> None:
    """No event addressed to a player holds a card that player did not hold, unless everyone
    was told it in the same step; events to everyone are the observer's public log of the
    action (or deal start) before them."""
    host_ops: tuple[Any, ...] = ()
    for event in events:
        if isinstance(event, DealStarted | ActionTaken):
            host_ops = event.operations
            players = machine.deal_players
            for op in host_ops:
                if isinstance(op, HandsDealt):
                    for seat, hand in enumerate(op.hands):
                        held.setdefault(players[seat], set()).update(hand)
                elif isinstance(op, CardsDrawn | FourthCardDealt):
                    seen = op.cards if isinstance(op, CardsDrawn) else (op.card,)
                    held.setdefault(players[op.seat], set()).update(seen)
    public = set().union(
        *(cards_in(e) for e in events if e.audience.player is None and not e.audience.host)
    )
    host_ops = ()
    for event in events:
        if isinstance(event, DealStarted | ActionTaken):
            host_ops = event.operations  # an action, or a show the table played after it
        audience = event.audience
        if isinstance(event, Observed) and audience.player is None:
            assert event.operations == observe_operations(host_ops, PUBLIC, machine.rules)
        if audience.player is not None:
            assert cards_in(event) <= held.get(audience.player, set()) | public


PLAYERS = st.integers(0, 5)
OTHER_COMMANDS = st.one_of(
    st.builds(TakeSeat, PLAYERS, st.sampled_from(NAMES), st.integers(-1, 40)),
    st.builds(Leave, PLAYERS),
    st.builds(SitOut, PLAYERS),
    st.builds(SitIn, PLAYERS),
    st.builds(SetChips, PLAYERS, st.integers(-1, 40)),
    st.builds(AddChips, PLAYERS, st.integers(-1, 20)),
    st.just(StartDeal()),
    st.builds(TimeOut, PLAYERS),
    st.builds(AnswerMakeUp, PLAYERS, st.booleans()),
    st.builds(Act, PLAYERS, st.sampled_from([Action(K.CHECK), Action(K.FOLD), Action(K.RAISE, 7)])),
    st.builds(BotAct, PLAYERS, st.sampled_from([Action(K.CALL), Action(K.PAROL)])),
)
COMMANDS = st.integers(0, 9).flatmap(lambda n: st.just("legal") if n < 6 else OTHER_COMMANDS)
"""Six times in ten, the player to act plays a random legal action (or the next deal starts);
else any command from any player, legal or not."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(COMMANDS, min_size=60, max_size=200),
    st.integers(0, 2**16),
    st.sampled_from(["standard", "003", "fantini"]),
)
def test_random_commands_keep_the_table_whole(commands: list[Any], seed: int, name: str) -> None:
    rng = random.Random(seed)
    seats = [TakeSeat(i, NAMES[i], 30) for i in range(4)]
    machine = TableMachine(preset(name, players=6), seats, seed=seed)
    held: dict[int, set[Card]] = {}
    for command in commands:
        if command == "legal":
            actor = machine.to_act
            if actor is None:
                command = StartDeal()
            else:
                command = Act(actor, random_action(rng, machine.legal_actions()))
        can = machine.can(command)
        before = snapshot(machine)
        try:
            events = machine.handle(command)
        except (IllegalActionError, SeatError):
            assert not can, command
            assert snapshot(machine) == before
            continue
        assert can, command
        departed = sum(d.chips for d in machine.departed)
        assert machine.chips_at_table + departed == machine.chips_brought
        check_privacy(machine, events, held)
        if any(isinstance(e, DealFinished) for e in events):
            held.clear()
