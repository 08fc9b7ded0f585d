"""The engine's words, in English and Italian: every name the rules themselves give.

One place for the names of the cards (ranks and suits), the hand categories and the three
kinds of straight flush, the actions and the phases of a deal, with the small pure functions
that put them into the descriptions the engine writes (:func:`describe_hand` for
``HandRank.description`` / ``description_it``, :func:`describe_requirement` for what opens,
the reasons of the pot awards, the readable lines of a hand history). The Italian terms are
those of the glossary in docs/rules.md, as an Italian table says them.

Pure data: the tables are keyed by the engine's own codes (a rank's letter ``"A"``, a suit's
letter ``"h"``, a category's name ``"FLUSH"``, an action's or a phase's value ``"fold"``), so
this module imports nothing and every other module may read it. Each entry is a pair
``(English, Italian)``; :func:`pick` chooses one by language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum


class Language(StrEnum):
    """The languages of the game: every word exists in both."""

    EN = "en"
    IT = "it"


Pair = tuple[str, str]
"""A word or a phrase in both languages: ``(English, Italian)``."""


def language(lang: str) -> Language:
    """``lang`` as a :class:`Language`; :class:`ValueError` for anything but ``"en"`` and
    ``"it"``."""
    if lang == "it":
        return Language.IT
    if lang == "en":
        return Language.EN
    raise ValueError(f"language must be 'en' or 'it', got {lang!r}")


def pick(pair: Pair, lang: str) -> str:
    """The half of ``pair`` in ``lang`` (``"en"`` or ``"it"``; else :class:`ValueError`)."""
    return pair[1] if language(lang) is Language.IT else pair[0]


# --- cards ---------------------------------------------------------------------------------

RANK_LETTERS = "23456789TJQKA"
"""The ranks' letters, two to ace: the keys of the rank tables."""

RANK_NAMES: dict[str, Pair] = {
    "2": ("Two", "Due"),
    "3": ("Three", "Tre"),
    "4": ("Four", "Quattro"),
    "5": ("Five", "Cinque"),
    "6": ("Six", "Sei"),
    "7": ("Seven", "Sette"),
    "8": ("Eight", "Otto"),
    "9": ("Nine", "Nove"),
    "T": ("Ten", "Dieci"),
    "J": ("Jack", "Jack"),
    "Q": ("Queen", "Donna"),
    "K": ("King", "Re"),
    "A": ("Ace", "Asso"),
}
"""Each rank in words, as a card is named aloud (``Ace of hearts`` / ``Asso di cuori``)."""

RANK_FIGURES: dict[str, Pair] = {
    **{letter: (label, label) for letter, label in zip("23456789", "23456789", strict=True)},
    "T": ("10", "10"),
    "J": ("Jack", "Jack"),
    "Q": ("Queen", "Donna"),
    "K": ("King", "Re"),
    "A": ("Ace", "Asso"),
}
"""Each rank as a hand's description names one card: the number for 2 to 10, the name of
a court card or the ace (``Straight, 9 high`` / ``Scala al 9``, ``Ace high`` / ``Asso``). The
Italian column is ``Rank.italian`` (an Italian table says *Jack*, seldom *Fante*)."""

RANK_PLURALS: dict[str, Pair] = {
    "2": ("Twos", "2"),
    "3": ("Threes", "3"),
    "4": ("Fours", "4"),
    "5": ("Fives", "5"),
    "6": ("Sixes", "6"),
    "7": ("Sevens", "7"),
    "8": ("Eights", "8"),
    "9": ("Nines", "9"),
    "T": ("Tens", "10"),
    "J": ("Jacks", "Jack"),
    "Q": ("Queens", "Donne"),
    "K": ("Kings", "Re"),
    "A": ("Aces", "Assi"),
}
"""Each rank in the plural (``Pair of Aces`` / ``Coppia di Assi``, ``Jacks or better``)."""

SUIT_LETTERS = "scdh"
"""The suits' letters, lowest first (spades, clubs, diamonds, hearts: 7.4)."""

SUIT_NAMES: dict[str, Pair] = {
    "h": ("hearts", "cuori"),
    "d": ("diamonds", "quadri"),
    "c": ("clubs", "fiori"),
    "s": ("spades", "picche"),
}
"""The suits, highest first: *Come Quando Fuori Piove* (7.4)."""

CARD_NAME: Pair = ("{rank} of {suit}", "{rank} di {suit}")
"""A card named aloud: ``Ace of hearts`` / ``Asso di cuori``."""


def card_name(rank: str, suit: str, lang: str) -> str:
    """The card of rank letter ``rank`` and suit letter ``suit`` in words, in ``lang``."""
    return pick(CARD_NAME, lang).format(
        rank=pick(RANK_NAMES[rank], lang), suit=pick(SUIT_NAMES[suit], lang)
    )


def _to_the(letter: str) -> str:
    """Italian "to the" + rank, as in *scala all'Asso*: ``all'Asso``, ``all'8``, ``alla
    Donna``, ``al Re``, ``al 9``."""
    figure = RANK_FIGURES[letter][1]
    if letter in "A8":
        return f"all'{figure}"
    if letter == "Q":
        return f"alla {figure}"
    return f"al {figure}"


# --- hands ---------------------------------------------------------------------------------

CATEGORY_NAMES: dict[str, Pair] = {
    "HIGH_CARD": ("High card", "Carta più alta"),
    "ONE_PAIR": ("Pair", "Coppia"),
    "TWO_PAIR": ("Two pair", "Doppia coppia"),
    "THREE_OF_A_KIND": ("Three of a kind", "Tris"),
    "STRAIGHT": ("Straight", "Scala"),
    "FULL_HOUSE": ("Full house", "Full"),
    "FLUSH": ("Flush", "Colore"),
    "FOUR_OF_A_KIND": ("Four of a kind", "Poker"),
    "STRAIGHT_FLUSH": ("Straight flush", "Scala reale"),
}
"""The hand categories (Art. 6) by ``Category`` name, lowest first."""

STRAIGHT_FLUSH_CLASSES: dict[str, Pair] = {
    "minimum": ("minimum", "minima"),
    "medium": ("medium", "media"),
    "maximum": ("maximum", "massima"),
}
"""The three kinds of straight flush (7.1) by ``StraightFlushClass`` value."""


def describe_hand(
    category: str,
    ranks: Sequence[str],
    suit: str | None = None,
    straight_flush_class: str | None = None,
) -> Pair:
    """A hand's description in both languages, e.g. ``("Full house, Aces full of Kings",
    "Full di Assi e Re")``: ``category`` is a ``Category`` name, ``ranks`` the letters of the
    ranks that matter (most significant first), ``suit`` the letter of the suit that breaks
    ties, ``straight_flush_class`` a ``StraightFlushClass`` value."""
    top = ranks[0]
    high = RANK_FIGURES[top][0]
    if category == "STRAIGHT_FLUSH":
        assert straight_flush_class is not None and suit is not None
        english_class, italian_class = STRAIGHT_FLUSH_CLASSES[straight_flush_class]
        english_suit, italian_suit = SUIT_NAMES[suit]
        return (
            f"{english_class.capitalize()} straight flush, {high} high, {english_suit}",
            f"{CATEGORY_NAMES[category][1]} {italian_class} {_to_the(top)} di {italian_suit}",
        )
    if category == "FLUSH":
        assert suit is not None
        english_suit, italian_suit = SUIT_NAMES[suit]
        return (
            f"Flush, {high} high, {english_suit}",
            f"Colore di {italian_suit} {_to_the(top)}",
        )
    if category == "STRAIGHT":
        return f"Straight, {high} high", f"Scala {_to_the(top)}"
    if category == "HIGH_CARD":
        return f"{high} high", f"Carta più alta: {RANK_FIGURES[top][1]}"
    first_en, first_it = RANK_PLURALS[top]
    if category == "FOUR_OF_A_KIND":
        return f"Four {first_en}", f"Poker di {first_it}"
    if category == "THREE_OF_A_KIND":
        return f"Three {first_en}", f"Tris di {first_it}"
    if category == "ONE_PAIR":
        return f"Pair of {first_en}", f"Coppia di {first_it}"
    second_en, second_it = RANK_PLURALS[ranks[1]]
    if category == "FULL_HOUSE":
        return (
            f"Full house, {first_en} full of {second_en}",
            f"Full di {first_it} e {second_it}",
        )
    if category == "TWO_PAIR":
        return (
            f"Two pair, {first_en} and {second_en}",
            f"Doppia coppia di {first_it} e {second_it}",
        )
    raise ValueError(f"unknown hand category {category!r}")


def describe_requirement(min_pair: str, four_straight_flush: bool, two_pair: bool = False) -> Pair:
    """What opens (3.3), e.g. ``("Jacks or better (or four to a straight flush)", "coppia di
    Jack o meglio (o 4/5 di scala reale)")``; ``min_pair`` is the letter of the lowest pair;
    ``two_pair``: no single pair opens ("Two pair or better")."""
    if two_pair:
        english_text, italian_text = "Two pair or better", "doppia coppia o meglio"
    else:
        english, italian = RANK_PLURALS[min_pair]
        english_text, italian_text = f"{english} or better", f"coppia di {italian} o meglio"
    if four_straight_flush:
        english_text += " (or four to a straight flush)"
        italian_text += " (o 4/5 di scala reale)"
    return english_text, italian_text


POT_REASONS: dict[str, str] = {
    "uncalled": "uncalled",
    "only-eligible": "only eligible hand",
    "best-hand": "best hand: {hand}",
    "three-way": "three straight flushes, minimum, medium and maximum: the pot is split (7.3)",
    "min-beats-max": "la minima batte la massima (7.2)",
}
"""``PotAward.reason``, kept in English (and the 7.2 proverb in Italian) as hand histories
store it: the front ends explain an award in both languages from the hands themselves."""


# --- actions and phases --------------------------------------------------------------------

ACTION_NAMES: dict[str, Pair] = {
    "blind": ("Blind", "Buio"),
    "controbuio": ("Counter-blind", "Controbuio"),
    "over": ("Over", "Over"),
    "decline": ("No blind", "Niente buio"),
    "pass": ("Pass", "Passo"),
    "open": ("Open", "Apro"),
    "fold": ("Fold", "Lascio"),
    "call": ("Call", "Vedo"),
    "raise": ("Raise", "Rilancio"),
    "check": ("Check", "Busso"),
    "bet": ("Bet", "Punto"),
    "parol": ("Parol", "Parola"),
    "draw": ("Draw", "Cambio"),
    "show": ("Show", "Mostro"),
    "muck": ("Muck", "Non mostro"),
    "make-up": ("Make up", "Adeguo"),
    "sit-out": ("Sit out", "Salto la mano"),
}
"""Each ``ActionKind`` (by value) as the player says it: the English name and the Italian
first person a table hears (*passo* before the opening, *lascio* for a fold, 3.2, Art. 3)."""

ACTION_PHRASES: dict[str, str] = {
    "blind": "bets blind",
    "controbuio": "bets a counter-blind",
    "over": "bets an over",
    "decline": "declines to bet blind",
    "pass": "passes",
    "open": "opens for",
    "fold": "folds",
    "call": "calls",
    "raise": "raises to",
    "check": "checks",
    "bet": "bets",
    "parol": "says parol",
    "draw": "changes",
    "show": "shows",
    "muck": "mucks without showing",
    "make-up": "makes up",
    "sit-out": "sits out",
}
"""Each ``ActionKind`` as a verb in the third person, for the readable lines of a hand
history (``Bruno raises to 8 (rilancio)``)."""

STAND_PAT: Pair = ("stands pat", "servito")
"""A draw of no cards (4.1)."""

SPLIT_OPENING: Pair = ("a split opening", "apertura spezzata")
"""The opener breaking the opening combination at the draw, announced (4.4)."""

PHASE_NAMES: dict[str, Pair] = {
    "blinds": ("Blinds", "Buio"),
    "opening": ("Opening", "Apertura"),
    "first-round": ("First betting round", "Primo giro di puntate"),
    "draw": ("Draw", "Cambio"),
    "second-round": ("Second betting round", "Secondo giro di puntate"),
    "showdown": ("Showdown", "Si scoprono le carte"),
    "complete": ("Deal over", "Mano finita"),
}
"""Each ``Phase`` of a deal (by value)."""


def action_name(kind: str, lang: str) -> str:
    """The name of the action ``kind`` (an ``ActionKind`` or its value): ``Vedo`` / ``Call``."""
    return pick(ACTION_NAMES[kind], lang)


def phase_name(phase: str, lang: str) -> str:
    """The name of the phase ``phase`` (a ``Phase`` or its value) in ``lang``."""
    return pick(PHASE_NAMES[phase], lang)


def italian_term(kind: str) -> str:
    """The Italian term of an action as a hand history's readable line quotes it, lower
    case: ``lascio``, ``vedo``, ``niente buio``."""
    return ACTION_NAMES[kind][1].lower()


TABLES: Mapping[str, Mapping[str, Pair]] = {
    "ranks": RANK_NAMES,
    "rank_figures": RANK_FIGURES,
    "rank_plurals": RANK_PLURALS,
    "suits": SUIT_NAMES,
    "categories": CATEGORY_NAMES,
    "straight_flush_classes": STRAIGHT_FLUSH_CLASSES,
    "actions": ACTION_NAMES,
    "phases": PHASE_NAMES,
}
"""Every two-language table of this module by name (tests check each entry)."""
