"""The modules of excover.nonogram import each other without a circle: every import is
counted, at the top of a module, inside a function (a lazy one) or for type checkers
only, so that each module can be read, tested and changed above the ones it uses."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "excover" / "nonogram"


def _module_name(path: Path, root: Path, package: str) -> str:
    """The dotted name of the module at ``path`` in the package at ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _targets(node: ast.AST, here: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that the import statement ``node`` in module ``here``
    names: ``import a.b``, ``from a import b`` (``b`` a module or a name of ``a``),
    relative imports too."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & known
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = node.module or ""
    if node.level:
        anchor = here.split(".") if is_package else here.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    found = {f"{base}.{alias.name}" for alias in node.names} & known
    named_only = [alias for alias in node.names if f"{base}.{alias.name}" not in known]
    if named_only and base in known:
        found.add(base)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of the package at ``root`` (Python files and compiled ``.pyx``
    extensions, subpackages included) with the package's modules it imports."""
    files = sorted(root.rglob("*.py"))
    known = {_module_name(path, root, package) for path in files}
    known |= {_module_name(path, root, package) for path in root.rglob("*.pyx")}
    graph: dict[str, set[str]] = {name: set() for name in known}
    for path in files:
        here = _module_name(path, root, package)
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            graph[here] |= _targets(node, here, is_package, known) - {here}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of two or more modules (Tarjan's
    algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_nonogram_modules_import_each_other_without_a_circle() -> None:
    graph = import_graph(PACKAGE, "excover.nonogram")
    assert "excover.nonogram.formats.text" in graph  # subpackages are read too
    assert circles(graph) == []


def test_drawing_and_the_culprit_search_stand_below_what_uses_them() -> None:
    graph = import_graph(PACKAGE, "excover.nonogram")
    assert "excover.nonogram.draw" in graph["excover.nonogram.model"]  # Jupyter's picture
    assert not graph["excover.nonogram.draw"] & {"excover.nonogram.model"}
    assert "excover.nonogram.culprit" in graph["excover.nonogram.search"]
    assert "excover.nonogram.search" not in graph["excover.nonogram.culprit"]


def test_a_circle_through_a_lazy_or_type_checking_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.sub import c\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from ..a import name\n"
    )
    (package / "d.py").write_text("import pkg.a\n")
    graph = import_graph(package, "pkg")
    assert graph["pkg.sub.c"] == {"pkg.a"}
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
