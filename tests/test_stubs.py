"""The compiled modules against their hand-written type stubs.

Each compiled module (``src/excover/**/_*.pyx``) has a ``.pyi`` stub beside it, which is
all that mypy and an editor know of it. Two checks keep them honest:

- ``mypy.stubtest`` imports every compiled module *of the package under test* (the
  source tree, or an installed wheel, whichever ``import excover`` finds; the stubs ship
  in the wheel beside the modules) and compares each public name, function signature and
  class with its stub. The modules are those of the ``.pyi`` files that have a compiled
  module beside them, so a new one is checked without editing this file. What Cython adds
  to every module is allowed by ``stubtest-allowlist.txt`` at the repository's root
  (found from this folder), each entry with its reason.
- stubtest cannot see a cdef class's constructor: its arguments go to ``__cinit__``,
  which runs in ``__new__`` and which no run-time signature shows (``__init__`` is
  ``object``'s). Nor can it tell a ``cdef readonly`` attribute from a ``cdef public`` one.
  The second check reads both from the ``.pyx`` sources (and the ``.pxi`` parts they
  include) and compares them with the stubs: the parameters of each ``__cinit__`` (names,
  order, defaults) with the stub's ``__new__``, and every attribute the stub lets one
  assign with a writable one at run time.
"""

from __future__ import annotations

import ast
import importlib.machinery
import operator
import os
import re
import site
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from runs import ended

import excover

#: The package under test (the source tree, or an installed wheel).
PACKAGE = Path(excover.__file__).resolve().parent

#: The repository: its allowlist, and the Cython sources of the second check.
REPOSITORY = Path(__file__).resolve().parent.parent
ALLOWLIST = REPOSITORY / "stubtest-allowlist.txt"
SOURCE = REPOSITORY / "src" / "excover"

#: The module that holds Cython's utility code for the others (setup.py): no stub, as
#: nothing imports a name from it.
SHARED_UTILITY = "excover._cyutility"

#: How long stubtest may take (about 6 s of CPU on a quiet machine).
STUBTEST_SECONDS = 300.0


def dotted(path: Path, root: Path) -> str:
    """``<root>/excover/zdd/_store.pyi`` (or its ``.so``) -> ``excover.zdd._store``."""
    relative = path.relative_to(root.parent)
    return ".".join((*relative.parent.parts, relative.name.split(".")[0]))


def compiled_modules(package: Path) -> set[str]:
    """The extension modules of ``package``, by the files the import system would load."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return {
        dotted(path, package)
        for path in package.rglob("*")
        if path.name.endswith(suffixes) and path.is_file()
    }


def stubbed_compiled_modules(package: Path) -> list[str]:
    """The compiled modules of ``package`` with a stub beside them. A stub of no module
    (``engines/_driver.pyi`` types the ``_driver.pxi`` part that three engines include)
    is read by mypy where a stub imports it, and has no run time of its own to check."""
    stubs = {dotted(path, package) for path in package.rglob("*.pyi")}
    return sorted(stubs & compiled_modules(package))


def test_every_compiled_module_has_a_stub() -> None:
    """A compiled module without a stub is Any to mypy, and stubtest would not see it."""
    stubs = {dotted(path, PACKAGE) for path in PACKAGE.rglob("*.pyi")}
    unstubbed = sorted(compiled_modules(PACKAGE) - stubs - {SHARED_UTILITY})
    assert not unstubbed, f"compiled modules without a .pyi stub beside them: {unstubbed}"


def installed(folder: Path) -> bool:
    """Whether ``folder`` is one of this interpreter's site-packages folders."""
    sites = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    sites.update(site.getsitepackages())
    sites.add(site.getusersitepackages())
    return any(folder == Path(found).resolve() for found in sites)


def test_stubtest_passes_on_the_compiled_modules(tmp_path: Path) -> None:
    """``python -m mypy.stubtest --allowlist stubtest-allowlist.txt <modules>`` exits 0
    on the package under test: the child imports the modules from the folder that holds
    it (``PYTHONPATH``), and mypy reads the stubs there too (from ``mypy_path`` for a
    source tree; an installed package, typed by its ``py.typed``, mypy finds in
    site-packages, which must not be a ``mypy_path``: mypy would take every module there
    for the project's own). It runs in an empty folder, keeps its cache out of the
    package, and follows the stubs' imports into the package's Python modules silently
    (their own errors are ``mypy``'s to report, not this check's)."""
    modules = stubbed_compiled_modules(PACKAGE)
    assert modules, f"no compiled module with a stub beside it in {PACKAGE}"
    assert ALLOWLIST.is_file(), f"no allowlist at {ALLOWLIST}"
    config = tmp_path / "stubtest.ini"
    settings = ["[mypy]", "follow_imports = silent", f"cache_dir = {tmp_path / 'cache'}"]
    if not installed(PACKAGE.parent):
        settings.append(f"mypy_path = {PACKAGE.parent}")
    config.write_text("\n".join(settings) + "\n")
    work = tmp_path / "work"
    work.mkdir()
    paths = [path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep) if path]
    command = [
        sys.executable,
        "-m",
        "mypy.stubtest",
        "--mypy-config-file",
        str(config),
        "--allowlist",
        str(ALLOWLIST),
        *modules,
    ]
    process = subprocess.Popen(
        command,
        cwd=work,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(PACKAGE.parent), *paths])},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output, _ = ended(process, STUBTEST_SECONDS)
    assert process.returncode == 0, (
        f"stubtest found the stubs and the compiled modules apart (in {PACKAGE.parent}):\n"
        f"$ {' '.join(command)}\n{output}"
    )


# ---------------------------------------------------------------------------------------
# What stubtest cannot see: constructors and read-only attributes, from the sources.


@dataclass
class CdefClass:
    """What the Cython source says of one cdef class."""

    cinit: list[tuple[str, str | None]] | None  # (name, default source) of __cinit__
    readonly: set[str]  # ``cdef readonly`` attributes and properties without a setter
    writable: set[str]  # ``cdef public`` attributes


def with_includes(path: Path) -> str:
    """The text of a ``.pyx`` or ``.pxi`` with its ``include "x.pxi"`` lines replaced by
    the files they name (as Cython reads it), and the ``.pxd`` of the same name."""
    text = re.sub(
        r'^include "([^"]+)"$',
        lambda found: with_includes(path.parent / found[1]),
        path.read_text(),
        flags=re.MULTILINE,
    )
    declarations = path.with_suffix(".pxd")
    if path.suffix == ".pyx" and declarations.exists():
        text = declarations.read_text() + "\n" + text
    return text


def top_level_split(text: str, separator: str) -> list[str]:
    """``text`` split at each ``separator`` outside brackets."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


def parameters(text: str) -> list[tuple[str, str | None]]:
    """``int n, Part part not None, start=None`` -> ``[("n", None), ("part", None),
    ("start", "None")]``: each parameter's name (its last word before any default, the
    type before it) and the source of its default."""
    found: list[tuple[str, str | None]] = []
    for part in top_level_split(text, ","):
        part = " ".join(part.split())
        if not part:
            continue
        declared, _, default = part.partition("=")
        declared = re.sub(r"\s+(not|or) None$", "", declared.strip())
        name = re.findall(r"\**\w+", declared)[-1]
        found.append((name, default.strip() or None))
    return found


def cdef_classes(text: str) -> dict[str, CdefClass]:
    """The cdef classes of a module's source, by name (a class declared in the ``.pxd``
    and defined in the ``.pyx`` has the attributes of both)."""
    classes: dict[str, CdefClass] = {}
    bodies = re.split(r"^cdef class (\w+)\b[^\n]*\n", text, flags=re.MULTILINE)
    for name, rest in zip(bodies[1::2], bodies[2::2], strict=True):
        body = re.split(r"^(?=[^\s#])", rest, maxsplit=1, flags=re.MULTILINE)[0]
        cinit = None
        start = re.search(r"^    def __cinit__\(self,?", body, flags=re.MULTILINE)
        if start is not None:
            depth, at = 1, start.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(body[at], 0)
                at += 1
            cinit = parameters(body[start.end() : at - 1])
        readonly: set[str] = set()
        writable: set[str] = set()
        for kind, declared in re.findall(
            r"^    cdef (public|readonly) ([^#\n]+)", body, flags=re.MULTILINE
        ):
            names = [part.split()[-1] for part in declared.split(",")]
            (readonly if kind == "readonly" else writable).update(names)
        for attribute in re.findall(r"^    @property\n    def (\w+)", body, flags=re.MULTILINE):
            if f"@{attribute}.setter" not in body:
                readonly.add(attribute)
        if name in classes:
            known = classes[name]
            cinit = known.cinit if cinit is None else cinit
            readonly |= known.readonly
            writable |= known.writable
        classes[name] = CdefClass(cinit, readonly, writable)
    return classes


@dataclass
class StubClass:
    """What a stub says of one class: its constructor (``__new__``, else ``__init__``, of
    it or of the first of its bases that has one) and its attributes."""

    constructor: ast.FunctionDef | None
    variables: set[str]  # plain annotations: assignable
    properties: set[str]  # properties without a setter


def stub_classes() -> dict[str, dict[str, StubClass]]:
    """Every class of every stub of the source tree, by module and name."""
    trees = {dotted(path, SOURCE): ast.parse(path.read_text()) for path in SOURCE.rglob("*.pyi")}
    definitions: dict[str, dict[str, ast.ClassDef]] = {}
    imported: dict[str, dict[str, str]] = {}  # module -> name -> the module it is from
    for module, tree in trees.items():
        definitions[module] = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        imported[module] = {
            alias.asname or alias.name: node.module
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module in trees
            for alias in node.names
        }

    def constructor(module: str, name: str) -> ast.FunctionDef | None:
        if name not in definitions[module] and name in imported[module]:
            return constructor(imported[module][name], name)
        node = definitions[module].get(name)
        if node is None:
            return None
        methods = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
        for special in ("__new__", "__init__"):
            if special in methods:
                return methods[special]
        for base in node.bases:
            if isinstance(base, ast.Name) and (found := constructor(module, base.id)):
                return found
        return None

    def described(module: str, node: ast.ClassDef) -> StubClass:
        variables = {
            n.target.id
            for n in node.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
        }
        decorated = [
            (n.name, ast.unparse(d))
            for n in node.body
            if isinstance(n, ast.FunctionDef)
            for d in n.decorator_list
        ]
        setters = {name for name, decorator in decorated if decorator.endswith(".setter")}
        properties = {name for name, d in decorated if d == "property"} - setters
        return StubClass(constructor(module, node.name), variables, properties)

    return {
        module: {name: described(module, node) for name, node in classes.items()}
        for module, classes in definitions.items()
    }


#: The operators a default in a ``.pyx`` may use (``1 << 16``, ``-1``).
OPERATORS: dict[type[ast.AST], Callable[..., object]] = {
    ast.LShift: operator.lshift,
    ast.Mult: operator.mul,
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.USub: operator.neg,
}


def value(node: ast.expr) -> object:
    """The value of a default made of constants, tuples and :data:`OPERATORS`."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):
        return tuple(value(element) for element in node.elts)
    if isinstance(node, ast.UnaryOp):
        return OPERATORS[type(node.op)](value(node.operand))
    if isinstance(node, ast.BinOp):
        return OPERATORS[type(node.op)](value(node.left), value(node.right))
    raise ValueError(f"not a constant: {ast.unparse(node)}")


def constructor_mismatches(
    cinit: list[tuple[str, str | None]], stub: ast.FunctionDef | None
) -> Iterator[str]:
    """How the stub's constructor differs from ``__cinit__``'s parameters."""
    if [name for name, _ in cinit] == ["*args", "**kwargs"]:
        return  # a base class that takes whatever its subclasses take
    if stub is None:
        yield f"the stub has no __new__, __cinit__ takes {[name for name, _ in cinit]}"
        return
    arguments = stub.args
    if arguments.posonlyargs or arguments.kwonlyargs or arguments.vararg or arguments.kwarg:
        yield f"the stub's {stub.name} has other kinds of parameters than __cinit__'s"
    declared = arguments.args[1:]  # without cls or self
    defaults = [None] * (len(declared) - len(arguments.defaults)) + list(arguments.defaults)
    stub_names = [argument.arg for argument in declared]
    if stub_names != [name for name, _ in cinit]:
        yield f"parameters: stub {stub_names}, __cinit__ {[name for name, _ in cinit]}"
        return
    for (name, source), default in zip(cinit, defaults, strict=True):
        if (source is None) != (default is None):
            in_stub = "none" if default is None else ast.unparse(default)
            yield f"{name}: default {source or 'none'} in __cinit__, {in_stub} in the stub"
        elif source is not None and default is not None:
            if isinstance(default, ast.Constant) and default.value is Ellipsis:
                continue
            expected = value(ast.parse(source, mode="eval").body)
            if value(default) != expected:
                in_stub = ast.unparse(default)
                yield f"{name}: default {expected!r} in __cinit__, {in_stub} in the stub"


def source_mismatches() -> Iterator[str]:
    """Every disagreement of the sources and the stubs on constructors and attributes."""
    stubs = stub_classes()
    for pyx in sorted(SOURCE.rglob("*.pyx")):
        module = dotted(pyx, SOURCE)
        if module not in stubs:
            continue  # a compiled module without a stub: its own test says so
        for name, cdef in cdef_classes(with_includes(pyx)).items():
            stub = stubs[module].get(name)
            if stub is None:
                continue  # a class missing from the stub: stubtest says so
            where = f"{module}.{name}"
            if cdef.cinit is not None:
                for problem in constructor_mismatches(cdef.cinit, stub.constructor):
                    yield f"{where}: {problem}"
            for attribute in sorted(stub.variables & cdef.readonly):
                yield f"{where}.{attribute}: assignable in the stub, read-only at run time"


@pytest.mark.skipif(not SOURCE.is_dir(), reason="no source tree beside the tests")
def test_constructors_and_attributes_match_the_cython_sources() -> None:
    found = list(source_mismatches())
    assert not found, "the stubs and the .pyx sources disagree:\n" + "\n".join(found)


def test_the_source_check_reads_cython_declarations() -> None:
    """The source check's reading of Cython, on a made-up class with every form the
    sources use: it finds what it must, or its silence above would mean nothing."""
    source = (
        "cdef class Made:  # as a .pxd declares it, read before the .pyx\n"
        "    cdef public int e\n"
        "\n"
        "cdef class Made:\n"
        '    """A docstring."""\n'
        "    cdef readonly int a, b   # two read-only\n"
        "    cdef public dict c\n"
        "    cdef int hidden\n"
        "\n"
        "    def __cinit__(self, int n, const int[:] view, Part part not None,\n"
        "                  start=None, int64_t size=1 << 16, watch=(), bint on=True):\n"
        "        pass\n"
        "\n"
        "    @property\n"
        "    def d(self):\n"
        "        return 1\n"
        "\n"
        "@cython.final\n"
        "cdef class Other:\n"
        "    pass\n"
    )
    made = cdef_classes(source)["Made"]
    assert made.cinit == [
        ("n", None),
        ("view", None),
        ("part", None),
        ("start", "None"),
        ("size", "1 << 16"),
        ("watch", "()"),
        ("on", "True"),
    ]
    assert made.readonly == {"a", "b", "d"}
    assert made.writable == {"c", "e"}
    assert cdef_classes(source)["Other"].cinit is None
    stub = ast.parse(
        "def __new__(cls, n, view, part, start=None, size=65536, watch=(), on=False): ..."
    ).body[0]
    assert isinstance(stub, ast.FunctionDef)
    assert list(constructor_mismatches(made.cinit, stub)) == [
        "on: default True in __cinit__, False in the stub"
    ]
