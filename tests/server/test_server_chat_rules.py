"""The chat's rules (server/chat.py), pure: what a message may hold (trimmed, 1 to the
configured length, no control or invisible character but the joiners and selectors emoji
and some scripts need) and the rate limit per person (a token bucket: a burst, then one
message an interval), with properties over any text and any sequence of times."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from italian_poker.server.chat import (
    BLACK_FLAG,
    JOINERS,
    MAX_MARKS,
    TAGS,
    Bucket,
    ChatMessage,
    ChatRate,
    ChatRefusal,
    check_text,
)
from italian_poker.server.models import ChatMessageRow
from italian_poker.server.nicknames import BLANK_FILLERS, REFUSED_CATEGORIES, VARIATION_SELECTORS
from italian_poker.server.settings import CHAT_STORED_LENGTH, ServerSettings

LIMIT = 200
CODES = {"chat_empty", "chat_too_long", "chat_bad_character"}

FORBIDDEN = [
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x7f",
    "\u00ad",  # soft hyphen
    "\u061c",  # Arabic letter mark
    "\u200b",  # zero-width space
    "\u200e",  # left-to-right mark
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2028",  # line separator
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u3164",  # Hangul filler
    "\u2800",  # Braille blank
    "\ue000",  # private use
    "\U000e0041",  # a tag character outside a flag
]
"""Characters a message may never hold, wherever they stand."""


def refusal(text: str, limit: int = LIMIT) -> ChatRefusal:
    with pytest.raises(ChatRefusal) as refused:
        check_text(text, limit)
    return refused.value


@given(st.text(max_size=260))
@example("  ciao  ")
@example("\u200d")
@example("e" + "\u0301" * 5)
def test_any_text_is_kept_trimmed_or_refused_with_a_chat_code(text: str) -> None:
    try:
        kept = check_text(text, LIMIT)
    except ChatRefusal as refused:
        assert refused.code in CODES and refused.status == 422
        assert refused.message and (not text.strip() or text.strip() not in refused.message)
        return
    assert kept == text.strip() and 1 <= len(kept) <= LIMIT
    assert check_text(kept, LIMIT) == kept
    for char in kept:
        code = ord(char)
        assert code not in BLANK_FILLERS, kept
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            assert code in JOINERS or code in TAGS, kept
    assert not unicodedata.category(kept[0]).startswith("M")


@given(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=LIMIT))
def test_printable_text_within_the_limit_is_kept_as_typed(text: str) -> None:
    assert check_text(f" {text}\u3000", LIMIT) == text


@given(
    st.text(st.characters(categories=["L", "N", "P"]), min_size=2, max_size=50),
    st.sampled_from(FORBIDDEN),
    st.integers(min_value=1),
)
def test_a_control_or_invisible_character_anywhere_inside_is_refused(
    text: str, forbidden: str, at: int
) -> None:
    where = 1 + at % (len(text) - 1)
    refused = refusal(text[:where] + forbidden + text[where:])
    assert refused.code == "chat_bad_character"
    assert f"U+{ord(forbidden):04X}" in refused.message


@pytest.mark.parametrize("blank", ["", " ", "   ", "\u3000\u00a0", " \n "])
def test_nothing_but_spaces_is_empty(blank: str) -> None:
    assert refusal(blank).code == "chat_empty"


def test_the_length_is_counted_in_characters_once_trimmed() -> None:
    assert check_text("x" * LIMIT + "   ", LIMIT) == "x" * LIMIT
    assert check_text("🂡" * LIMIT, LIMIT) == "🂡" * LIMIT  # one character each
    too_long = refusal("x" * (LIMIT + 1))
    assert too_long.code == "chat_too_long"
    assert too_long.message == "a message is 1 to 200 characters; this one has 201"
    assert refusal("ab", 1).code == "chat_too_long"


@pytest.mark.parametrize(
    "text",
    [
        "👩\u200d💻 ok",  # a zero-width joiner between two emoji
        "❤\ufe0f",  # a variation selector after its character
        "❤\ufe0f\u200d🔥",  # a joiner after a selector
        "1\ufe0f\u20e3",  # a keycap
        "👍🏽",  # a skin tone
        chr(BLACK_FLAG) + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f",
        "نمی\u200cخواهم",  # Persian's zero-width non-joiner
        "Tiê\u0301ng Viê\u0323\u0302t",  # two marks on one letter
        "葛\U000e0100",  # an ideographic variation selector
        "Ciao a tutti, buona fortuna!",
    ],
)
def test_the_joiners_and_selectors_emoji_and_scripts_need_are_kept(text: str) -> None:
    assert check_text(text, LIMIT) == text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("\u200d", "U+200D"),  # a joiner with nothing to join
        ("a \u200db", "U+200D"),  # after a space
        ("ab\u200d c", "U+200D"),  # before a space
        ("a\u200d\u200db", "U+200D"),  # two in a row
        ("\ufe0fa", "U+FE0F"),  # a selector with nothing before it
        ("a \ufe0f", "U+FE0F"),
        ("\U000e0067\U000e007f", "U+E0067"),  # tags without the flag
        ("\u0301a", "begin with an accent"),
        ("e" + "\u0301" * (MAX_MARKS + 1), f"at most {MAX_MARKS} accents"),
    ],
)
def test_invisible_characters_out_of_place_and_stacked_marks_are_refused(
    text: str, says: str
) -> None:
    refused = refusal(text)
    assert refused.code == "chat_bad_character" and says in refused.message


def test_variation_selectors_are_the_nicknames_own() -> None:
    assert 0xFE0F in VARIATION_SELECTORS and 0xE0100 in VARIATION_SELECTORS
    assert not VARIATION_SELECTORS & BLANK_FILLERS


# --- the rate limit -----------------------------------------------------------------------


RATE = ChatRate(burst=5, interval=2.0)


def test_a_burst_then_one_message_every_interval() -> None:
    bucket = None
    for _ in range(RATE.burst):
        bucket = RATE.take(bucket, 100.0)
    with pytest.raises(ChatRefusal) as refused:
        RATE.take(bucket, 100.0)
    assert refused.value.code == "chat_rate_limited" and refused.value.status == 429
    assert refused.value.message == "you are writing too fast: wait 2 s, then send it again"
    with pytest.raises(ChatRefusal):
        RATE.take(bucket, 101.9)
    bucket = RATE.take(bucket, 102.0)
    with pytest.raises(ChatRefusal):
        RATE.take(bucket, 102.5)
    # After a pause as long as the whole burst takes to refill, a whole burst again.
    for _ in range(RATE.burst):
        bucket = RATE.take(bucket, 200.0)
    with pytest.raises(ChatRefusal):
        RATE.take(bucket, 200.0)


def test_a_clock_that_went_back_refills_nothing() -> None:
    bucket = Bucket(0.0, 50.0)
    with pytest.raises(ChatRefusal):
        RATE.take(bucket, 10.0)
    assert RATE.take(bucket, 52.0) == Bucket(0.0, 52.0)


@given(
    st.integers(min_value=1, max_value=6),
    st.floats(min_value=0.1, max_value=5.0),
    st.lists(st.floats(min_value=0.0, max_value=3.0), min_size=1, max_size=60),
)
def test_no_window_holds_more_than_a_burst_and_its_refills(
    burst: int, interval: float, gaps: list[float]
) -> None:
    """Whatever a person sends when, the messages let through in any span of time are at
    most the burst and one an interval; and a message refused says a wait after which it
    passes."""
    rate = ChatRate(burst, interval)
    bucket: Bucket | None = None
    now = 0.0
    passed: list[float] = []
    for gap in gaps:
        now += gap
        try:
            bucket = rate.take(bucket, now)
        except ChatRefusal as refused:
            wait = int(refused.message.split("wait ")[1].split(" s")[0])
            assert wait >= 1 and bucket is not None
            later = now + wait
            refilled = min(float(burst), bucket.tokens + (later - bucket.at) / interval)
            assert rate.take(bucket, later) == Bucket(refilled - 1.0, later)
            if wait > 1:  # the wait said is the shortest in whole seconds
                with pytest.raises(ChatRefusal):
                    rate.take(bucket, later - 1)
            continue
        passed.append(now)
    for first in range(len(passed)):
        for last in range(first, len(passed)):
            span = passed[last] - passed[first]
            assert last - first + 1 <= burst + span / interval + 1e-9


@given(st.integers(min_value=1, max_value=10), st.integers(min_value=1, max_value=40))
def test_a_message_every_interval_always_passes(burst: int, count: int) -> None:
    rate = ChatRate(burst, 2.0)
    bucket: Bucket | None = None
    for n in range(count):
        bucket = rate.take(bucket, 2.0 * n)


# --- a stored message, and the settings ----------------------------------------------------


def test_a_message_as_the_websocket_sends_it() -> None:
    naive = datetime(2026, 12, 3, 12, 5, 7)  # as SQLite gives it back: UTC without a zone
    message = ChatMessage(4, 9, "Anna", "ciao", naive)
    assert message.as_json(2) == {
        "id": 4,
        "player": 9,
        "seat": 2,
        "nickname": "Anna",
        "text": "ciao",
        "created": "2026-12-03T12:05:07+00:00",
    }
    aware = ChatMessage(4, 9, "Anna", "ciao", naive.replace(tzinfo=UTC))
    assert aware.as_json(None)["created"] == "2026-12-03T12:05:07+00:00"
    assert aware.as_json(None)["seat"] is None


def test_the_settings_keep_the_chat_within_what_the_database_holds() -> None:
    assert ChatMessageRow.__table__.c.text.type.length == CHAT_STORED_LENGTH  # type: ignore[attr-defined]
    assert ServerSettings().chat_max_length == 200
    ServerSettings(chat_max_length=CHAT_STORED_LENGTH)
    for bad in (0, CHAT_STORED_LENGTH + 1):
        with pytest.raises(ValueError, match="chat_max_length is 1 to 1000"):
            ServerSettings(chat_max_length=bad)
    for changes in ({"chat_burst": 0}, {"chat_interval_seconds": 0.0}, {"chat_history": -1}):
        with pytest.raises(ValueError, match="the chat needs"):
            ServerSettings(**changes)  # type: ignore[arg-type]
