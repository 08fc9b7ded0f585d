"""The language of the commands' output (``--lang``)."""

from __future__ import annotations

from italian_poker.cli.errors import fail
from italian_poker.engine.vocabulary import Language


def chosen_language(lang: str | None) -> Language:
    """The language ``--lang`` names (``it`` or ``en``), else the environment's."""
    import os

    from italian_poker.table.vocabulary import detect_language

    if lang is None:
        return detect_language(os.environ)
    if lang.lower() in ("it", "en"):
        return Language(lang.lower())
    raise fail(f"--lang must be it or en, got {lang!r}")
