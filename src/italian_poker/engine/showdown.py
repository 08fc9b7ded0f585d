"""The showdown (Art. 6-7) and the award of the pots.

A :class:`Showdown` holds the order in which the hands are shown, the final hand of each
player still in, what was shown and who mucked (002). :func:`award_pots` shares each pot of
:func:`~italian_poker.engine.pot.build_pots` among its winners, at a showdown or uncalled;
:func:`opening_proof` names the cards that prove the opening (3.3, 4.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.hand_rank import (
    HandRank,
    StraightFlushClass,
    best_ranks,
    evaluate,
)
from italian_poker.engine.opening import first_group_held, proving_cards
from italian_poker.engine.pot import Pot, build_pots, split_amount
from italian_poker.engine.rules import OddChip, ShowdownOrder
from italian_poker.engine.vocabulary import POT_REASONS

if TYPE_CHECKING:
    from italian_poker.engine.betting_round import BettingRound
    from italian_poker.engine.draw import Draw
    from italian_poker.engine.opening import OpeningRequirement
    from italian_poker.engine.rules import Rules


class ShowdownTable(Protocol):
    """What the showdown and the award of the pots read of their deal (they move no chip:
    the deal pays the awards): who is still in, the chips committed and carried, the hands,
    the dealer and the order of play, the second round (its last aggressor shows first) and,
    for the proof, the opening and the draw."""

    rules: Rules
    n: int
    dealer: int
    hands: list[list[Card]]
    folded: list[bool]
    committed: list[int]
    dead: int
    last_aggressor: int | None
    opener: int | None
    opening_hand: tuple[Card, ...]
    opening_groups: tuple[tuple[Card, ...], ...]
    requirement: OpeningRequirement
    round: BettingRound
    draw: Draw

    def next_seat(self, seat: int) -> int: ...

    def seats_from(self, seat: int) -> tuple[int, ...]: ...


_LAST_AGGRESSOR, _HIGHEST_SUIT = ShowdownOrder.LAST_AGGRESSOR, OddChip.HIGHEST_SUIT
_SHOW = (LegalAction(ActionKind.SHOW),)
_SHOW_OR_MUCK = (LegalAction(ActionKind.SHOW), LegalAction(ActionKind.MUCK))


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot and who won it."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    reason: str


@dataclass(slots=True)
class Showdown:
    """The showdown of one deal. ``order`` is who shows, first to last; ``turn`` indexes the
    player to act in it. ``pots`` are the pots at stake and ``ranks`` each live hand's final
    rank, both fixed when the showdown begins."""

    order: list[int]
    pots: list[Pot]
    ranks: dict[int, HandRank]
    turn: int = 0
    shown: dict[int, HandRank] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)

    @classmethod
    def begin(cls, deal: ShowdownTable) -> Showdown:
        """The showdown after the second round: hands evaluated, pots built, order fixed."""
        folded = deal.folded
        first = first_to_show(deal)
        order = [s for s in deal.seats_from(first) if not folded[s]]
        pots = build_pots(deal.committed, [not f for f in folded], deal.dead)
        n, tiebreak, hands = deal.n, deal.rules.tiebreak, deal.hands
        ranks = {}
        for s in range(n):
            if not folded[s]:
                ranks[s] = evaluate(hands[s], players=n, tiebreak=tiebreak)
        return cls(order, pots, ranks)

    @property
    def actor(self) -> int | None:
        """The seat to show or muck, or ``None`` once everyone has."""
        turn = self.turn
        return self.order[turn] if turn < len(self.order) else None

    def choices(self, deal: ShowdownTable, seat: int) -> tuple[LegalAction, ...]:
        """Show, or muck a hand that cannot win (002)."""
        return _SHOW_OR_MUCK if self.may_muck(deal, seat) else _SHOW

    def may_muck(self, deal: ShowdownTable, seat: int) -> bool:
        """002: a losing hand may be mucked: one that wins nothing, in every pot it could win,
        whatever the hands still to show, judged from the hands shown alone. A hand beaten by
        a shown hand loses whatever comes, unless it is a straight flush: then a hand of the
        third class still to show could make a three-way split it shares (7.2-7.3), unless a
        shown straight flush of its own class beats it (only the best of a class shares)."""
        shown = self.shown
        if not deal.rules.muck_allowed or not shown:
            return False
        mine = self.ranks[seat]
        value = mine.value
        cyclic = mine.straight_flush_class is not None
        order = self.order
        to_come = order[order.index(seat) + 1 :] if cyclic else ()
        for pot in self.pots:
            eligible = pot.eligible
            if seat not in eligible:
                continue
            if cyclic:
                # 7.2: straight flushes beat each other in a cycle; best_ranks applies it.
                ranks = [mine]
                ranks += [shown[s] for s in eligible if s in shown]
                if 0 in best_ranks(ranks):
                    return False
                if any(s in eligible for s in to_come) and not any(
                    r.straight_flush_class is mine.straight_flush_class and r.value > value
                    for r in ranks
                ):
                    return False  # 7.3: the third class may still come
                continue
            # Any other hand is beaten exactly by a shown hand of higher value (a straight
            # flush has a higher value than every other hand).
            for s in eligible:
                if s in shown and shown[s].value > value:
                    break
            else:
                return False
        return True

    def show(self, seat: int) -> None:
        """``seat`` shows its hand."""
        self.shown[seat] = self.ranks[seat]
        self.turn += 1

    def muck(self, seat: int) -> None:
        """``seat`` concedes without showing (002)."""
        self.mucked.add(seat)
        self.turn += 1


def first_to_show(deal: ShowdownTable) -> int:
    """002: the last raiser, else the first bettor, of the second round; 001: the last player
    who bet in the deal. Otherwise the first live player after the dealer."""
    folded = deal.folded
    if deal.rules.showdown_order is _LAST_AGGRESSOR:
        second = deal.round
        candidate = second.last_raiser
        if candidate is None:
            candidate = second.first_bettor
    else:
        candidate = deal.last_aggressor
    if candidate is None or folded[candidate]:
        for s in deal.seats_from(deal.next_seat(deal.dealer)):
            if not folded[s]:
                return s
    assert candidate is not None
    return candidate


def award_pots(deal: ShowdownTable, showdown: Showdown | None) -> tuple[PotAward, ...]:
    """Share every pot among its winners: at the ``showdown``, or, without one (3.7, 5.4(c)),
    the pot goes uncalled to the player left."""
    if showdown is None:
        pots = build_pots(deal.committed, [not f for f in deal.folded], deal.dead)
        shown = None
    else:
        if showdown.mucked:
            mucked = showdown.mucked
            live = [not f and s not in mucked for s, f in enumerate(deal.folded)]
            pots = build_pots(deal.committed, live, deal.dead)
        else:
            pots = showdown.pots  # the same live hands as when the showdown began
        shown = showdown.shown
    if len(pots) == 1:  # the usual case: one pot
        return (_award_pot(deal, pots[0], shown),)
    return tuple([_award_pot(deal, pot, shown) for pot in pots])


_pot_award = lru_cache(maxsize=4096, typed=True)(PotAward)
"""A :class:`PotAward`, shared, as it is immutable: most pots of a match are alike."""


def _award_pot(deal: ShowdownTable, pot: Pot, shown: dict[int, HandRank] | None) -> PotAward:
    amount, eligible = pot.amount, pot.eligible
    if len(eligible) == 1 or shown is None:
        winners = list(eligible)
        reason = POT_REASONS["uncalled" if shown is None else "only-eligible"]
    else:
        ranks = [shown[s] for s in eligible]
        best = best_ranks(ranks)
        winners = [eligible[i] for i in best]
        reason = _reason(ranks, best)
    if len(winners) == 1:
        return _pot_award(amount, eligible, (winners[0],), (amount,), reason)
    ordered = _odd_chip_order(deal, winners, shown or {})
    shares = split_amount(amount, ordered)
    in_order = sorted(winners)
    return _pot_award(
        amount, eligible, tuple(in_order), tuple([shares[w] for w in in_order]), reason
    )


def _odd_chip_order(
    deal: ShowdownTable, winners: list[int], shown: dict[int, HandRank]
) -> list[int]:
    """Who gets the odd chips of a split pot first: the first winner after the dealer, or
    (odd-chip option) the winner whose deciding card has the highest suit."""
    order = deal.seats_from(deal.next_seat(deal.dealer))
    by_position = sorted(winners, key=order.index)
    if deal.rules.odd_chip is _HIGHEST_SUIT and all(w in shown for w in winners):
        return sorted(by_position, key=lambda seat: _deciding_suit(shown[seat]), reverse=True)
    return by_position


def _deciding_suit(rank: HandRank) -> int:
    return -1 if rank.suit is None else int(rank.suit)


def _reason(ranks: list[HandRank], winner_indices: list[int]) -> str:
    """Why the winners won, e.g. ``la minima batte la massima``."""
    best = ranks[winner_indices[0]]
    if best.straight_flush_class is not None:
        classes = {r.straight_flush_class for r in ranks if r.straight_flush_class is not None}
        if len(winner_indices) == 3 and len(classes) == 3:
            return POT_REASONS["three-way"]
        if best.straight_flush_class is StraightFlushClass.MINIMUM and (
            StraightFlushClass.MAXIMUM in classes
        ):
            return POT_REASONS["min-beats-max"]
    return _BEST_HAND_REASONS[best.description]


class _BestHandReasons(dict[str, str]):
    """``best hand: <description>`` by description, each formatted once (hands have finitely
    many descriptions)."""

    def __missing__(self, description: str) -> str:
        reason = self[description] = POT_REASONS["best-hand"].format(hand=description)
        return reason


_BEST_HAND_REASONS = _BestHandReasons()


def opening_proof(deal: ShowdownTable) -> tuple[Card, ...]:
    """3.3, 4.4: the cards that prove the opening, when the rules ask the opener to prove it
    (empty otherwise, or without an opener): the fewest cards of the opening hand that show the
    requirement met, taken only from what the opener still holds (or held when folding) and
    from the discards kept apart after an announced split. A card the opener threw away face
    down without announcing a split is never shown: the cards kept prove the opening alone."""
    opener = deal.opener
    if opener is None or not deal.rules.opener_must_prove:
        return ()
    draw = deal.draw
    # Cards as bits (Card.bit): a card compared with ``in`` runs the dataclass's __eq__.
    still_there = 0
    for card in deal.hands[opener]:
        still_there |= card.bit
    if draw.split_announced:
        for card in draw.discards[opener]:
            still_there |= card.bit
    groups = deal.opening_groups
    group = first_group_held(groups, still_there)
    if group is not None:
        return group  # what proving_cards finds first, without listing the cards still there
    available = [c for c in deal.opening_hand if c.bit & still_there]
    return proving_cards(available, deal.requirement, players=deal.n, groups=groups)
