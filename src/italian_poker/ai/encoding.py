"""The action encoding of the OpenSpiel game: every engine action as one integer.

Player actions (``NUM_ACTIONS`` ids, docs/ai.md):

- ``0..12``: the actions without a chosen amount or cards, in :data:`SIMPLE_KINDS` order
  (fold, check, call, pass, parol, decline, blind, controbuio, over, show, muck, make-up,
  sit-out); the engine fills in the fixed amount of a call, blind or make-up;
- ``13..27``: open, bet and raise, :data:`AMOUNT_SLOTS` ids each (13 open, 18 bet, 23 raise):
  slot ``j`` is the new round total ``low + (high - low) * j // 4`` of the range the engine
  offers (``low`` the smallest, slot 4 the largest: the pot under pot-limit, the stack under
  no-limit); under fixed limit the range is one amount, so only slot 0 is legal, and when two
  slots give one amount only the lower slot is legal;
- ``28..59``: a draw, ``28 + mask``: bit ``i`` of ``mask`` discards the ``i``-th card of the
  hand sorted by card index (``Card.index``, 0 for the lowest); mask 0 stands pat, mask 31
  (all five) is never legal;
- ``60..91``: the same draws with the split announced (4.4): the opener breaking the opening.

Chance outcomes are cards: outcome ``c`` is the card of index ``c`` (``Card.from_index``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card

SIMPLE_KINDS: Final = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.PASS,
    ActionKind.PAROL,
    ActionKind.DECLINE,
    ActionKind.BLIND,
    ActionKind.CONTROBUIO,
    ActionKind.OVER,
    ActionKind.SHOW,
    ActionKind.MUCK,
    ActionKind.MAKE_UP,
    ActionKind.SIT_OUT,
)
"""The kinds without a chosen amount or cards, by id."""

AMOUNT_SLOTS: Final = 5
"""Amounts offered per open, bet or raise: 0, 1/4, 1/2, 3/4 and all of the range."""

AMOUNT_BASES: Final = {
    ActionKind.OPEN: len(SIMPLE_KINDS),
    ActionKind.BET: len(SIMPLE_KINDS) + AMOUNT_SLOTS,
    ActionKind.RAISE: len(SIMPLE_KINDS) + 2 * AMOUNT_SLOTS,
}
"""The first id of each kind with a chosen amount."""

DRAW_BASE: Final = len(SIMPLE_KINDS) + 3 * AMOUNT_SLOTS
"""The id of standing pat; ``DRAW_BASE + mask`` discards the cards of ``mask``."""

MASKS: Final = 32
"""Discard masks over the five cards of a hand."""

SPLIT_BASE: Final = DRAW_BASE + MASKS
"""``SPLIT_BASE + mask``: the draw of ``mask`` with the split announced (4.4)."""

NUM_ACTIONS: Final = SPLIT_BASE + MASKS
"""How many player action ids there are."""

CARDS: Final = 52
"""Chance outcomes: a card, by index (``Card.index``)."""

_SIMPLE_IDS: Final = {kind: i for i, kind in enumerate(SIMPLE_KINDS)}


def slot_amount(slot: int, low: int, high: int) -> int:
    """The round total of amount ``slot`` in the range ``low..high``."""
    return low + (high - low) * slot // (AMOUNT_SLOTS - 1)


def sorted_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The hand in the order the draw masks read it: by card index."""
    return tuple(sorted(hand, key=_index))


def _index(card: Card) -> int:
    return card.index


def discards_of(mask: int, hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``hand`` (sorted by index) that ``mask`` discards."""
    ordered = sorted_hand(hand)
    return tuple(card for i, card in enumerate(ordered) if mask >> i & 1)


def draw_id(mask: int, split: bool) -> int:
    """The id of the draw of ``mask``, with or without the split announced."""
    return (SPLIT_BASE if split else DRAW_BASE) + mask


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


_POPCOUNTS: Final = tuple(_popcount(mask) for mask in range(MASKS))
"""How many cards each mask discards."""


def draw_ids(offer: LegalAction, hand: Sequence[Card], opener_may_split: bool) -> list[int]:
    """The ids of the draws ``offer`` (a ``DRAW`` the engine offers) allows with ``hand``,
    sorted, worked out once from the offer as the engine's draw check reads it: up to
    ``max_cards`` of the hand's cards (4.1); only the opener is offered the split
    (``split_unless_kept``): a draw that breaks the opening, discarding from every group
    that shows it, is made with the split announced, never without, and not at all unless
    ``opener_may_split``; any other draw is made without it (4.4,
    ``Rules.opener_may_split``).
    tests/ai/test_ai_openspiel.py checks these against the engine's ``can`` on random draws."""
    size = len(hand)
    most = offer.max_cards
    groups = offer.split_unless_kept
    plain: list[int] = []
    split: list[int] = []
    if groups is None:
        for mask in range(1 << min(size, 5)):
            if _POPCOUNTS[mask] <= most:
                plain.append(DRAW_BASE + mask)
        return plain
    position = {card: i for i, card in enumerate(sorted_hand(hand))}
    group_masks = [
        sum(1 << position[card] for card in group if card in position) for group in groups
    ]
    for mask in range(1 << min(size, 5)):
        if _POPCOUNTS[mask] > most:
            continue
        breaks = mask != 0 and all(mask & g for g in group_masks)
        if not breaks:
            plain.append(DRAW_BASE + mask)
        elif opener_may_split:
            split.append(SPLIT_BASE + mask)
    return plain + split


def legal_ids(
    legal: Sequence[LegalAction], hand: Sequence[Card], opener_may_split: bool
) -> list[int]:
    """The ids of the actions ``legal`` offers, sorted; the draws by :func:`draw_ids`
    (``hand`` is the actor's, needed for a draw only). An amount slot is left out when the
    slot below gives the same amount (slot amounts never decrease)."""
    ids: list[int] = []
    for offer in legal:
        kind = offer.kind
        base = _AMOUNT_BASE_OF(kind)
        if base is not None:
            low, high = offer.min_amount, offer.max_amount
            assert low is not None and high is not None
            ids.append(base)
            last, span = low, high - low
            for slot in _UPPER_SLOTS:
                amount = low + span * slot // _QUARTERS
                if amount != last:
                    ids.append(base + slot)
                    last = amount
        elif kind is _DRAW:
            ids.extend(draw_ids(offer, hand, opener_may_split))
        else:
            ids.append(_SIMPLE_IDS[kind])
    ids.sort()
    return ids


_AMOUNT_BASE_OF: Final = AMOUNT_BASES.get
_UPPER_SLOTS: Final = range(1, AMOUNT_SLOTS)
_QUARTERS: Final = AMOUNT_SLOTS - 1
_AMOUNT_KINDS: Final = (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE)
"""The kinds with a chosen amount, in the order of their ids."""
_DRAW: Final = ActionKind.DRAW
_SIMPLE_ACTIONS: Final = tuple(Action(kind) for kind in SIMPLE_KINDS)
"""The action of each simple id (actions are immutable: one object serves every use)."""


def to_action(action_id: int, legal: Sequence[LegalAction], hand: Sequence[Card]) -> Action:
    """The engine action of ``action_id``, given what is offered and the actor's hand."""
    if not 0 <= action_id < NUM_ACTIONS:
        raise ValueError(f"an action id is 0 to {NUM_ACTIONS - 1}, not {action_id}")
    if action_id < len(SIMPLE_KINDS):
        return _SIMPLE_ACTIONS[action_id]
    if action_id < DRAW_BASE:
        offset = action_id - len(SIMPLE_KINDS)
        kind = _AMOUNT_KINDS[offset // AMOUNT_SLOTS]
        for offer in legal:
            if offer.kind is kind:
                assert offer.min_amount is not None and offer.max_amount is not None
                amount = slot_amount(offset % AMOUNT_SLOTS, offer.min_amount, offer.max_amount)
                return Action(kind, amount)
        raise ValueError(f"{kind.value} is not offered now")
    split = action_id >= SPLIT_BASE
    mask = action_id - (SPLIT_BASE if split else DRAW_BASE)
    return Action(ActionKind.DRAW, cards=discards_of(mask, hand), split=split)


def describe(action_id: int) -> str:
    """A short name of ``action_id`` that does not depend on the state (``raise 3/4``,
    ``draw 01001``, ``draw 10000 split``: the mask's bits, lowest card first)."""
    if not 0 <= action_id < NUM_ACTIONS:
        return f"action {action_id}"
    if action_id < len(SIMPLE_KINDS):
        return SIMPLE_KINDS[action_id].value
    if action_id < DRAW_BASE:
        offset = action_id - len(SIMPLE_KINDS)
        kind = ("open", "bet", "raise")[offset // AMOUNT_SLOTS]
        slot = offset % AMOUNT_SLOTS
        return f"{kind} {('min', '1/4', '1/2', '3/4', 'max')[slot]}"
    split = action_id >= SPLIT_BASE
    mask = action_id - (SPLIT_BASE if split else DRAW_BASE)
    bits = "".join("1" if mask >> i & 1 else "0" for i in range(5))
    return f"draw {bits}" + (" split" if split else "")


def id_of(action: Action, legal: Sequence[LegalAction], hand: Sequence[Card]) -> int:
    """The id of the engine ``action`` (a bot's choice), given what is offered and the
    actor's hand: an open, bet or raise of an amount between two slots takes the slot of the
    nearest amount (the lower on a tie), so a bot plays the learner's action set."""
    kind = action.kind
    if kind in AMOUNT_BASES:
        for offer in legal:
            if offer.kind is kind:
                low, high = offer.min_amount, offer.max_amount
                assert low is not None and high is not None
                wanted = low if action.amount is None else action.amount
                slots = {slot_amount(s, low, high): s for s in reversed(range(AMOUNT_SLOTS))}
                amount = min(slots, key=lambda a: (abs(a - wanted), a))
                return AMOUNT_BASES[kind] + slots[amount]
        raise ValueError(f"{kind.value} is not offered now")
    if kind is ActionKind.DRAW:
        ordered = sorted_hand(hand)
        mask = sum(1 << ordered.index(card) for card in action.cards)
        return draw_id(mask, action.split)
    return _SIMPLE_IDS[kind]
