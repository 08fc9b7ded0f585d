"""The terminal game's words in English and Italian: its catalogue (``play/locale/en.po``
and ``it.po``), built on the table layer's (the narration), and the human's name at its table."""

from __future__ import annotations

from italian_poker.engine.vocabulary import Language
from italian_poker.table import vocabulary
from italian_poker.table.catalogue import Catalogue

__all__ = ["CATALOGUE", "HUMAN_NAMES", "tr"]

CATALOGUE = Catalogue("italian_poker.play", parent=vocabulary.CATALOGUE)
"""The terminal game's messages: the table's status, the prompts, the help, the advice."""

HUMAN_NAMES: dict[Language, str] = {Language.EN: "Player", Language.IT: "Giocatore"}
"""The human player's name at the terminal game's table."""


def tr(lang: Language, message: str, /, **values: object) -> str:
    """The terminal game's message called ``message`` in ``lang`` (or the table layer's, for
    the narration), with ``values`` filled in."""
    return CATALOGUE.text(lang, message, **values)
