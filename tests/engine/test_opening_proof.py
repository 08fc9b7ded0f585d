"""The proof of the opening (3.3, 4.4): at the end of an opened deal every seat sees the fewest
cards that show the opening requirement met, taken only from what the opener still holds and
from the discards kept apart after an announced split; never a card discarded face down."""

from __future__ import annotations

import pytest
from engine_helpers import cards, new_deal, play, rules

from italian_poker import Action, ActionKind, Deal, OpeningRequirement, Rank, seat_view
from italian_poker.engine.actions import call, check, draw, fold, open_
from italian_poker.engine.opening import proving_cards

OTHER = "7s 8c Qd Kh Ad"


def to_showdown(deal: Deal) -> None:
    """Both players check the second round (5.4(b)) and show."""
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        deal.apply(Action(ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.SHOW))


def opened(opener_hand: str) -> Deal:
    """Seat 1 opens with ``opener_hand``, seat 2 calls, seats 3 and 0 fold."""
    deal = new_deal(rules(), {1: opener_hand, 2: OTHER})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    return deal


def test_proof_never_shows_a_face_down_discard_of_the_opener() -> None:
    """4.4: the opener holds Jh Js 9h 9s Ac, keeps Jh Js 9h and throws 9s Ac face down (no
    split: the jacks still open). Every view's proof used to be ``Jh Js 9h 9s``, showing the
    9s nobody else had seen; it is the pair of jacks."""
    deal = opened("Jh Js 9h 9s Ac")
    play(deal, (1, draw(*cards("9s Ac"))), (2, draw()))
    to_showdown(deal)
    assert deal.result is not None
    assert deal.result.proof == cards("Jh Js")
    for seat in range(deal.n):
        assert seat_view(deal, seat).proof == cards("Jh Js")


def test_proof_of_a_split_opening_comes_from_the_cards_kept_apart() -> None:
    """4.4: the opener breaks the opening (discards both jacks, announcing it): the proof is
    the jacks kept apart, not the 9s still held."""
    deal = opened("Jh Js 9h 9s Ac")
    play(deal, (1, draw(*cards("Jh Js"), split=True)), (2, draw()))
    to_showdown(deal)
    assert deal.result is not None and deal.result.proof == cards("Jh Js")


def test_proof_shows_only_what_the_requirement_needs() -> None:
    """3.3(a): two pair held whole still proves with the pair of jacks alone."""
    deal = opened("Jh Js 9h 9s Ac")
    play(deal, (1, draw()), (2, draw()), (1, check()), (2, check()))
    to_showdown(deal)
    assert deal.result is not None and deal.result.proof == cards("Jh Js")


def test_proof_of_an_uncalled_opener_who_drew_nothing() -> None:
    """3.7: won uncalled, the opener still proves the opening with the cards held."""
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac"})
    play(deal, (1, open_(2)), (2, fold()), (3, fold()), (0, fold()))
    assert deal.result is not None and deal.result.proof == cards("Jh Jc")


@pytest.mark.parametrize(
    ("held", "min_pair", "proof"),
    [
        ("Jh Js 9h 9s Ac", Rank.JACK, "Jh Js"),  # a qualifying pair: two cards
        ("Kh Ks Jh Js 7c", Rank.JACK, "Kh Ks"),  # the highest qualifying pair
        ("9h 9s 9d Kc 7c", Rank.JACK, "9h 9s 9d"),  # trips of any rank
        ("9h 9s 8d 8c Ac", Rank.JACK, "9h 9s 8d 8c"),  # two pair of any ranks
        ("Jh Js 9h 9s Ac", Rank.KING, "Jh Js 9h 9s"),  # kings needed: the two pair
        ("7h 8h 9h Th Ac", Rank.JACK, "7h 8h 9h Th"),  # 3.3(b) four to a straight flush
        ("7h 8c 9h Th Jd", Rank.JACK, "7h 8c 9h Th Jd"),  # a straight: all five
        ("Jh Js", Rank.JACK, "Jh Js"),  # kept cards only
        ("Jh 9s 8d", Rank.JACK, ""),  # nothing proves
    ],
)
def test_proving_cards_are_the_fewest_that_meet_the_requirement(
    held: str, min_pair: Rank, proof: str
) -> None:
    requirement = OpeningRequirement(min_pair)
    assert proving_cards(cards(held), requirement, players=4) == cards(proof)
