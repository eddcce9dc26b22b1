"""No import cycle between phatlog's modules, function-level imports included.

Every ``import`` and ``from ... import`` anywhere in a module (at the top, in a function, in a class) is an
edge of the graph, and so is ``import_module("phatlog...")`` with a constant name; ``from phatlog import
NAME`` is an edge to the module that ``phatlog`` loads NAME from. Imports under ``if TYPE_CHECKING:`` are
annotations only and not counted. The layers themselves (which package may import which) are the
import-linter contract in pyproject.toml, run by ``make lint``; this test lets ``make test`` catch a cycle too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import phatlog

PACKAGE: Final = Path(phatlog.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["phatlog", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES: Final = _modules()


def _known(name: str) -> str | None:
    """The module of the package that importing ``name`` runs last: ``name`` or its nearest parent."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(module: str, path: Path) -> Iterator[str]:
    """The dotted names that ``module`` imports, wherever the import statement stands."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    homes: dict[str, str] = getattr(phatlog, "_HOMES", {})
    stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                if base == "phatlog" and alias.name in homes:
                    yield homes[alias.name]
                else:
                    yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
        elif isinstance(node, ast.Call):
            func, args = node.func, node.args
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            first = args[0] if args else None
            if name == "import_module" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value
        stack.extend(ast.iter_child_nodes(node))


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        found = {_known(name) for name in _imported(module, path) if name.split(".")[0] == "phatlog"}
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def _shown(cycles: list[list[str]], graph: dict[str, set[str]]) -> str:
    """Each cycle's modules with the imports between them."""
    lines = []
    for component in cycles:
        inside = set(component)
        lines.append(" ".join(component))
        lines.extend(f"    {a} -> {b}" for a in component for b in sorted(graph[a] & inside))
    return "\n".join(lines)


def test_the_graph_sees_every_kind_of_import() -> None:
    """The walk finds a top-level import, a function-level one, and ``import_module``; not TYPE_CHECKING's."""
    graph = _graph()
    assert "phatlog.record.decoder" in graph["phatlog.formats.text_fast"]  # at the top
    assert "phatlog.formats.text" in graph["phatlog.formats.text_files"]  # in a function
    assert "phatlog.formats.registry" in graph["phatlog.formats"]  # import_module("phatlog.formats.registry")
    assert "phatlog.api" not in graph["phatlog"]  # under TYPE_CHECKING only


def test_no_import_cycle() -> None:
    """No module imports, directly or through others, a module that imports it (function-level included)."""
    graph = _graph()
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + _shown(cycles, graph)


def test_nothing_inside_the_package_imports_the_api() -> None:
    """``phatlog.api`` is the face: only the commands may import it (``phatlog`` loads it lazily)."""
    graph = _graph()
    importers = sorted(m for m, found in graph.items() if "phatlog.api" in found and not m.startswith("phatlog.cli"))
    assert not importers
