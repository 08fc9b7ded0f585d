"""Hand histories written by the version before the operations log (tests/fixtures/histories,
written at commit 86701ce) still load, replay, and are written back as the same text: the
history built from the replayed deal's operations log is the history read from the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from italian_poker.engine.history import HandHistory, describe, dumps, loads, replay

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "histories").glob("*.phh"))


def test_the_fixtures_cover_the_deals_that_matter() -> None:
    names = {path.name.split("_")[0] for path in FIXTURES}
    assert {"blind", "parol", "four", "reshuffle", "split", "passed", "showdown"} <= names


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_a_history_written_before_still_loads_replays_and_reads_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    history = loads(text)
    deal = replay(history)
    assert dumps(history) == text  # read back, written again: the same text
    rebuilt = HandHistory.from_deal(deal, number=history.number)
    assert rebuilt == history  # from the operations log, without a replay
    assert dumps(rebuilt) == text
    assert describe(history, deal)
