"""The online table's words in English and Italian: its catalogue (``server/locale/en.po``
and ``it.po``: the public log's table events and the browser's pages), built on the table
layer's (the narration), and the pages' words as the server sends them
(``GET /api/strings/{lang}``: the browser keeps no copy of its own)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from italian_poker.engine.vocabulary import (
    ACTION_NAMES,
    CARD_NAME,
    PHASE_NAMES,
    RANK_NAMES,
    SUIT_NAMES,
    Language,
    Pair,
    pick,
)
from italian_poker.table import vocabulary
from italian_poker.table.catalogue import Catalogue
from italian_poker.table.narration import Line, both

__all__ = ["CATALOGUE", "PAGE_MESSAGES", "STATISTICS_PAGE_KEYS", "line", "page_strings", "tr"]

CATALOGUE = Catalogue("italian_poker.server", parent=vocabulary.CATALOGUE)
"""The online table's messages: the table's events in the public log and the pages' labels."""

STATISTICS_PAGE_KEYS = (
    "stats_title",
    "stats_player",
    "stats_played",
    "stats_opened",
    "stats_showdowns",
    "stats_showdowns_won",
    "stats_won_without_showdown",
    "stats_net",
    "stats_biggest_pot",
    "stats_deals",
    "stats_carried",
    "stats_empty",
)
"""The statistics' words the pages say, the table layer's (table/statistics.py's)."""

SHARED_PAGE_KEYS = ("amount_added",)
"""The table layer's words the pages say as the terminal does: what a call or raise adds."""


def _capital(pair: Pair) -> Pair:
    return pair[0][:1].upper() + pair[0][1:], pair[1][:1].upper() + pair[1][1:]


def _page_messages() -> dict[str, Pair]:
    glossary: dict[str, Pair] = {f"phase_{phase}": pair for phase, pair in PHASE_NAMES.items()}
    glossary["draw_title"] = ACTION_NAMES["draw"]
    glossary["stand_pat"] = _capital(vocabulary.TERMS["stand_pat"])
    glossary["ledger_hand"] = _capital(vocabulary.TERMS["deal"])
    shared = STATISTICS_PAGE_KEYS + SHARED_PAGE_KEYS
    statistics = {key: vocabulary.CATALOGUE[key] for key in shared}
    return glossary | statistics | dict(CATALOGUE)


PAGE_MESSAGES: Mapping[str, Pair] = MappingProxyType(_page_messages())
"""Every label of the browser's pages, key -> (English, Italian) template: the server's
catalogue, the engine's phases and the glossary's terms, and the statistics' column heads."""


def tr(lang: Language, message: str, /, **values: object) -> str:
    """The online table's message called ``message`` in ``lang`` (or the table layer's, for
    the narration), with ``values`` filled in."""
    return CATALOGUE.text(lang, message, **values)


def line(message: str, /, **values: object) -> Line:
    """The message called ``message`` in both languages, for the public log, e.g.
    ``line("table_seat", name="Anna", seat=3)``: ``Anna takes seat 3`` / ``Anna si siede al
    posto 3``."""
    return both(lambda lang: tr(lang, message, **values))


def page_strings(lang: Language) -> dict[str, Any]:
    """Everything the browser's pages say, in ``lang``, as JSON-ready values: the labels
    (:data:`PAGE_MESSAGES`), the actions' names, the ranks and suits in words (keyed by
    letter, as the cards' codes write them) and how a card is named."""
    return {
        "lang": lang.value,
        "messages": {key: pick(pair, lang) for key, pair in PAGE_MESSAGES.items()},
        "actions": {kind: pick(pair, lang) for kind, pair in ACTION_NAMES.items()},
        "ranks": {letter: pick(pair, lang) for letter, pair in RANK_NAMES.items()},
        "suits": {letter: pick(pair, lang) for letter, pair in SUIT_NAMES.items()},
        "card": pick(CARD_NAME, lang),
    }
