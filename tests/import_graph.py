"""The import graph of ``src/stud``: its cycles and its layers, read from the source text.

Every ``import`` and ``from … import`` counts, wherever it stands: at the top, inside a
function, or under ``if TYPE_CHECKING:`` (a type named there is a design dependency too).
Importing ``a.b.c`` also runs ``a.b``'s ``__init__``, so the package counts as imported,
except the importer's own packages (already running when it loads).

    python tests/import_graph.py          # print every cycle and layer breach; exit 1 if any
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("stud.cards",),
    ("stud.evaluate",),
    ("stud.game",),
    ("stud.history", "stud.fairness"),
    ("stud.equity", "stud.bots", "stud.envcore"),
    ("stud.table", "stud.tournament", "stud.sim", "stud.env"),
    ("stud.server",),
    ("stud.cli", "stud.tui", "stud.web", "stud.testing"),
)
"""The layers of docs/architecture, lowest first: a module may import its own layer and
those below it, never one above."""

SERVER_ORDER: tuple[tuple[str, ...], ...] = (
    (
        "stud.server.errors",
        "stud.server.wire",
        "stud.server.tasks",
        "stud.server.trust",
        "stud.server.storage",
        "stud.server.observe",
    ),
    ("stud.server.actors",),
    ("stud.server.room",),
    ("stud.server.cluster",),
    ("stud.server.http", "stud.server.ws"),
    ("stud.server.app", "stud.server.__main__", "stud.server"),
)
"""Inside the server, imports run one way: http/ws → room → actors → storage; the cluster
implements the room's coordination interface and is picked by the app."""


def modules(src: Path = SRC) -> dict[str, Path]:
    """Every module under ``src`` by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _packages(name: str) -> Iterator[str]:
    """``a.b.c`` → ``a.b``, ``a``."""
    while "." in name:
        name = name.rpartition(".")[0]
        yield name


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module ``name`` starts with."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` (at ``path``) imports, packages included."""
    own_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            bases = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = own_package.split(".")
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            bases = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for base in bases:
            target = _resolve(base, known)
            if target is None:
                continue
            targets.add(target)
            targets.update(p for p in _packages(target) if p in known)
    mine = {name, *_packages(name)}
    return {t for t in targets if t not in mine}


def graph(src: Path = SRC) -> dict[str, set[str]]:
    known = modules(src)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
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
                    work.append((child, iter(sorted(edges.get(child, ())))))
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
    return sorted(found)


def _rank(name: str, order: tuple[tuple[str, ...], ...]) -> int | None:
    for rank, group in enumerate(order):
        if any(name == prefix or name.startswith(prefix + ".") for prefix in group):
            return rank
    return None


def breaches(edges: dict[str, set[str]]) -> list[str]:
    """Imports that go up a layer (or, inside the server, against its one direction)."""
    found = []
    for order in (LAYERS, SERVER_ORDER):
        for source, targets in sorted(edges.items()):
            mine = _rank(source, order)
            for target in sorted(targets):
                theirs = _rank(target, order)
                if mine is not None and theirs is not None and theirs > mine:
                    found.append(f"{source} -> {target}")
    return found


def main() -> int:
    edges = graph()
    problems = 0
    for component in cycles(edges):
        print("cycle:", " ↔ ".join(component))
        problems += 1
    for breach in breaches(edges):
        print("layer breach:", breach)
        problems += 1
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
