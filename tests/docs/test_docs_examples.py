"""Every Python example in README.md and docs/api.md runs as written.

docs/api.md says so of itself; these tests keep it true. The blocks of one document run in order
in one namespace, as a reader would type them (README's history example goes on from its
library example), with the current directory a temporary one (an example that writes a file
writes it there). The examples check themselves with ``assert`` where a result matters; a
block that raises fails the test named after its file and first line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "docs/api.md")
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, int, str]]:
    """``(document, first line, code)`` of every Python block of :data:`DOCUMENTS`."""
    found = []
    for name in DOCUMENTS:
        text = (ROOT / name).read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((name, line, match.group(1)))
    return found


EXAMPLES = examples()
_NAMESPACES: dict[tuple[str, int], dict[str, object]] = {}
"""The namespace after each block ran, by ``(document, first line)``."""


def namespace_before(document: str, line: int) -> dict[str, object]:
    """What the blocks of ``document`` before ``line`` left defined (run now if need be)."""
    namespace: dict[str, object] = {"__name__": "example"}
    for doc, first, code in EXAMPLES:
        if doc != document or first >= line:
            continue
        if (doc, first) not in _NAMESPACES:
            exec(compile(code, f"{doc}:{first}", "exec"), namespace)
            _NAMESPACES[doc, first] = dict(namespace)
        namespace = dict(_NAMESPACES[doc, first])
    return namespace


def test_the_documents_have_examples() -> None:
    counts = {name: sum(1 for doc, _, _ in EXAMPLES if doc == name) for name in DOCUMENTS}
    assert all(count > 0 for count in counts.values()), counts


@pytest.mark.parametrize(
    ("document", "line", "code"),
    EXAMPLES,
    ids=[f"{doc}:{line}" for doc, line, _ in EXAMPLES],
)
def test_example_runs_as_written(
    document: str, line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ITALIAN_POKER_DATA_DIR", str(tmp_path / "data"))
    namespace = namespace_before(document, line)
    exec(compile(code, f"{document}:{line}", "exec"), namespace)
    _NAMESPACES[document, line] = dict(namespace)
