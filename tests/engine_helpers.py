"""Shared helpers for the engine tests: stacked decks, quick deals, snapshots, card audits.

A stacked deck gives chosen seats chosen cards: the deal is one card at a time, starting at
the dealer's left in the direction of play (3.1), so card ``k`` of the ``i``-th seat served
sits at position ``k * players + i``. The cards named for the stock follow the dealt cards,
then every card not named, in deck order.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from typing import Any

from italian_poker import (
    Action,
    ActionKind,
    Card,
    Deal,
    DealStart,
    Deck,
    Direction,
    InvalidDrawError,
    Match,
    MatchPhase,
    Outcome,
    Rules,
    parse_cards,
)
from italian_poker.engine.card_source import SecureSource, SeededSource, StackedSource

NO_BLINDS: dict[str, Any] = {
    "blind_allowed": False,
    "controbuio_allowed": False,
    "over_allowed": False,
}
"""Rule changes that skip the blind phase (Art. 2), so a deal starts at the opening."""


def cards(text: str) -> tuple[Card, ...]:
    """Cards from text such as ``"Ah Kd 7c"``."""
    return parse_cards(text)


def deal_order(players: int, dealer: int, direction: Direction) -> list[int]:
    """Seats in the order they are served: from the dealer's left, in the direction of play."""
    step = 1 if direction is Direction.CLOCKWISE else -1
    return [(dealer + step * (k + 1)) % players for k in range(players)]


def stacked_deck(
    players: int,
    hands: Mapping[int, str | Sequence[Card]],
    *,
    dealer: int = 0,
    direction: Direction = Direction.CLOCKWISE,
    stock: str | Sequence[Card] = "",
) -> tuple[Card, ...]:
    """A deck order dealing ``hands[seat]`` (five cards) to the seats named, then ``stock``.

    Seats not named get the unnamed cards in deck order, which are dealt round-robin.
    """
    named: dict[int, tuple[Card, ...]] = {
        seat: cards(h) if isinstance(h, str) else tuple(h) for seat, h in hands.items()
    }
    wanted_stock = cards(stock) if isinstance(stock, str) else tuple(stock)
    used = [c for h in named.values() for c in h] + list(wanted_stock)
    if len(set(used)) != len(used):
        raise ValueError("a card is named twice")
    deck = Deck(players)
    for card in used:
        deck.check(card)
    for seat, hand in named.items():
        if len(hand) != 5:
            raise ValueError(f"seat {seat} needs five cards, got {len(hand)}")
    spare = [c for c in deck.cards if c not in set(used)]
    order = deal_order(players, dealer, direction)
    dealt: list[Card] = []
    for k in range(5):
        for seat in order:
            dealt.append(named[seat][k] if seat in named else spare.pop(0))
    return (*dealt, *wanted_stock, *spare)


def rules(**changes: Any) -> Rules:
    """Standard rules (000) without blinds, with ``changes``."""
    return Rules(**{**NO_BLINDS, **changes})


def new_deal(
    table_rules: Rules,
    hands: Mapping[int, str | Sequence[Card]],
    *,
    dealer: int = 0,
    stacks: Sequence[int] | None = None,
    stock: str = "",
    carried: int = 0,
    seed: int | None = None,
    **start: Any,
) -> Deal:
    """A :class:`Deal` for ``table_rules.players`` seats with a stacked deck (the discards
    reshuffled, 4.3, by ``seed`` or securely)."""
    n = table_rules.players
    deck = stacked_deck(n, hands, dealer=dealer, direction=table_rules.direction, stock=stock)
    return Deal(
        DealStart(
            rules=table_rules,
            names=tuple(f"P{i}" for i in range(n)),
            stacks=tuple(stacks) if stacks is not None else (100,) * n,
            dealer=dealer,
            carried=carried,
            **start,
        ),
        StackedSource(deck, then=SecureSource())
        if seed is None
        else SeededSource(seed, order=deck),
    )


def new_match(table_rules: Rules, stacks: Sequence[int] | None = None, *, dealer: int = 0) -> Match:
    """A :class:`Match` with players ``P0``.. seated in order."""
    n = table_rules.players
    chips = stacks if stacks is not None else (100,) * n
    return Match(table_rules, [(f"P{i}", s) for i, s in enumerate(chips)], dealer=dealer)


def play(deal: Deal, *steps: tuple[int, Action]) -> None:
    """Apply ``(seat, action)`` steps, checking each seat is the one to act."""
    for seat, action in steps:
        assert deal.actor == seat, f"expected seat {seat} to act, actor is {deal.actor}"
        deal.apply(action, seat)


def kinds(deal: Deal | Match) -> set[ActionKind]:
    """The kinds of the legal actions now."""
    return {la.kind for la in deal.legal_actions()}


def _attributes(obj: Any) -> dict[str, Any]:
    """Every attribute of a deal or match (slotted classes), by name."""
    return {
        name: getattr(obj, name)
        for name in type(obj).__slots__
        if name != "__weakref__" and hasattr(obj, name)
    }


def snapshot(obj: Any) -> dict[str, Any]:
    """A deep copy of every attribute of a deal or match (the legal-action cache and the
    observer's record of the actions as seen aside)."""
    attributes = _attributes(obj)
    state = {k: v for k, v in attributes.items() if k not in ("_legal", "_seen", "_rng")}
    out = copy.deepcopy(state)
    rng = attributes.get("_rng")
    if rng is not None and hasattr(rng, "getstate"):
        with contextlib.suppress(NotImplementedError):
            out["_rng"] = rng.getstate()
    deal = attributes.get("deal")
    if isinstance(deal, Deal):
        out["deal"] = snapshot(deal)
    return out


def card_locations(deal: Deal) -> list[Card]:
    """Every card the deal tracks: live hands, stock, muck (which holds folded hands) and the
    opener's kept-apart cards."""
    located = [c for seat, hand in enumerate(deal.hands) if not deal.folded[seat] for c in hand]
    located += deal.stock
    located += [c for _, c in deal.muck]
    located += list(deal.kept_apart)
    return located


def assert_cards_unique(deal: Deal) -> None:
    """No card is in two places at once."""
    located = card_locations(deal)
    dupes = {c for c in located if located.count(c) > 1}
    assert not dupes, f"cards in two places: {sorted(map(str, dupes))}"
    deck = set(Deck(deal.n).cards)
    assert set(located) <= deck


def all_seats(deal: Deal) -> Iterable[int]:
    """Seats of a deal."""
    return range(deal.n)


AMOUNT_KINDS = (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE)
_WEIGHTS = {ActionKind.FOLD: 1, ActionKind.PAROL: 2, ActionKind.DECLINE: 4}


def random_action(match: Match, rng: random.Random) -> Action:
    """A random legal action for the player to act in ``match`` (folds are rarer)."""
    legal = match.legal_actions()
    weights = [_WEIGHTS.get(la.kind, 3) for la in legal]
    choice = rng.choices(legal, weights=weights)[0]
    if choice.kind in AMOUNT_KINDS:
        assert choice.min_amount is not None and choice.max_amount is not None
        return Action(choice.kind, rng.randint(choice.min_amount, choice.max_amount))
    if choice.kind is ActionKind.DRAW:
        assert match.deal is not None and match.deal.actor is not None
        hand = match.deal.hands[match.deal.actor]
        count = rng.randint(0, choice.max_cards)
        return Action(ActionKind.DRAW, cards=tuple(rng.sample(hand, count)))
    return Action(choice.kind)


def apply_random(match: Match, rng: random.Random) -> Action:
    """Apply a random legal action; an opener breaking the opening announces it (4.4)."""
    action = random_action(match, rng)
    try:
        match.apply(action)
    except InvalidDrawError:
        action = Action(ActionKind.DRAW, cards=action.cards, split=True)
        try:
            match.apply(action)
        except InvalidDrawError:  # the rules forbid the split: keep the hand
            action = Action(ActionKind.DRAW)
            match.apply(action)
    return action


def table_chips(match: Match) -> int:
    """Every chip at the table: stacks, the pot in play or carried, and what left with players."""
    in_deal = match.phase is MatchPhase.IN_DEAL and match.deal is not None
    in_pot = match.deal.pot if in_deal and match.deal is not None else 0
    carried = 0 if in_deal else match.carried
    departed = sum(stack for _, stack in match.departed)
    return sum(s.stack for s in match.seats) + in_pot + carried + departed


PAROL_HANDS = ("Jh Jc 7d 8s Ac", "7s 9c Jd Kh Ad", "8h Tc Qd Ah 7c", "9s Js Kd 7h 8d")
"""The four hands of :func:`parol_deal`, from the dealer's left: jacks to open, then three
hands that cannot."""


def parol_deal(match: Match) -> None:
    """A deal of four players abandoned by parol (5.4(a)): from the dealer's left, the
    first player opens for 2 with jacks, the next calls, the other two fold; the two stand
    pat and say parol. The two folders owe a make-up of 2 (5.5)."""
    names = [s.name for s in match.seats if not s.sitting_out]
    assert len(names) == 4, "parol_deal needs four players sitting in"
    dealer = names.index(match.dealer_name)
    direction = match.rules.direction
    order = deal_order(4, dealer, direction)
    hands = {seat: PAROL_HANDS[k] for k, seat in enumerate(order)}
    match.start_deal(deck=stacked_deck(4, hands, dealer=dealer, direction=direction))
    if match.legal_actions()[0].kind is ActionKind.BLIND:
        match.apply(Action(ActionKind.DECLINE))
    opener, caller, first_folder, second_folder = (names[seat] for seat in order)
    for name, action in [
        (opener, Action(ActionKind.OPEN, 2)),
        (caller, Action(ActionKind.CALL)),
        (first_folder, Action(ActionKind.FOLD)),
        (second_folder, Action(ActionKind.FOLD)),
        (opener, Action(ActionKind.DRAW)),
        (caller, Action(ActionKind.DRAW)),
        (opener, Action(ActionKind.PAROL)),
        (caller, Action(ActionKind.PAROL)),
    ]:
        match.apply(action, name)
    assert match.last_result is not None and match.last_result.outcome is Outcome.PAROL


def cards_in(value: object) -> Iterator[Card]:
    """Every card reachable from ``value``: dataclass fields, containers, dict keys/values."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (str, int, float, Enum)) or value is None:
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from cards_in(item)


def public_cards(deal: Deal) -> set[Card]:
    """What everyone may know: shown hands, face-up discards (003), the proof at the end."""
    allowed: set[Card] = set()
    for shower in deal.shown:
        allowed |= set(deal.hands[shower])
    if deal.rules.discards_face_up:
        allowed |= {c for d in deal.discards for c in d}
    if deal.result is not None:
        allowed |= set(deal.result.proof)
    return allowed


def visible_to(deal: Deal, seat: int) -> set[Card]:
    """Cards ``seat`` may know: what everyone may (:func:`public_cards`), its hand and
    discards, and its own kept-apart cards as opener."""
    allowed = public_cards(deal) | set(deal.hands[seat]) | set(deal.discards[seat])
    if deal.opener == seat:
        allowed |= set(deal.kept_apart)
    return allowed


def play_randomly(
    match: Match, rng: random.Random, check: Callable[[Deal], None], deals: int = 4
) -> None:
    """Up to ``deals`` deals of random legal play (5.5 answers at random), calling
    ``check(deal)`` before every decision and at the end of each deal."""
    for _ in range(deals):
        if match.phase is MatchPhase.OVER:
            return
        match.start_deal(seed=rng.randrange(10**6))
        while match.actor is not None:
            if match.phase is MatchPhase.IN_DEAL:
                assert match.deal is not None
                check(match.deal)
                apply_random(match, rng)
            else:
                match.apply(Action(rng.choice([ActionKind.MAKE_UP, ActionKind.SIT_OUT])))
        assert match.deal is not None
        check(match.deal)  # after the end, the showdown included
