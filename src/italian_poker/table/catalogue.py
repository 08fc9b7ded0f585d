"""Message catalogues: each front end's words in English and Italian, as gettext ``.po`` files.

A package's words live in ``<package>/locale/en.po`` and ``it.po``: each ``msgid`` is the
message's key, each ``msgstr`` its template in that language. Babel reads them
(:func:`babel.messages.pofile.read_po`, once, on the first look-up) and its CLDR data decide
the rest: :func:`fill` chooses the form of a counted word by the language's plural rule, and
:func:`decimal` writes a fraction as the language does (``12.5`` / ``12,5``).

A template names its values in braces, ``{name}``; a number placeholder may carry the forms
of the word that agrees with it, ``{count:card|cards}`` (``1 card``, ``2 cards``), and a
``#`` in a form places the number, ``{count:ne ha cambiata #|ne ha cambiate #}``. The
browser's ``i18n.js`` reads the same notation, with the browser's own CLDR plural rules.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from importlib import resources

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.plural import to_python

from italian_poker.engine.vocabulary import Language, Pair

__all__ = ["Catalogue", "decimal", "fill", "percent"]


@cache
def _locale(lang: Language) -> Locale:
    return Locale.parse(str(lang))


class _MessageFormatter(string.Formatter):
    """``str.format`` plus the counted word ``{count:one|many}`` (the language's plural rule)."""

    def __init__(self, lang: Language) -> None:
        super().__init__()
        # The CLDR rule compiled to Python once; the counts a table says repeat.
        self.plural_form = lru_cache(maxsize=4096)(to_python(_locale(lang).plural_form))

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" not in format_spec:
            result: str = super().format_field(value, format_spec)
            return result
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"a counted word needs a whole number, got {value!r}")
        one, _, many = format_spec.partition("|")
        form = one if self.plural_form(value) == "one" else many
        return form.replace("#", str(value)) if "#" in form else f"{value} {form}"


_FORMATTERS = {lang: _MessageFormatter(lang) for lang in Language}


@lru_cache(maxsize=4096)
def _counts_words(template: str) -> bool:
    """Whether ``template`` has a counted word (a field ``{n:one|many}``), which only the
    message formatter fills; any other template is filled by ``str.format_map``."""
    return "|" in template and any(
        spec and "|" in spec for _, _, spec, _ in _FORMATTERS[Language.EN].parse(template)
    )


def fill(template: str, lang: Language, /, **values: object) -> str:
    """``template`` with ``values`` filled in, its counted words agreeing with their numbers
    by ``lang``'s plural rule (English and Italian: one for 1, the other form otherwise)."""
    if not values:
        return template
    if _counts_words(template):
        return _FORMATTERS[lang].format(template, **values)
    return template.format_map(values)


def decimal(value: float, lang: Language, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals as ``lang`` writes it: ``12.5`` / ``12,5``."""
    pattern = "0." + "0" * digits if digits else "0"
    return format_decimal(value, format=pattern, locale=_locale(lang))


def percent(chance: float, lang: Language, digits: int = 1) -> str:
    """A chance from 0 to 1 as a percentage with ``digits`` decimals: ``12.5%`` / ``12,5%``."""
    return decimal(100 * chance, lang, digits) + "%"


class Catalogue(Mapping[str, Pair]):
    """The words of one package, read from its ``locale/en.po`` and ``locale/it.po``: as a
    mapping, its own key -> (English, Italian) template. :meth:`text` and :meth:`template`
    look a key it lacks up in ``parent`` (the table layer's catalogue, for the narration
    every front end tells)."""

    def __init__(self, package: str, parent: Catalogue | None = None) -> None:
        self.package = package
        self.parent = parent
        self._read: dict[Language, Mapping[str, str]] = {}

    def templates(self, lang: Language) -> Mapping[str, str]:
        """This package's own templates in ``lang``, key -> template (read on first use)."""
        read = self._read.get(lang)
        if read is None:
            read = self._read[lang] = self._load(lang)
        return read

    def _load(self, lang: Language) -> Mapping[str, str]:
        source = resources.files(self.package).joinpath("locale", f"{lang.value}.po")
        with source.open("rb") as file:
            catalog = read_po(file, locale=str(lang))
        return {
            str(message.id): str(message.string)
            for message in catalog
            if message.id and isinstance(message.id, str)
        }

    def __getitem__(self, key: str) -> Pair:
        return self.templates(Language.EN)[key], self.templates(Language.IT)[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.templates(Language.EN))

    def __len__(self) -> int:
        return len(self.templates(Language.EN))

    def template(self, lang: Language, key: str) -> str:
        """The template of ``key`` in ``lang`` (from the parent when this package lacks it)."""
        own = self.templates(lang).get(key)
        if own is not None:
            return own
        if self.parent is None:
            raise KeyError(key)
        return self.parent.template(lang, key)

    def text(self, lang: Language, key: str, /, **values: object) -> str:
        """The message ``key`` in ``lang`` with ``values`` filled in (:func:`fill`)."""
        return fill(self.template(lang, key), lang, **values)
