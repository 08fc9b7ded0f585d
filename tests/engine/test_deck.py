"""The deck stripped by the number of players (RULES.md section 1; documents 000, 001, 002, 003)."""

from __future__ import annotations

import random

import pytest

from italian_poker import (
    ALL_CARDS,
    CardNotInDeckError,
    Deck,
    ItalianPokerError,
    PlayerCountError,
    Rank,
    Suit,
    lowest_rank,
    parse_card,
)
from italian_poker.engine.deck import stripped_deck

ALL_PLAYER_COUNTS = range(2, 10)


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_lowest_rank_is_eleven_minus_players(players: int) -> None:
    """000: 'The lowest rank used is found by subtracting the number of players from 11'."""
    assert lowest_rank(players) == 11 - players
    assert Deck(players).lowest_rank == 11 - players
    assert isinstance(lowest_rank(players), Rank)


@pytest.mark.parametrize(
    ("players", "size", "lowest"),
    [
        (2, 24, Rank.NINE),
        (3, 28, Rank.EIGHT),
        (4, 32, Rank.SEVEN),
        (5, 36, Rank.SIX),
        (6, 40, Rank.FIVE),
        (7, 44, Rank.FOUR),
        (8, 48, Rank.THREE),
        (9, 52, Rank.TWO),
    ],
)
def test_deck_sizes(players: int, size: int, lowest: Rank) -> None:
    """001/002/003: 4 players 32 cards 7..A, 5 players 36 cards 6..A, 6 players 40 cards 5..A."""
    deck = Deck(players)
    assert len(deck) == size
    assert len(deck.cards) == size
    assert deck.lowest_rank is lowest
    assert deck.ranks == tuple(Rank(r) for r in range(lowest, 15))
    assert len(deck.ranks) == players + 4


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_deck_holds_every_suit_of_every_rank_from_the_lowest_up(players: int) -> None:
    deck = Deck(players)
    expected = {c for c in ALL_CARDS if c.rank >= deck.lowest_rank}
    assert set(deck.cards) == expected
    assert len(set(deck.cards)) == len(deck.cards)
    for rank in deck.ranks:
        assert {c.suit for c in deck.cards if c.rank is rank} == set(Suit)


def test_nine_players_use_the_full_52_card_pack() -> None:
    assert Deck(9).cards == ALL_CARDS


def test_five_players_example_from_001() -> None:
    """001: 'in a 5-player game, the lowest card included is the 6 ... a 36-card deck'."""
    deck = Deck(5)
    assert deck.lowest_rank is Rank.SIX
    assert len(deck) == 36
    assert parse_card("6s") in deck
    assert parse_card("5h") not in deck


def test_membership_and_check() -> None:
    deck = Deck(4)
    assert parse_card("7c") in deck
    assert parse_card("Ah") in deck
    assert parse_card("6h") not in deck
    assert "7c" not in deck
    assert deck.check(parse_card("7c")) == parse_card("7c")
    with pytest.raises(CardNotInDeckError, match="not in the 32-card deck for 4 players"):
        deck.check(parse_card("2h"))


@pytest.mark.parametrize("players", [-1, 0, 1, 10, 52])
def test_player_count_outside_two_to_nine(players: int) -> None:
    for make in (Deck, lowest_rank):
        with pytest.raises(PlayerCountError, match="2 to 9 players") as info:
            make(players)
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value, ItalianPokerError)


@pytest.mark.parametrize("players", [True, 4.0, "4", None])
def test_player_count_must_be_a_whole_number(players: object) -> None:
    with pytest.raises(PlayerCountError):
        Deck(players)  # type: ignore[arg-type]
    with pytest.raises(PlayerCountError):
        lowest_rank(players)  # type: ignore[arg-type]


def test_decks_are_values() -> None:
    assert Deck(4) == Deck(4)
    assert Deck(4) != Deck(5)
    assert hash(Deck(4)) == hash(Deck(4))


# --- shuffling ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_seeded_shuffle_is_a_reproducible_permutation(players: int) -> None:
    deck = Deck(players)
    first = deck.shuffled(seed=1234)
    assert first == deck.shuffled(seed=1234)
    assert sorted(first, key=lambda c: c.index) == list(deck.cards)
    assert first != deck.cards


def test_different_seeds_give_different_orders() -> None:
    deck = Deck(9)
    assert deck.shuffled(seed=1) != deck.shuffled(seed=2)


def test_seeded_shuffle_ignores_the_global_random_state() -> None:
    deck = Deck(6)
    random.seed(1)
    first = deck.shuffled(seed=99)
    random.seed(2)
    random.random()
    assert deck.shuffled(seed=99) == first


def test_seeded_shuffle_does_not_disturb_the_global_random_state() -> None:
    random.seed(7)
    expected = random.random()
    random.seed(7)
    Deck(6).shuffled(seed=99)
    assert random.random() == expected


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_unseeded_shuffle_is_a_permutation(players: int) -> None:
    deck = Deck(players)
    shuffled = deck.shuffled()
    assert isinstance(shuffled, tuple)
    assert len(shuffled) == len(deck)
    assert set(shuffled) == set(deck.cards)


def test_unseeded_shuffles_differ() -> None:
    """Two secure shuffles of 52 cards agree with probability 1/52!."""
    deck = Deck(9)
    assert deck.shuffled() != deck.shuffled()


def test_unseeded_shuffle_draws_from_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """The unseeded shuffle takes its randomness from :mod:`secrets`; a seeded one does not."""
    import secrets

    import italian_poker.engine.deck as deck_module

    used: list[str] = []

    class SecretsSpy:
        def __getattr__(self, name: str) -> object:
            used.append(name)
            return getattr(secrets, name)

    monkeypatch.setattr(deck_module, "secrets", SecretsSpy())
    Deck(4).shuffled(seed=3)
    assert used == []
    assert set(Deck(4).shuffled()) == set(Deck(4).cards)
    assert used


def test_seeded_shuffles_deal_the_same_cards_as_before() -> None:
    """A seed deals the cards it always dealt, whatever the shuffle's code becomes (the
    engine's cards for seed 2026 at commit 70b6ea6): replays and simulations rely on it."""
    order = stripped_deck(4).shuffled(seed=2026)
    assert [c.index for c in order[:8]] == [34, 38, 35, 50, 37, 36, 41, 20]
