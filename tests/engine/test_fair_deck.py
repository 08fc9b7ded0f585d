"""Provably fair decks (docs/fairness.md): the test vectors, an independent implementation of
the stream, the shuffle's uniformity, the deck conserved through reshuffles (4.3) and late
fourth cards (4.2), and histories that verify, or name the deal and the card when tampered."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import random
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from italian_poker.engine.card_source import CardsDue, Why
from italian_poker.engine.cards import Card, format_cards, parse_cards
from italian_poker.engine.deck import Deck
from italian_poker.engine.errors import CardSourceError
from italian_poker.engine.fair_shuffle import (
    FairStream,
    canonical_order,
    commitment,
    fisher_yates,
    stream_message,
    text_value,
)
from italian_poker.engine.fair_source import (
    FairDeck,
    FairSource,
    SealedDeck,
    reproducible_seed,
    reproducible_value,
)
from italian_poker.engine.history import HandHistory, dumps, loads
from italian_poker.engine.history.fairness import (
    Verdict,
    dumps_reveals,
    loads_reveals,
    verify_fair,
)
from italian_poker.engine.history.model import HistoryError
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.operations import FourthCardDealt, Reshuffled
from italian_poker.engine.rules import preset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine_helpers import assert_cards_unique
from history_examples import NAMES, apply_random, choose

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

# --- the test vectors of docs/fairness.md ---------------------------------------------------

SEED = bytes(range(32))
VALUES = (b"Anna", text_value("Bruno \u00e8 qui"))
COMMITMENT = "9379c3c4ff90543295b1db2cb1d4d41b47f87e7c3e55612702db4533f185ade7"
BLOCK_0 = "25907bb4d480ce4bdff9b6af0f4c3e86c9b98143e7b0a5b46eddcd966afc9075"
FIRST_DRAWS = [4, 2, 7, 17, 7]
SHUFFLED = "Qh Jc Ad 9h Ah Jd 9s Td Qd Tc Kd Jh Qs Qc As Ks Kh Js 9c Ac Kc Th 9d Ts"


def test_the_commitment_is_sha256_of_the_label_and_the_seed() -> None:
    assert commitment(SEED).hex() == COMMITMENT
    expected = hashlib.sha256(b"italian-poker fair deck v1 commit" + SEED).hexdigest()
    assert expected == COMMITMENT


def test_a_typed_text_is_its_nfc_utf8_bytes() -> None:
    assert text_value("Bruno e\u0300 qui") == "Bruno \u00e8 qui".encode()
    assert VALUES[1] == b"Bruno \xc3\xa8 qui"


def test_the_stream_vectors() -> None:
    assert FairStream(SEED, 1, VALUES).block().hex() == BLOCK_0
    stream = FairStream(SEED, 1, VALUES)
    assert [stream.below(24 - i) for i in range(5)] == FIRST_DRAWS
    assert format_cards(fisher_yates(Deck(2).cards, FairStream(SEED, 1, VALUES))) == SHUFFLED


def test_the_docs_give_the_same_vectors() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for vector in (
        COMMITMENT,
        BLOCK_0,
        SHUFFLED,
        str(FIRST_DRAWS),
        stream_message(1, VALUES).hex(),
    ):
        assert vector in text


def reference_shuffle(seed: bytes, deal: int, values: Sequence[bytes], size: int) -> list[int]:
    """The shuffle of ``range(size)`` as docs/fairness.md describes it, written apart from
    the engine's code."""
    message = b"italian-poker fair deck v1 stream" + deal.to_bytes(8, "big")
    message += len(values).to_bytes(4, "big")
    for value in values:
        message += len(value).to_bytes(4, "big") + value
    stream = b"".join(
        hmac.new(seed, message + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(64)
    )
    words = (int.from_bytes(stream[k : k + 4], "big") for k in range(0, len(stream), 4))
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        n = i + 1
        x = next(words)
        while x >= 2**32 - 2**32 % n:
            x = next(words)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@settings(max_examples=40, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    deal=st.integers(0, 2**64 - 1),
    values=st.lists(st.binary(max_size=40), max_size=9),
    size=st.integers(1, 52),
)
def test_the_engine_shuffles_as_the_reference(
    seed: bytes, deal: int, values: list[bytes], size: int
) -> None:
    assert fisher_yates(range(size), FairStream(seed, deal, values)) == reference_shuffle(
        seed, deal, values, size
    )


def test_rejection_sampling_rejects_the_biased_top_of_the_range() -> None:
    """below(n) reads another word when the word is at or above 2**32 - 2**32 mod n."""

    class Words(FairStream):
        def __init__(self, words: list[int]) -> None:
            self.words = words

        def word(self) -> int:
            return self.words.pop(0)

    top = 2**32 - 2**32 % 3
    assert Words([top, top + 1, 7]).below(3) == 1
    assert Words([top - 1]).below(3) == (top - 1) % 3


def test_canonical_order_is_rank_then_spades_clubs_diamonds_hearts() -> None:
    assert format_cards(canonical_order(parse_cards("Ah 9c 9s Ad"))) == "9s 9c Ad Ah"


# --- uniformity -----------------------------------------------------------------------------


def chi2_threshold(dof: int) -> float:
    """The chi-squared value exceeded with probability one in a million at ``dof`` degrees
    of freedom: scipy's, else the Wilson-Hilferty approximation (z = 4.7534)."""
    try:
        from scipy.stats import chi2
    except ImportError:
        z = 4.7534
        return float(dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3)
    return float(chi2.ppf(1 - 1e-6, dof))


def test_the_threshold_without_scipy_is_close_to_scipys() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    z = 4.7534
    approximate = 49 * (1 - 2 / (9 * 49) + z * (2 / (9 * 49)) ** 0.5) ** 3
    assert approximate == pytest.approx(scipy_stats.chi2.ppf(1 - 1e-6, 49), rel=0.02)


def position_statistic(shuffle: Callable[[Sequence[int]], list[int]], shuffles: int) -> float:
    """Pearson's chi-squared of the 8 x 8 table of (card, position) counts over ``shuffles``
    shuffles of 8 cards (49 degrees of freedom)."""
    size = 8
    counts = [[0] * size for _ in range(size)]
    items = range(size)
    for _ in range(shuffles):
        for position, card in enumerate(shuffle(items)):
            counts[card][position] += 1
    assert all(sum(row) == shuffles for row in counts)
    expected = shuffles / size
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


def test_no_position_is_biased_over_200000_shuffles() -> None:
    """200,000 shuffles from one stream, under a one-in-a-million threshold."""
    stream = FairStream(SEED, 7, VALUES)
    statistic = position_statistic(lambda items: fisher_yates(items, stream), 200_000)
    assert statistic < chi2_threshold(49), statistic


def test_the_count_finds_the_bias_of_a_naive_shuffle() -> None:
    """Swapping each position with any position (not Fisher-Yates) is biased: the same
    count, over fewer shuffles, is far above the threshold."""
    stream = FairStream(SEED, 7, VALUES)

    def naive(items: Sequence[int]) -> list[int]:
        shuffled = list(items)
        for i in range(len(shuffled)):
            j = stream.below(len(shuffled))
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        return shuffled

    assert position_statistic(naive, 20_000) > 5 * chi2_threshold(49)


# --- the fair source in play ----------------------------------------------------------------


@cache
def fair_match(
    players: int, rng_seed: int, deals: int = 6
) -> tuple[tuple[CompletedDeal, FairSource], ...]:
    """Deals of random play (draws of four biased, so reshuffles come) from fair decks."""
    rng = random.Random(rng_seed)
    match = Match(
        preset("standard", players=players), list(zip(NAMES, [200] * players, strict=False))
    )
    dealt: list[tuple[CompletedDeal, FairSource]] = []
    while len(match.completed) < deals and match.phase is not MatchPhase.OVER:
        number = len(match.completed) + 1
        sealed = SealedDeck.new(number, reproducible_seed(rng_seed, number))
        source = sealed.source([reproducible_value(rng_seed, number, s) for s in range(players)])
        match.start_deal(source)
        while match.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
            deal = match.deal
            hand = deal.hands[deal.actor] if deal is not None and deal.actor is not None else []
            apply_random(match.apply, choose(match.legal_actions(), hand, rng))
        if len(match.completed) == number:
            dealt.append((match.completed[-1], source))
    return tuple(dealt)


def fair_histories(*, reveal: bool = True) -> list[HandHistory]:
    return [
        dataclasses.replace(HandHistory.from_completed(done), fair=source.record(reveal=reveal))
        for players in (2, 5, 9)
        for done, source in fair_match(players, players)
    ]


def test_fair_histories_verify_reshuffles_and_late_fourth_cards_included() -> None:
    histories = fair_histories()
    operations = [op for h in fair_match(9, 9) for op in h[0].operations]
    operations += [op for h in fair_match(5, 5) for op in h[0].operations]
    assert any(isinstance(op, Reshuffled) for op in operations)
    assert any(isinstance(op, FourthCardDealt) for op in operations)
    for history in histories:
        read = loads(dumps(history))
        assert read.fair == history.fair
        assert verify_fair(read).verdict is Verdict.VERIFIED


def test_a_deal_dealt_from_the_same_seed_and_values_is_the_same() -> None:
    done, source = fair_match(5, 5)[0]
    again = FairSource(source.seed, source.deal, source.values)
    history = dataclasses.replace(HandHistory.from_completed(done), fair=again.record(reveal=True))
    assert verify_fair(history).verdict is Verdict.VERIFIED


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    values=st.lists(st.binary(max_size=20), min_size=2, max_size=9),
    players=st.integers(2, 9),
    play=st.integers(0, 10**6),
)
def test_the_fair_source_conserves_the_deck(
    seed: bytes, values: list[bytes], players: int, play: int
) -> None:
    """Throughout the deal no card is in two places (the live hands, the stock, the muck and
    the cards kept apart, within the stripped deck) and the source's stack is the stock."""
    rng = random.Random(play)
    match = Match(
        preset("standard", players=players), list(zip(NAMES, [200] * players, strict=False))
    )
    source = FairSource(seed, 1, values)
    match.start_deal(source)
    while match.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
        deal = match.deal
        assert deal is not None
        if any(deal.hands):  # after the blinds (Art. 2), the deal (3.1) is made
            assert sorted(source.stack, key=by_index) == sorted(deal.stock, key=by_index)
            assert_cards_unique(deal)
        hand = deal.hands[deal.actor] if deal.actor is not None else []
        apply_random(match.apply, choose(match.legal_actions(), hand, rng))


def by_index(card: Card) -> int:
    return card.index


def test_the_fair_source_refuses_when_the_stack_cannot_serve() -> None:
    source = FairSource(SEED, 1, VALUES)
    source.take(CardsDue(Why.DEAL, (0, 1), 10, Deck(2).cards))
    with pytest.raises(CardSourceError, match="holds 0 of the 1 cards due"):
        source.take(CardsDue(Why.DRAW, (0,), 1, (Card.from_index(0),)))


def test_a_fair_source_deals_one_deal() -> None:
    source = FairSource(SEED, 1, VALUES)
    due = CardsDue(Why.DEAL, (0, 1), 10, Deck(2).cards)
    source.take(due)
    with pytest.raises(CardSourceError, match="deals one deal"):
        source.take(due)


def test_a_fair_source_survives_a_deep_copy() -> None:
    import copy

    source = FairSource(SEED, 1, VALUES)
    due = CardsDue(Why.DEAL, (0, 1), 10, Deck(2).cards)
    twin = copy.deepcopy(source)
    assert source.take(due) == twin.take(due)


# --- the record, the reveal -----------------------------------------------------------------


def test_an_unrevealed_history_then_its_reveal_record() -> None:
    history = fair_histories(reveal=False)[0]
    read = loads(dumps(history))
    assert read.fair is not None and read.fair.seed is None
    assert verify_fair(read).verdict is Verdict.UNREVEALED
    source = fair_match(2, 2)[0][1]
    seeds = loads_reveals(dumps_reveals([source.record(reveal=True)]))
    assert seeds == {source.commitment: source.seed}
    assert verify_fair(read, seeds).verdict is Verdict.VERIFIED


def test_a_reveal_whose_seed_does_not_match_is_refused() -> None:
    deck = FairDeck(1, commitment(SEED), VALUES, bytes(32))
    with pytest.raises(HistoryError, match="does not match its commitment"):
        loads_reveals(dumps_reveals([deck]))


def test_a_history_without_a_fair_deck_has_no_verdict_but_that() -> None:
    done, _ = fair_match(2, 2)[0]
    assert verify_fair(HandHistory.from_completed(done)).verdict is Verdict.UNFAIR


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scheme", '"other"', "scheme"),
        ("commitment", '"abc"', "hexadecimal"),
        ("seed", '"00"', "32 bytes"),
        ("values", '["XY"]', "hexadecimal"),
        ("deal", '"one"', "whole number"),
    ],
)
def test_a_malformed_fair_table_is_refused(field: str, value: str, message: str) -> None:
    text = dumps(fair_histories()[0])
    lines = [
        f"{field} = {value}" if line.startswith(f"{field} = ") else line
        for line in text.splitlines()
    ]
    tail = "\n".join(lines[lines.index("[_fair]") :])
    with pytest.raises(HistoryError, match=message):
        loads("\n".join(text.splitlines()[: text.splitlines().index("[_fair]")]) + "\n" + tail)


# --- tampering ------------------------------------------------------------------------------


def tampered(history: HandHistory, what: str, k: int) -> HandHistory:
    """``history`` with one thing changed: a card of the dealer's lines (the ``k``-th, in
    the order of the lines), a byte of the seed, of a value or of the commitment."""
    fair = history.fair
    assert fair is not None and fair.seed is not None
    if what == "card":
        spots = [(i, j) for i, line in enumerate(history.dealt) for j in range(len(line.cards))]
        i, j = spots[k % len(spots)]
        line = history.dealt[i]
        deck = Deck(len(history.names)).cards
        other = deck[(deck.index(line.cards[j]) + 1 + k % (len(deck) - 1)) % len(deck)]
        cards = (*line.cards[:j], other, *line.cards[j + 1 :])
        dealt = list(history.dealt)
        dealt[i] = dataclasses.replace(line, cards=cards)
        return dataclasses.replace(history, dealt=tuple(dealt))
    if what == "seed":
        return dataclasses.replace(history, fair=dataclasses.replace(fair, seed=flip(fair.seed, k)))
    if what == "commitment":
        changed = flip(fair.commitment, k)
        return dataclasses.replace(history, fair=dataclasses.replace(fair, commitment=changed))
    values = list(fair.values)
    seat = k % len(values)
    values[seat] = flip(values[seat], k) if values[seat] else b"x"
    return dataclasses.replace(history, fair=dataclasses.replace(fair, values=tuple(values)))


def flip(data: bytes, k: int) -> bytes:
    i = k % len(data)
    return data[:i] + bytes([data[i] ^ (1 + k % 255)]) + data[i + 1 :]


def taken_position(history: HandHistory, line_index: int, j: int) -> int:
    """The 1-based number, in the order the deal takes them, of card ``j`` of dealer's line
    ``line_index``."""
    n = len(history.names)
    if line_index < n:
        return j * n + line_index + 1
    return 5 * n + sum(len(line.cards) for line in history.dealt[n:line_index]) + j + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, 10**6),
    what=st.sampled_from(["card", "seed", "value", "commitment"]),
    k=st.integers(0, 10**6),
)
def test_any_change_makes_verify_fail_naming_the_deal_and_the_card(
    index: int, what: str, k: int
) -> None:
    from typer.testing import CliRunner

    from italian_poker.cli.app import app

    histories = fair_histories()
    history = histories[index % len(histories)]
    changed = tampered(history, what, k)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.phh"
        path.write_text(dumps(changed), encoding="utf-8")
        result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    line = result.output.splitlines()[0]
    assert line.startswith(f"deal {history.number}: failed: "), line
    if what in ("seed", "commitment"):
        assert "the seed does not match the commitment" in line
    elif what == "value":
        assert "card " in line and ", the deck gives " in line
    else:
        spots = [(i, j) for i, dealt in enumerate(history.dealt) for j in range(len(dealt.cards))]
        i, j = spots[k % len(spots)]
        twice = set(changed.dealt[i].cards) != set(history.dealt[i].cards) and len(
            set(changed.dealt[i].cards)
        ) < len(changed.dealt[i].cards)
        if twice:  # the line itself cannot be read: it names the card
            card = changed.dealt[i].cards[j]
            assert f"card {card} appears more than once" in line, line
        else:
            assert f"card {taken_position(history, i, j)} (" in line, line


def test_the_docs_example_deal() -> None:
    """The two-player deal of the test vectors: the dealer's left first, one card at a time
    (3.1); the first card drawn is the next of the deck (4.1)."""
    from italian_poker.engine.actions import Action, ActionKind
    from italian_poker.engine.deal import Deal, DealStart

    rules = preset("standard", players=2)
    deal = Deal(
        DealStart(rules, ("Anna", "Bruno"), (200, 200), dealer=1), FairSource(SEED, 1, VALUES)
    )
    while deal.cards_due() is None and not any(deal.hands):
        deal.apply(Action(ActionKind.DECLINE))
    assert format_cards(deal.hands[0]) == "Qh Ad Ah 9s Qd"
    assert format_cards(deal.hands[1]) == "Jc 9h Jd Td Tc"
    assert "the dealer `Jc 9h Jd Td Tc`, and the first card drawn is `Kd`" in " ".join(
        DOCS.read_text(encoding="utf-8").split()
    )
    assert (
        format_cards(
            FairSource(SEED, 1, VALUES).take(CardsDue(Why.DEAL, (0, 1), 24, Deck(2).cards))
        )
        == SHUFFLED
    )


def test_one_players_view_keeps_the_commitment_and_the_values_not_the_seed() -> None:
    import tomllib

    from italian_poker.engine.history import dumps_redacted

    history = fair_histories()[0]
    assert history.fair is not None and history.fair.seed is not None
    fair = tomllib.loads(dumps_redacted(history, 0))["_fair"]
    assert "seed" not in fair
    assert fair["commitment"] == history.fair.commitment.hex()
    assert fair["values"] == [v.hex() for v in history.fair.values]
    assert history.fair.seed.hex() not in dumps_redacted(history, 1)
