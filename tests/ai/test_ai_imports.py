"""The modules of ``italian_poker.ai`` import one another without a circle.

Every ``import`` statement counts, those under ``if TYPE_CHECKING:`` too: a module that
needs another's name at type-checking time still depends on it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import italian_poker.ai

PACKAGE = "italian_poker.ai"
AI = Path(italian_poker.ai.__file__).parent


def _imports(path: Path) -> set[str]:
    """The ``italian_poker.ai`` submodules the module at ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n for n in names if n.startswith(PACKAGE + ".") and _is_module(n))
    return found


def _is_module(name: str) -> bool:
    return (AI / f"{name.removeprefix(PACKAGE + '.')}.py").exists()


def import_graph() -> dict[str, set[str]]:
    """Each submodule of the package (``__init__`` aside: it only re-exports) and the
    submodules it imports."""
    return {
        f"{PACKAGE}.{path.stem}": _imports(path)
        for path in sorted(AI.glob("*.py"))
        if path.stem != "__init__"
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``, each as the modules along it."""
    found: list[list[str]] = []
    for start in graph:
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    if min(path) == start:  # each circle once, from its smallest module
                        found.append([*path, start])
                elif nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    return found


def test_the_graph_sees_the_imports() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.encoding" in graph[f"{PACKAGE}.openspiel_game"]
    assert f"{PACKAGE}.openspiel_game" in graph[f"{PACKAGE}.pettingzoo_aec"]


def test_the_checker_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_module_of_the_ai_package_imports_itself_through_others() -> None:
    assert cycles(import_graph()) == []
