"""The analysis commands' words in English and Italian (``italian-poker advise``, ``review``
and ``stats``): their catalogue (``analysis/locale/en.po`` and ``it.po``), built on the
table layer's (the statistics)."""

from __future__ import annotations

from italian_poker.engine.vocabulary import Language
from italian_poker.table import vocabulary
from italian_poker.table.catalogue import Catalogue

__all__ = ["CATALOGUE", "tr"]

CATALOGUE = Catalogue("italian_poker.analysis", parent=vocabulary.CATALOGUE)
"""The analysis commands' messages: the advisor's, the review's, the statistics' files."""


def tr(lang: Language, message: str, /, **values: object) -> str:
    """The analysis commands' message called ``message`` in ``lang``, with ``values``."""
    return CATALOGUE.text(lang, message, **values)
