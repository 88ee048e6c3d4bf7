"""No test enumerates the engines, methods or routes by hand (issue 79, item 4).

A test that means "every engine" (or every method, every route, every engine that can do
something) takes its list from :mod:`excover.names` (``SEARCH_ENGINES``, ``ENGINES``,
``METHODS`` with ``METHOD_TRAITS``, ``ROUTES``), or from the engines themselves
(``every_way.engines_for``, ``every_way.engines_telling_progress``), so that a new engine
is run by the oracle and cross-check tests from the day it is named instead of silently
escaping them.

Every ``tests/*.py`` is parsed with :mod:`ast` (nothing is imported) and a list, tuple
or set literal of two or more strings, each the name of an engine, a method (or an old
name of one) or a route, is an offence where it enumerates: in a module-level constant,
in the arguments of ``pytest.mark.parametrize`` or of hypothesis's ``sampled_from``, or
as what a ``for`` loop or a comprehension runs over. A literal that deliberately picks
particular ones (a test of one engine's behaviour, a method and its old name) stays, and
says so with a comment ``# specific engines: why`` (or ``methods``, ``routes``): on the
lines of its statement up to the literal, or in the comments just before that statement
(or decorator). Membership tests such as ``assert x in ("search", "zdd")`` state an
expected outcome, not a list to run, and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from excover.names import ENGINES, METHOD_ALIASES, METHODS, ROUTES

TESTS = Path(__file__).resolve().parent

#: The names a hand-written list may not consist of.
VOCABULARY = frozenset(METHODS) | frozenset(METHOD_ALIASES) | frozenset(ENGINES) | frozenset(ROUTES)

#: The comment that says a literal picks particular names on purpose.
MARKER = re.compile(r"#\s*specific (engines|methods|routes)\b")

#: The calls whose arguments enumerate cases.
ENUMERATING_CALLS = frozenset({"parametrize", "sampled_from"})


def _names(node: ast.AST) -> list[str] | None:
    """The strings of ``node`` when it is a list, tuple or set literal of two or more
    names of :data:`VOCABULARY` and nothing else; None otherwise."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set) or len(node.elts) < 2:
        return None
    values = [
        e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
    ]
    if len(values) != len(node.elts):
        return None
    return values if all(v in VOCABULARY for v in values) else None


def _enumerations(tree: ast.Module) -> list[ast.AST]:
    """The expressions of ``tree`` that enumerate: module-level constants, the arguments
    of :data:`ENUMERATING_CALLS`, the iterables of ``for`` loops and comprehensions."""
    found: list[ast.AST] = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            found.append(statement.value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            name = (
                function.attr
                if isinstance(function, ast.Attribute)
                else function.id
                if isinstance(function, ast.Name)
                else None
            )
            if name in ENUMERATING_CALLS:
                found.extend(node.args)
                found.extend(keyword.value for keyword in node.keywords)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            found.append(node.iter)
    return found


def _parents(tree: ast.Module) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _anchor(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    """The statement holding ``node``, or the decorator when it is in one."""
    while node in parents:
        parent = parents[node]
        if (
            isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node in parent.decorator_list
        ):
            return node
        if isinstance(node, ast.stmt):
            return node
        node = parent
    return node


def _marked(lines: list[str], anchor: ast.AST, literal: ast.AST) -> bool:
    """Whether a :data:`MARKER` comment stands on the lines from ``anchor``'s first to
    ``literal``'s last, or in the block of comment lines just above ``anchor``."""
    first = getattr(anchor, "lineno", 1)
    last = getattr(literal, "end_lineno", None) or getattr(literal, "lineno", first)
    if any(MARKER.search(line) for line in lines[first - 1 : last]):
        return True
    above = first - 2
    while above >= 0 and lines[above].lstrip().startswith("#"):
        if MARKER.search(lines[above]):
            return True
        above -= 1
    return False


def offences(source: str, name: str = "<test>") -> list[str]:
    """Each unmarked hand-written list of engines, methods or routes in ``source``, as
    ``name:line: [names]``."""
    tree = ast.parse(source)
    lines = source.splitlines()
    parents = _parents(tree)
    found = set()
    for top in _enumerations(tree):
        for node in ast.walk(top):
            listed = _names(node)
            if listed is not None and not _marked(lines, _anchor(node, parents), node):
                line = getattr(node, "lineno", 0)
                found.add((line, f"{name}:{line}: {listed}"))
    return [text for _, text in sorted(found)]


def test_no_test_lists_the_engines_or_methods_by_hand() -> None:
    found = [
        offence
        for path in sorted(TESTS.glob("*.py"))
        for offence in offences(path.read_text(encoding="utf-8"), path.name)
    ]
    assert found == [], (
        "take the list from excover.names (or every_way.engines_for), or mark a deliberate "
        "choice with '# specific engines: why'"
    )


# The lists the tests held before issue 79 took them from excover.names.
OLD_LISTS = {
    "for": 'def test_x():\n    for engine in ("dlx", "bits", "auto"):\n        run(engine)\n',
    "parametrize": '@pytest.mark.parametrize("engine", ["bits", "dlx"])\ndef test_x(engine):\n'
    "    pass\n",
    "sampled_from": '@given(st.sampled_from(["dlx", "bits"]))\ndef test_x(engine):\n    pass\n',
    "constant": 'ROUTE_CASES = ["bits", "dlx", "cells", "dxz", "components", "frontier"]\n',
    "comprehension": 'RUNS = [Search(p, engine=e) for e in ("dlx", "bits")]\n',
    "methods": '@pytest.mark.parametrize("method", ["search", "zdd"])\ndef test_x(method):\n'
    "    pass\n",
}


@pytest.mark.parametrize("kind", sorted(OLD_LISTS))
def test_the_check_finds_a_hand_written_list(kind: str) -> None:
    assert len(offences(OLD_LISTS[kind])) == 1


@pytest.mark.parametrize("kind", sorted(OLD_LISTS))
def test_a_marked_list_stays(kind: str) -> None:
    """A marker on the literal's line, or on a comment line just above it."""
    lines = OLD_LISTS[kind].splitlines()
    at = next(n for n, line in enumerate(lines) if '", "' in line)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    above = [*lines[:at], f"{indent}# specific engines: this test's own", *lines[at:]]
    assert offences("\n".join(above)) == []
    lines[at] += "  # specific methods: as asked"
    assert offences("\n".join(lines)) == []


def test_a_marker_above_a_comment_block_or_a_statement_counts() -> None:
    source = (
        "def test_x():\n"
        "    # specific engines: the two that run multiplicities,\n"
        "    # whose trees differ here\n"
        "    runs = [\n"
        '        Search(p, engine=e) for e in ("dlx", "bits")\n'
        "    ]\n"
    )
    assert offences(source) == []
    assert len(offences(source.replace("specific engines", "the engines"))) == 1


def test_what_is_no_enumeration_of_the_engines_is_left_alone() -> None:
    source = (
        "from excover.names import SEARCH_ENGINES\n"
        '@pytest.mark.parametrize("engine", SEARCH_ENGINES)\n'
        '@pytest.mark.parametrize("name", ["queens8", "pento6x10"])\n'
        "def test_x(engine, name):\n"
        '    assert outcome.method in ("search", "zdd")\n'
        '    for engine in ("dlx",):\n'
        "        pass\n"
        '    for route in ("dlx", "pinned"):\n'
        "        pass\n"
    )
    assert offences(source) == []
