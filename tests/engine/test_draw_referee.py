"""The draw as a referee checks it (Art. 4): every legal deal's history replays exactly, with
the late fourth card (4.2) and the reshuffles (4.3) found from the operations log; the proof
of the opening (4.4) is never made of cards another player holds; a split (4.4) is only the
announcement that the opening is broken; a refused action changes nothing."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    NO_BLINDS,
    assert_cards_unique,
    cards,
    new_deal,
    play,
    rules,
    snapshot,
)

from italian_poker import Action, ActionKind, Card, Deal, DealStart, Deck, Rules
from italian_poker.engine.actions import call, draw, fold, open_
from italian_poker.engine.card_source import CHANCE, RecordedSource, SeededSource
from italian_poker.engine.errors import (
    CardsNotAvailableError,
    CardSourceError,
    IllegalActionError,
    InvalidDrawError,
    SplitError,
)
from italian_poker.engine.history import HandHistory, dumps, loads, replay
from italian_poker.engine.observer import PUBLIC, PublicAction, observe, observe_operations
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, Reshuffled
from italian_poker.table.events import Event
from italian_poker.table.narration import describe_event
from italian_poker.table.vocabulary import Language

# --- 4.2, 4.3: the dealer's late fourth card, one of his own discards -------------------------

NINE_DECK = (
    "9s Th 8c 5h 7s 9d Jd 4h Js 4d 3c Qs 6c 2d 3d 6s 8h Tc Jc Kh 6d Kd 2c Jh 5d Ah 3s 5s 6h Ac "
    "Qh 8s Qc 7c Qd 8d 9c 3h 5c Ks Ad 4s Ts 2h 9h As Td 7d Kc 4c 2s 7h"
)
"""A deck for nine players, dealer seat 2, in which the last reshuffle (4.3) holds only the
dealer's discards when his late fourth card (4.2) is served."""


def nine_players() -> Deal:
    """Nine players on :data:`NINE_DECK`, dealer seat 2, the reshuffles' order (4.3) from
    seed 54."""
    return Deal(
        DealStart(
            rules=Rules(**NO_BLINDS, players=9),
            names=tuple(f"P{i}" for i in range(9)),
            stacks=(1000,) * 9,
            dealer=2,
        ),
        SeededSource(54, order=cards(NINE_DECK)),
    )


NINE_STEPS: tuple[tuple[int, Action], ...] = (
    (3, Action(ActionKind.PASS)),
    (4, Action(ActionKind.PASS)),
    (5, Action(ActionKind.PASS)),
    (6, open_(1)),
    *[(s, call()) for s in (7, 8, 0, 1, 2, 3, 4, 5)],
    (3, draw(*cards("4d 9s 9c Jc"))),
    (4, draw(*cards("Th Kh"))),
    (5, draw(*cards("6d Ac"))),
    (6, draw(*cards("Ks 6c 5h Qh"), split=True)),  # the first reshuffle (4.3)
    (7, draw(*cards("8s 7s 2d Ad"))),
    (8, draw(*cards("Jh 9d Qc 4s"))),
    (0, draw(*cards("6s 7c Jd 5d"))),
    (1, draw()),
    (2, draw(*cards("8d 9h 3s Js"))),
)
"""Seat 6 opens; everyone calls; heavy draws run the stock out three times, and the dealer
(seat 2), drawing four last, gets his fourth card from his own discards."""


def nine_players_dealer_draws_last() -> Deal:
    """The deal of :data:`NINE_STEPS`, at the second betting round."""
    deal = nine_players()
    play(deal, *NINE_STEPS)
    return deal


def test_the_dealers_late_fourth_card_from_his_own_discards_replays() -> None:
    """4.2, 4.3: the dealer's late fourth card is one of his own discards (nothing else was
    left). The history used to replay with one dealer line fewer (the card was looked for as a
    card new to his hand); the dealer lines are now read from the operations log."""
    deal = nine_players_dealer_draws_last()
    last = deal.operations[-2:]
    assert isinstance(last[0], Reshuffled) and set(last[0].cards) == set(cards("8d 9h 3s Js"))
    assert isinstance(last[1], FourthCardDealt) and last[1].seat == 2
    assert last[1].card in deal.discards[2]
    history = HandHistory.from_deal(deal)
    assert replay(history).hands == deal.hands
    assert replay(loads(dumps(history))).hands == deal.hands
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        deal.apply(Action(ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.SHOW))
    finished = HandHistory.from_deal(deal, number=1)
    assert replay(loads(dumps(finished))).result == deal.result


def test_the_replayer_frames_the_dealers_late_fourth_card() -> None:
    """The replayer (table/replay_frames.py) replays the same deal to its end."""
    from italian_poker.table.replay_frames import hand_frames

    deal = nine_players_dealer_draws_last()
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        deal.apply(Action(ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.SHOW))
    history = loads(dumps(HandHistory.from_deal(deal, number=1)))
    frames = hand_frames(history, PUBLIC, deal.requirement)
    assert len(frames.frames) == len(deal.actions) + 1


# --- a refused action changes nothing ----------------------------------------------------------


def assert_refused_unchanged(deal: Deal, action: Action, seat: int | None = None) -> None:
    """``action`` is refused by ``can``, ``verify`` and ``apply`` alike, and the deal's whole
    state (every attribute, deep) is as it was."""
    before = snapshot(deal)
    operations = list(deal.operations)
    views = [observe(deal, s) for s in range(deal.n)]
    assert not deal.can(action, seat)
    with pytest.raises(IllegalActionError):
        deal.verify(action, seat)
    with pytest.raises(IllegalActionError):
        deal.apply(action, seat)
    assert snapshot(deal) == before
    assert deal.operations == operations
    assert [observe(deal, s) for s in range(deal.n)] == views


def test_recorded_cards_not_available_are_refused_before_they_are_dealt() -> None:
    """4.3: a replay whose record serves a card the reshuffled discards do not hold is
    refused at the draw that takes it (a CardSourceError naming the cards), before any of
    them is dealt: the deal waits for the cards due, and the right cards go on to the same
    deal as played."""
    played = nine_players_dealer_draws_last()
    reshuffled = [i for i, op in enumerate(played.operations) if isinstance(op, Reshuffled)]
    drawn = next(
        i
        for i in range(reshuffled[0], len(played.operations))
        if isinstance(played.operations[i], CardsDrawn)
    )
    right = played.operations[drawn]
    assert isinstance(right, CardsDrawn)
    held = played.hands[6][0]  # never among the cards that may be dealt
    wrong = CardsDrawn(right.seat, (held, *right.cards[1:]))
    record = [*played.operations[:drawn], wrong, *played.operations[drawn + 1 :]]
    deal = Deal(played.start, RecordedSource(record))
    steps = iter(NINE_STEPS)
    with pytest.raises(CardSourceError, match="not available"):
        for seat, action in steps:
            deal.apply(action, seat)
    due = deal.cards_due()
    assert due is not None and due.seat == right.seat and deal.actor is None
    assert all(held not in deal.hands[s] for s in range(deal.n) if s != 6)
    assert wrong not in deal.operations
    assert not deal.can_deal(wrong.cards[: due.number])
    with pytest.raises(CardsNotAvailableError):
        deal.deal_cards(wrong.cards[: due.number])
    rest = right.cards[due.number :]
    deal.source = RecordedSource(
        [CardsDrawn(right.seat, rest)] if rest else [], then=RecordedSource(record[drawn + 1 :])
    )
    deal.deal_cards(right.cards[: due.number])
    for seat, action in steps:
        deal.apply(action, seat)
    assert deal.hands == played.hands and deal.operations == played.operations


def test_a_deal_dealt_by_hand_refuses_cards_not_due_and_changes_nothing() -> None:
    """A deal without a source (CHANCE) waits for its cards; cards that are not the cards due
    (too few, a card twice, a card outside the deck) are refused, the deal as it was; actions
    are refused while cards are due."""
    deal = Deal(
        DealStart(Rules(**NO_BLINDS), ("a", "b", "c", "d"), (50,) * 4),
        CHANCE,
    )
    due = deal.cards_due()
    assert due is not None and due.number == 20 and deal.actor is None
    before = snapshot(deal)
    deck = list(due.candidates)
    for given in (deck[:19], [deck[0], *deck[:19]], [*deck[:19], cards("2c")[0]]):
        assert not deal.can_deal(given)
        with pytest.raises(CardsNotAvailableError):
            deal.deal_cards(given)
        assert snapshot(deal) == before
    with pytest.raises(IllegalActionError):
        deal.apply(Action(ActionKind.PASS))
    assert snapshot(deal) == before
    deal.deal_cards(deck[:20])
    assert deal.hands[1] == deck[0:20:4] and deal.actor == 1


# --- 4.4: a split only breaks the opening ------------------------------------------------------

OPENER = "Jh Js 9h 9s Ac"
"""Seat 1's hand: a pair of jacks opens (the nines are no part of the opening)."""


def at_openers_draw() -> Deal:
    """Seat 1 opens with :data:`OPENER`, seat 2 calls, seats 3 and 0 fold: seat 1 draws."""
    deal = new_deal(rules(), {1: OPENER, 2: "7s 8c Qd Kh Ad"})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    assert deal.actor == 1
    return deal


@pytest.mark.parametrize(
    "discards",
    ["", "Ac", "9s Ac", "9h 9s Ac"],
    ids=["stand-pat", "one", "two", "three"],
)
def test_a_split_that_keeps_the_opening_is_refused(discards: str) -> None:
    """4.4: the opener may announce a split only to break the opening. Standing pat, or
    keeping both jacks, breaks nothing: the announcement is refused (it used to be accepted,
    telling the table of a split that never was), and the deal is unchanged."""
    deal = at_openers_draw()
    announced = draw(*cards(discards), split=True)
    assert_refused_unchanged(deal, announced, 1)
    with pytest.raises(SplitError, match=r"\(4\.4\)"):
        deal.apply(announced, 1)
    deal.apply(draw(*cards(discards)), 1)  # the same draw, unannounced, is the legal one


def test_a_split_by_another_player_is_refused() -> None:
    """4.4: only the opener splits the opening."""
    deal = at_openers_draw()
    deal.apply(draw(), 1)
    with pytest.raises(SplitError, match="opener"):
        deal.apply(draw(*cards("7s 8c"), split=True), 2)


def test_a_split_that_breaks_the_opening_is_told_to_everyone() -> None:
    """4.4: the opener discarding a jack announces the split; everyone (the other players,
    spectators, the operations log as each saw it) is told, as at a real table."""
    deal = at_openers_draw()
    with pytest.raises(InvalidDrawError, match="announce the split"):
        deal.apply(draw(*cards("Js 9s")), 1)
    deal.apply(draw(*cards("Js 9s"), split=True), 1)
    deal.apply(draw(), 2)
    for viewer in (PUBLIC, 0, 1, 2):
        split = next(a for a in observe(deal, viewer).actions if a.kind is ActionKind.DRAW)
        assert split.seat == 1 and split.split and split.cards_changed == 2
        seen = observe_operations(deal.operations, viewer, deal.rules)
        assert [op.seat for op in seen if isinstance(op, PublicAction) and op.split] == [1]
        event = Event(
            "P1", split.kind, split.amount, split.cards_changed, split.discards, split.split
        )
        assert "P1 annuncia che spezza l'apertura (4.4)" in describe_event(event, Language.IT)
        assert "P1 announces a split opening (4.4)" in describe_event(event, Language.EN)
    (stood,) = [a for a in observe(deal, PUBLIC).actions if a.seat == 2 and a.phase.value == "draw"]
    assert not stood.split


# --- 4.3, 4.4: the proof is never made of cards another player holds ---------------------------


def random_deal(rng: random.Random) -> Deal:
    """A deal at 2 to 9 players, played at random to its end with heavy draws, blinds now
    and then, and the opener often folding before the draw (his hand then lies where the
    reshuffles of 4.3 would find it, if it were in the muck)."""
    players = rng.randint(2, 9)
    table = Rules(players=players) if rng.random() < 0.3 else Rules(**NO_BLINDS, players=players)
    deal = Deal(
        DealStart(
            rules=table,
            names=tuple(f"P{i}" for i in range(players)),
            stacks=(500,) * players,
            dealer=rng.randrange(players),
        ),
        SeededSource(rng.randrange(1 << 30)),
    )
    while deal.actor is not None:
        seat = deal.actor
        legal = {la.kind: la for la in deal.legal_actions()}
        if ActionKind.DRAW in legal:
            hand = deal.hands[seat]
            discards = tuple(rng.sample(hand, rng.choice([4, 4, 3, 2, 1, 0])))
            for action in (draw(*discards), draw(*discards, split=True), draw()):
                if deal.can(action):
                    break
        elif ActionKind.FOLD in legal and seat == deal.opener and rng.random() < 0.7:
            action = fold()
        elif ActionKind.RAISE in legal and seat != deal.opener and rng.random() < 0.2:
            action = Action(ActionKind.RAISE, legal[ActionKind.RAISE].min_amount)
        elif ActionKind.OPEN in legal:
            action = open_(legal[ActionKind.OPEN].min_amount or 1)
        elif ActionKind.FOLD in legal and rng.random() < 0.15:
            action = fold()
        else:
            order = (ActionKind.CALL, ActionKind.CHECK, ActionKind.SHOW, ActionKind.DECLINE)
            kind = next((k for k in order if k in legal), next(iter(legal)))
            action = Action(kind, legal[kind].min_amount if kind is ActionKind.BLIND else None)
        deal.apply(action, seat)
        assert_cards_unique(deal)
    return deal


def test_no_card_is_public_in_two_places_and_every_deal_replays() -> None:
    """4.3, 4.4: at the end of every deal the proof of the opening and the hands shown hold
    no card twice, and no card of the proof is in another player's hand; the history, saved
    and read back, replays to the same deal. A folded opener's hand used to be reshuffled
    and dealt on, so the proof showed jacks two other players showed too."""
    rng = random.Random(38)
    proved_after_fold = 0
    for _ in range(300):
        deal = random_deal(rng)
        assert deal.result is not None
        view = observe(deal, PUBLIC)
        proof = list(view.proof)
        shown = [c for hand in view.shown.values() for c in hand]
        assert len(set(shown)) == len(shown)
        for seat, hand in enumerate(deal.hands):
            if seat != deal.opener:
                assert not set(proof) & set(hand), f"seat {seat} holds a card of the proof"
        if proof and deal.opener is not None and deal.first_round_folded[deal.opener]:
            proved_after_fold += 1
        history = HandHistory.from_deal(deal, number=1)
        assert replay(loads(dumps(history))).result == deal.result
    assert proved_after_fold >= 20  # the case of the defect was played


def candidate_actions(deal: Deal, rng: random.Random) -> list[Action]:
    """Actions to try at a decision, legal or not: every kind with a random amount, draws of
    random cards (held or not) with and without a split announced."""
    seat = deal.actor
    assert seat is not None
    deck = list(stripped_cards(deal))
    tries = [Action(kind, rng.choice([None, 0, 1, 3, 50, 10_000])) for kind in ActionKind]
    for _ in range(4):
        pool = deal.hands[seat] if rng.random() < 0.7 else deck
        discards = tuple(rng.sample(pool, min(len(pool), rng.randint(0, 5))))
        tries.append(draw(*discards, split=rng.random() < 0.5))
    return tries


def stripped_cards(deal: Deal) -> tuple[Card, ...]:
    """The cards of the deal's deck."""
    return Deck(deal.n).cards


def test_every_refused_action_leaves_the_deal_as_it_was() -> None:
    """A refused action, whatever it is, changes nothing: ``can`` says no, ``verify`` and
    ``apply`` raise an ``IllegalActionError``, and every attribute of the deal (deep), its
    operations and every seat's view are as they were."""
    rng = random.Random(5)
    refused = 0
    for _ in range(12):
        deal = random_deal_start(rng)
        while deal.actor is not None:
            tries = candidate_actions(deal, rng)
            for action in tries:
                if not deal.can(action) and rng.random() < 0.25:
                    assert_refused_unchanged(deal, action)
                    refused += 1
            legal = [a for a in tries if deal.can(a)]
            offered = deal.legal_actions()[0]
            deal.apply(rng.choice(legal) if legal else Action(offered.kind, offered.min_amount))
    assert refused >= 100


def random_deal_start(rng: random.Random) -> Deal:
    """A new deal at 2 to 9 players, blinds allowed."""
    players = rng.randint(2, 9)
    return Deal(
        DealStart(
            rules=Rules(players=players),
            names=tuple(f"P{i}" for i in range(players)),
            stacks=(200,) * players,
            dealer=rng.randrange(players),
        ),
        SeededSource(rng.randrange(1 << 30)),
    )
