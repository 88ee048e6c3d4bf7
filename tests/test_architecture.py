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
    assert {"excover.solving.exact_cover", "excover.cli.solving"} <= calling  # it looked
    if side == "listed":
        assert listed - calling == set(), "listed, but not calling the orchestrator"
    else:
        assert calling - listed == set(), "calling the orchestrator, but not listed"
