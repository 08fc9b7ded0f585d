"""``italian-poker advise HAND`` as a user meets it: the 31 legal draws best first in English
and Italian, the opener's split (4.4), the JSON list, and one line ``error: ...`` (exit code 2)
for each bad input, in the language asked for."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from italian_poker.analysis.advisor import advise as advise_hand
from italian_poker.cli.app import app
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deck import Deck
from italian_poker.engine.hand_rank import Category

HAND = "Jh Jd 7c 8s 9h"


def advise(*args: str) -> Result:
    return CliRunner().invoke(app, ["advise", *args])


def test_the_text_lists_every_draw_best_first_with_its_odds() -> None:
    result = advise(HAND, "--players", "4", "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Hand: Jh Jd 7c 8s 9h (Pair of Jacks)"
    assert lines[1].startswith("Deck of 32 cards for 4 players; 27 cards unseen.")
    assert "against 3 opponents" in lines[1]
    choices = lines[2:-1]
    assert len(choices) == 2 * 31
    assert choices[0].startswith("1. keep Jh Jd, change 7c 8s 9h: win ")
    assert choices[1] == "   Four of a kind 0.9%, Full house 2.9%, Three of a kind 18.3%, " + (
        "Two pair 24.0%, Pair 54.0%"
    )
    assert choices[-2].startswith("31. ")
    assert sum("stand pat (keep all five)" in line for line in choices) == 1
    assert "breaks the opening" not in result.stdout
    assert lines[-1] == (
        "If you opened with this hand, add --opener to see which draws break the opening (4.4)."
    )
    nothing = advise("Ah Kd 7c 8s 9h", "--lang", "en").stdout.splitlines()
    assert nothing[-1].startswith("   ")  # cannot open: no word of the opener


def test_italian_text_uses_the_tables_words_and_decimal_commas() -> None:
    result = advise(HAND, "--lang", "it", "--opponents", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Mano: Jh Jd 7c 8s 9h (Coppia di Jack)"
    assert "contro 1 avversario," in lines[1]
    assert lines[2].startswith("1. tieni Jh Jd, cambia 7c 8s 9h: vinci ")
    assert lines[3] == "   Poker 0,9%, Full 2,9%, Tris 18,3%, Doppia coppia 24,0%, Coppia 54,0%"
    assert "servito (tieni tutte e cinque)" in result.stdout


def test_the_opener_sees_which_draws_break_the_opening() -> None:
    result = advise(HAND, "--opener", "--lang", "en")
    assert result.exit_code == 0, result.output
    marked = [line for line in result.stdout.splitlines() if "breaks the opening" in line]
    assert len(marked) == 23  # every keep without both jacks
    assert all("announce the split" in line for line in marked)
    assert result.stdout.splitlines()[-1].startswith("You opened: a draw marked as breaking")


def test_json_is_a_list_of_keeps_best_first() -> None:
    result = advise(HAND, "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report) == 31
    names = {c.name.lower() for c in Category}
    for item in report:
        assert set(item) == {"keep", "discard", "categories", "ev"}
        assert sorted(item["keep"] + item["discard"], key=HAND.split().index) == HAND.split()
        assert set(item["categories"]) == names
        assert sum(item["categories"].values()) == pytest.approx(1.0)
        assert isinstance(item["ev"], float)
    evs = [item["ev"] for item in report]
    assert evs == sorted(evs, reverse=True)
    assert report[0]["keep"] == ["Jh", "Jd"]
    best = advise_hand(HAND, players=4)[0]
    assert report[0]["ev"] == best.ev
    assert report[0]["categories"]["three_of_a_kind"] == best.probability(Category.THREE_OF_A_KIND)


@st.composite
def table_and_hand(draw: st.DrawFn) -> tuple[int, list[Card]]:
    players = draw(st.integers(2, 9))
    cards = draw(
        st.lists(st.sampled_from(Deck(players).cards), min_size=5, max_size=5, unique=True)
    )
    return players, cards


@settings(max_examples=20, deadline=None)
@given(table_and_hand(), st.data())
def test_json_holds_for_any_hand_of_any_deck(
    table: tuple[int, list[Card]], data: st.DataObject
) -> None:
    players, cards = table
    opponents = data.draw(st.integers(1, players - 1))
    text = " ".join(map(str, cards))
    result = advise(text, "--players", str(players), "--opponents", str(opponents), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report) == 31
    assert len({frozenset(item["keep"]) for item in report}) == 31
    for item in report:
        assert sorted(item["keep"] + item["discard"]) == sorted(text.split())
        assert sum(item["categories"].values()) == pytest.approx(1.0)
        assert 0.0 <= item["ev"] <= 1.0
    evs = [item["ev"] for item in report]
    assert evs == sorted(evs, reverse=True)


def test_json_says_split_for_an_opener() -> None:
    report = json.loads(advise(HAND, "--json", "--opener").stdout)
    assert all(set(item) == {"keep", "discard", "categories", "ev", "split"} for item in report)
    assert sum(item["split"] for item in report) == 23


def test_a_straight_flush_stands_pat_for_certain() -> None:
    report = json.loads(advise("Ah Kh Qh Jh Th", "--json").stdout)
    assert report[0]["discard"] == []
    assert report[0]["categories"]["straight_flush"] == 1.0


def test_seen_cards_leave_the_stock() -> None:
    """003: discards lie face up; the two other jacks seen, no four jacks can come."""
    result = advise(HAND, "--seen", "Jc,Js", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "; 25 cards unseen." in result.stdout.splitlines()[1]
    report = json.loads(advise(HAND, "--seen", "Jc Js", "--json").stdout)
    pair = next(item for item in report if item["keep"] == ["Jh", "Jd"])
    assert pair["categories"]["four_of_a_kind"] == 0.0
    expected = advise_hand(HAND, players=4, known=parse_cards("Jc Js"))
    assert report[0]["ev"] == expected[0].ev


def test_the_hand_may_be_five_words() -> None:
    assert advise(*HAND.split(), "--json").stdout == advise(HAND, "--json").stdout


@pytest.mark.parametrize(
    ("args", "english", "italian"),
    [
        (
            ["Jh Jd 7c 8s"],
            "a hand has five cards, you gave 4 cards",
            "una mano ha cinque carte, ne hai date 4",
        ),
        (
            ["Jh Jd 7c 8s 9h Th"],
            "a hand has five cards, you gave 6 cards",
            "una mano ha cinque carte, ne hai date 6",
        ),
        (
            ["Jh Jh 7c 8s 9h"],
            "Jh is given twice: a hand has five different cards",
            "Jh compare due volte: una mano ha cinque carte diverse",
        ),
        (
            ["Jh Jd 2c 8s 9h"],
            "2c is not in the deck for 4 players (32 cards, lowest rank 7)",
            "2c non è nel mazzo per 4 giocatori (32 carte, valore più basso 7)",
        ),
        (
            ["Jh Jd 7c 8s 9h", "--players", "2"],
            "7c is not in the deck for 2 players (24 cards, lowest rank 9)",
            "7c non è nel mazzo per 2 giocatori (24 carte, valore più basso 9)",
        ),
        (
            ["Jh Jd Xc 8s 9h"],
            "cannot read card 'Xc': write a rank (2-9, T or 10, J, Q, K, A) followed by a suit "
            "(h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'",
            "carta 'Xc' illeggibile: scrivi un valore (2-9, T o 10, J, Q, K, A) seguito da un "
            "seme (h, d, c, s o ♥ ♦ ♣ ♠), per esempio 'Ah 10d 7c'",
        ),
        (
            [HAND, "--seen", "Qs Jd"],
            "--seen: Jd is in your hand; give only the other cards you have seen",
            "--seen: Jd è nella tua mano; indica solo le altre carte viste",
        ),
        (
            [HAND, "--seen", "Qs Qs"],
            "--seen: Qs is given twice",
            "--seen: Qs compare due volte",
        ),
        (
            [HAND, "--seen", "Qs 6d"],
            "6d is not in the deck for 4 players (32 cards, lowest rank 7)",
            "6d non è nel mazzo per 4 giocatori (32 carte, valore più basso 7)",
        ),
        (
            [HAND, "--seen", "Qs Zz"],
            "cannot read card 'Zz': write a rank (2-9, T or 10, J, Q, K, A) followed by a suit "
            "(h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'",
            "carta 'Zz' illeggibile: scrivi un valore (2-9, T o 10, J, Q, K, A) seguito da un "
            "seme (h, d, c, s o ♥ ♦ ♣ ♠), per esempio 'Ah 10d 7c'",
        ),
        (
            [HAND, "--players", "10"],
            "--players must be 2 to 9, got 10",
            "--players deve essere da 2 a 9, non 10",
        ),
        (
            [HAND, "--opponents", "0"],
            "--opponents must be 1 to 3 at a table of 4 players, got 0",
            "--opponents deve essere da 1 a 3 a un tavolo di 4 giocatori, non 0",
        ),
        (
            [HAND, "--players", "2", "--opponents", "2"],
            "--opponents must be 1 to 1 at a table of 2 players, got 2",
            "--opponents deve essere da 1 a 1 a un tavolo di 2 giocatori, non 2",
        ),
        (
            [HAND, "--opener", "--min-pair", "Z"],
            "--min-pair must be J, Q, K or A, got 'Z'",
            "--min-pair deve essere J, Q, K o A, non 'Z'",
        ),
        (
            [HAND, "--min-pair", "Q"],
            "--min-pair is the pair the opener opened with: give --opener too",
            "--min-pair è la coppia con cui si è aperto: aggiungi anche --opener",
        ),
        (
            [HAND, "--opener", "--min-pair", "Q"],
            "--opener: Jh Jd 7c 8s 9h does not open; it needs Queens or better (or four to a "
            "straight flush)",
            "--opener: Jh Jd 7c 8s 9h non apre; serve coppia di Donne o meglio (o 4/5 di "
            "scala reale)",
        ),
    ],
)
def test_bad_input_is_one_line_in_the_language_asked_for(
    args: list[str], english: str, italian: str
) -> None:
    for lang, message, prefix in (("en", english, "error"), ("it", italian, "errore")):
        result = advise(*args, "--lang", lang)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == f"{prefix}: {message}\n"


def test_a_bad_language_and_a_missing_hand_are_usage_errors() -> None:
    result = advise(HAND, "--lang", "fr")
    assert result.exit_code == 2
    assert result.stderr == "error: --lang must be it or en, got 'fr'\n"
    result = advise()
    assert result.exit_code == 2
    assert "missing argument 'hand'" in result.stderr


def test_the_help_says_what_win_means() -> None:
    result = advise("--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "expected share of the pot at the showdown" in text
    assert "drawing the plain way" in text
