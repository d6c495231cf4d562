"""The import graph of our packages, read from the source (ast): who imports whom.

tests/test_layering.py states the project's rules over it; this module only reads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
OUR_PACKAGES = ("corridorquest", "client", "admin")


def imported_modules(package: str) -> dict[str, set[str]]:
    """module path -> names of the modules it imports (absolute form)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """module -> the modules of ours it imports (`corridorquest.store.models`, ...).

    `from package import name` points at the submodule `package.name` when there is one,
    else at the package; a name below a module (`from m import f`) points at `m`."""
    files = {
        _module_name(path): path
        for package in OUR_PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }

    def ours(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, frozenset[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(ours(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                targets.update(ours(f"{base}.{alias.name}") or ours(base) for alias in node.names)
        graph[module] = frozenset(t for t in targets if t is not None and t != module)
    return graph


def _within(name: str, rooms: Iterable[str]) -> bool:
    return any(name == room or name.startswith(room + ".") for room in rooms)


def arrows_from(rooms: Iterable[str]) -> list[tuple[str, str]]:
    """(module, imported module) for every import out of a module in `rooms`."""
    rooms = tuple(rooms)
    return [
        (module, target)
        for module, targets in sorted(import_graph().items())
        if _within(module, rooms)
        for target in sorted(targets)
    ]


def broken(rooms: Iterable[str], forbidden: Iterable[str]) -> list[str]:
    forbidden = tuple(forbidden)
    return [f"{module} imports {target}" for module, target in arrows_from(rooms)
            if _within(target, forbidden)]


def circles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
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
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _trees(package: str) -> Iterable[tuple[str, ast.Module]]:
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))
