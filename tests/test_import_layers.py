"""The import rule of docs/architecture.md, checked over the source of every module.

Each module under ``src/excover`` is parsed (never imported) and every import is an edge:
at module level, inside functions (a lazy import made for start-up speed is still a
dependency) and under ``if TYPE_CHECKING:`` (a type named is a type depended on: a
module that names the types of the layer above it cannot be read without that layer).

Two rules follow. Between packages (``excover.X``, for each top package or top module,
and each subpackage of :data:`SUBPACKAGES`, a node of its own) the graph has no circle
and every edge goes down the layers of :data:`LAYERS`, or stays within one layer.
Between the modules of one package the run-time graph has no circle either (there a
module may name, under ``TYPE_CHECKING``, the type of a sibling that imports it: one
package is read as one unit).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "excover"

#: The source is parsed once per process (the cached helpers below): the module's tests
#: run on one pytest-xdist worker, not each worker parsing it again.
pytestmark = pytest.mark.xdist_group("import layers")

#: The layers, bottom first (docs/architecture.md draws them). A module may import from
#: its own layer and the layers below it, never from a layer above.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "names",
        "numbers",
        "records",
        "statistics",
        "errors",
        "deadlines",
        "lazy",
        "atomic",
        "display",
    ),
    ("documents",),
    ("entries", "permutations", "problem"),
    ("formats", "burr.xmpuzzle", "preprocess"),
    ("engines", "zdd", "sat"),
    ("counting",),
    ("parallel",),
    ("symmetry",),
    ("solving",),
    ("cli",),
    ("design",),
    ("tiling", "lang", "puzzles", "nonogram", "studio", "sequences", "burr"),
    ("excover", "main", "__main__"),
)

#: Subpackages that are nodes of their own, on a layer below their package's: BurrTools'
#: file model (``burr.xmpuzzle``: reading and writing ``.xmpuzzle`` files, their lattices
#: and their exact cover problems) lives in burr's home, with the rest of BurrTools, but
#: is a file format that the model's front door (``ExactCover.from_burrtools``), the
#: command line and tiling's grids read, so it imports nothing of burr outside itself.
SUBPACKAGES = ("burr.xmpuzzle",)


def module_name(path: Path) -> str:
    """``src/excover/zdd/dxz.py`` -> ``excover.zdd.dxz``; a package is its ``__init__``."""
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package (compiled ones by their .pyx), by dotted name."""
    found = {module_name(path): path for path in SOURCE.rglob("*.py")}
    for path in SOURCE.rglob("*.pyx"):
        found.setdefault(module_name(path), path)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


#: The nodes that may hold statements: an import is a statement, and no expression holds one.
_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(tree: ast.AST, typing_too: bool) -> Iterator[ast.AST]:
    """Every statement of ``tree`` at any depth; with ``typing_too`` False, not those in
    the bodies of ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, _HOLDERS):
            continue
        if not typing_too and isinstance(node, ast.If) and _is_type_checking(node.test):
            for other in node.orelse:
                yield other
                yield from _statements(other, typing_too)
            continue
        yield node
        yield from _statements(node, typing_too)


@cache
def syntax_tree(path: Path) -> ast.Module:
    """The parsed source of ``path``, read once for both graphs of :func:`module_graph`."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(
    name: str, path: Path, known: dict[str, Path], typing_too: bool = True
) -> Iterator[tuple[str, int]]:
    """The excover modules that module ``name`` imports, with line numbers; with
    ``typing_too`` False, only those it imports when it runs (not under TYPE_CHECKING)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = syntax_tree(path)
    for node in _statements(tree, typing_too):
        targets: list[str] = []
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                stem = package[: len(package) - node.level + 1]
                base = ".".join([*stem, *([node.module] if node.module else [])])
            # ``from excover import errors`` imports the module excover.errors
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            if target == "excover" or target.startswith("excover."):
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                yield target, node.lineno


def top(name: str) -> str:
    """The package-level node of a module: ``excover.zdd.dxz`` -> ``zdd``; a module of
    one of :data:`SUBPACKAGES` is that subpackage's (``excover.burr.xmpuzzle.files`` ->
    ``burr.xmpuzzle``)."""
    parts = name.split(".")
    for subpackage in SUBPACKAGES:
        if name == f"excover.{subpackage}" or name.startswith(f"excover.{subpackage}."):
            return subpackage
    return parts[1] if len(parts) > 1 else parts[0]


@cache
def module_graph(typing_too: bool = True) -> dict[str, dict[str, int]]:
    """Module -> {imported module: first line importing it} (``typing_too``: see
    :func:`imports`)."""
    known = modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        edges: dict[str, int] = {}
        if path.suffix == ".py":
            for target, line in imports(name, path, known, typing_too):
                if target != name:
                    edges.setdefault(target, line)
        graph[name] = edges
    return graph


@cache
def package_graph() -> dict[str, dict[str, str]]:
    """Package -> {imported package: "module:line" of one import making the edge}."""
    graph: dict[str, dict[str, str]] = {}
    for name, edges in module_graph().items():
        outgoing = graph.setdefault(top(name), {})
        for target, line in edges.items():
            if top(target) != top(name):
                outgoing.setdefault(top(target), f"{name}:{line}")
    return graph


def find_circle(graph: dict[str, dict[str, str]] | dict[str, dict[str, int]]) -> list[str]:
    """One circle of ``graph`` (``[a, b, ..., a]``), or ``[]`` when it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, {})):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                circle = visit(target)
                if circle:
                    return circle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            circle = visit(node)
            if circle:
                return circle
    return []


def _layer(package: str) -> int:
    for number, names in enumerate(LAYERS):
        if package in names:
            return number
    raise AssertionError(f"excover.{package} is in no layer of LAYERS: add it")


def test_every_package_is_in_a_layer() -> None:
    for package in package_graph():
        _layer(package)


def test_no_import_circle_between_packages() -> None:
    graph = package_graph()
    circle = find_circle(graph)
    steps = [f"{a} -> {b} ({graph[a][b]})" for a, b in itertools.pairwise(circle)]
    assert not circle, "import circle between packages: " + "; ".join(steps)


def test_imports_go_down_the_layers() -> None:
    upward = [
        f"excover.{package} (layer {_layer(package)}) imports excover.{target} "
        f"(layer {_layer(target)}) at {where}"
        for package, edges in package_graph().items()
        for target, where in edges.items()
        if _layer(target) > _layer(package)
    ]
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("subpackage", SUBPACKAGES)
def test_a_subpackage_node_runs_no_parent_above_it(subpackage: str) -> None:
    """Importing ``excover.burr.xmpuzzle`` runs ``excover/burr/__init__.py`` first: that
    ``__init__`` imports, when it runs, nothing above the subpackage's layer (burr's
    loads its public names lazily)."""
    graph = module_graph(typing_too=False)
    parent = f"excover.{subpackage.rsplit('.', 1)[0]}"
    above = [
        f"{parent} imports {target} (line {line})"
        for target, line in graph[parent].items()
        if top(target) != subpackage and _layer(top(target)) > _layer(subpackage)
    ]
    assert not above, "\n".join(above)


def _packages() -> list[str]:
    return sorted({top(name) for name in modules() if name.count(".") >= 2})


@pytest.mark.parametrize("package", _packages())
def test_no_import_circle_between_the_modules_of_a_package(package: str) -> None:
    inside = {
        name: {target: line for target, line in edges.items() if top(target) == package}
        for name, edges in module_graph(typing_too=False).items()
        if top(name) == package and name != "excover"
    }
    circle = find_circle(inside)
    steps = [f"{a} -> {b} (line {inside[a][b]})" for a, b in itertools.pairwise(circle)]
    assert not circle, f"import circle in excover.{package}: " + "; ".join(steps)


def test_the_checker_finds_a_circle_and_reads_lazy_imports(tmp_path: Path) -> None:
    """The graph sees an import inside a function and one under TYPE_CHECKING, and
    :func:`find_circle` names the circle it is given."""
    source = tmp_path / "excover" / "m.py"
    source.parent.mkdir()
    source.write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from excover import hidden\n"
        "def f():\n    from excover.errors import UsageError\n"
    )
    known = {"excover.m": source, "excover.errors": source, "excover.hidden": source}
    found = sorted(imports("excover.m", source, known))
    assert found == [("excover.errors", 5), ("excover.hidden", 3)]
    assert find_circle({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b": 1}, "b": {}}) == []
