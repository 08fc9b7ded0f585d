"""The glossary of the game in English and Italian, and the table layer's own messages.

The engine's own words (cards, hands, actions, phases) come from
:mod:`italian_poker.engine.vocabulary`; this module adds the table's terms (:data:`TERMS`,
the glossary's *mazziere*, *piatto*, *invito*, ..., as docs/rules.md gives them: a test
checks it), the names of actions, phases, suits and cards the front ends show, and the
table layer's messages (:data:`CATALOGUE`, looked up by :func:`tr`): the narration of a
deal, its report, the session's summary and the statistics. Each front end keeps its own
words in its own catalogue (:mod:`italian_poker.table.catalogue`), built on this one.

:func:`action_label` names an action (*apro*, *vedo*, *rilancio*, ...) and
:data:`ACTION_KEYS` gives each action its one-key shortcut, the same in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, Suit
from italian_poker.engine.deal import Phase
from italian_poker.engine.vocabulary import (
    ACTION_NAMES,
    PHASE_NAMES,
    Language,
    Pair,
    action_name,
    card_name,
    phase_name,
    pick,
)
from italian_poker.engine.vocabulary import SUIT_NAMES as _SUITS_BY_LETTER
from italian_poker.table.catalogue import Catalogue

__all__ = [
    "ACTION_KEYS",
    "ACTION_LABELS",
    "CATALOGUE",
    "MESSAGES",
    "PHASE_LABELS",
    "SUIT_NAMES",
    "TERMS",
    "Language",
    "Pair",
    "action_label",
    "amount_text",
    "card_label",
    "detect_language",
    "either",
    "joined",
    "key_label",
    "phase_label",
    "pick",
    "suit_name",
    "tr",
]


def detect_language(environ: Mapping[str, str]) -> Language:
    """Italian when the locale (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``) starts with ``it``,
    else English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            return Language.IT if value.lower().startswith("it") else Language.EN
    return Language.EN


ACTION_LABELS: dict[ActionKind, Pair] = {kind: ACTION_NAMES[kind.value] for kind in ActionKind}
"""Each action's name on its button and in the log: (English, Italian), the engine's
vocabulary."""

ACTION_KEYS: dict[ActionKind, str] = {
    ActionKind.OPEN: "a",
    ActionKind.PASS: "p",
    ActionKind.CALL: "v",
    ActionKind.RAISE: "r",
    ActionKind.CHECK: "b",
    ActionKind.BET: "u",
    ActionKind.PAROL: "l",
    ActionKind.FOLD: "f",
    ActionKind.BLIND: "i",
    ActionKind.CONTROBUIO: "c",
    ActionKind.OVER: "o",
    ActionKind.DECLINE: "n",
    ActionKind.DRAW: "enter",
    ActionKind.SHOW: "s",
    ActionKind.MUCK: "m",
    ActionKind.MAKE_UP: "e",
    ActionKind.SIT_OUT: "x",
}
"""One-key shortcuts, the same in both languages and in both front ends (mostly the Italian
initials: a=apro, p=passo, v=vedo, r=rilancio, b=busso, u=punto, l=parola, f=fold/lascio,
i=buio, ...)."""

PHASE_LABELS: dict[Phase, Pair] = {phase: PHASE_NAMES[phase.value] for phase in Phase}
"""Each phase of a deal, from the engine's vocabulary."""

SUIT_NAMES: dict[Suit, Pair] = {
    suit: _SUITS_BY_LETTER[suit.letter] for suit in sorted(Suit, reverse=True)
}
"""Each suit, highest first (hearts, diamonds, clubs, spades), from the engine's vocabulary."""

TERMS: dict[str, Pair] = {
    "dealer": ("dealer", "mazziere"),
    "deal": ("deal", "mano"),
    "pot": ("pot", "piatto"),
    "side_pot": ("side pot", "piatto laterale"),
    "chips": ("chips", "fiches"),
    "ante": ("ante", "invito"),
    "opener": ("opener", "chi ha aperto"),
    "stand_pat": ("stand pat", "servito"),
    "discards": ("discards", "scarti"),
}
"""The table's nouns, as docs/rules.md's glossary gives them (lower case; the messages
capitalise them where a sentence begins)."""


CATALOGUE = Catalogue("italian_poker.table")
"""The table layer's messages: the narration of a deal, its report and the session's
summary, and the statistics (``table/locale/en.po`` and ``it.po``). Each front end's
catalogue looks a key it lacks up here."""

MESSAGES: Mapping[str, Pair] = CATALOGUE
"""The table layer's messages, key -> (English, Italian) template."""


def tr(lang: Language, message: str, /, **values: object) -> str:
    """The table layer's message called ``message`` in ``lang``, with ``values`` filled in
    (counted words agree with their numbers, :func:`~italian_poker.table.catalogue.fill`)."""
    return CATALOGUE.text(lang, message, **values)


def either(words: Sequence[str], lang: Language) -> str:
    """Choices in a sentence: ``Fold, Call or Raise`` / ``Lascio, Vedo o Rilancio``."""
    if len(words) <= 1:
        return "".join(words)
    conjunction = " o " if lang is Language.IT else " or "
    return ", ".join(words[:-1]) + conjunction + words[-1]


def joined(words: Sequence[str], lang: Language) -> str:
    """All of ``words`` in a sentence: ``Anna, Bruno and Carla`` / ``Anna, Bruno e Carla``."""
    if len(words) <= 1:
        return "".join(words)
    conjunction = " e " if lang is Language.IT else " and "
    return ", ".join(words[:-1]) + conjunction + words[-1]


def action_label(kind: ActionKind, lang: Language) -> str:
    """The name of an action in ``lang``, e.g. ``Vedo`` / ``Call``."""
    return action_name(kind, lang)


def phase_label(phase: Phase, lang: Language) -> str:
    """The name of a phase of the deal in ``lang``."""
    return phase_name(phase, lang)


def suit_name(suit: Suit, lang: Language) -> str:
    """The name of a suit in ``lang`` (``hearts`` / ``cuori``)."""
    english, italian = SUIT_NAMES[suit]
    return italian if lang is Language.IT else english


def card_label(card: Card, lang: Language) -> str:
    """A card in words: ``Ace of hearts`` / ``Asso di cuori``, ``Ten of hearts`` /
    ``Dieci di cuori``."""
    return card_name(card.rank.letter, card.suit.letter, lang)


def amount_text(low: int, high: int, already: int, lang: Language) -> str:
    """An amount as a button or the log says it, from the round totals ``low`` to ``high``
    and the chips the player had in the round ``already``: what the player adds and, when
    that is not the whole bet, what the bet becomes: ``10 (to 20)``, ``1-10 (to 5-14)``;
    ``5`` or ``1-10`` with nothing in yet."""
    total = str(low) if low == high else f"{low}-{high}"
    if already <= 0:
        return total
    added = str(low - already) if low == high else f"{low - already}-{high - already}"
    return tr(lang, "amount_added", added=added, total=total)


def key_label(key: str) -> str:
    """How a key is written on a button: ``A``, ``Enter``."""
    return "Enter" if key == "enter" else key.upper()
