"""Nicknames a table can tell apart at a glance.

The rule (docs/server.md):

- A nickname is kept as typed, less the spaces around it: 1 to 20 characters.
- Refused (422): control and invisible characters (format characters such as zero-width
  spaces, joiners, bidirectional overrides and soft hyphens; blank fillers; variation
  selectors; line breaks, tabs), private-use and unassigned code points, a name that begins
  with a combining mark, and a name whose letters mix scripts, e.g. Latin with Cyrillic or
  Greek ("Hаna" with a Cyrillic а). Japanese (Han, Hiragana, Katakana), Chinese (Han,
  Bopomofo) and Korean (Han, Hangul) names may mix their own scripts, and Latin letters
  with them, as Unicode's "highly restrictive" profile (UTS #39) allows.
- Two nicknames are the same (409 at the table) when their :func:`nickname_key` is: Unicode
  NFKC normalisation with case folding (``Ｈana``, ``hana`` and ``HANA`` are ``Hana``),
  runs of spaces as one, and the Cyrillic and Greek letters that look like Latin ones read
  as those (``Расе`` in Cyrillic is ``Pace``).

Scripts are read from the characters' Unicode names (the standard library has no script
property); letters and non-ASCII digits count, everything else (ASCII digits, punctuation,
symbols, marks) belongs to every script.
"""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 20

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories never shown to a table: controls, format characters (zero-width
spaces and joiners, bidirectional controls, soft hyphens), surrogates, private use,
unassigned, line and paragraph separators."""
BLANK_FILLERS = frozenset(
    {
        0x034F,  # combining grapheme joiner
        0x115F,  # Hangul fillers
        0x1160,
        0x3164,
        0xFFA0,
        0x17B4,  # Khmer inherent vowels
        0x17B5,
        0x2800,  # Braille pattern blank
    }
)
"""Characters of a shown category that show nothing (a blank name or message)."""
VARIATION_SELECTORS = frozenset(
    {
        *range(0x180B, 0x1810),  # Mongolian variation selectors
        *range(0xFE00, 0xFE10),  # variation selectors (VS16 makes an emoji of ❤)
        *range(0xE0100, 0xE01F0),  # ideographic variation selectors
    }
)
"""Selectors of a variant of the character before them: invisible on their own."""
_INVISIBLE = BLANK_FILLERS | VARIATION_SELECTORS

_SCRIPT_NAMES = {
    "CJK": "Han",
    "IDEOGRAPHIC": "Han",
    "KANGXI": "Han",
    "ARABIC-INDIC": "Arabic",
    "EXTENDED": None,  # EXTENDED ARABIC-INDIC DIGIT ...: the next word says
    "HALFWIDTH": None,
    "FULLWIDTH": None,
    "MODIFIER": "",  # modifier letters belong to every script
    "KATAKANA-HIRAGANA": "",
}
_ALLOWED_MIXES = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)

_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic (after case folding) that reads as Latin
        "а": "a",
        "в": "b",
        "е": "e",
        "һ": "h",
        "н": "h",
        "і": "i",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "ѕ": "s",
        "с": "c",
        "т": "t",
        "у": "y",
        "ԝ": "w",
        "х": "x",
        "ԁ": "d",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "h",
        "ι": "i",
        "κ": "k",
        "μ": "m",
        "ν": "n",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "y",
        "χ": "x",
        # Latin letters that look like other Latin ones
        "ı": "i",
        "ȷ": "j",
        "ɑ": "a",
        "ɡ": "g",
    }
)


class BadName(ValueError):
    """A nickname (or a table's name) the server refuses, with a message a player can act
    on."""


def check_text(text: str, what: str, max_length: int) -> str:
    """``text`` less the spaces around it, 1 to ``max_length`` characters, none of them a
    control or invisible one (the rule for anything shown to the table); raises
    :class:`BadName` naming ``what``."""
    name = text.strip()
    if not name:
        raise BadName(f"{what} needs at least one visible character")
    if len(name) > max_length:
        raise BadName(f"{what} is 1 to {max_length} characters")
    for char in name:
        code = ord(char)
        if unicodedata.category(char) in REFUSED_CATEGORIES or code in _INVISIBLE:
            raise BadName(f"{what} cannot hold control or invisible characters (U+{code:04X})")
        if char.isspace() and unicodedata.category(char) != "Zs":
            raise BadName(f"{what} cannot hold tabs or line breaks (U+{code:04X})")
    return name


def check_nickname(text: str) -> str:
    """The nickname as it is kept (``text`` less the spaces around it); raises
    :class:`BadName` when it breaks the rule."""
    name = check_text(text, "a nickname", MAX_LENGTH)
    if unicodedata.category(name[0]).startswith("M"):
        raise BadName("a nickname cannot begin with a combining mark")
    scripts = scripts_of(name)
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in _ALLOWED_MIXES):
        mixed = " and ".join(sorted(scripts))
        raise BadName(f"a nickname cannot mix letters of different scripts ({mixed})")
    return name


def scripts_of(name: str) -> frozenset[str]:
    """The scripts of the letters (and non-ASCII digits) of ``name`` after NFKC."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(char)
        if not (category.startswith("L") or (category == "Nd" and not char.isascii())):
            continue
        script = _script(char)
        if script:
            scripts.add(script)
    return frozenset(scripts)


def _script(char: str) -> str:
    words = unicodedata.name(char, "").split()
    for word in words:
        known = _SCRIPT_NAMES.get(word, word.title())
        if known is not None:
            return known
    return ""


def nickname_key(name: str) -> str:
    """What two nicknames that look the same have in common: NFKC with case folding, runs
    of spaces as one, and Cyrillic and Greek look-alikes of Latin letters as those."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split()).translate(_LOOK_ALIKES)
