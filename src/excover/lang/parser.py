"""From ``.cmb`` text to a checked :class:`Program`.

Three steps, all before anything runs, so that a lexical, syntax or name error anywhere
(included files too) stops the program before its first statement:

1. lark parses each file with the grammar of :mod:`excover.lang.grammar`; its errors
   become :class:`~excover.lang.errors.LangError` with the position and a readable list
   of what was expected;
2. the tree becomes the statements of :mod:`excover.lang.syntax`, options ``~...`` are
   checked, and each ``include`` is replaced by the statements of the file it names
   (relative to the including file; a missing file or an include cycle is an error);
3. every name is checked against the declarations before it, in their namespaces (2D
   patterns, 3D patterns, tile lists, 3D tile lists, problems, 3D problems).

Unlike combine, an ``include`` keeps the definitions made before it.

Includes are bounded, so that no program makes the parser read without end: an include
may only read under the folders :class:`~excover.lang.sandbox.Permissions` allows (the
program's own by default); each file is read at most once per program (a second
``include`` of a file already included does nothing, as ``#pragma once`` in C; an include
of a file that is still being included is a cycle, an error); and a program holds at most
:data:`MAX_INCLUDED_FILES` included files, nested at most :data:`MAX_INCLUDE_DEPTH` deep,
and :data:`MAX_PROGRAM_BYTES` of text in all.

The text is bounded too, so that parsing a program takes a small multiple of its size:
a program and its included files hold at most :data:`MAX_PROGRAM_TOKENS` tokens (lark
keeps an object for each, a hundred times the size of a one-letter name), and an
expression nests at most :data:`MAX_NESTING` deep (no recursion of the parser or of the
evaluation runs out of stack). Passing a bound is an error where it is passed.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from excover.lang import syntax as s
from excover.lang.errors import LangError, Pos, Source
from excover.lang.grammar import EXPRESSION_STARTS, KEYWORDS, STATEMENT_KEYWORDS, parser
from excover.lang.sandbox import SAFE, Permissions, refuse_nul, resolve_read

if TYPE_CHECKING:
    from lark import Token, Tree

__all__ = [
    "MAX_INCLUDED_FILES",
    "MAX_INCLUDE_DEPTH",
    "MAX_NESTING",
    "MAX_PROGRAM_BYTES",
    "MAX_PROGRAM_TOKENS",
    "SUBGROUPS",
    "TILE_OPTIONS",
    "Program",
    "parse",
    "parse_file",
]

_T = TypeVar("_T")

#: The options of a tile, and of the commands and declarations that take some.
TILE_OPTIONS = ("~one", "~maybe", "~sym", "~rot", "~N", "~LO..HI", "~LO..", "~SUBGROUP")

#: The subgroups of the square's isometries a tile may be limited to (``~rot180`` ...),
#: by the names the tiling library gives them.
SUBGROUPS = ("rot180", "vertical", "horizontal", "diag1", "diag2", "axes", "diagonals")
ALL_OPTIONS = ("~up_to_symmetry",)
COUNT_OPTIONS = ("~up_to_symmetry", "~no_break_symmetry")

#: The method each algorithm of the language names (``sat "SOLVER"`` apart): combine
#: called its search ``dlx``, the method of a search with a compiled engine.
ALGORITHMS = {"dlx": "search", "zdd": "zdd", "auto": "auto"}
PROBLEM_OPTIONS = ("~interchangeable",)

_TOKEN_NAMES = {
    "NAME": "a name",
    "DIM": "a size such as 8x8",
    "STRING": 'a string "..."',
    "ART": "a pattern {...}",
    "HEXART": "a pattern hex{...}",
    "TRIART": "a pattern triangle{...}",
    "TILDE": "an option ~...",
    "$END": "the end of the file",
    "EQUAL": "'='",
    "LSQB": "'['",
    "RSQB": "']'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "AMPAMP": "'&&'",
    "BARBAR": "'||'",
    "HAT": "'^'",
}


@dataclass
class Program:
    """A parsed and checked program: its statements, includes spliced in, and the
    warnings found on the way (redefinitions). ``folder`` is the program's own folder
    (where its includes start), which it may read and write under."""

    source: Source
    folder: str
    statements: list[s.Statement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse(
    text: str,
    source: str = "<string>",
    directory: str | None = None,
    *,
    permissions: Permissions = SAFE,
) -> Program:
    """Parse and check a program. ``directory`` is the program's own folder, where its
    includes are found (default: the directory of ``source`` when it names a file, else
    the current directory); ``permissions`` say where else they may be read."""
    if directory is None:
        directory = os.path.dirname(source) if os.path.isfile(source) else os.getcwd()
    origin = Source(source, text)
    size = len(text.encode(errors="replace"))
    if size > MAX_PROGRAM_BYTES:
        raise LangError(f"{_TOO_LONG} ({size:,} bytes)", Pos(origin, 1, 1))
    stack = [os.path.realpath(source)] if os.path.isfile(source) else []
    expander = _Expander(permissions.read_roots(directory), stack, size)
    try:
        statements = expander.expand(origin, directory, stack)
    except RecursionError:
        raise LangError("includes are nested too deeply", Pos(origin, 1, 1)) from None
    program = Program(origin, os.path.realpath(directory), statements)
    _check(program)
    return program


def parse_file(path: str, *, permissions: Permissions = SAFE) -> Program:
    """Parse and check the program in the file ``path``; its folder is the program's
    own (see :func:`parse`)."""
    try:
        text = _read_program(path, MAX_PROGRAM_BYTES)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LangError(f"cannot read {path}: {_reason(exc)}", Source(path, "").end()) from None
    directory = os.path.dirname(os.path.abspath(path))
    return parse(text, path, directory, permissions=permissions)


#: The most bytes of text a program and its included files hold together (a program is
#: text typed by people; a device such as /dev/zero or a huge file would otherwise be
#: read until memory runs out). A full frame is made with ``constant``, not drawn.
MAX_PROGRAM_BYTES = 16 * 1024 * 1024

#: The most tokens (names, words, numbers, signs, strings and drawings) a program and its
#: included files hold together: the programs people write hold hundreds.
MAX_PROGRAM_TOKENS = 100_000

#: The deepest an expression nests (each parenthesis, operator or frame operation
#: around an operand is one level; ``a || b || c`` is two deep).
MAX_NESTING = 400

_TOO_LONG = f"a program and its included files hold at most {MAX_PROGRAM_BYTES >> 20} MiB of text"

#: An include of this prefix names a set of the piece catalog, not a file:
#: ``include "excover:pentominoes"`` (see :mod:`excover.lang.catalog`).
CATALOG_PREFIX = "excover:"

#: The most files a program includes (each counted once).
MAX_INCLUDED_FILES = 1000

#: The longest chain of files including each other.
MAX_INCLUDE_DEPTH = 100


def _read_program(path: str, budget: int) -> str:
    """The text of a program file: a regular UTF-8 file of at most ``budget`` bytes (what
    is left of MAX_PROGRAM_BYTES)."""
    if not os.path.isfile(path):
        raise ValueError("not a regular file" if os.path.exists(path) else "no such file")
    with open(path, "rb") as handle:
        data = handle.read(budget + 1)
    if len(data) > budget:
        raise ValueError(_TOO_LONG)
    return data.decode("utf-8")


def _reason(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    return str(exc)


# --------------------------------------------------------------------------- lark's tree


def _tree(source: Source, room: int) -> tuple[Tree[Token], int]:
    """The lark tree of a source and the number of its tokens; lark's errors, and more
    than ``room`` tokens (refused as the first one too many is read), as LangError."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        interactive = parser().parse_interactive(source.text)
        count = 0
        token = None
        for token in interactive.iter_parse():
            count += 1
            if count > room:
                raise LangError(
                    f"a program and its included files hold at most {MAX_PROGRAM_TOKENS:,} "
                    "tokens (names, words, numbers, signs, strings and drawings)",
                    Pos(source, token.line or 1, token.column or 1),
                )
        tree: Tree[Token] = interactive.feed_eof(token)  # type: ignore[no-untyped-call]
        return tree, count
    except UnexpectedCharacters as exc:
        pos = Pos(source, exc.line, exc.column)
        char = source.text[exc.pos_in_stream] if exc.pos_in_stream is not None else "?"
        if char == '"':
            raise LangError("unterminated string", pos) from None
        if char == "{":
            raise LangError("unterminated pattern: no '}' closes this '{'", pos) from None
        if char == "~":
            raise LangError(f"bad option; use one of {', '.join(TILE_OPTIONS)}", pos) from None
        if char.isdigit():
            raise LangError("a number stands only in a size or a cell such as 8x8", pos) from None
        raise LangError(f"invalid character {char!r}", pos) from None
    except UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            pos = _end(source)
        else:
            pos = Pos(source, token.line or 1, token.column or 1)
        expected = _describe_expected(set(exc.expected))
        raise LangError(f"unexpected {_describe(token)}; expected {expected}", pos) from None
    except UnexpectedInput as exc:  # pragma: no cover - lark raises the two above
        raise LangError("syntax error", Pos(source, exc.line, exc.column)) from None


def _end(source: Source) -> Pos:
    """Just after the last non-blank character (where something is missing)."""
    text = source.text.rstrip()
    line = text.count("\n") + 1
    column = len(text) - (text.rfind("\n") + 1) + 1
    return Pos(source, line, column)


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type in KEYWORDS:
        return f"keyword '{token}'"
    if token.type == "NAME":
        return f"name '{token}'"
    if token.type in ("ART", "HEXART", "TRIART"):
        return "pattern"
    if token.type == "STRING":
        return "string"
    return f"'{token}'"


def _describe_expected(expected: set[str]) -> str:
    parts: list[str] = []
    if len(expected & STATEMENT_KEYWORDS) > 3:
        parts.append("a statement (pattern, tiles, problem, count, solve, ...)")
        expected -= STATEMENT_KEYWORDS
    if len(expected & EXPRESSION_STARTS) > 3:
        parts.append("a pattern expression")
        expected -= EXPRESSION_STARTS
    isometries = {k for k in KEYWORDS if k in {"ID", "VERTREFL", "HORIZREFL"} or "ROT" in k}
    isometries |= {"DIAG1REFL", "DIAG2REFL"}
    if expected >= isometries:
        parts.append("an isometry (Id, Rot90, Rot180, Rot270, VertRefl, HorizRefl, ...)")
        expected -= isometries
    if {"MINUS", "AMPAMP", "BARBAR", "HAT"} <= expected:
        parts.append("an operator (- && || ^)")
        expected -= {"MINUS", "AMPAMP", "BARBAR", "HAT"}
    for name in sorted(expected):
        if name in KEYWORDS:
            parts.append(f"'{KEYWORDS[name]}'")
        else:
            parts.append(_TOKEN_NAMES.get(name, name))
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


# --------------------------------------------------------------------------- statements


class _Expander:
    """Turns lark trees into statements, splicing in included files: only those under
    ``roots``, each once, within the bounds above. ``size`` is the bytes read so far."""

    def __init__(self, roots: tuple[str, ...], stack: list[str], size: int) -> None:
        self.roots = roots
        self.read = set(stack)  # the real paths of the files read so far
        self.files = 0  # included files read
        self.top = len(stack)  # the include stack's height in the program itself
        self.size = size
        self.tokens = 0  # read so far

    def expand(self, source: Source, directory: str, stack: list[str]) -> list[s.Statement]:
        statements: list[s.Statement] = []
        builder = _Builder(source)
        tree, tokens = _tree(source, MAX_PROGRAM_TOKENS - self.tokens)
        self.tokens += tokens
        for child in tree.children:
            tree = _as_tree(child)
            if tree.data == "include":
                pos, node = builder.pos(tree.children[0]), tree.children[1]
                path = _string(node, builder.pos(node))
                statements.extend(self._include(pos, path, directory, stack))
            else:
                statements.append(
                    _nested(functools.partial(builder.statement, tree), builder.pos(tree))
                )
        return statements

    def _include(self, pos: Pos, path: str, directory: str, stack: list[str]) -> list[s.Statement]:
        if path.startswith(CATALOG_PREFIX):
            return self._include_catalog(pos, path[len(CATALOG_PREFIX) :])
        written = path
        path = os.path.expanduser(path)
        full = os.path.normpath(os.path.join(directory, path))
        name = pos.source.name
        if not os.path.isabs(path) and os.path.isfile(name):
            name = os.path.normpath(os.path.join(os.path.dirname(name), path))
        else:
            name = full
        real = resolve_read(full, self.roots, pos, written=written)  # nothing outside is opened
        if real in stack:
            chain = " -> ".join(os.path.basename(p) for p in [*stack[stack.index(real) :], real])
            raise LangError(f"include cycle: {chain}", pos)
        if real in self.read:
            return []  # each file once: a second include of it does nothing
        if not os.path.exists(real):
            raise LangError(f"include: no such file: {full}", pos)
        if len(stack) - self.top >= MAX_INCLUDE_DEPTH:
            raise LangError(f"includes are nested more than {MAX_INCLUDE_DEPTH} deep", pos)
        if self.files >= MAX_INCLUDED_FILES:
            raise LangError(f"a program includes at most {MAX_INCLUDED_FILES} files", pos)
        try:
            text = _read_program(real, MAX_PROGRAM_BYTES - self.size)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise LangError(f"include: cannot read {full}: {_reason(exc)}", pos) from None
        self.read.add(real)
        self.files += 1
        self.size += len(text.encode())
        source = Source(name, text, included_at=pos, quoted=real.lower().endswith(".cmb"))
        return self.expand(source, os.path.dirname(full), [*stack, real])

    def _include_catalog(self, pos: Pos, name: str) -> list[s.Statement]:
        """The statements of a set of the piece catalog (``include "excover:NAME"``):
        generated text, no file read, each set once per program as a file is."""
        from excover.lang.catalog import piece_set, piece_sets, set_text

        if piece_set(name) is None:
            known = " ".join(p.name for p in piece_sets())
            raise LangError(f"include: the catalog has no set {name!r}; its sets are: {known}", pos)
        key = CATALOG_PREFIX + name
        if key in self.read:
            return []
        self.read.add(key)
        source = Source(f"<{key}>", set_text(name), included_at=pos, catalog=True)
        return self.expand(source, os.getcwd(), [])


def _nested(build: Callable[[], _T], pos: Pos) -> _T:
    """``build()``, with Python's recursion limit reported as an error at ``pos``."""
    try:
        return build()
    except RecursionError:
        raise LangError("this statement is nested too deeply", pos) from None


def _as_tree(node: object) -> Tree[Token]:
    from lark import Tree

    assert isinstance(node, Tree)
    return node


def _string(token: object, pos: Pos) -> str:
    """The value of a STRING token at ``pos``: quotes removed, ``\\"`` and ``\\\\``
    unescaped (another backslash stays as written, as in combine). Every string of the
    language names a file or a command, so a NUL byte is refused."""
    text = str(token)[1:-1]
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in '"\\':
            out.append(text[index + 1])
            index += 2
        else:
            out.append(char)
            index += 1
    value = "".join(out)
    refuse_nul(value, "the string", pos)
    return value


class _Builder:
    """Builds the statements and expressions of one source."""

    def __init__(self, source: Source) -> None:
        self.source = source

    def pos(self, node: object) -> Pos:
        from lark import Token

        if isinstance(node, Token):
            return Pos(self.source, node.line or 1, node.column or 1)
        tree = _as_tree(node)
        return Pos(self.source, tree.meta.line, tree.meta.column)

    def statement(self, tree: Tree[Token]) -> s.Statement:
        kids = [k for k in tree.children if k is not None]
        pos = self.pos(kids[0])
        kind = tree.data
        if kind == "pattern":
            return s.PatternDecl(pos, str(kids[1]), self.expr(kids[3]))
        if kind == "pattern3":
            grid = s.DEFAULT_SOLID_GRID
            if str(kids[3]) != "[":
                grid = self.solid_grid(kids[3])
            layers = tuple(self.expr(k) for k in kids[4:-1] if _is_tree(k))
            return s.Pattern3Decl(pos, str(kids[1]), layers, grid)
        if kind == "tiles":
            return s.TilesDecl(pos, str(kids[1]), self.tile_sum(kids[3]), kids[0] == "tiles3")
        if kind == "problem":
            return self.problem(pos, kids)
        if kind == "assert_":
            return s.Assert(pos, self.condition(pos, kids[1:]))
        if kind == "print_":
            return s.Print(pos, str(kids[1]))
        if kind == "solve":
            svg = _string(kids[4], self.pos(kids[4])) if len(kids) > 4 else None
            return s.Solve(pos, self.algo(kids[1]), str(kids[2]), svg, kids[0] == "solve3")
        if kind == "all_":
            options = self.options(kids[3:], ALL_OPTIONS)
            three_d = str(kids[0]) == "all3"
            return s.All(pos, self.algo(kids[1]), str(kids[2]), three_d, bool(options))
        if kind == "count":
            options = self.options(kids[3:], COUNT_OPTIONS)
            three_d = str(kids[0]) == "count3"
            classes = "~up_to_symmetry" in options
            broken = "~no_break_symmetry" not in options
            return s.Count(pos, self.algo(kids[1]), str(kids[2]), three_d, classes, broken)
        if kind == "dimacs":
            return s.Dimacs(pos, str(kids[1]), _string(kids[2], self.pos(kids[2])))
        if kind == "flag":
            return s.Switch(pos, str(kids[0]), kids[1] == "on")
        assert kind == "exit_", kind
        return s.Exit(pos)

    def solid_grid(self, token: object) -> str:
        """The grid named before the layers of a ``pattern3``: a solid grid with layers
        (``grid.traits.layer``), the cube's by default."""
        from excover.tiling.grids import GRIDS

        word = str(token)
        grid = GRIDS.get(word)
        if grid is None or not grid.solid or grid.traits.layer is None:
            named = [name for name, g in GRIDS.items() if g.solid and g.traits.layer is not None]
            others = [name for name in named if name != s.DEFAULT_SOLID_GRID]
            raise LangError(
                f"unknown grid {word!r} for a 3D pattern; write {s.DEFAULT_SOLID_GRID} (the "
                f"default), {', '.join(others[:-1])} or {others[-1]}",
                self.pos(token),
            )
        return word

    def problem(self, pos: Pos, kids: Sequence[object]) -> s.ProblemDecl:
        board = self.expr(kids[3])
        joined = self.tile_sum(kids[4])
        tiles: tuple[s.TileSpec | s.TilesRef, ...] | s.Var = joined
        if len(joined) == 1 and isinstance(joined[0], s.TilesRef):
            tiles = s.Var(joined[0].pos, joined[0].name)  # a tile list's name alone
        options = self.options(kids[5:], PROBLEM_OPTIONS)
        return s.ProblemDecl(pos, str(kids[1]), board, tiles, kids[0] == "problem3", bool(options))

    def options(self, tokens: Iterable[object], allowed: tuple[str, ...]) -> list[str]:
        """The ``~word`` options given, each checked to be one of ``allowed``."""
        found = []
        for token in tokens:
            if str(token) not in allowed:
                raise LangError(
                    f"unknown option {str(token)!r} here; use {' or '.join(allowed)}",
                    self.pos(token),
                )
            found.append(str(token))
        return found

    def condition(self, pos: Pos, kids: Sequence[object]) -> s.Equal:
        first = _as_tree(kids[0])
        if first.data == "bool":
            return s.Equal(self.pos(first), None, None, first.children[0] == "true")
        return s.Equal(self.pos(kids[1]), self.expr(kids[0]), self.expr(kids[2]))

    def algo(self, node: object) -> s.Algo:
        tree = _as_tree(node)
        kids = tree.children
        pos = self.pos(kids[0])
        name = str(kids[0])
        if name == "sat":
            return s.Algo(pos, "sat", _string(kids[1], self.pos(kids[1])))
        if name not in ALGORITHMS:
            raise LangError(f'unknown algorithm {name!r}; use dlx, zdd, auto or sat "SOLVER"', pos)
        return s.Algo(pos, ALGORITHMS[name])

    def tile_sum(self, node: object) -> tuple[s.TileSpec | s.TilesRef, ...]:
        """The tiles of ``[...] + NAME + ...``, in order: a list's tiles, a name's list."""
        from lark import Token

        items: list[s.TileSpec | s.TilesRef] = []
        for kid in _as_tree(node).children:
            if _is_tree(kid):
                items.extend(self.tile_list(kid))
            elif isinstance(kid, Token) and kid.type == "NAME":
                items.append(s.TilesRef(self.pos(kid), str(kid)))
        return tuple(items)

    def tile_list(self, node: object) -> tuple[s.TileSpec, ...]:
        tree = _as_tree(node)
        return tuple(self.tile(k) for k in tree.children if _is_tree(k))

    def tile(self, node: object) -> s.TileSpec:
        tree = _as_tree(node)
        expr = self.expr(tree.children[0])
        lo: int = 0
        hi: int | None = None
        symmetry = "none"
        for token in tree.children[1:]:
            word = str(token)
            if word in ("~sym", "~rot"):
                symmetry = "all" if word == "~sym" else "rotations"
            elif word[1:] in SUBGROUPS:
                symmetry = word[1:]
            elif word in ("~one", "~maybe"):
                lo, hi = (1, 1) if word == "~one" else (0, 1)
            else:
                lo, hi = self.multiplicity(token)
        return s.TileSpec(self.pos(tree.children[0]), expr, lo, hi, symmetry)

    def multiplicity(self, token: object) -> tuple[int, int | None]:
        """``~N``, ``~LO..HI`` or ``~LO..`` as a range."""
        word = str(token)[1:]
        low, dots, high = word.partition("..")
        try:
            lo = int(low)
            hi = (int(high) if high else None) if dots else lo
        except ValueError:
            raise LangError(
                f"unknown tile option '~{word}'; use {', '.join(TILE_OPTIONS)}", self.pos(token)
            ) from None
        if hi is not None and (hi < lo or hi < 1):
            raise LangError(
                f"bad multiplicity '~{word}': need LO <= HI and HI >= 1", self.pos(token)
            )
        return lo, hi

    def expr(self, node: object, depth: int = 0) -> s.Expr:
        """The expression of ``node``, nested ``depth`` deep in its statement; deeper
        than MAX_NESTING is an error there, so that neither this builder nor the
        evaluation recurses without bound."""
        tree = _as_tree(node)
        kids = [k for k in tree.children if k is not None]
        kind = tree.data
        if depth >= MAX_NESTING:  # at the operator of a chain, else where the level starts
            raise LangError(
                f"an expression nests at most {MAX_NESTING} deep (parentheses and operators); "
                "name some of its parts with pattern declarations",
                self.pos(kids[1] if kind == "binary" else tree),
            )
        deeper = functools.partial(self.expr, depth=depth + 1)
        if kind == "paren":
            return deeper(kids[1])
        pos = self.pos(kids[0])
        if kind == "var":
            return s.Var(pos, str(kids[0]))
        if kind == "art":
            return self.art(kids[0])
        if kind == "constant":
            w, h = self.dim(kids[1])
            return s.Constant(pos, w, h, self.bool(kids[2]))
        if kind == "binary":
            op = str(_as_tree(kids[1]).children[0])
            names = {"-": "diff", "&&": "inter", "||": "union", "^": "xor"}
            return s.Binary(self.pos(kids[1]), names[op], deeper(kids[0]), deeper(kids[2]))
        if kind == "prefix_binary":
            return s.Binary(pos, str(kids[0]), deeper(kids[1]), deeper(kids[2]))
        if kind == "apply":
            iso = str(_as_tree(kids[1]).children[0])
            return s.Apply(pos, iso, deeper(kids[2]))
        if kind == "crop":
            (x, y), (w, h) = self.dim(kids[1]), self.dim(kids[2])
            return s.Crop(pos, x, y, w, h, deeper(kids[3]))
        if kind == "set_cell":
            x, y = self.dim(kids[2])
            return s.SetCell(pos, deeper(kids[1]), x, y, self.bool(kids[3]))
        if kind == "shift":
            dx, dy = self.dim(kids[2])
            return s.Shift(pos, deeper(kids[1]), dx, dy)
        assert kind == "resize", kind
        w, h = self.dim(kids[2])
        return s.Resize(pos, deeper(kids[1]), w, h)

    def dim(self, token: object) -> tuple[int, int]:
        first, _, second = str(token).partition("x")
        return int(first), int(second)

    def bool(self, node: object) -> bool:
        return str(_as_tree(node).children[0]) == "true"

    def art(self, token: object) -> s.Art:
        """A drawing ``{...}``, or ``WORD{...}`` of the grid whose art word is WORD
        (``grid.traits.art``: ``hex``, ``triangle``; the plain braces are the grid whose
        word is empty, the square's)."""
        from excover.tiling.grids import GRIDS

        text = str(token)
        words = {g.traits.art: name for name, g in GRIDS.items() if g.traits.art is not None}
        grid = words[""]
        for word, name in words.items():
            if word and text.startswith(word):
                grid = name
                text = text[len(word) :].lstrip(" \t")
        body = _COMMENT.sub("", text[1:-1])
        return s.Art(self.pos(token), grid, body)


#: A comment inside a drawing: from ``#`` to the end of the line.
_COMMENT = re.compile(r"#[^\n]*")


def _is_tree(node: object) -> bool:
    from lark import Tree

    return isinstance(node, Tree)


# --------------------------------------------------------------------------- names


_KINDS = {
    "pattern": "pattern",
    "pattern3": "3D pattern",
    "tiles": "tile list",
    "tiles3": "3D tile list",
    "problem": "problem",
    "problem3": "3D problem",
}


def _check(program: Program) -> None:
    """Every name used is declared before, in its namespace; redefinitions are noted."""
    defined: dict[str, dict[str, Pos]] = {kind: {} for kind in _KINDS}

    def need(kind: str, name: str, pos: Pos) -> None:
        if name not in defined[kind]:
            other = [k for k in _KINDS if name in defined[k]]
            hint = f" (there is a {_KINDS[other[0]]} {name!r})" if other else ""
            raise LangError(f"unbound {_KINDS[kind]} {name!r}{hint}", pos)

    def define(kind: str, name: str, pos: Pos) -> None:
        if name in defined[kind]:
            program.warnings.append(
                f"{pos}: warning: {_KINDS[kind]} {name!r} redefined "
                f"(first defined at {defined[kind][name]})"
            )
        defined[kind][name] = pos

    def uses(expr: s.Expr, kind: str = "pattern") -> None:
        for var in _variables(expr):
            need(kind, var.name, var.pos)

    for st in program.statements:
        if isinstance(st, s.PatternDecl):
            uses(st.expr)
            define("pattern", st.name, st.pos)
        elif isinstance(st, s.Pattern3Decl):
            for layer in st.layers:
                uses(layer)
            define("pattern3", st.name, st.pos)
        elif isinstance(st, s.TilesDecl):
            suffix = "3" if st.three_d else ""
            for tile in st.tiles:
                if isinstance(tile, s.TilesRef):
                    need("tiles" + suffix, tile.name, tile.pos)
                else:
                    uses(tile.expr, "pattern" + suffix)
            define("tiles3" if st.three_d else "tiles", st.name, st.pos)
        elif isinstance(st, s.ProblemDecl):
            suffix = "3" if st.three_d else ""
            uses(st.board, "pattern" + suffix)
            if isinstance(st.tiles, s.Var):
                need("tiles" + suffix, st.tiles.name, st.tiles.pos)
            else:
                for tile in st.tiles:
                    if isinstance(tile, s.TilesRef):
                        need("tiles" + suffix, tile.name, tile.pos)
                    else:
                        uses(tile.expr, "pattern" + suffix)
            define("problem" + suffix, st.name, st.pos)
        elif isinstance(st, s.Assert):
            for side in (st.condition.left, st.condition.right):
                if side is not None:
                    uses(side)
        elif isinstance(st, s.Solve | s.All | s.Count):
            need("problem3" if st.three_d else "problem", st.name, st.pos)
        elif isinstance(st, s.Print | s.Dimacs):
            if st.name not in defined["problem"] and st.name in defined["problem3"]:
                continue
            need("problem", st.name, st.pos)


def _variables(expr: s.Expr) -> Iterator[s.Var]:
    """The variables of an expression, left to right."""
    if isinstance(expr, s.Var):
        yield expr
    elif isinstance(expr, s.Binary):
        yield from _variables(expr.left)
        yield from _variables(expr.right)
    elif isinstance(expr, s.SetCell | s.Crop | s.Shift | s.Resize | s.Apply):
        yield from _variables(expr.expr)
