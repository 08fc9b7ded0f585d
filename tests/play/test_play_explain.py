"""Why a pot was won (category, ranks, suit 7.4, la minima batte la massima 7.2, the
three-way split 7.3, uncalled 3.7/5.4(c)), the game's words in both languages, and the text
the table widgets draw."""

from __future__ import annotations

import re
import string

import pytest

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Suit, parse_cards
from italian_poker.engine.deal import Phase, PotAward
from italian_poker.engine.hand_rank import HandRank, Tiebreak, evaluate
from italian_poker.engine.observer import PublicAction
from italian_poker.play.i18n import CATALOGUE, tr
from italian_poker.play.widgets import (
    FOUR_COLOURS,
    TWO_COLOURS,
    action_button_label,
    card_face,
    mini_cards,
    needs_amount,
    public_action_text,
)
from italian_poker.table.events import Event
from italian_poker.table.narration import WinReason, describe_event, explain_award, reason_text
from italian_poker.table.vocabulary import (
    ACTION_KEYS,
    ACTION_LABELS,
    PHASE_LABELS,
    Language,
    detect_language,
)

NAMES = ("Player", "Anna", "Bruno")


def rank(text: str, tiebreak: Tiebreak = Tiebreak.STANDARD) -> HandRank:
    return evaluate(parse_cards(text), players=4, tiebreak=tiebreak)


def award(winners: tuple[int, ...], eligible: tuple[int, ...] = (0, 1, 2)) -> PotAward:
    shares = tuple(30 // len(winners) for _ in winners)
    return PotAward(30, eligible, winners, shares, "engine reason")


def test_flush_beats_full_house_by_category() -> None:
    shown = {0: rank("Ah Kh Qh Jh 9h"), 1: rank("As Ad Ac 7s 7d"), 2: rank("Kc Kd 7c 8s 9d")}
    explanation = explain_award(award((0,)), shown)
    assert explanation.reason is WinReason.CATEGORY and explanation.loser_seat == 1
    en = reason_text(explanation, NAMES, Language.EN)
    assert en == (
        "Flush, Ace high, hearts beats Anna's Full house, Aces full of Sevens: a higher "
        "category (6, ranking); in Italian poker a flush beats a full house"
    )
    it = reason_text(explanation, NAMES, Language.IT)
    assert "il colore batte il full" in it and "Full di Assi e 7 di Anna" in it


def test_higher_pair_wins_on_ranks() -> None:
    shown = {0: rank("Qh Qd Ac 8s 9d"), 1: rank("Kc Kd 7c 8h 9h")}
    explanation = explain_award(award((1,), (0, 1)), shown)
    assert explanation.reason is WinReason.RANKS
    assert reason_text(explanation, NAMES, Language.EN) == (
        "Pair of Kings beats Player's Pair of Queens: higher cards"
    )


@pytest.mark.parametrize(
    ("tiebreak", "label"), [(Tiebreak.STANDARD, "7.4"), (Tiebreak.FANTINI, "Fantini/Santelia")]
)
def test_equal_flushes_are_decided_by_suit(tiebreak: Tiebreak, label: str) -> None:
    shown = {0: rank("As Ks Qs Js 9s", tiebreak), 1: rank("Ah Kh Qh Jh 9h", tiebreak)}
    explanation = explain_award(award((1,), (0, 1)), shown)
    assert explanation.reason is WinReason.SUIT
    text = reason_text(explanation, NAMES, Language.EN, tiebreak=tiebreak)
    assert f"the suit decides ({label})" in text and "hearts > diamonds > clubs > spades" in text
    assert "Come Quando Fuori Piove" in reason_text(explanation, NAMES, Language.IT)


def test_la_minima_batte_la_massima() -> None:
    # 7.2: with four players (7 to ace) the minimum is A-7-8-9-10 of one suit.
    shown = {0: rank("Th Jh Qh Kh Ah"), 1: rank("As 7s 8s 9s Ts")}
    explanation = explain_award(award((1,), (0, 1)), shown)
    assert explanation.reason is WinReason.MIN_BEATS_MAX
    assert reason_text(explanation, NAMES, Language.IT) == "la minima batte la massima (7.2)"
    assert "minimum straight flush beats the maximum" in reason_text(
        explanation, NAMES, Language.EN
    )


def test_maximum_beats_medium_by_class() -> None:
    shown = {0: rank("8s 9s Ts Js Qs"), 1: rank("Th Jh Qh Kh Ah")}
    explanation = explain_award(award((1,), (0, 1)), shown)
    assert explanation.reason is WinReason.STRAIGHT_FLUSH_CLASS
    assert reason_text(explanation, NAMES, Language.IT) == (
        "la scala reale massima batte la media (7.2)"
    )


def test_three_straight_flushes_split_the_pot() -> None:
    shown = {0: rank("As 7s 8s 9s Ts"), 1: rank("8d 9d Td Jd Qd"), 2: rank("Th Jh Qh Kh Ah")}
    explanation = explain_award(award((0, 1, 2)), shown)
    assert explanation.reason is WinReason.THREE_WAY
    assert "(7.3)" in reason_text(explanation, NAMES, Language.EN)


@pytest.mark.parametrize(("second_round", "article"), [(False, "(3.7)"), (True, "(5.4(c))")])
def test_uncalled_pot(second_round: bool, article: str) -> None:
    explanation = explain_award(award((2,), (2,)), {})
    assert explanation.reason is WinReason.UNCALLED
    text = reason_text(explanation, NAMES, Language.EN, second_round=second_round)
    assert text.startswith("everyone else folded") and text.endswith(article)


def test_side_pot_with_one_eligible_hand() -> None:
    shown = {0: rank("Qh Qd Ac 8s 9d"), 1: rank("Kc Kd 7c 8h 9h")}
    explanation = explain_award(award((1,), (1,)), shown)
    assert explanation.reason is WinReason.ONLY_ELIGIBLE


def test_every_message_exists_in_both_languages_with_the_same_placeholders() -> None:
    fields = string.Formatter()
    for key, (english, italian) in CATALOGUE.items():
        assert english and italian, key
        names_en = {name for _, name, _, _ in fields.parse(english) if name}
        names_it = {name for _, name, _, _ in fields.parse(italian) if name}
        assert names_en == names_it, key
    assert set(ACTION_LABELS) == set(ActionKind) == set(ACTION_KEYS)
    assert set(PHASE_LABELS) == set(Phase)


def test_action_keys_are_distinct_single_keys() -> None:
    keys = list(ACTION_KEYS.values())
    assert len(set(keys)) == len(keys)
    for kind, key in ACTION_KEYS.items():
        assert key == "enter" or re.fullmatch(r"[a-z]", key), kind
        assert key not in {"q"}, "q quits"
    assert (ACTION_KEYS[ActionKind.OPEN], ACTION_KEYS[ActionKind.CALL]) == ("a", "v")


def test_game_terms_in_italian() -> None:
    it = {kind: ACTION_LABELS[kind][1] for kind in ACTION_LABELS}
    assert it[ActionKind.OPEN] == "Apro" and it[ActionKind.PASS] == "Passo"
    assert it[ActionKind.CALL] == "Vedo" and it[ActionKind.RAISE] == "Rilancio"
    assert it[ActionKind.CHECK] == "Busso" and it[ActionKind.PAROL] == "Parola"
    assert it[ActionKind.BLIND] == "Buio" and it[ActionKind.CONTROBUIO] == "Controbuio"
    assert tr(Language.IT, "stood_pat") == "servito"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "it_IT.UTF-8"}, Language.IT),
        ({"LANG": "en_GB.UTF-8"}, Language.EN),
        ({"LC_ALL": "it_CH", "LANG": "en_US"}, Language.IT),
        ({}, Language.EN),
    ],
)
def test_language_follows_the_locale(environ: dict[str, str], expected: Language) -> None:
    assert detect_language(environ) is expected


def test_log_lines_for_events() -> None:
    assert describe_event(Event("Anna", ActionKind.RAISE, 8), Language.IT) == ["Anna: Rilancio 8"]
    assert describe_event(Event("Anna", ActionKind.DRAW, cards_changed=0), Language.IT) == [
        "Anna: servito"
    ]
    assert describe_event(Event("Anna", ActionKind.DRAW, cards_changed=3), Language.EN) == [
        "Anna changes 3"
    ]
    mine = Event("Player", ActionKind.DRAW, cards_changed=1, discards=parse_cards("Jc"), split=True)
    assert describe_event(mine, Language.EN) == [
        "Player changes 1: J♣",
        "Player announces a split opening (4.4)",
    ]
    fallback = Event("Bruno", ActionKind.FOLD, bot_error="raise 99: too much")
    assert describe_event(fallback, Language.EN)[0].startswith("Bruno's bot chose an illegal")


def test_cards_are_drawn_in_two_or_four_colours() -> None:
    diamond = parse_cards("Td")[0]
    face = card_face(diamond, four_colour=False)
    assert face.plain.splitlines() == ["10♦    ", "   ♦   ", "    ♦10"]
    assert TWO_COLOURS[Suit.DIAMONDS] in str(face.style)
    assert FOUR_COLOURS[Suit.DIAMONDS] in str(card_face(diamond, four_colour=True).style)
    assert FOUR_COLOURS[Suit.DIAMONDS] != TWO_COLOURS[Suit.DIAMONDS]
    assert mini_cards(parse_cards("Ah 7c"), four_colour=True).plain == "A♥ 7♣"


def test_buttons_show_key_name_and_amounts() -> None:
    raise_ = LegalAction(ActionKind.RAISE, 3, 12)
    assert action_button_label(raise_, Language.IT) == "R  Rilancio 3-12"
    assert action_button_label(LegalAction(ActionKind.CALL, 4, 4), Language.EN) == "V  Call 4"
    assert action_button_label(LegalAction(ActionKind.DRAW, max_cards=4), Language.IT) == (
        "Enter  Cambio (1-5)"
    )
    assert needs_amount(raise_)
    assert not needs_amount(LegalAction(ActionKind.BET, 2, 2))  # fixed limit: nothing to type
    assert not needs_amount(LegalAction(ActionKind.CALL, 4, 4))


def test_last_action_words() -> None:
    drew = PublicAction(1, ActionKind.DRAW, None, 2, (), Phase.DRAW)
    assert public_action_text(drew, Language.IT) == "ne ha cambiate 2"
    pat = PublicAction(1, ActionKind.DRAW, None, 0, (), Phase.DRAW)
    assert public_action_text(pat, Language.EN) == "stood pat"
    called = PublicAction(1, ActionKind.CALL, 4, None, (), Phase.FIRST_ROUND)
    assert public_action_text(called, Language.IT) == "Vedo 4"
