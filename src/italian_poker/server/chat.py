"""The table's chat: what a message may hold, how fast a person may write, and a
stored message as the WebSocket sends it. Pure: the table's chat stores and sends
(:meth:`~italian_poker.server.table_chat.TableChat.post`).

The rules (docs/server.md, "Chat"):

- A message is kept as typed, less the spaces around it: 1 to ``max_length`` characters
  (code points; ``ServerSettings.chat_max_length``, 200).
- Refused: control characters (tabs and line breaks too: a message is one line), format
  characters (zero-width spaces, bidirectional controls, soft hyphens), private-use and
  unassigned code points, blank fillers (Hangul fillers, the Braille blank), a message that
  begins with a combining mark, and more than :data:`MAX_MARKS` marks on one character
  ("Zalgo" text). Allowed, as emoji and some scripts need them: a zero-width joiner or
  non-joiner between two characters that are not spaces (👩‍💻, Persian's ZWNJ), a variation
  selector after a character that is not a space (❤️), and the tag characters of a flag
  after 🏴 (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
- Each person has a token bucket (:class:`ChatRate`): ``burst`` messages at once, then one
  every ``interval`` seconds. A refused message takes nothing from it. The buckets are kept
  by :mod:`italian_poker.server.chat_buckets` (in Redis with several processes).

Every refusal is a :class:`ChatRefusal` with a code (``chat_empty``, ``chat_too_long``,
``chat_bad_character``, ``chat_rate_limited``) and a message a person can act on, which
never repeats what was sent.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from italian_poker.server.nicknames import BLANK_FILLERS, REFUSED_CATEGORIES, VARIATION_SELECTORS

MAX_MARKS = 4
"""Combining marks one character may carry (Vietnamese needs two, a few scripts three)."""
JOINERS = frozenset({0x200C, 0x200D})
"""Zero-width non-joiner and joiner: allowed between two characters that are not spaces."""
BLACK_FLAG = 0x1F3F4
TAGS = range(0xE0020, 0xE0080)
"""Tag characters: allowed only in a flag's tag sequence, after :data:`BLACK_FLAG`."""


class ChatRefusal(ValueError):
    """A chat message refused: a code for programs and a message for the person."""

    def __init__(self, code: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def check_text(text: str, max_length: int) -> str:
    """The message as it is kept (``text`` less the spaces around it); raises
    :class:`ChatRefusal` when it breaks the rules of the module's docstring."""
    message = text.strip()
    if not message:
        raise ChatRefusal("chat_empty", "write something first: the message is empty")
    if len(message) > max_length:
        raise ChatRefusal(
            "chat_too_long",
            f"a message is 1 to {max_length} characters; this one has {len(message)}",
        )
    marks = 0
    for index, char in enumerate(message):
        code = ord(char)
        category = unicodedata.category(char)
        if not _allowed(message, index, code, category):
            raise ChatRefusal(
                "chat_bad_character",
                "a message cannot hold control or invisible characters, tabs or line "
                f"breaks (U+{code:04X}, character {index + 1})",
            )
        if category.startswith("M"):
            if index == 0:
                raise ChatRefusal(
                    "chat_bad_character", "a message cannot begin with an accent or a mark"
                )
            marks += 1
            if marks > MAX_MARKS:
                raise ChatRefusal(
                    "chat_bad_character",
                    f"a character may carry at most {MAX_MARKS} accents or marks "
                    f"(character {index + 1})",
                )
        else:
            marks = 0
    return message


def _allowed(message: str, index: int, code: int, category: str) -> bool:
    """Whether ``message[index]`` (``code``, of ``category``) may stand where it is."""
    before = message[index - 1] if index else None
    if code in JOINERS:
        after = message[index + 1] if index + 1 < len(message) else None
        return _joins(before) and _joins(after)
    if code in TAGS:
        return before is not None and (ord(before) == BLACK_FLAG or ord(before) in TAGS)
    if code in VARIATION_SELECTORS:
        return _joins(before)
    if code in BLANK_FILLERS or category in REFUSED_CATEGORIES:
        return False
    return category == "Zs" or not message[index].isspace()  # a space, not a tab


def _joins(char: str | None) -> bool:
    """Whether a joiner or a selector may stand next to ``char``: a character that is not a
    space, nor a joiner itself."""
    return char is not None and not char.isspace() and ord(char) not in JOINERS


@dataclass(frozen=True, slots=True)
class Bucket:
    """A person's chat allowance: ``tokens`` messages (a fraction refills) at ``at``."""

    tokens: float
    at: float


@dataclass(frozen=True, slots=True)
class ChatRate:
    """The chat's rate limit per person: ``burst`` messages at once, then one every
    ``interval`` seconds."""

    burst: int
    interval: float

    def take(self, bucket: Bucket | None, now: float) -> Bucket:
        """The person's bucket after one more message at ``now`` (``None``: they have not
        written yet, their bucket is full); raises :class:`ChatRefusal`
        (``chat_rate_limited``, 429) saying how long to wait when it is empty. A clock that
        went back refills nothing."""
        tokens = float(self.burst)
        if bucket is not None:
            elapsed = max(0.0, now - bucket.at)
            tokens = min(tokens, bucket.tokens + elapsed / self.interval)
        if tokens >= 1.0:
            return Bucket(tokens - 1.0, now)
        raise self.refusal(tokens)

    def give_back(self, bucket: Bucket) -> Bucket:
        """``bucket`` with the token of a message that was not sent after all."""
        return Bucket(min(float(self.burst), bucket.tokens + 1.0), bucket.at)

    def refusal(self, tokens: float) -> ChatRefusal:
        """The refusal of a message when the bucket holds ``tokens`` (less than one): how
        long to wait."""
        wait = max(1, math.ceil((1.0 - tokens) * self.interval))
        return ChatRefusal(
            "chat_rate_limited",
            f"you are writing too fast: wait {wait} s, then send it again",
            429,
        )


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A stored chat message: its id (the table's messages in order), who wrote it (the
    person's id, :attr:`~italian_poker.server.seats.Slot.player`) under which
    nickname, its text and when (UTC)."""

    id: int
    player: int
    nickname: str
    text: str
    created: datetime

    def as_json(self, seat: int | None) -> dict[str, Any]:
        """The message as the WebSocket sends it; ``seat``: where its author sits now (None
        once they left); ``created`` in ISO 8601, in UTC."""
        moment = self.created
        if moment.tzinfo is None:  # SQLite keeps no zone: the value is UTC
            moment = moment.replace(tzinfo=UTC)
        return {
            "id": self.id,
            "player": self.player,
            "seat": seat,
            "nickname": self.nickname,
            "text": self.text,
            "created": moment.astimezone(UTC).isoformat(),
        }
