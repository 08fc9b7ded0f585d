"""Every Python example in docs/api.md runs as written, each on its own.

Each ```python block of docs/api.md runs in a fresh namespace of its own (the blocks run in the
order of the document), so that every example stands alone: a reader may copy any one of
them. The current directory is a temporary one (an example that writes a file writes it
there). The examples check themselves with ``assert``; a block that raises fails the test
named after its first line. The page also names every command, event and card source, and
every public member of the table machine, so that a new one cannot go undocumented, and each
of its links to a section of itself finds that section (GitHub's heading anchors).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from italian_poker.engine import card_source
from italian_poker.table import commands, machine_events
from italian_poker.table.machine import TableMachine

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"
TEXT = API.read_text(encoding="utf-8")
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)

BLOCKS = [(TEXT.count("\n", 0, m.start()) + 2, m.group(1)) for m in _BLOCK.finditer(TEXT)]
"""``(first line, code)`` of every Python block of docs/api.md, in order."""


def test_the_page_has_examples_of_the_table_machine_and_the_card_sources() -> None:
    codes = [code for _, code in BLOCKS]
    assert any("TableMachine(" in code for code in codes)
    assert any("RecordedSource(" in code for code in codes)
    assert any("CHANCE)" in code for code in codes)


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"api.md:{line}" for line, _ in BLOCKS])
def test_example_runs_alone(
    line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ITALIAN_POKER_DATA_DIR", str(tmp_path / "data"))
    exec(compile(code, f"docs/api.md:{line}", "exec"), {"__name__": "example"})


DOCUMENTED = sorted(
    {*commands.__all__, *machine_events.__all__, *card_source.__all__, "MalformedCommandError"}
    | {name for name in dir(TableMachine) if not name.startswith("_")}
    | {"rules", "seed", "audiences"}
)
"""The names docs/api.md must mention: commands, events, sources, the machine's members."""


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_page_names(name: str) -> None:
    assert re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", TEXT), f"docs/api.md never names {name}"


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, no punctuation, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_within_the_page_finds_its_section() -> None:
    prose = re.sub(r"^```.*?^```", "", TEXT, flags=re.MULTILINE | re.DOTALL)
    headings = {anchor(h) for h in re.findall(r"^#+ (.*)$", prose, re.MULTILINE)}
    links = set(re.findall(r"\]\(#([^)]+)\)", prose))
    assert links and links <= headings, sorted(links - headings)
