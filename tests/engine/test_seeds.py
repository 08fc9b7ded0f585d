"""Seeded play draws every random stream from a seed of its own (engine/seeds.py): a deal's
shuffle, its 4.3 reshuffles, the next deal's shuffle and each bot never share numbers."""

from __future__ import annotations

import random

from engine_helpers import rules

from italian_poker import Action, ActionKind, Deck, Match
from italian_poker.engine.card_source import CardsDue, SeededSource, Why
from italian_poker.engine.seeds import derive_seed


def first_numbers(source: random.Random) -> list[int]:
    return [source.getrandbits(64) for _ in range(4)]


def test_reshuffles_of_a_deal_do_not_repeat_the_next_deals_shuffle() -> None:
    """A seeded match used ``Random(seed_N + 1)`` for deal N's reshuffles (4.3), which is the
    stream that shuffles deal N + 1: the cards a player got from the reshuffle foretold the
    next deal. Every stream now has a seed of its own."""
    match = Match(rules(), [("A", 50), ("B", 50), ("C", 50)], seed=7)
    seeds = []
    reshuffle_streams = []
    for _ in range(3):
        match.start_deal()
        deal = match.deal
        assert deal is not None and isinstance(deal.source, SeededSource)
        seeds.append(deal.source.seed)
        reshuffle_streams.append(first_numbers(random.Random(derive_seed(seeds[-1], "reshuffle"))))
        while match.actor is not None:
            match.apply(passive(match))
    shuffle_streams = [first_numbers(random.Random(seed)) for seed in seeds]
    for stream in reshuffle_streams:
        assert stream not in shuffle_streams
    assert len({*seeds}) == 3


def passive(match: Match) -> Action:
    """Pass, check, fold or show: a deal that ends quickly."""
    kinds = [la.kind for la in match.legal_actions()]
    for kind in (ActionKind.PASS, ActionKind.CHECK, ActionKind.FOLD, ActionKind.SHOW):
        if kind in kinds:
            return Action(kind)
    return Action(kinds[0])


def test_a_deals_reshuffle_seed_is_derived_not_the_next_integer() -> None:
    """A seeded source orders the discards shuffled in (4.3) with a stream of its own,
    ``derive_seed(seed, "reshuffle")``, not ``seed + 1``."""
    source = SeededSource(41)
    deck = Deck(2).cards
    dealt = source.take(CardsDue(Why.DEAL, (1, 0), 10, deck))
    stock = [c for c in deck if c not in dealt]
    assert source.take(CardsDue(Why.DRAW, (0,), len(stock), tuple(stock))) is not None
    pool = dealt[:6]
    served = source.take(CardsDue(Why.DRAW, (1,), 3, pool, pool))
    expected = list(pool)
    random.Random(derive_seed(41, "reshuffle")).shuffle(expected)
    assert served == tuple(expected[:3])
    assert first_numbers(random.Random(derive_seed(41, "reshuffle"))) != first_numbers(
        random.Random(42)
    )


def test_bot_and_deal_streams_of_one_seed_differ() -> None:
    """``play --seed 0`` seeded bot i with ``0 * 100 + i`` and deal n with ``0 * 1_000_003 + n``:
    bot 1 drew the very numbers that shuffled deal 1."""
    bots = {derive_seed(0, "bot", i) for i in range(1, 9)}
    match = Match(rules(), [("A", 50), ("B", 50)], seed=0)
    match.start_deal()
    assert match.deal is not None and isinstance(match.deal.source, SeededSource)
    assert match.deal.source.seed not in bots
    assert len(bots) == 8


def test_derive_seed_is_stable_and_fits_63_bits() -> None:
    assert derive_seed(1, "deal", 1) == derive_seed(1, "deal", 1)
    assert derive_seed(1, "deal", 1) != derive_seed(1, "deal", 2)
    assert derive_seed(1, "deal", 12) != derive_seed(11, "deal", 2)
    assert all(0 <= derive_seed(s, "x") < 2**63 for s in range(100))
