"""The layering is visible in the tree: engine <- table <- (play, server, analysis, ai).

Every module under src/italian_poker is parsed (``ast``, nothing is imported): each
``import x`` and ``from x import y``, at module level or inside a function, a class or an
``if TYPE_CHECKING:`` block, relative imports resolved. The engine imports only itself and
the standard library; the table layer only the engine, itself and its one dependency
(``platformdirs``); each front end (play, server, analysis, ai) the engine, the table layer and
itself, never another front end; nothing imports ``italian_poker.cli``, the composition root,
which may import anything.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "italian_poker"
SRC = Path(__file__).resolve().parent.parent / "src"

FRONT_ENDS = ("play", "server", "analysis", "ai")
LAYERS = ("engine", "table", *FRONT_ENDS)

ALLOWED: dict[str, set[str] | None] = {
    "engine": {"engine"},
    "table": {"engine", "table"},
    **{front: {"engine", "table", front} for front in FRONT_ENDS},
    "root": {"engine", "table"},  # italian_poker/__init__.py: the public API of the rules
    "cli": None,  # the composition root: anything
}
"""The layers of the package each layer may import (None: any)."""

THIRD_PARTY: dict[str, set[str] | None] = {
    "engine": set(),
    "table": {"platformdirs", "babel"},
    "root": set(),
}
"""The packages outside the standard library each layer may import (absent: any)."""


@dataclass(frozen=True, slots=True)
class Import:
    """One imported module, where it is imported."""

    module: str
    """The importing module."""
    path: str
    line: int
    target: str
    """The imported module, resolved (``from x import y`` names ``x.y`` when that is a
    module of the package, else ``x``)."""


def module_sources(root: Path = SRC) -> dict[str, tuple[str, str]]:
    """Every module of the package: dotted name -> (path shown, source)."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        shown = str(path.relative_to(root.parent)) if root == SRC else str(path)
        found[".".join(parts)] = (shown, path.read_text(encoding="utf-8"))
    return found


def _is_package(module: str, sources: Mapping[str, tuple[str, str]]) -> bool:
    return sources[module][0].endswith("__init__.py") if module in sources else False


def imports_of(
    module: str, path: str, source: str, sources: Mapping[str, tuple[str, str]]
) -> Iterator[Import]:
    """Every import of one module, anywhere in it."""
    for node in ast.walk(ast.parse(source, path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, path, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = module.split(".")
                if not _is_package(module, sources):
                    base_parts.pop()
                if node.level > 1:
                    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                target = candidate if candidate in sources else base
                yield Import(module, path, node.lineno, target)


def layer_of(module: str) -> str | None:
    """The layer of a module of the package (None for anything outside it)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return "root"
    if parts[1] == "cli":
        return "cli"
    if parts[1] in LAYERS:
        return parts[1]
    return "root"


def violations(sources: Mapping[str, tuple[str, str]]) -> list[str]:
    """Every import that breaks the layering, as ``path:line: ...`` lines."""
    problems = []
    for module, (path, source) in sources.items():
        layer = layer_of(module)
        assert layer is not None, module
        allowed = ALLOWED[layer]
        for entry in imports_of(module, path, source, sources):
            target_layer = layer_of(entry.target)
            where = f"{entry.path}:{entry.line}: {module} ({layer}) imports {entry.target}"
            if target_layer is None:
                top = entry.target.split(".")[0]
                permitted = THIRD_PARTY.get(layer)
                standard = top in sys.stdlib_module_names or top == "__future__"
                if not standard and permitted is not None and top not in permitted:
                    problems.append(f"{where}, outside the standard library")
            elif target_layer == "cli" and layer != "cli":
                problems.append(f"{where}: only the composition root imports the cli")
            elif allowed is not None and target_layer not in allowed:
                problems.append(f"{where} ({target_layer})")
    return problems


def test_the_layers_import_only_the_layers_below_them() -> None:
    sources = module_sources()
    assert any(name.startswith(f"{PACKAGE}.table.") for name in sources)
    problems = violations(sources)
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def test_the_check_finds_sideways_upward_and_hidden_imports() -> None:
    """The checker itself: relative imports, imports inside functions and under
    ``TYPE_CHECKING``, ``from package import module`` and the cli."""
    sources = {
        "italian_poker": ("__init__.py", "from italian_poker.engine import cards\n"),
        "italian_poker.engine": ("engine/__init__.py", ""),
        "italian_poker.engine.cards": ("engine/cards.py", "import os\nimport numpy\n"),
        "italian_poker.table": ("table/__init__.py", ""),
        "italian_poker.table.words": ("table/words.py", "from ..server import app\n"),
        "italian_poker.play": ("play/__init__.py", ""),
        "italian_poker.play.session": ("play/session.py", ""),
        "italian_poker.server": ("server/__init__.py", ""),
        "italian_poker.server.app": (
            "server/app.py",
            "from typing import TYPE_CHECKING\n"
            "from . import protocol\n"
            "from italian_poker import play\n"
            "if TYPE_CHECKING:\n"
            "    from ..play.session import Event\n"
            "def run():\n"
            "    import italian_poker.cli\n",
        ),
        "italian_poker.server.protocol": ("server/protocol.py", "from .app import run\n"),
        "italian_poker.cli": ("cli.py", "from italian_poker.server import app\n"),
    }
    found = violations(sources)
    assert found == [
        "engine/cards.py:2: italian_poker.engine.cards (engine) imports numpy, outside the "
        "standard library",
        "table/words.py:1: italian_poker.table.words (table) imports italian_poker.server.app "
        "(server)",
        "server/app.py:3: italian_poker.server.app (server) imports italian_poker.play (play)",
        "server/app.py:5: italian_poker.server.app (server) imports "
        "italian_poker.play.session (play)",
        "server/app.py:7: italian_poker.server.app (server) imports italian_poker.cli: only "
        "the composition root imports the cli",
    ]


def test_the_server_imports_nothing_from_the_terminal_game() -> None:
    """The issue's own words: the server once took the terminal game's narration and paths."""
    sources = module_sources()
    for module, (path, source) in sources.items():
        if layer_of(module) != "server":
            continue
        for entry in imports_of(module, path, source, sources):
            assert layer_of(entry.target) != "play", f"{entry.path}:{entry.line}: {entry.target}"


DEAL_PARTS = ("betting_round", "draw", "showdown")
"""The parts of a deal (engine/deal.py hands over to them, phase by phase)."""


def test_the_deals_parts_do_not_import_the_deal() -> None:
    """No cycle deal <-> betting_round/draw/showdown: each part sees its deal through a
    protocol of its own (BettingTable, DrawTable, ShowdownTable) and imports nothing of
    engine/deal.py, not even for type checking."""
    sources = module_sources()
    deal = f"{PACKAGE}.engine.deal"
    found = [
        f"{entry.path}:{entry.line}: {entry.module} imports {entry.target}"
        for part in DEAL_PARTS
        for entry in imports_of(
            f"{PACKAGE}.engine.{part}", *sources[f"{PACKAGE}.engine.{part}"], sources
        )
        if entry.target == deal or entry.target.startswith(deal + ".")
    ]
    assert not found, "\n".join(found)
