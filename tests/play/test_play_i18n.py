"""The game's words: counted words agree with their numbers in both languages (one
mechanism, the ``{count:one|many}`` format of the catalogues, by each language's CLDR plural
rule), the summary, the seat boxes and the log."""

from __future__ import annotations

import dataclasses
import re
import string

import pytest
from test_catalogues import ALL_MESSAGES

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.deal import Phase
from italian_poker.engine.observer import PublicAction
from italian_poker.play.explain import summary_lines
from italian_poker.play.i18n import tr
from italian_poker.play.widgets import public_action_text
from italian_poker.table.catalogue import fill
from italian_poker.table.events import Event, OverReason, PlayerSummary, SessionSummary
from italian_poker.table.narration import describe_event
from italian_poker.table.vocabulary import Language, either

PLURAL_AFTER_ONE = re.compile(
    r"\b1 (chips|cards|players|deals|pots|hands|fiches|carte|mani|giocatori|piatti|"
    r"passate|vinte|abbandonate|vinti)\b|\b(servono|cambiate|mancano ancora) 1\b"
)
"""A plural form next to the number 1 (Italian and English alike say 1 chip, 1 mano)."""
SINGULAR_AFTER_TWO = re.compile(
    r"\b2 (chip|card|player|deal|pot|hand(?! histor)|carta|mano|giocatore|piatto|passata|"
    r"vinta|abbandonata|vinto)\b|\b(serve|cambiata|manca ancora) 2\b"
)


def test_counted_words_follow_the_languages_plural_rule() -> None:
    mani = [fill("{n:mano|mani}", Language.IT, n=n) for n in (0, 1, 2, 11)]
    assert mani == ["0 mani", "1 mano", "2 mani", "11 mani"]
    assert fill("{n:chip|chips}", Language.EN, n=1) == "1 chip"
    assert fill("{n:chip|chips}", Language.EN, n=0) == "0 chips"
    assert fill("{n:ne ha cambiata #|ne ha cambiate #}", Language.IT, n=3) == "ne ha cambiate 3"
    assert fill("{n:ti serve # fiche|ti servono # fiches}", Language.IT, n=1) == (
        "ti serve 1 fiche"
    )


def test_counted_words_in_a_message_need_a_whole_number() -> None:
    with pytest.raises(TypeError, match="whole number"):
        tr(Language.EN, "prompt_makeup", amount="1")


NUMBERS = {
    "amount", "bet", "byte", "chips", "n", "carried_in", "carried_out", "change", "count",
    "deals", "deck",
    "due", "end", "files", "held", "high", "low", "max", "net", "number", "opened", "opponents",
    "left", "parol", "parols", "passed", "place", "players", "position", "pot", "pots", "prize",
    "showdowns", "stack",
    "start", "unseen", "won",
}  # fmt: skip
"""The placeholders that take a number (the others take names, cards, text)."""


def filled(template: str, number: int) -> str:
    """``template`` with every number placeholder given ``number`` (and words elsewhere)."""
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return tr_template(template, {n: number if n in NUMBERS else "Xy" for n in names})


def tr_template(template: str, values: dict[str, object]) -> str:
    """Fill ``template`` as :func:`tr` fills a message."""
    return fill(template, Language.EN, **values)


def test_every_counted_word_follows_a_number_placeholder() -> None:
    for key, forms in ALL_MESSAGES.items():
        for template in forms:
            for _, name, spec, _ in string.Formatter().parse(template):
                if spec and "|" in spec:
                    assert name in NUMBERS, (key, name)


@pytest.mark.parametrize("lang", list(Language))
def test_no_message_puts_a_plural_after_one_or_a_singular_after_two(lang: Language) -> None:
    index = 1 if lang is Language.IT else 0
    for key, forms in ALL_MESSAGES.items():
        template = forms[index]
        one, two = filled(template, 1), filled(template, 2)
        assert not PLURAL_AFTER_ONE.search(one), (key, one)
        assert not SINGULAR_AFTER_TWO.search(two), (key, two)


def summary(won: int, passed: int, parol: int, pots: int) -> SessionSummary:
    players = (
        PlayerSummary("Giocatore", 200, 210, pots, left=False),
        PlayerSummary("Anna", 200, 190, 0, left=True),
    )
    return SessionSummary(
        human="Giocatore",
        deals=won + passed + parol,
        won=won,
        passed=passed,
        parol=parol,
        players=players,
        biggest_pot=None,
        histories=None,
        over=OverReason.TABLE_WON,
    )


def test_italian_summary_says_1_passata_not_1_passate() -> None:
    lines = summary_lines(summary(won=0, passed=1, parol=1, pots=1), Language.IT)
    assert lines[1] == "Mani giocate: 2 (0 vinte, 1 passata, 1 abbandonata con parola)"
    assert lines[2] == "Giocatore: 200 → 210 (+10), 1 piatto vinto"
    assert lines[3] == "Anna: 200 → 190 (-10), 0 piatti vinti, ha lasciato il tavolo"
    lines = summary_lines(summary(won=1, passed=2, parol=0, pots=2), Language.IT)
    assert lines[1] == "Mani giocate: 3 (1 vinta, 2 passate, 0 abbandonate con parola)"
    assert lines[2] == "Giocatore: 200 → 210 (+10), 2 piatti vinti"


def test_english_summary_counts_pots_won() -> None:
    lines = summary_lines(summary(won=1, passed=0, parol=0, pots=1), Language.EN)
    assert lines[1] == "Deals played: 1 (1 won, 0 passed, 0 abandoned by parol)"
    assert lines[2] == "Giocatore: 200 → 210 (+10), 1 pot won"
    assert lines[3] == "Anna: 200 → 190 (-10), 0 pots won, left the table"


def test_the_summary_says_who_pays_whom_in_both_languages() -> None:
    even = summary(won=1, passed=0, parol=0, pots=1)
    assert summary_lines(even, Language.EN)[4:6] == ["Settling up:", "  Anna pays Giocatore 10"]
    assert summary_lines(even, Language.IT)[4:6] == ["Chi paga chi:", "  Anna paga 10 a Giocatore"]
    three = dataclasses.replace(
        even,
        players=(
            PlayerSummary("Giocatore", 200, 150, 0, left=False),
            PlayerSummary("Anna", 200, 270, 1, left=False),
            PlayerSummary("Bruno", 200, 180, 0, left=False),
        ),
    )
    assert summary_lines(three, Language.EN)[5:8] == [
        "Settling up:",
        "  Giocatore pays Anna 50",
        "  Bruno pays Anna 20",
    ]


def test_the_summary_leaves_settling_up_to_a_pot_still_carried() -> None:
    """Everyone passed (3.5): the antes stay in the pot, no one's yet, so no one pays."""
    carried = dataclasses.replace(
        summary(won=0, passed=1, parol=0, pots=0),
        players=(
            PlayerSummary("Giocatore", 200, 199, 0, left=False),
            PlayerSummary("Anna", 200, 199, 0, left=False),
        ),
    )
    en = summary_lines(carried, Language.EN)
    assert en[4] == "Settling up waits for the pot: 2 chips are still in it."
    it = summary_lines(carried, Language.IT)
    assert it[4] == "I conti si saldano quando il piatto è vinto: ci sono ancora 2 fiches."
    assert not any("pays" in line for line in en)


def test_summary_after_an_error_says_so_in_both_languages() -> None:
    crashed = summary(won=0, passed=0, parol=0, pots=0)
    crashed = dataclasses.replace(crashed, error="HandSizeError: got 4")
    en = summary_lines(crashed, Language.EN)
    assert en[1].startswith("The game stopped on an error (HandSizeError: got 4)")
    it = summary_lines(crashed, Language.IT)
    assert it[1].startswith("La partita si è interrotta per un errore (HandSizeError: got 4)")


def test_seat_box_says_ne_ha_cambiata_1() -> None:
    drew_one = PublicAction(1, ActionKind.DRAW, None, 1, (), Phase.DRAW)
    assert public_action_text(drew_one, Language.IT) == "ne ha cambiata 1"
    assert public_action_text(drew_one, Language.EN) == "changed 1 card"
    drew_two = PublicAction(1, ActionKind.DRAW, None, 2, (), Phase.DRAW)
    assert public_action_text(drew_two, Language.EN) == "changed 2 cards"
    # After the draw the box keeps saying how many were changed, with the same words.
    assert tr(Language.IT, "changed", count=1) == "ne ha cambiata 1"


def test_counted_words_in_prompts_and_messages() -> None:
    assert tr(Language.EN, "prompt_makeup", amount=1).startswith(
        "After the parol: make up 1 chip to play"
    )
    assert "adegui la puntata con 1 fiche per" in tr(Language.IT, "prompt_makeup", amount=1)
    assert "adegui la puntata con 3 fiches per" in tr(Language.IT, "prompt_makeup", amount=3)
    call = {"choices": "Lascio, Vedo o Rilancio"}
    assert tr(Language.IT, "prompt_call", amount=1, **call) == (
        "aggiungi 1 fiche per vedere. Lascio, Vedo o Rilancio?"
    )
    assert tr(Language.IT, "prompt_call_to", amount=5, total=9, **call).startswith(
        "aggiungi 5 fiches per vedere (la tua puntata va a 9)."
    )
    assert tr(Language.EN, "prompt_call", amount=1, choices="Fold or Call") == (
        "you add 1 chip to call. Fold or Call?"
    )
    assert tr(Language.EN, "too_many_cards", max=4) == "You may change at most 4 cards (4.1)."


def test_either_lists_the_choices() -> None:
    assert either(["Fold", "Call", "Raise"], Language.EN) == "Fold, Call or Raise"
    assert either(["Lascio", "Vedo"], Language.IT) == "Lascio o Vedo"
    assert either(["Busso"], Language.IT) == "Busso"


def test_log_of_a_draw_of_four_says_when_the_fourth_card_comes() -> None:
    event = Event("Anna", ActionKind.DRAW, cards_changed=4)
    assert describe_event(event, Language.IT) == [
        "Anna cambia 4",
        "Anna riceve la quarta carta dopo il cambio di tutti gli altri (4.2)",
    ]
    assert describe_event(Event("Anna", ActionKind.DRAW, cards_changed=3), Language.EN) == [
        "Anna changes 3"
    ]
