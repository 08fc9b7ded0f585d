"""The vocabulary: the engine's words (engine/vocabulary.py), every name in both languages,
one for each of the engine's codes, and the engine's own descriptions made from them; and
the glossary of docs/rules.md, which gives the same words as the vocabulary (the engine's
and the table's terms, table/vocabulary.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from history_examples import HISTORIES, docs_examples
from test_catalogues import ALL_MESSAGES

from italian_poker.engine import vocabulary
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Rank, Suit
from italian_poker.engine.deal import Phase
from italian_poker.engine.hand_rank import Category, StraightFlushClass, evaluate
from italian_poker.engine.history import describe, loads, replay
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.vocabulary import (
    ACTION_NAMES,
    ACTION_PHRASES,
    CATEGORY_NAMES,
    PHASE_NAMES,
    POT_REASONS,
    RANK_FIGURES,
    RANK_NAMES,
    RANK_PLURALS,
    STRAIGHT_FLUSH_CLASSES,
    SUIT_NAMES,
    TABLES,
    Language,
    action_name,
    card_name,
    describe_requirement,
    italian_term,
    phase_name,
    pick,
)
from italian_poker.table.vocabulary import (
    ACTION_LABELS,
    TERMS,
    action_label,
    phase_label,
)


def test_every_entry_has_both_languages() -> None:
    for name, table in TABLES.items():
        for key, (english, italian) in table.items():
            assert english.strip() == english and english, (name, key)
            assert italian.strip() == italian and italian, (name, key)
    assert all(phrase.strip() for phrase in ACTION_PHRASES.values())


def test_the_tables_name_every_code_of_the_engine() -> None:
    letters = {rank.letter for rank in Rank}
    assert RANK_NAMES.keys() == RANK_FIGURES.keys() == RANK_PLURALS.keys() == letters
    assert SUIT_NAMES.keys() == {suit.letter for suit in Suit}
    assert list(SUIT_NAMES) == [s.letter for s in sorted(Suit, reverse=True)]  # 7.4's order
    assert list(CATEGORY_NAMES) == [c.name for c in Category]
    assert STRAIGHT_FLUSH_CLASSES.keys() == {c.value for c in StraightFlushClass}
    assert ACTION_NAMES.keys() == ACTION_PHRASES.keys() == {k.value for k in ActionKind}
    assert list(PHASE_NAMES) == [p.value for p in Phase]


def test_the_enums_names_are_the_vocabularys() -> None:
    """The words that the card and hand enums still carry as properties agree with it."""
    for rank in Rank:
        assert rank.english == RANK_PLURALS[rank.letter][0]
        assert rank.italian == RANK_FIGURES[rank.letter][1]
    for suit in Suit:
        assert (suit.name.lower(), suit.italian) == SUIT_NAMES[suit.letter]
    for category in Category:
        assert (category.english, category.italian) == CATEGORY_NAMES[category.name]
    for cls in StraightFlushClass:
        assert cls.italian == STRAIGHT_FLUSH_CLASSES[cls.value][1]


@pytest.mark.parametrize(
    ("cards", "english", "italian"),
    [
        (
            "Ah Kh Qh Jh Th",
            "Maximum straight flush, Ace high, hearts",
            "Scala reale massima all'Asso di cuori",
        ),
        (
            "5s 4s 3s 2s As",
            "Minimum straight flush, 5 high, spades",
            "Scala reale minima al 5 di picche",
        ),
        (
            "Qd Jd Td 9d 8d",
            "Medium straight flush, Queen high, diamonds",
            "Scala reale media alla Donna di quadri",
        ),
        ("Kc Kd Kh Ks 7c", "Four Kings", "Poker di Re"),
        ("Ac Jc 9c 8c 7c", "Flush, Ace high, clubs", "Colore di fiori all'Asso"),
        ("Qc Qd Qh 8s 8c", "Full house, Queens full of Eights", "Full di Donne e 8"),
        ("8c 9d Th Js Qc", "Straight, Queen high", "Scala alla Donna"),
        ("7c 7d 7h Ks 9c", "Three Sevens", "Tris di 7"),
        ("Ac Ad Jh Js 9c", "Two pair, Aces and Jacks", "Doppia coppia di Assi e Jack"),
        ("Tc Td Ah Ks 9c", "Pair of Tens", "Coppia di 10"),
        ("Ac Kd 9h 8s 7c", "Ace high", "Carta più alta: Asso"),
    ],
)
def test_hand_descriptions_come_from_the_vocabulary(cards: str, english: str, italian: str) -> None:
    rank = evaluate(cards, players=9)
    assert (rank.describe("en"), rank.describe("it")) == (english, italian)
    assert vocabulary.describe_hand(
        rank.category.name,
        [r.letter for r in rank.ranks],
        None if rank.suit is None else rank.suit.letter,
        None if rank.straight_flush_class is None else rank.straight_flush_class.value,
    ) == (english, italian)


def test_opening_requirements_say_the_vocabularys_words() -> None:
    for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE):
        for four in (False, True):
            requirement = OpeningRequirement(rank, four_straight_flush=four)
            expected = describe_requirement(rank.letter, four)
            assert (requirement.describe("en"), requirement.describe("it")) == expected


def test_pick_and_card_names() -> None:
    assert pick(ACTION_NAMES["fold"], "it") == "Lascio"
    assert pick(ACTION_NAMES["fold"], Language.EN) == "Fold"
    assert card_name("A", "h", "en") == "Ace of hearts"
    assert card_name("T", "s", "it") == "Dieci di picche"
    with pytest.raises(ValueError, match="'en' or 'it'"):
        pick(ACTION_NAMES["fold"], "fr")


def test_the_tables_labels_are_the_engines_names() -> None:
    """The front ends name actions and phases with the engine's words, in either language."""
    for kind in ActionKind:
        for lang, half in ((Language.EN, 0), (Language.IT, 1)):
            assert action_label(kind, lang) == action_name(kind, lang) == ACTION_NAMES[kind][half]
    for phase in Phase:
        for lang, half in ((Language.EN, 0), (Language.IT, 1)):
            assert phase_label(phase, lang) == phase_name(phase, lang) == PHASE_NAMES[phase][half]
    assert (
        action_label(ActionKind.FOLD, Language.IT),
        action_label(ActionKind.CALL, Language.EN),
    ) == (
        "Lascio",
        "Call",
    )
    assert phase_label(Phase.DRAW, Language.IT) == "Cambio"


def test_the_history_quotes_each_actions_italian_term() -> None:
    """A readable hand history names a fold *lascio* (not *passo*, the pass before the
    opening, 3.2) and a parol *parola*, as the game's buttons do."""
    assert italian_term("fold") == "lascio" and italian_term("pass") == "passo"
    assert italian_term("parol") == "parola" and italian_term("decline") == "niente buio"
    seen: set[ActionKind] = set()
    for text in docs_examples():
        history = loads(text)
        deal = replay(history)
        lines = describe(history, deal)
        for record in deal.actions:
            kind = record.action.kind
            if kind is ActionKind.DRAW and not record.action.cards:
                continue
            name = deal.names[record.seat]
            term = f"({italian_term(kind)}"
            assert any(
                line.lstrip().split(". ", 1)[-1].startswith(name) and term in line for line in lines
            ), (
                kind,
                lines,
            )
            seen.add(kind)
    assert ActionKind.FOLD in seen


def test_pot_award_reasons_are_the_vocabularys() -> None:
    """Each pot award's ``reason`` in the random deals' histories is one of the vocabulary's
    ``POT_REASONS`` (``best hand: {hand}`` with a hand's English description)."""
    patterns = [
        re.compile(re.escape(text).replace(re.escape("{hand}"), ".+") + "$")
        for text in POT_REASONS.values()
    ]
    reasons = {award.reason for h in HISTORIES if h.result for award in h.result.awards}
    assert len(reasons) > 3
    for reason in reasons:
        assert any(p.match(reason) for p in patterns), reason


# --- the glossary of docs/rules.md and the vocabulary agree -----------------------------------

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@dataclass(frozen=True)
class GlossaryRow:
    """A row of the glossary: its Italian terms (the words in italics, lower case, but not
    another meaning given as "also ..."), its English column (lower case) and what it names
    in the engine (the first entry of the last column when it is one name in backticks,
    else "")."""

    italian: frozenset[str]
    english: str
    engine: str


def glossary() -> list[GlossaryRow]:
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("## Glossary: Italian and English game terms") :]
    rows = []
    for row in re.findall(r"^\|(.+)\|\s*$", section, re.M)[2:]:
        cells = [cell.strip() for cell in row.split("|")]
        if len(cells) != 4:
            break
        said = re.sub(r"\(also [^)]*\)", "", cells[0])  # "(also *passo* after the opening)"
        italian = frozenset(term.lower() for term in re.findall(r"\*([^*]+)\*", said))
        first = cells[3].split(";")[0].strip()
        named = re.fullmatch(r"`([^`]+)`", first)
        rows.append(GlossaryRow(italian, cells[1].lower(), named[1] if named else ""))
    return rows


def _row(rows: list[GlossaryRow], engine: str) -> GlossaryRow:
    found = [row for row in rows if row.engine == engine]
    assert len(found) == 1, f"the glossary has {len(found)} rows for {engine!r}"
    return found[0]


def _agree(row: GlossaryRow, pair: tuple[str, str], what: str) -> None:
    english, italian = (word.lower() for word in pair)
    assert italian in row.italian, f"{what}: vocabulary {italian!r}, glossary {set(row.italian)}"
    assert english in row.english, f"{what}: vocabulary {english!r}, glossary {row.english!r}"


def test_the_glossary_gives_every_actions_name_as_the_vocabulary_does() -> None:
    """Each action's name on the buttons and in the log (the table's vocabulary: the
    engine's but for the 5.5 answers, *adeguo* and *salto la mano*) is the glossary's."""
    rows = glossary()
    for kind in ActionKind:
        _agree(_row(rows, kind.value), ACTION_LABELS[kind], f"action {kind.value}")


def test_the_glossary_says_which_sitting_out_is_not_the_deals() -> None:
    (row,) = [row for row in glossary() if row.engine == "sit-out"]
    assert row.italian == {"salto la mano", "sto fuori"}  # *sto fuori* is named as not it


def _italian(key: str) -> str:
    return next(pair[1] for name, pair in ALL_MESSAGES.items() if name.endswith(":" + key))


def test_the_italian_words_are_one_for_each_concept() -> None:
    """*Rientro* named both the 5.5 make-up and sitting back in, *sto fuori* both sitting
    out one deal and sitting out the table; the hand history was a *storia*, the lobby an
    *ingresso*. One word each, as Italian players say them."""
    assert pick(ACTION_LABELS[ActionKind.MAKE_UP], "it") == "Adeguo"
    assert pick(ACTION_LABELS[ActionKind.SIT_OUT], "it") == "Salto la mano"
    assert _italian("sit_in") == "Torno al tavolo" and _italian("sit_out") == "Sto fuori"
    assert _italian("back_to_lobby") == "Sala"
    assert _italian("table_sit_in") == "{name} torna al tavolo"
    table_sit_out = {"sit_out", "status_sitting_out", "table_sit_out", "sit_out_pending"}
    for name, (_, italian) in ALL_MESSAGES.items():
        key = name.partition(":")[2]
        said = italian.lower()
        assert "rientr" not in said, key
        assert "storia" not in said and "storie" not in said, key
        assert "ingresso" not in said, key
        if key not in table_sit_out:
            assert "sto fuori" not in said and "sta fuori" not in said, key
    for key in ("prompt_makeup", "report_makeup", "phase_make-up"):
        assert "adegu" in _italian(key), key
    assert "salti la mano" in _italian("prompt_makeup")


RULE_REFERENCE = re.compile(r"\((?:Art\.\s*)?\d+(?:\.\d+)?(?:\([a-z]\))?(?:, [^()]+)?\)")


def test_rule_references_have_one_form() -> None:
    """Player-facing text cited "(6)", "(3.3)" and "(Art. 2)": one form, the article's
    number, with its name when the number is a whole article ("(2, blind)", "(6, ranking)")
    or where it helps ("(3.5, piatto di parole)")."""
    seen = 0
    for key, pair in ALL_MESSAGES.items():
        for text in pair:
            assert "Art." not in text, (key, text)
            for reference in RULE_REFERENCE.findall(text):
                seen += 1
                number = reference[1:].split(",")[0].rstrip(")")
                if "." not in number:
                    assert ", " in reference, (key, reference)
    assert seen > 20


def test_the_glossary_names_hands_cards_and_the_showdown_as_the_vocabulary_does() -> None:
    rows = glossary()
    for category in Category:
        row = _row(rows, f"Category.{category.name}")
        _agree(row, CATEGORY_NAMES[category.name], f"category {category.name}")
    for table, engine in ((STRAIGHT_FLUSH_CLASSES, "StraightFlushClass"), (SUIT_NAMES, "Suit")):
        row = _row(rows, engine)
        for key, pair in table.items():
            _agree(row, pair, f"{engine} {key}")
    row = _row(rows, "Rank")
    for letter in "JQKA":
        _agree(row, (RANK_NAMES[letter][0], RANK_FIGURES[letter][1]), f"rank {letter}")
    _agree(_row(rows, "Phase.SHOWDOWN"), PHASE_NAMES["showdown"], "phase showdown")


def test_the_glossary_has_every_term_of_the_table_vocabulary() -> None:
    rows = glossary()
    for key, (english, italian) in TERMS.items():
        matching = [row for row in rows if italian.lower() in row.italian]
        assert matching, f"term {key}: {italian!r} is not in the glossary"
        assert any(english.lower() in row.english for row in matching), (
            f"term {key}: the glossary gives {italian!r} as {[r.english for r in matching]}, "
            f"the vocabulary as {english!r}"
        )


def test_english_messages_say_no_italian_term() -> None:
    """Issue 13: the English log said "Alice: servito (stands pat)". An English message or
    page label uses the English word of each term and action (the Italian ones that are the
    game's own names in English too, such as *parol*, are the same in both columns)."""
    italian = {
        it.lower()
        for table in (TERMS, ACTION_NAMES, ACTION_LABELS, PHASE_NAMES)
        for english, it in table.values()
        if english.lower() != it.lower()
    }
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(italian))) + r")\b", re.I)
    found = {
        key: english
        for key, (english, _) in ALL_MESSAGES.items()
        if pattern.search(english) and not key.partition(":")[2].startswith("explain_")
    }  # the explanations name the Italian word on purpose
    assert not found
