"""The message catalogues (``<package>/locale/en.po`` and ``it.po``): every key in both
languages with the same placeholders, no front end's key hiding the table layer's, and the
glossary's words (docs/rules.md, the engine's action names and the table's :data:`TERMS`)
in every message that names an action or a term, never a synonym."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from importlib import resources

import pytest
from babel.messages.pofile import read_po

from italian_poker.analysis import i18n as analysis_words
from italian_poker.engine.vocabulary import ACTION_NAMES, Language, Pair
from italian_poker.play import i18n as play_words
from italian_poker.server import i18n as server_words
from italian_poker.table import vocabulary
from italian_poker.table.catalogue import Catalogue, decimal, fill, percent

CATALOGUES: dict[str, Catalogue] = {
    "table": vocabulary.CATALOGUE,
    "play": play_words.CATALOGUE,
    "analysis": analysis_words.CATALOGUE,
    "server": server_words.CATALOGUE,
}
"""Each package's catalogue, by the package's name."""

ALL_MESSAGES: dict[str, Pair] = {
    f"{name}:{key}": pair
    for name, catalogue in CATALOGUES.items()
    for key, pair in catalogue.items()
} | {f"page:{key}": pair for key, pair in server_words.PAGE_MESSAGES.items()}
"""Every message and page label of every catalogue, ``package:key`` -> (English, Italian)."""


def _placeholders(template: str) -> set[str]:
    """The names of the values ``template`` fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _words(template: str) -> str:
    """What ``template`` says in words: its text and its counted words' forms."""
    parts = string.Formatter().parse(template)
    return " ".join(text + " " + (spec or "").replace("|", " ") for text, _, spec, _ in parts)


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_every_key_exists_in_both_languages_with_the_same_placeholders(name: str) -> None:
    catalogue = CATALOGUES[name]
    files = resources.files(catalogue.package).joinpath("locale")
    keys = {}
    for lang in Language:
        with files.joinpath(f"{lang.value}.po").open("rb") as file:
            po = read_po(file)
        assert str(po.locale) == lang.value
        ids = [str(message.id) for message in po if message.id]
        assert len(ids) == len(set(ids)), f"{name} {lang}: a key given twice"
        keys[lang] = set(ids)
    assert keys[Language.EN] == keys[Language.IT], name
    assert keys[Language.EN] == set(catalogue)
    for key, (english, italian) in catalogue.items():
        assert english.strip() and italian.strip(), (name, key)
        # A suffix such as " (side pot)" starts with its space in both languages.
        assert english[0].isspace() is italian[0].isspace(), (name, key)
        assert english.strip()[-1:] == english[-1:] and italian.strip()[-1:] == italian[-1:]
        assert _placeholders(english) == _placeholders(italian), (name, key)


def test_no_front_end_hides_a_word_of_the_table_layer() -> None:
    """A front end's catalogue adds words to the table layer's (the narration); it never
    says one of its messages differently under the same key."""
    table = set(vocabulary.CATALOGUE)
    for name in ("play", "analysis", "server"):
        assert set(CATALOGUES[name]).isdisjoint(table), name


def test_numbers_and_counted_words_follow_each_languages_rules() -> None:
    """Babel's CLDR data: the decimal comma, the percentage and the plural rule."""
    assert (decimal(12.345, Language.EN), decimal(12.345, Language.IT)) == ("12.3", "12,3")
    assert decimal(-1.5, Language.IT, 2) == "-1,50"
    assert (percent(0.125, Language.EN), percent(0.125, Language.IT)) == ("12.5%", "12,5%")
    counted = [fill("{n:carta|carte}", Language.IT, n=n) for n in (0, 1, 2)]
    assert counted == ["0 carte", "1 carta", "2 carte"]


# --- the glossary's words ----------------------------------------------------------------------

_IRREGULAR_ENGLISH = {"bet": "bet", "stand": "stand|stands|stood", "make": "make|makes|made"}
_IRREGULAR_ITALIAN = {"open": ("apr", "apert"), "opener": ("apert",), "call": ("ved", "vist")}


def _english(name: str) -> re.Pattern[str]:
    """A word or phrase of the glossary's English column, inflected: fold, folds, folded."""
    first, _, rest = name.lower().partition(" ")
    head = _IRREGULAR_ENGLISH.get(first, re.escape(first) + r"(?:s|es|ed|d|ing)?")
    tail = r"[\s-]+" + re.escape(rest) if rest else ""
    return re.compile(rf"\b(?:{head}){tail}\b", re.I)


def _stems(key: str, italian: str) -> tuple[str, ...]:
    """The Italian name's stem (its last word less the final vowel: *lascio* -> *lasci*,
    *piatto laterale* -> *lateral*), or the irregular forms it takes."""
    if key in _IRREGULAR_ITALIAN:
        return _IRREGULAR_ITALIAN[key]
    word = italian.lower().split()[-1]
    return (word[:-1] if word[-1] in "aeiou" else word,)


GLOSSARY: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    **{
        kind: (_english(english), _stems(kind, italian))
        for kind, (english, italian) in ACTION_NAMES.items()
        # *over* is the same word in both languages, and an everyday English word.
        if english.lower() != italian.lower()
    },
    **{
        key: (_english(english), _stems(key, italian))
        for key, (english, italian) in vocabulary.TERMS.items()
    },
}
"""Each action and term: how an English message names it, and the stems of its Italian name."""

OTHER_SENSES = {
    ("check", "no_table"): "check the link: not the action",
    ("sit-out", "sit_out"): "sitting out the table (sto fuori), not a deal's 5.5 answer",
    ("sit-out", "status_sitting_out"): "the same",
    ("sit-out", "table_sit_out"): "the same",
    ("deal", "status_active"): "in the deal: *in gioco*, as a table says it",
    ("deal", "no_cards_yet"): "before the deal: the dealing of the cards, *distribuzione*",
    ("deal", "report_passed_returned"): "passed deal: 3.5's Italian name, *piatto di parole*",
    ("opener", "advise_not_opener"): "--opener: the command's option",
}
"""Messages where the English word of an action or a term means something else."""


UNSAID = {"check", "controbuio", "decline", "raise"}
"""Actions and terms no message names (their buttons and the log use the vocabulary itself)."""


@pytest.mark.parametrize("term", sorted(GLOSSARY))
def test_every_italian_message_naming_an_action_or_a_term_uses_the_glossarys_word(
    term: str,
) -> None:
    """An English message that says *fold* has an Italian that says *lascio* (or *ha
    lasciato*, ...), never a synonym such as *passa* or *abbandona*; one that says *chips*
    has *fiches*, one that says *pot* has *piatto*."""
    english_word, stems = GLOSSARY[term]
    naming = {
        key: italian
        for key, (english, italian) in ALL_MESSAGES.items()
        if english_word.search(_words(english))
        and (term, key.partition(":")[2]) not in OTHER_SENSES
    }
    wrong = {
        key: italian
        for key, italian in naming.items()
        if not any(stem in _words(italian).lower() for stem in stems)
    }
    assert wrong == {}
    if term not in UNSAID:
        assert naming, f"no message names {term!r}: the check checks nothing"


def test_the_pages_words_are_the_servers_catalogue_and_the_glossary() -> None:
    """The pages' labels: the server's catalogue, and the phases, the draw and the terms
    from the engine's vocabulary and the glossary (never copied into the catalogue)."""
    pages: Mapping[str, Pair] = server_words.PAGE_MESSAGES
    assert set(server_words.CATALOGUE) <= set(pages)
    assert pages["draw_title"] == ACTION_NAMES["draw"]
    assert pages["stand_pat"] == ("Stand pat", "Servito")
    assert pages["ledger_hand"] == ("Deal", "Mano")
