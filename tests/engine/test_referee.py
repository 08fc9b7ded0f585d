"""The referee: random matches at 2 to 9 players under the four betting structures, checked
after every action against the rules as the documents state them (tests/referee_oracle.py),
through the public API only.

Each test plays the same kind of random match (blinds, controbuio and over; openings and folds
of the opener; raises of every legal size, biased to the ends of the range and to the minimum
raise; short stacks that go all-in; draws of 0 to 4 cards, heavy at 7 to 9 players so the
stock runs out (4.3); announced splits (4.4); parols (5.2(c)) and the deal after (5.5)) and
checks one property:

1. ``test_full_raise_reopens_short_all_in_does_not``: a seat is offered RAISE exactly when the
   referee says it may raise (000 Art. 2-3; docs/rules.md "All-in and side pots"), with the
   amounts of the structure (docs/rules.md "Betting structures in detail").
2. ``test_can_agrees_with_apply``: ``can`` answers as ``apply`` does, legal and illegal
   actions alike (wrong seat, wrong kind, amounts out of range, bad draws), and a refused
   action leaves the deal and the match exactly as they were.
3. ``test_no_card_in_two_places``: no view shows a card in two places (hands, the opener's
   cards kept apart, shown hands, the proof: 3.3, 4.3, 4.4).
4. ``test_chips_are_conserved``: stacks and pot within a deal, stacks, carried pot and
   departed players' chips across a match.
5. ``test_history_replays``: every finished deal's history, written and read back, replays to
   the same deal (same views, same result).
6. ``test_split_only_breaks_the_opening``: the opener's draw must announce a split exactly when
   it breaks the opening, and may only where ``opener_may_split`` (4.4).
7. ``test_can_never_raises_for_a_bad_seat``: ``can`` answers False for a seat that is no seat
   (docs/api.md: every exception is an ``ItalianPokerError``; ``can`` answers with a bool).

``HYPOTHESIS_PROFILE=referee-soak`` (or the ``soak`` tests) runs many more examples.
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from referee_oracle import (
    AMOUNT_FREE,
    Answer,
    BettingReferee,
    bet_bounds,
    opening_kept,
    places,
)

from italian_poker import (
    Action,
    ActionKind,
    BettingStructure,
    Card,
    Deal,
    Deck,
    IllegalActionError,
    ItalianPokerError,
    Match,
    MatchPhase,
    Phase,
    Rank,
    Rules,
)
from italian_poker.engine.history import HandHistory, dumps, loads, replay
from italian_poker.engine.observer import PUBLIC, observe

settings.register_profile(
    "referee",
    max_examples=int(os.environ.get("REFEREE_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "referee-soak",
    max_examples=int(os.environ.get("REFEREE_SOAK_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile(os.environ.get("REFEREE_PROFILE", "referee"))
SOAK = settings.get_profile("referee-soak")

MAX_ACTIONS = 600
"""Far more than any deal takes: a deal still going by then never ends."""


# --- the tables --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A random table: its rules, the players' stacks and how many deals to play."""

    rules: Rules
    stacks: tuple[int, ...]
    deals: int

    def __repr__(self) -> str:
        default = Rules()
        changed = {
            f.name: getattr(self.rules, f.name)
            for f in fields(Rules)
            if getattr(self.rules, f.name) != getattr(default, f.name)
        }
        return f"Table(rules=Rules(**{changed!r}), stacks={self.stacks}, deals={self.deals})"


BLINDS = {
    "none": (False, False, False),
    "buio": (True, False, False),
    "controbuio": (True, True, False),
    "over": (True, True, True),
}


@st.composite
def tables(draw: st.DrawFn, max_deals: int = 4, crowded_in: int = 3) -> Table:
    """Rules under every structure and blind option, 2 to 9 seats, short and deep stacks; one
    table in ``crowded_in`` is crowded (7 to 9 players, all seated, deep stacks), where the
    draw runs the stock out (4.3)."""
    crowded = draw(st.integers(1, crowded_in), label="crowded") == 1
    players = draw(st.integers(7, 9) if crowded else st.integers(2, 9), label="players")
    structure = draw(st.sampled_from(list(BettingStructure)), label="structure")
    blind, controbuio, over = BLINDS[draw(st.sampled_from(list(BLINDS)), label="blinds")]
    min_bet = draw(st.integers(1, 4))
    small = draw(st.integers(1, 4))
    rules = Rules(
        players=players,
        structure=structure,
        ante=draw(st.integers(1, 3)),
        dealer_ante=draw(st.sampled_from([0, 0, 1])),
        min_bet=min_bet,
        max_bet=draw(st.integers(min_bet, min_bet + 12)),
        small_bet=small,
        big_bet=draw(st.sampled_from([small, 2 * small])),
        second_round_doubled=draw(st.booleans()),
        raise_cap=draw(st.sampled_from([None, None, None, 0, 1, 2, 3])),
        blind_allowed=blind,
        controbuio_allowed=controbuio,
        over_allowed=over,
        direction=draw(st.sampled_from(["clockwise", "counter-clockwise"])),
        min_pair=draw(st.sampled_from([Rank.JACK, Rank.JACK, Rank.QUEEN])),
        four_straight_flush_opens=draw(st.booleans()),
        all_pass=draw(st.sampled_from(["escalate", "pot-stays", "return-bets"])),
        passed_players_may_play=draw(st.sampled_from([True, True, False])),
        opener_may_split=draw(st.sampled_from([True, True, False])),
        discards_face_up=draw(st.booleans()),
        second_round_starter=draw(
            st.sampled_from(["last-raiser", "first-round-starter", "opener"])
        ),
        parol_allowed=draw(st.sampled_from([True, True, False])),
        showdown_order=draw(st.sampled_from(["last-aggressor", "last-bettor"])),
        muck_allowed=draw(st.booleans()),
    )
    if crowded:
        seated = players
        stack = st.integers(40, 300)
    else:
        seated = draw(st.sampled_from([players, players, 2 if players > 2 else players]))
        stack = st.one_of(st.integers(3, 14), st.integers(15, 60), st.integers(61, 300))
    stacks = tuple(draw(st.lists(stack, min_size=seated, max_size=seated), label="stacks"))
    return Table(rules, stacks, draw(st.integers(1, max_deals), label="deals"))


# --- snapshots ---------------------------------------------------------------------------------


def deal_snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything the public API shows of a deal: every seat's and the public view, the legal
    actions, the actor, the operations log, stacks, pot, phase and result."""
    views = tuple(observe(deal, seat) for seat in range(deal.n))
    return (
        views,
        observe(deal, PUBLIC),
        deal.legal_actions() if not deal.is_over else (),
        deal.actor,
        tuple(deal.operations),
        tuple(deal.stacks),
        deal.pot,
        deal.phase,
        deal.result,
        tuple(deal.actions),
    )


def match_snapshot(match: Match) -> tuple[Any, ...]:
    """Everything the public API shows of a match, and its current deal's snapshot."""
    try:
        actor: Any = match.actor
        legal: Any = match.legal_actions() if actor is not None else ()
    except Exception as error:
        actor = legal = repr(error)
    return (
        match.phase,
        actor,
        legal,
        tuple((s.name, s.stack, s.sitting_out, s.player_id) for s in match.seats),
        match.carried,
        match.min_pair,
        match.dealer_name,
        len(match.completed),
        tuple(match.departed),
        deal_snapshot(match.deal) if match.deal is not None else None,
    )


def without_ids(view: Any) -> Any:
    """A view without the players' ids (a replayed deal has no match to number them)."""
    return view._replace(player_ids=())


# --- the player --------------------------------------------------------------------------------


def pick_amount(rng: random.Random, low: int, high: int, favourite: int | None = None) -> int:
    """An amount in ``low..high``, biased to both ends and to ``favourite`` (the min raise)."""
    roll = rng.random()
    if favourite is not None and low <= favourite <= high and roll < 0.2:
        return favourite
    if roll < 0.4:
        return low
    if roll < 0.6:
        return high
    if roll < 0.7 and low + 1 <= high:
        return low + 1
    return rng.randint(low, high)


class Referee:
    """Plays one random match and runs the checks asked for after every action."""

    def __init__(self, table: Table, rng: random.Random, checks: frozenset[str]) -> None:
        self.table = table
        self.rules = table.rules
        self.rng = rng
        self.checks = checks
        self.match = Match(
            table.rules, [(f"P{i}", s) for i, s in enumerate(table.stacks)], seed=rng.randrange(99)
        )
        self.trace: list[str] = []
        self.betting: BettingReferee | None = None
        self.opened_by: int | None = None

    # --- helpers --------------------------------------------------------------------------

    def say(self, line: str) -> None:
        self.trace.append(line)

    def where(self) -> str:
        """The last actions, for a failure message."""
        return "\n  ".join(["actions so far:", *self.trace[-40:]])

    def table_chips(self) -> int:
        m = self.match
        in_pot = m.deal.pot if m.phase is MatchPhase.IN_DEAL and m.deal is not None else 0
        carried = 0 if m.phase is MatchPhase.IN_DEAL else m.carried
        return sum(s.stack for s in m.seats) + in_pot + carried + sum(c for _, c in m.departed)

    # --- the match ------------------------------------------------------------------------

    def play(self) -> None:
        match = self.match
        total = self.table_chips()
        for number in range(self.table.deals):
            if match.phase is MatchPhase.OVER:
                break
            match.start_deal(seed=self.rng.randrange(10**6))
            self.say(f"--- deal {number + 1}, match phase {match.phase.value}")
            while match.phase is MatchPhase.MAKE_UP and match.actor is not None:
                self.make_up_turn()
            if match.phase is not MatchPhase.IN_DEAL or match.deal is None:
                continue  # 5.5: too few made up; no deal
            self.play_deal(match.deal)
            if "chips" in self.checks:
                assert self.table_chips() == total, (
                    f"the table's chips went from {total} to {self.table_chips()}\n" + self.where()
                )

    def make_up_turn(self) -> None:
        match = self.match
        name = match.actor
        assert name is not None
        legal = match.legal_actions()
        if "probes" in self.checks:
            kinds = {la.kind for la in legal}
            others = [s.name for s in match.seats if s.name != name]
            probes = [(Action(ActionKind.FOLD), name), (Action(ActionKind.RAISE, 5), name)]
            probes += [(Action(k), o) for k in kinds for o in others[:1]]
            for action, player in probes:
                self.probe_match(action, player)
        action = Action(self.rng.choice([la.kind for la in legal]))
        self.say(f"{name}: {action}")
        match.apply(action, name)

    def play_deal(self, deal: Deal) -> None:
        self.betting = BettingReferee(self.rules, deal.n)
        self.opened_by = None
        self.deal_total = sum(observe(deal, PUBLIC).stacks) + deal.pot
        self.say(
            f"dealer seat {deal.start.dealer}, stacks {tuple(deal.stacks)}, pot {deal.pot}, "
            f"names {deal.names}"
        )
        self.after_action(deal)
        steps = 0
        while not deal.is_over:
            steps += 1
            assert steps < MAX_ACTIONS, "the deal does not end\n" + self.where()
            self.turn(deal)
        if "history" in self.checks:
            self.check_history(deal)

    def turn(self, deal: Deal) -> None:
        seat = deal.actor
        assert seat is not None
        assert self.betting is not None
        self.betting.sync_phase(deal.phase)
        view = observe(deal, seat)
        if "betting" in self.checks:
            self.check_betting(deal, view)
        if "split" in self.checks:
            self.check_split(deal, view)
        action = self.choose(deal, view)
        if "probes" in self.checks:
            self.run_probes(deal, view, action)
        record = self.apply(deal, seat, action)
        self.say(
            f"{record.phase.value}: seat {seat} {record.action} -> stacks {tuple(deal.stacks)}"
        )
        if record.action.kind is ActionKind.OPEN:
            self.opened_by = seat
        betting_players = sum(1 for s in range(deal.n) if not deal.folded[s] and deal.stacks[s] > 0)
        self.betting.record(
            seat,
            record.action.kind,
            record.action.amount,
            record.phase,
            deal.stacks[seat],
            betting_players,
        )
        self.after_action(deal)

    def apply(self, deal: Deal, seat: int, action: Action) -> Any:
        """Apply through the match; a draw the engine refuses is tried with the split flag
        turned, then as standing pat (the split test checks the split itself)."""
        name = deal.names[seat]
        tries = [action]
        if action.kind is ActionKind.DRAW:
            tries += [
                Action(ActionKind.DRAW, cards=action.cards, split=not action.split),
                Action(ActionKind.DRAW),
            ]
        for attempt in tries:
            try:
                self.match.apply(attempt, name)
            except IllegalActionError:
                if attempt is tries[-1]:
                    raise
                continue
            return deal.actions[-1]
        raise AssertionError("unreachable")

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, deal: Deal, view: Any) -> Action:
        rng = self.rng
        legal = {la.kind: la for la in view.legal_actions}
        kinds = list(legal)
        seat = view.seat
        if ActionKind.DRAW in legal:
            return self.choose_draw(deal, view, legal[ActionKind.DRAW])
        wants_parol = view.parols or rng.random() < 0.3
        if ActionKind.PAROL in legal and wants_parol and rng.random() < 0.85:
            return Action(ActionKind.PAROL)
        if ActionKind.FOLD in legal and seat == view.opener and rng.random() < 0.3:
            return Action(ActionKind.FOLD)  # the opener folds
        crowded = view.players >= 7 and deal.phase is not Phase.SECOND_ROUND
        weights = {
            ActionKind.FOLD: 0.4 if crowded else 1.5,
            ActionKind.CALL: 3,
            ActionKind.CHECK: 3,
            ActionKind.RAISE: 3,
            ActionKind.BET: 3,
            ActionKind.OPEN: 5,
            ActionKind.PASS: 2,
            ActionKind.BLIND: 3,
            ActionKind.CONTROBUIO: 3,
            ActionKind.OVER: 3,
            ActionKind.DECLINE: 3,
            ActionKind.SHOW: 3,
            ActionKind.MUCK: 1,
            ActionKind.PAROL: 1,
        }
        kind = rng.choices(kinds, weights=[weights.get(k, 1) for k in kinds])[0]
        la = legal[kind]
        if kind in AMOUNT_FREE:
            assert la.min_amount is not None and la.max_amount is not None
            favourite = None
            if kind is ActionKind.RAISE and self.betting is not None:
                favourite = self.betting.current + self.betting.inc_lo
            return Action(kind, pick_amount(rng, la.min_amount, la.max_amount, favourite))
        return Action(kind)

    def choose_draw(self, deal: Deal, view: Any, la: Any) -> Action:
        rng = self.rng
        hand = list(view.hand)
        if view.players >= 7:
            count = rng.choices(range(5), weights=[1, 1, 2, 5, 8])[0]
        else:
            count = rng.choices(range(5), weights=[3, 3, 3, 3, 3])[0]
        count = min(count, la.max_cards, len(hand))
        discards = tuple(rng.sample(hand, count))
        split = False
        if self.opened_by == view.seat and discards:
            split = not self.keeps_opening(view, discards)
        return Action(ActionKind.DRAW, cards=discards, split=split)

    def keeps_opening(self, view: Any, discards: tuple[Card, ...]) -> bool:
        kept = [c for c in view.hand if c not in discards]
        requirement = view.requirement
        return opening_kept(
            kept,
            requirement.min_pair,
            requirement.four_straight_flush,
            Rank(11 - view.players),
        )

    # --- 1: betting -------------------------------------------------------------------------

    def check_betting(self, deal: Deal, view: Any) -> None:
        referee = self.betting
        assert referee is not None
        if deal.phase not in (Phase.OPENING, Phase.FIRST_ROUND, Phase.SECOND_ROUND):
            return
        seat = view.seat
        live = sum(not f for f in view.folded)
        for s in range(deal.n):
            if not view.folded[s]:
                assert view.round_bets[s] == referee.bets[s], (
                    f"seat {s}'s bet in the round is {view.round_bets[s]}, the referee counts "
                    f"{referee.bets[s]}\n" + self.where()
                )
        legal = {la.kind: la for la in view.legal_actions}
        answer = referee.may_raise(seat, view.stacks, view.folded, live)
        offered = ActionKind.RAISE in legal
        if answer is Answer.YES:
            assert offered, (
                f"seat {seat} may raise (000 Art. 2-3: a full raise re-opens the betting, a "
                f"player who has not acted may raise), but the engine offers only "
                f"{[str(la) for la in view.legal_actions]}\n" + self.where()
            )
        elif answer is Answer.NO:
            assert not offered, (
                f"seat {seat} may not raise (no full raise since it acted, blind not yet "
                f"answered, cap reached, or no chips), but the engine offers "
                f"{legal[ActionKind.RAISE]}\n" + self.where()
            )
        stack = view.stacks[seat]
        if offered and answer is not Answer.NO:
            la = legal[ActionKind.RAISE]
            (low, high), top = referee.raise_bounds(seat, stack, view.pot)
            assert low <= la.min_amount <= high and la.max_amount == top, (
                f"seat {seat}'s raise is offered as {la}; the {self.rules.structure.value} "
                f"rule gives a smallest total in {low}..{high} and a largest of {top} "
                f"(current bet {referee.current})\n" + self.where()
            )
            all_in = referee.bets[seat] + stack
            short = referee.current + referee.inc_lo - 1
            if referee.current < short < all_in:
                assert not deal.can(Action(ActionKind.RAISE, short), seat), (
                    f"a raise to {short}, short of a full raise and not all-in, is accepted\n"
                    + self.where()
                )
        for kind in (ActionKind.OPEN, ActionKind.BET):
            if kind in legal:
                la = legal[kind]
                low, high = bet_bounds(self.rules, referee.second, stack, view.pot)
                assert (la.min_amount, la.max_amount) == (low, high), (
                    f"seat {seat}'s {la} differs from the {self.rules.structure.value} rule's "
                    f"{low}-{high}\n" + self.where()
                )

    # --- 2: can and apply -------------------------------------------------------------------

    def run_probes(self, deal: Deal, view: Any, action: Action) -> None:
        rng = self.rng
        seat = view.seat
        legal = {la.kind: la for la in view.legal_actions}
        probes: list[tuple[Action, int]] = [(action, seat)]
        other = rng.choice([s for s in range(deal.n) if s != seat])
        probes.append((action, other))
        wrong = [k for k in ActionKind if k not in legal]
        kind = rng.choice(wrong)
        probes.append((Action(kind, 1 if kind in AMOUNT_FREE else None), seat))
        for k, la in legal.items():
            if k in AMOUNT_FREE:
                assert la.min_amount is not None and la.max_amount is not None
                probes += [
                    (Action(k, la.min_amount - 1), seat),
                    (Action(k, la.max_amount + 1), seat),
                ]
                if self.betting is not None and k is ActionKind.RAISE:
                    probes.append((Action(k, self.betting.current + self.betting.inc_lo - 1), seat))
            if k is ActionKind.DRAW:
                hand = list(view.hand)
                held = set(hand)
                stranger = next(c for c in Deck(view.players).cards if c not in held)
                probes += [
                    (Action(k, cards=tuple(hand)), seat),
                    (Action(k, cards=(stranger,)), seat),
                    (Action(k, cards=(hand[0], hand[0])), seat),
                    (Action(k, cards=action.cards, split=not action.split), seat),
                ]
        for probe, who in rng.sample(probes, min(len(probes), 4)) + probes[:1]:
            self.probe_deal(deal, probe, who)
        probe, who = rng.choice(probes)
        self.probe_match(probe, deal.names[who])

    def probe_deal(self, deal: Deal, action: Action, seat: int) -> None:
        answer = deal.can(action, seat)
        if answer:
            twin = copy.deepcopy(deal)
            try:
                twin.apply(action, seat)
            except ItalianPokerError as error:
                raise AssertionError(
                    f"can({action}, seat {seat}) is True but apply raises "
                    f"{type(error).__name__}: {error}\n" + self.where()
                ) from None
            return
        before = deal_snapshot(deal)
        try:
            deal.apply(action, seat)
        except IllegalActionError as error:
            after = deal_snapshot(deal)
            assert after == before, (
                f"apply({action}, seat {seat}) was refused ({type(error).__name__}: {error}) "
                f"but changed the deal\n" + self.where()
            )
            return
        raise AssertionError(
            f"can({action}, seat {seat}) is False but apply accepts it\n" + self.where()
        )

    def probe_match(self, action: Action, player: str) -> None:
        match = self.match
        answer = match.can(action, player)
        if answer:
            twin = copy.deepcopy(match)
            try:
                twin.apply(action, player)
            except ItalianPokerError as error:
                raise AssertionError(
                    f"Match.can({action}, {player}) is True but apply raises "
                    f"{type(error).__name__}: {error}\n" + self.where()
                ) from None
            return
        before = match_snapshot(match)
        try:
            match.apply(action, player)
        except IllegalActionError as error:
            after = match_snapshot(match)
            assert after == before, (
                f"Match.apply({action}, {player}) was refused ({type(error).__name__}: "
                f"{error}) but changed the match\n" + self.where()
            )
            return
        raise AssertionError(
            f"Match.can({action}, {player}) is False but apply accepts it\n" + self.where()
        )

    # --- 6: the split (4.4) -----------------------------------------------------------------

    def check_split(self, deal: Deal, view: Any) -> None:
        """4.4 at the opener's draw: a few random draws, each asked with and without the
        announcement; every disagreement is listed."""
        if deal.phase is not Phase.DRAW or self.opened_by != view.seat:
            return
        hand = list(view.hand)
        shown = " ".join(map(str, hand))
        problems = []
        if deal.can(Action(ActionKind.DRAW, split=True), view.seat):
            problems.append("a split with no discards is accepted")
        for _ in range(3):
            discards = tuple(self.rng.sample(hand, self.rng.randint(1, 4)))
            kept = self.keeps_opening(view, discards)
            plain = deal.can(Action(ActionKind.DRAW, cards=discards), view.seat)
            split = deal.can(Action(ActionKind.DRAW, cards=discards, split=True), view.seat)
            text = f"discarding {' '.join(map(str, discards))} from {shown}"
            if kept and not plain:
                problems.append(f"{text} keeps the opening, yet is refused")
            if kept and split:
                problems.append(f"a split {text} keeps the opening, yet is accepted")
            if not kept and plain:
                problems.append(f"{text} breaks the opening unannounced, yet is accepted")
            if not kept and split != self.rules.opener_may_split:
                problems.append(
                    f"an announced split {text} is {'accepted' if split else 'refused'} "
                    f"with opener_may_split={self.rules.opener_may_split}"
                )
        assert not problems, (
            f"4.4 ({view.requirement.describe()}): " + "; ".join(problems) + "\n" + self.where()
        )

    # --- 3, 4: after every action -----------------------------------------------------------

    def after_action(self, deal: Deal) -> None:
        if "cards" in self.checks or "folded" in self.checks:
            self.check_cards(deal)
        if "chips" in self.checks:
            public = observe(deal, PUBLIC)
            if deal.result is None:  # once over, the pot is what was played for
                assert sum(public.stacks) + public.pot == self.deal_total, (
                    f"stacks {public.stacks} and pot {public.pot} make "
                    f"{sum(public.stacks) + public.pot}, not {self.deal_total}\n" + self.where()
                )
            else:
                result = deal.result
                assert sum(result.stacks) + result.carried == self.deal_total, (
                    f"the result's stacks {result.stacks} and carried {result.carried} "
                    f"do not make {self.deal_total}\n" + self.where()
                )

    def check_cards(self, deal: Deal) -> None:
        views = [observe(deal, seat) for seat in range(deal.n)]
        found = places(views, observe(deal, PUBLIC))
        deck = set(Deck(deal.n).cards)
        for view in views:
            assert len(set(view.hand)) == len(view.hand), f"a card twice in {view.hand}"
        for card, where in found.items():
            assert card in deck, f"{card} is not in the deck of {deal.n} players"
            live = {p.seat for p in where if p.what != "folded hand"}
            assert len(live) <= 1, (
                f"{card} is in two places at once: "
                + "; ".join(sorted(map(str, where)))
                + "\n"
                + self.where()
            )
            if "folded" not in self.checks:
                continue
            owners = {p.seat for p in where}
            assert len(owners) <= 1, (
                f"{card}, dealt on to another player, is still shown as a folded player's: "
                + "; ".join(sorted(map(str, where)))
                + "\n"
                + self.where()
            )

    # --- 5: the history ---------------------------------------------------------------------

    def check_history(self, deal: Deal) -> None:
        history = HandHistory.from_deal(deal)
        text = dumps(history)
        again = loads(text)
        assert again == history, "a history read back differs from the one written\n" + text
        try:
            replayed = replay(again)
        except ItalianPokerError as error:
            raise AssertionError(
                f"the history does not replay: {type(error).__name__}: {error}\n" + self.where()
            ) from None
        assert replayed.result == deal.result, "the replayed deal ends otherwise"
        for viewer in [*range(deal.n), PUBLIC]:
            assert without_ids(observe(replayed, viewer)) == without_ids(observe(deal, viewer)), (
                f"the replayed deal looks otherwise to {viewer}\n" + self.where()
            )


def referee_run(table: Table, rng: random.Random, *checks: str) -> None:
    """Play ``table`` and run the checks named."""
    note(repr(table))
    referee = Referee(table, rng, frozenset(checks))
    try:
        referee.play()
    finally:
        note(referee.where())


RANDOMS = st.randoms(use_true_random=False)


def property_test(
    *checks: str, soak: bool = False, examples: int | None = None, crowded_in: int = 3
) -> Callable[[Any], Any]:
    """A test of the properties ``checks`` over random tables, default or soak-sized
    (``examples`` scales the default profile's number for a cheap or a costly check)."""
    profile = SOAK if soak else PROFILE
    if examples is not None and not soak:
        profile = settings(profile, max_examples=max(1, profile.max_examples * examples // 30))

    def decorate(function: Any) -> Any:
        @settings(profile)
        @given(table=tables(crowded_in=crowded_in), rng=RANDOMS)
        def test(table: Table, rng: random.Random) -> None:
            referee_run(table, rng, *checks)

        test.__name__ = function.__name__
        test.__doc__ = function.__doc__
        test.__qualname__ = function.__qualname__
        return pytest.mark.soak(test) if soak else test

    return decorate


@property_test("betting", examples=120)
def test_full_raise_reopens_short_all_in_does_not() -> None:
    """000 Art. 2-3: RAISE is offered exactly when the referee says the seat may raise."""


@property_test("probes", examples=40)
def test_can_agrees_with_apply() -> None:
    """``can`` answers as ``apply`` does; a refused action changes nothing."""


@property_test("cards", examples=45, crowded_in=2)
def test_no_card_in_two_places() -> None:
    """No card is shown in two places at once (3.3, 4.3, 4.4), a folded player's memory of
    the hand he threw in aside."""


@property_test("folded", examples=15, crowded_in=2)
def test_folded_hand_not_shown_once_dealt_on() -> None:
    """4.3: a folded hand reshuffled and dealt to another player is no longer shown as the
    folded player's hand (not even to him): a card is in one place."""


@property_test("chips", examples=100)
def test_chips_are_conserved() -> None:
    """Stacks and pots add up within a deal and across a match."""


@property_test("history", examples=120, crowded_in=2)
def test_history_replays() -> None:
    """Every finished deal's history, written and read back, replays to the same deal."""


@property_test("split", examples=60)
def test_split_only_breaks_the_opening() -> None:
    """4.4: the opener announces a split exactly when the draw breaks the opening."""


@property_test("betting", "probes", "cards", "folded", "chips", "history", "split", soak=True)
def test_referee_soak() -> None:
    """Every property, over many more tables."""


@settings(PROFILE, max_examples=10)
@given(table=tables(max_deals=1), rng=RANDOMS, bad=st.sampled_from(["x", True, 1.0, -1, 99]))
def test_can_never_raises_for_a_bad_seat(table: Table, rng: random.Random, bad: Any) -> None:
    """docs/api.md: ``can`` answers with a bool, False for a seat that is no seat."""
    match = Match(table.rules, [(f"P{i}", s) for i, s in enumerate(table.stacks)])
    match.start_deal(seed=rng.randrange(99))
    deal = match.deal
    assert deal is not None
    for la in deal.legal_actions():
        action = Action(la.kind, la.min_amount if la.kind in AMOUNT_FREE else None)
        try:
            answer = deal.can(action, bad)
        except Exception as error:
            raise AssertionError(
                f"can({action}, seat={bad!r}) raises {type(error).__name__}: {error}"
            ) from None
        assert answer is False, f"can({action}, seat={bad!r}) is {answer!r}"
