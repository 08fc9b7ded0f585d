"""Hand histories written before still load, replay, and are written back: version 1
(tests/fixtures/histories, written at commit 86701ce, with the deck order and the reshuffles'
orders) is read and written as version 2, which records only the cards taken (the dealer's
lines); version 2 (tests/fixtures/histories_v2, those same deals) reads and writes back as the
same text, and the history built from the replayed deal's operations log is the history read
from the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from italian_poker.engine.history import HandHistory, describe, dumps, loads, replay

HERE = Path(__file__).resolve().parents[1] / "fixtures"
FIXTURES = sorted((HERE / "histories").glob("*.phh"))
FIXTURES_V2 = sorted((HERE / "histories_v2").glob("*.phh"))


def as_version_2(text: str) -> str:
    """A version 1 text as version 2 writes it: no deck order, no reshuffle orders."""
    text = text.replace("_format = 1\n", "_format = 2\n")
    text = re.sub(r"_deck = \[\n(?:  .*\n)*\]\n", "", text)
    text = re.sub(r"_reshuffles = \[\n(?:  .*\n)*\]\n", "", text)
    return text.replace("_reshuffles = []\n", "")


def test_the_fixtures_cover_the_deals_that_matter() -> None:
    for fixtures in (FIXTURES, FIXTURES_V2):
        names = {path.name.split("_")[0] for path in fixtures}
        assert {"blind", "parol", "four", "reshuffle", "split", "passed", "showdown"} <= names
    assert [p.name for p in FIXTURES] == [p.name for p in FIXTURES_V2]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_a_version_1_history_loads_replays_and_is_written_as_version_2(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    history = loads(text)
    deal = replay(history)
    assert "_deck" in text and "_format = 1" in text
    assert dumps(history) == as_version_2(text)
    assert dumps(history) == (HERE / "histories_v2" / path.name).read_text(encoding="utf-8")
    rebuilt = HandHistory.from_deal(deal, number=history.number)
    assert rebuilt == history  # from the operations log, without a replay
    assert describe(history, deal)


@pytest.mark.parametrize("path", FIXTURES_V2, ids=lambda p: p.name)
def test_a_version_2_history_loads_replays_and_reads_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    history = loads(text)
    deal = replay(history)
    assert dumps(history) == text  # read back, written again: the same text
    rebuilt = HandHistory.from_deal(deal, number=history.number)
    assert rebuilt == history
    assert dumps(rebuilt) == text
    assert describe(history, deal)
