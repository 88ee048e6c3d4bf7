"""The one orchestrator, kept so by reading the source (docs/architecture.md).

Every module under ``src/excover`` is parsed with :mod:`ast` (nothing is imported) and
checked against three rules of issue 79's first item:

1. the composite policy is the orchestrator's: no module outside ``solving/`` calls
   ``registry.scout`` or ``registry.broken`` (nor imports them), the scout and the
   symmetry-broken search the orchestrator builds;
2. the front ends run no search of their own: no ``Search(`` or ``run_tasks(`` (nor their
   import) in ``lang/``, ``studio/`` or ``cli/``;
3. a method is told apart by name only in :mod:`excover.names` and the registry of its
   runners (:mod:`excover.counting.methods`): no other module compares something that
   names a method (an expression whose text says ``method``, or a ``.cmb`` algorithm's
   ``algo``) with a method's name (:data:`excover.names.METHODS` and the old names),
   by ``==``, ``!=``, ``in``, ``not in`` or a ``match`` case. The nonogram package has a
   vocabulary of methods of its own (``propagate``, ``xcc``, ...) and is left out.

and the page's list of the front ends that call the orchestrator is the list of the
modules that do.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest

from excover.names import METHOD_ALIASES, METHODS

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "excover"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

#: The names of methods a comparison may not name outside the registry.
METHOD_NAMES = frozenset(METHODS) | frozenset(METHOD_ALIASES)

#: Where methods may be told apart by name: the vocabulary and the runners' registry.
REGISTRY = ("names.py", "counting/methods.py")

#: Packages with a vocabulary of methods of their own, not exact cover's.
OWN_METHODS = ("nonogram/",)

#: The packages of the front ends that run no search of their own.
FRONT_ENDS = ("lang/", "studio/", "cli/")

#: What names a method in a comparison's other operand.
NAMES_A_METHOD = re.compile(r"method|\balgo\b", re.IGNORECASE)


@cache
def sources() -> dict[str, ast.Module]:
    """Every module of the package, parsed, by its path under ``src/excover``."""
    return {
        path.relative_to(SOURCE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SOURCE.rglob("*.py"))
    }


def _called(node: ast.Call) -> tuple[str | None, str]:
    """A call's function as (the name it is an attribute of, or None; its name)."""
    func = node.func
    if isinstance(func, ast.Name):
        return None, func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        return owner, func.attr
    return None, ""


def composite_calls(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The places ``tree`` calls (or imports) the registry's scout or broken search."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            owner, name = _called(node)
            if owner == "registry" and name in ("scout", "broken"):
                yield node.lineno, f"registry.{name}("
        elif isinstance(node, ast.ImportFrom) and node.module == "excover.solving.registry":
            for alias in node.names:
                if alias.name in ("scout", "broken"):
                    yield node.lineno, f"from excover.solving.registry import {alias.name}"


def searches(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The places ``tree`` makes a ``Search`` or runs subproblems (``run_tasks``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            _, name = _called(node)
            if name in ("Search", "run_tasks"):
                yield node.lineno, f"{name}("
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in ("Search", "run_tasks"):
                    yield node.lineno, f"import of {alias.name}"


def _method_names(node: ast.expr) -> list[str]:
    """The names of methods ``node`` is, or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and node.value in METHOD_NAMES:
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [name for element in node.elts for name in _method_names(element)]
    return []


def method_comparisons(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The places ``tree`` compares what names a method with a method's name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = [name for operand in operands for name in _method_names(operand)]
            others = [operand for operand in operands if not _method_names(operand)]
            if named and any(NAMES_A_METHOD.search(ast.unparse(o)) for o in others):
                yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.Match) and NAMES_A_METHOD.search(ast.unparse(node.subject)):
            for case in node.cases:
                pattern = case.pattern
                if isinstance(pattern, ast.MatchValue) and _method_names(pattern.value):
                    yield pattern.lineno, f"case {ast.unparse(pattern)}"


def _offences(
    check: Callable[[ast.Module], Iterator[tuple[int, str]]],
    where: tuple[str, ...] = (),
    besides: tuple[str, ...] = (),
) -> list[str]:
    """Every offence ``check`` finds in the modules under ``where`` (all: ()), but those
    under ``besides``."""
    found = []
    for name, tree in sources().items():
        if where and not name.startswith(where):
            continue
        if besides and name.startswith(besides):
            continue
        found += [f"{name}:{line}: {what}" for line, what in check(tree)]
    return found


def test_the_scout_and_the_broken_search_are_the_orchestrators() -> None:
    assert _offences(composite_calls, besides=("solving/",)) == []


def test_the_front_ends_run_no_search_of_their_own() -> None:
    assert _offences(searches, where=FRONT_ENDS) == []


def test_methods_are_told_apart_by_name_only_in_the_registry() -> None:
    assert _offences(method_comparisons, besides=REGISTRY + OWN_METHODS) == []


def test_the_checks_find_what_they_look_for() -> None:
    """Each rule flags a module written against it (so that none of the tests above can
    pass by looking at nothing), and passes the ways the code is meant to go."""
    bad = ast.parse(
        "from excover.solving.registry import scout\n"
        "registry.broken(p, g, 'search', None, {})\n"
        "s = Search(p)\n"
        "runs = parallel.run_tasks(p, subs)\n"
        "if args.method == 'zdd': pass\n"
        "if algo.name in ('sat', 'search'): pass\n"
        "match request.method:\n"
        "    case 'auto': pass\n"
    )
    assert len(list(composite_calls(bad))) == 2
    assert len(list(searches(bad))) == 2
    assert sorted(line for line, _ in method_comparisons(bad)) == [5, 6, 8]
    good = ast.parse(
        "orchestrate.count(p, request)\n"
        "if METHOD_TRAITS[args.method].family: pass\n"
        "if engine == 'auto' or layout == 'auto': pass\n"
        "if difficulty == 'search': pass\n"
    )
    assert not [*composite_calls(good), *searches(good), *method_comparisons(good)]
    assert len(sources()) > 100  # the package's modules were found


def callers_of_the_orchestrator() -> set[str]:
    """The modules (dotted) that call the orchestrator's ``count``, ``solutions``,
    ``listing`` or ``count_total``, outside the orchestrator itself."""
    entries = {"count", "solutions", "listing", "count_total"}
    found = set()
    for name, tree in sources().items():
        if name == "solving/orchestrate.py":
            continue
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "excover.solving.orchestrate"
            for alias in node.names
            if alias.name in entries
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                owner, called = _called(node)
                if (owner == "orchestrate" and called in entries) or (
                    owner is None and called in imported
                ):
                    found.add("excover." + name.removesuffix(".py").replace("/", "."))
    return found


def listed_front_ends() -> set[str]:
    """The modules docs/architecture.md lists as calling the orchestrator: the
    backquoted module names of the list after the line that says so."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    marker = "These modules call the orchestrator:"
    assert marker in text, f"docs/architecture.md has no line {marker!r}"
    listing = text.split(marker, 1)[1].lstrip("\n").split("\n\n", 1)[0]
    return set(re.findall(r"^- `(excover(?:\.\w+)+)`", listing, re.MULTILINE))


@pytest.mark.parametrize("side", ["listed", "calling"])
def test_the_page_lists_the_front_ends_that_call_the_orchestrator(side: str) -> None:
    calling, listed = callers_of_the_orchestrator(), listed_front_ends()
    looked = {"excover.solving.exact_cover", "excover.cli.exact_cover.solving"}
    assert looked <= calling  # it looked
    if side == "listed":
        assert listed - calling == set(), "listed, but not calling the orchestrator"
    else:
        assert calling - listed == set(), "calling the orchestrator, but not listed"


# ------------------------------------------------------------------ the command line's seam
#
# Issue 79's third item: the command line's toolkit (``excover.cli``) apart from the
# commands over one exact cover problem (``excover.cli.exact_cover``), and the flags read
# into typed requests once, at the edge (docs/architecture.md, the cli layer):
#
# 4. no module makes an ``argparse.Namespace`` (``Namespace(...)``, whatever it is
#    imported as), nor changes one: no attribute of ``args`` (the name every command
#    gives its Namespace) is assigned, no ``setattr(args, ...)``; only argparse's own
#    parsing fills one (an ``argparse.Action`` such as ``cli.flags.Refused``, on its
#    ``namespace``);
# 5. no module of the toolkit (``cli/`` outside ``cli/exact_cover/``) imports the
#    exact-cover commands, at module level, in a function or under ``TYPE_CHECKING``;
#    nor does the studio, nor the JSON documents of results (``documents/``), which the
#    command line and the studio share.

#: The exact-cover commands, which the toolkit may not import.
EXACT_COVER = "excover.cli.exact_cover"


def namespace_forgeries(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The places ``tree`` makes an ``argparse.Namespace`` or changes the one named
    ``args``."""
    namespace_names = {"Namespace"} | {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "argparse"
        for alias in node.names
        if alias.name == "Namespace"
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            owner, called = _called(node)
            if called in namespace_names and owner in (None, "argparse"):
                yield node.lineno, "Namespace("
            elif (owner, called) == (None, "setattr") and node.args:
                target = node.args[0]
                if isinstance(target, ast.Name) and target.id == "args":
                    yield node.lineno, "setattr(args, ...)"
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "args"
            ):
                yield target.lineno, f"args.{target.attr} = "


def imports_of(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every module ``tree`` imports, anywhere in it (``from X import Y`` as ``X.Y``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _is_toolkit(name: str) -> bool:
    return name.startswith("cli/") and not name.startswith("cli/exact_cover/")


def test_no_module_makes_or_changes_a_namespace() -> None:
    found = {
        f"{name}:{line}: {what}"
        for name, tree in sources().items()
        for line, what in namespace_forgeries(tree)
    }
    assert found == set(), "an argparse.Namespace made or changed below the edge"


def test_the_toolkit_imports_no_exact_cover_command() -> None:
    found = {
        f"{name}:{line}: {module}"
        for name, tree in sources().items()
        if _is_toolkit(name) or name.startswith(("studio/", "documents/"))
        for line, module in imports_of(tree)
        if module == EXACT_COVER or module.startswith(EXACT_COVER + ".")
    }
    assert found == set(), "the toolkit, the studio or the documents import a command"


def test_the_seams_checks_find_what_they_look_for() -> None:
    forged = ast.parse(
        "import argparse\n"
        "from argparse import Namespace as N\n"
        "def f(args):\n"
        "    a = argparse.Namespace(**vars(args))\n"
        "    b = N(x=1)\n"
        "    args.limit = 1\n"
        "    args.count += 1\n"
        "    setattr(args, 'all', True)\n"
        "    request.limit = 2\n"
        "    namespace.refused = {}\n"
    )
    assert sorted(namespace_forgeries(forged)) == [
        (4, "Namespace("),
        (5, "Namespace("),
        (6, "args.limit = "),
        (7, "args.count = "),
        (8, "setattr(args, ...)"),
    ]
    imports = ast.parse(
        "from excover.cli import exact_cover\n"
        "def f():\n"
        "    from excover.cli.exact_cover.solving import count\n"
        "    import excover.cli.exact_cover.request\n"
    )
    assert sorted(imports_of(imports)) == [
        (1, "excover.cli.exact_cover"),
        (3, "excover.cli.exact_cover.solving.count"),
        (4, "excover.cli.exact_cover.request"),
    ]
    toolkit = [name for name in sources() if _is_toolkit(name)]
    assert "cli/report.py" in toolkit and "cli/options.py" in toolkit
    assert not any(name.startswith("cli/exact_cover/") for name in toolkit)
