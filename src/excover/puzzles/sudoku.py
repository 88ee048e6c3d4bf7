"""Sudoku of any box shape, with the diagonal and jigsaw variants, solved in batches.

A board of side ``N = r * c`` (boxes of ``r`` rows and ``c`` columns: 9x9 with 3x3 boxes,
6x6 with 2x3, 16x16 with 4x4, ...) is one exact cover whatever the puzzle: option
``cell * N + d`` writes digit ``d + 1`` in ``cell`` and covers four primary items, the
cell ``p<row>_<col>``, and the digit in the row ``r<row>_<digit>``, the column
``c<col>_<digit>`` and the box ``b<box>_<digit>``. Variants add constraints, not code: a
jigsaw board replaces the boxes by irregular regions, and the diagonal variant
(X-sudoku) adds the items ``x0_<digit>`` and ``x1_<digit>`` of the two long diagonals.

A puzzle only says which options its givens force. The compiled solver
(:mod:`excover.puzzles._grid`) keeps the cover of a board as bitsets (a word of candidate
digits per cell), built once per board with its tables of units and peers; each puzzle
of a batch only sets its givens' words, propagates singles and locked candidates and
searches: a batch of puzzles costs no rebuilding at all. :func:`problem` builds the same
cover as an :class:`~excover.ExactCover` restricted to the puzzle, for the generic
engines.

Puzzles are text: the usual one-line format (one character per cell, row by row, ``.`` or
``0`` for a blank, digits ``1-9`` then letters ``A-Z`` above 9), or a grid over several
lines, where blanks, tabs and the drawing characters ``| + -`` are ignored. Solutions come
back in the one-line format, written with the puzzle's digits.

The digits are ``1-9A-Z`` cut to the side of the board (``1-9A-G`` on 16x16) unless
``digits=`` names others: ``"0-F"`` (a range runs along ``0-9A-Z``), ``"1-9A-G"``, or
the N symbols themselves. When ``0`` is a digit only ``.`` is a blank. Without
``digits=``, a board above 9x9 whose givens use ``0`` beside ``.`` and not the last
default digit (``G`` on 16x16) is read with ``0`` as a digit (``0-F``), and a puzzle
that reads both ways is read the usual way; both with an :class:`~excover.ExcoverWarning`
that names the digits assumed. A puzzle is never silently read as another one.

Givens that clash (two equal digits in a row, column, box, region or diagonal) make a
puzzle without solution, which is a result: :func:`solve`
returns None and :func:`classify` ``"none"``; :func:`conflicts` lists the clashing cells.
"""

from __future__ import annotations

import math
import random
import warnings
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from operator import index
from typing import TYPE_CHECKING, Any, Literal

from excover.errors import ExcoverWarning, ProblemError, UsageError
from excover.problem import ExactCover

if TYPE_CHECKING:
    from excover.puzzles._grid import GridSolver

__all__ = [
    "Board",
    "Status",
    "board_for",
    "classify",
    "classify_many",
    "conflicts",
    "count",
    "digit_set",
    "format_grid",
    "generate",
    "grid_of",
    "needs_search",
    "parse",
    "problem",
    "solutions",
    "solve",
    "solve_many",
    "svg_grid",
]

#: What :func:`classify` says about a puzzle.
Status = Literal["none", "unique", "multiple"]

#: The symbols of the values 1, 2, ...: digits, then letters.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The order of the ranges of a digit set: ``0-F`` is ``0123456789ABCDEF``.
_ORDER = "0" + SYMBOLS

#: Characters a multi-line grid may use for layout; they are not cells.
_LAYOUT = frozenset(" \t\r\n|+-")

#: The largest count limit the compiled solver takes (``limit=None`` means this).
_NO_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class Board:
    """The rules of a board: box shape ``(rows, columns)``, and the variants.

    ``regions`` (jigsaw) gives the region of each cell, row by row, replacing the boxes;
    ``diagonal`` asks for every digit once on each long diagonal too. ``digits`` names
    the symbols of the values (see :func:`digit_set`); None, or the default ones, is
    kept as None.
    """

    box: tuple[int, int] = (3, 3)
    diagonal: bool = False
    regions: tuple[int, ...] | None = None
    digits: str | None = None

    def __post_init__(self) -> None:
        rows, columns = _check_box(self.box)
        object.__setattr__(self, "box", (rows, columns))  # hashable, for the solver cache
        size = rows * columns
        if rows < 1 or columns < 1 or size > len(SYMBOLS):
            raise UsageError(
                f"unsupported box shape {rows}x{columns}: boxes need at least one row and "
                f"column, and at most {len(SYMBOLS)} cells"
            )
        if self.regions is not None:
            if isinstance(self.regions, str) or not isinstance(self.regions, Sequence):
                raise UsageError(f"regions are a list of region numbers, not {self.regions!r}")
            object.__setattr__(self, "regions", tuple(self.regions))
            _check_regions(self.regions, size)
        if self.digits is not None:
            symbols = digit_set(self.digits, size)
            object.__setattr__(self, "digits", None if symbols == SYMBOLS[:size] else symbols)

    @property
    def symbols(self) -> str:
        """The symbols of the values ``1..N``, in order."""
        return self.digits or SYMBOLS[: self.size]

    @property
    def size(self) -> int:
        """The side ``N`` of the board: the number of digits."""
        return self.box[0] * self.box[1]

    @property
    def cells(self) -> int:
        """The number of cells, ``N * N``."""
        return self.size * self.size

    def units(self) -> list[list[int]]:
        """The groups of cells that hold each digit once: rows, columns, boxes or regions,
        then the diagonals of the diagonal variant; cells numbered row by row from 0."""
        n, (rows, columns) = self.size, self.box
        units = [[r * n + c for c in range(n)] for r in range(n)]
        units += [[r * n + c for r in range(n)] for c in range(n)]
        if self.regions is None:
            for top in range(0, n, rows):
                for left in range(0, n, columns):
                    box = [(top + r) * n + left + c for r in range(rows) for c in range(columns)]
                    units.append(box)
        else:
            units += [[cell for cell in range(n * n) if self.regions[cell] == k] for k in range(n)]
        if self.diagonal:
            units.append([k * n + k for k in range(n)])
            units.append([k * n + n - 1 - k for k in range(n)])
        return units

    def cover(self) -> ExactCover:
        """The exact cover of the empty board: option ``cell * N + d`` puts ``d + 1`` in
        ``cell``; items are the cells, then each unit's digits (see the module doc)."""
        n = self.size
        unit_names = [f"{kind}{k}" for kind in "rcb" for k in range(n)]
        if self.diagonal:
            unit_names += ["x0", "x1"]
        units = self.units()
        primary = [f"p{cell // n}_{cell % n}" for cell in range(n * n)]
        primary += [f"{unit}_{d + 1}" for unit in unit_names for d in range(n)]
        cover = ExactCover(primary=primary)
        member: list[list[int]] = [[] for _ in range(n * n)]
        for number, unit in enumerate(units):
            for cell in unit:
                member[cell].append(number)
        for cell in range(n * n):
            for d in range(n):
                cover.add_option([cell] + [n * n + u * n + d for u in member[cell]])
        return cover


def _check_box(box: object) -> tuple[int, int]:
    """``box`` as ``(rows, columns)``; raises UsageError unless it is a pair of ints."""
    try:
        if not isinstance(box, tuple | list) or len(box) != 2 or bool in map(type, box):
            raise TypeError
        return index(box[0]), index(box[1])
    except TypeError:
        raise UsageError(
            f"a box shape is a pair of integers (rows, columns), not {box!r}"
        ) from None


def _check_regions(regions: tuple[int, ...], size: int) -> None:
    if len(regions) != size * size:
        raise UsageError(f"a jigsaw board needs {size * size} region cells, not {len(regions)}")
    for k in range(size):
        found = regions.count(k)
        if found != size:
            raise UsageError(
                f"jigsaw region {k} (numbered from 0 in order of appearance) has {found} "
                f"cells, not {size}"
            )


def digit_set(digits: str, size: int) -> str:
    """The ``size`` symbols that ``digits`` names, in order: single characters and ranges
    along ``0-9A-Z`` (``"0-F"``, ``"1-9A-G"``, ``"1-G"``, or ``"ABCDEFGHI"``); letters
    in upper case (a puzzle may write them in either case).

    Raises UsageError when they are not ``size`` distinct symbols, or one is ``.`` or a
    layout character."""
    if not isinstance(digits, str):
        raise UsageError(f"digits are a string such as '1-9' or '0-F', not {digits!r}")
    symbols: list[str] = []
    k = 0
    text = digits.upper()
    while k < len(text):
        if k + 2 < len(text) and text[k + 1] == "-":
            start, end = _ORDER.find(text[k]), _ORDER.find(text[k + 2])
            if start < 0 or end < start:
                raise UsageError(f"digits {digits!r}: {digits[k : k + 3]!r} is no range of 0-9A-Z")
            symbols += _ORDER[start : end + 1]
            k += 3
        else:
            symbols.append(text[k])
            k += 1
    bad = next((ch for ch in symbols if ch == "." or ch in _LAYOUT or not _printable(ch)), None)
    if bad is not None:
        raise UsageError(f"digits {digits!r}: {bad!r} cannot be a digit")
    if len(set(symbols)) != len(symbols):
        twice = next(ch for ch in symbols if symbols.count(ch) > 1)
        raise UsageError(f"digits {digits!r}: {twice!r} is given twice")
    if len(symbols) != size:
        raise UsageError(
            f"digits {digits!r} are {len(symbols)} symbols: a {size}x{size} board needs {size}"
        )
    return "".join(symbols)


def _printable(ch: str) -> bool:
    """Whether ``ch`` is a printable ASCII character (a digit is one byte of a line)."""
    return ch.isascii() and ch.isprintable()


def _digits_or_none(digits: str, size: int) -> str | None:
    """:func:`digit_set`, or None when ``digits`` names no ``size`` digits."""
    try:
        return digit_set(digits, size)
    except UsageError:
        return None


def _describe(symbols: str) -> str:
    """A digit set as a range (``0-F``) when it is one, else its symbols."""
    start = _ORDER.find(symbols[0])
    if start >= 0 and _ORDER[start : start + len(symbols)] == symbols:
        return f"{symbols[0]}-{symbols[-1]}"
    return symbols


def _detect_digits(puzzles: Sequence[str], size: int) -> str | None:
    """The digits of puzzles given without ``digits=``: None (the default ones) unless
    ``0`` is read as a digit, with a warning whenever the reading is a guess (see the
    module text). Boards up to 9x9 always read ``0`` as a blank."""
    if size <= 9:
        return None
    used: set[str] = set()
    for text in puzzles:  # not one joined string: a file of puzzles can be large
        if isinstance(text, str):  # (parse refuses the others)
            used.update(text.upper())
    used -= _LAYOUT
    default, zero_based = SYMBOLS[:size], _ORDER[:size]
    if "0" not in used or default[-1] in used:
        return None  # no 0, or every default digit too: 0 can only be a blank
    if "." in used:
        warnings.warn(
            f"read as digits {_describe(zero_based)}: the puzzle writes blanks as '.' and "
            f"uses '0' but not {default[-1]!r}; give digits '{_describe(default)}' "
            f"(--digits {_describe(default)}) to read '0' as a blank",
            ExcoverWarning,
            stacklevel=4,
        )
        return zero_based
    if used >= set(zero_based):
        warnings.warn(
            f"read as digits {_describe(default)} with '0' as a blank, but the puzzle reads "
            f"as digits {_describe(zero_based)} too; give the digits (--digits) to say which",
            ExcoverWarning,
            stacklevel=4,
        )
    return None


def _cells(text: str) -> list[tuple[int, str]]:
    """The cell characters of a puzzle with their positions in ``text``."""
    if not isinstance(text, str):
        raise UsageError(f"a puzzle must be a string, not {type(text).__name__}")
    return [(k, ch) for k, ch in enumerate(text) if ch not in _LAYOUT]


def _side(count: int) -> int:
    side = math.isqrt(count)
    if side * side != count or count == 0:
        raise ProblemError(f"a puzzle of {count} cells is not a square board")
    return side


def _box_of(size: int) -> tuple[int, int]:
    """The usual box shape of a board of side ``size``: as square as possible, wider than
    tall (9: 3x3, 6: 2x3, 12: 3x4)."""
    rows = max(r for r in range(1, math.isqrt(size) + 1) if size % r == 0)
    if rows == 1 and size > 1:
        raise UsageError(f"unsupported board of side {size}: give its box shape")
    return rows, size // rows


def board_for(
    puzzle: str | list[str] | tuple[str, ...],
    box: tuple[int, int] | None = None,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> Board:
    """The board of ``puzzle`` (or of a batch of puzzles: the first one's size, and the
    digits all of them use): ``box`` when given, else inferred from its size; ``digits``
    when given, else the default ones or those the givens show (see the module text)."""
    puzzles: list[str] = list(puzzle) if isinstance(puzzle, list | tuple) else [puzzle]
    if not puzzles:
        raise UsageError("no puzzle to read a board from")
    if box is None:
        box = _box_of(_side(len(_cells(puzzles[0]))))
    if regions is not None and not isinstance(regions, Sequence):
        raise UsageError(f"regions are a string or a list of region numbers, not {regions!r}")
    if isinstance(regions, str):
        symbols = [ch for _, ch in _cells(regions)]
        numbers: dict[str, int] = {}
        regions = [numbers.setdefault(ch, len(numbers)) for ch in symbols]
    box = _check_box(box)
    if digits is None:
        digits = _detect_digits(puzzles, Board(box).size)
    return Board(box, diagonal, None if regions is None else tuple(regions), digits)


def parse(puzzle: str, board: Board) -> bytes:
    """The values of the cells of ``puzzle`` (0 for a blank), row by row.

    Raises ProblemError naming the position of a bad character, or the length.
    """
    n = board.size
    if (
        board.digits is None
        and isinstance(puzzle, str)
        and len(puzzle) == board.cells
        and puzzle.isascii()
    ):
        raw = puzzle.encode()
        if not raw.translate(None, _allowed(n)):  # one line of valid characters only
            return raw.translate(_TO_VALUE)
    cells = _cells(puzzle)
    if len(cells) != board.cells:
        raise ProblemError(f"a {n}x{n} puzzle has {board.cells} cells, not {len(cells)}")
    values = bytearray(board.cells)
    allowed = board.symbols
    blanks = "." if "0" in allowed else ".0"
    for cell, (position, ch) in enumerate(cells):
        if ch in blanks:
            continue
        value = allowed.find(ch.upper()) + 1
        if value == 0:
            raise ProblemError(
                f"bad character {ch!r} at row {cell // n + 1}, column {cell % n + 1} "
                f"(character {position + 1}): a {n}x{n} puzzle uses {_describe(allowed)}"
                f" and {' or '.join(map(repr, blanks))} for blanks"
            )
        values[cell] = value
    return bytes(values)


#: ``bytes.translate`` tables: a cell's character to its value (0: blank), and back.
_TO_VALUE = bytes.maketrans(
    b".0" + SYMBOLS.encode() + SYMBOLS[9:].lower().encode(),
    bytes(2) + bytes(range(1, len(SYMBOLS) + 1)) + bytes(range(10, len(SYMBOLS) + 1)),
)
_TO_SYMBOL = bytes.maketrans(bytes(range(len(SYMBOLS) + 1)), b"." + SYMBOLS.encode())


@cache
def _allowed(size: int) -> bytes:
    """The characters of a one-line puzzle of side ``size``."""
    return (".0" + SYMBOLS[:size] + SYMBOLS[9:size].lower()).encode()


def _text(values: bytes | bytearray, board: Board | None = None) -> str:
    """Cell values as a one-line puzzle, in ``board``'s digits (default: ``1-9A-Z``)."""
    table = _TO_SYMBOL if board is None or board.digits is None else _writer(board.digits)
    return bytes(values).translate(table).decode()


@cache
def _writer(symbols: str) -> bytes:
    """The ``bytes.translate`` table from values to ``symbols`` (0: a blank, ``.``)."""
    return bytes.maketrans(bytes(range(len(symbols) + 1)), ("." + symbols).encode())


@lru_cache(maxsize=16)
def _solver(board: Board, locked: bool = True) -> GridSolver:
    """The compiled solver of ``board``, built once per board (``locked``: with locked
    candidates; without, the propagation is naked and hidden singles only)."""
    from excover.puzzles._grid import GridSolver

    return GridSolver(board.cells, board.size, board.units(), locked)


#: The classic board, 9x9 with 3x3 boxes: it has a compiled core of its own
#: (:mod:`excover.puzzles._sudoku9`, digit-major bitboards), about three times as fast as
#: the general solver, which handles every other board and random first solutions.
CLASSIC = Board()


def _run(
    board: Board, grids: bytes, limit: int | None, seed: int = 0
) -> tuple[array[int], bytearray]:
    """Counts (up to ``limit``) and first solutions of the concatenated ``grids``; a
    nonzero ``seed`` makes the first solution a random one."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise UsageError(f"limit must be a positive integer or None, not {limit!r}")
    counts = array("i", bytes(4 * (len(grids) // board.cells)))
    out = bytearray(grids)
    cap = _NO_LIMIT if limit is None else min(limit, _NO_LIMIT)
    if board == CLASSIC and not seed:
        from excover.puzzles import _sudoku9

        _sudoku9.run(grids, cap, out, counts)
    else:
        _solver(board).run(grids, cap, out, counts, None, seed)
    return counts, out


def count(
    puzzle: str,
    limit: int | None = 2,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> int:
    """The number of solutions of ``puzzle``, counting no further than ``limit`` (None:
    all of them, up to 2**31 - 1; 2 is enough to tell a unique solution from several)."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    counts, _ = _run(board, parse(puzzle, board), limit)
    return counts[0]


def solve(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> str | None:
    """A solution of ``puzzle`` in the one-line format, or None when it has none."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    counts, out = _run(board, parse(puzzle, board), 1)
    return _text(out, board) if counts[0] else None


def classify(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> Status:
    """``"none"``, ``"unique"`` or ``"multiple"``: how many solutions ``puzzle`` has."""
    found = count(puzzle, 2, box=box, diagonal=diagonal, regions=regions, digits=digits)
    return _STATUS[min(found, 2)]


_STATUS: tuple[Status, Status, Status] = ("none", "unique", "multiple")


def _batch(
    puzzles: Iterable[str],
    box: tuple[int, int] | None,
    diagonal: bool,
    regions: str | Sequence[int] | None,
    digits: str | None,
) -> tuple[Board, list[str], bytes]:
    """The board of a batch (the first puzzle's size, the digits of them all), the
    puzzles, and their cells' values one puzzle after the other."""
    if isinstance(puzzles, str):  # else each character would be a 1x1 puzzle
        raise UsageError("give a batch of puzzles as a list of strings, not one string")
    texts = list(puzzles)
    if not texts:
        return Board(box or (3, 3)), texts, b""
    try:
        board = board_for(texts, box, diagonal=diagonal, regions=regions, digits=digits)
    except ProblemError as error:
        raise ProblemError(f"puzzle 1: {error}") from None
    grids = bytearray()
    for number, text in enumerate(texts, 1):
        try:
            grids += parse(text, board)
        except ProblemError as error:
            raise ProblemError(f"puzzle {number}: {error}") from None
    return board, texts, bytes(grids)


def _classic_lines(
    puzzles: Iterable[str],
    box: tuple[int, int] | None,
    diagonal: bool,
    regions: str | Sequence[int] | None,
    digits: str | None,
    limit: int,
    solutions: bool,
    names: tuple[Status, ...] | None = None,
) -> tuple[list[Any], list[str | None] | None] | None:
    """The fast path of a batch: classic 9x9 puzzles, each one line of 81 cells, read,
    solved and written in compiled code; None when the batch is anything else (other
    rules, or digits given: the compiled reader knows ``1-9`` only)."""
    if diagonal or regions is not None or box not in (None, (3, 3)):
        return None
    if digits is not None and _digits_or_none(digits, 9) != SYMBOLS[:9]:
        return None
    if not isinstance(puzzles, list):
        return None
    from excover.puzzles import _sudoku9

    return _sudoku9.run_texts(puzzles, limit, solutions, names)


def solve_many(
    puzzles: Iterable[str],
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> list[str | None]:
    """:func:`solve` on each puzzle of a batch (all on one board), in one compiled loop."""
    fast = _classic_lines(puzzles, box, diagonal, regions, digits, 1, True)
    if fast is not None:
        return fast[1] or []
    board, _, grids = _batch(puzzles, box, diagonal, regions, digits)
    counts, out = _run(board, grids, 1)
    n = board.cells
    return [_text(out[k * n : (k + 1) * n], board) if c else None for k, c in enumerate(counts)]


def classify_many(
    puzzles: Iterable[str],
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> list[Status]:
    """:func:`classify` on each puzzle of a batch (all on one board), in one compiled loop."""
    fast = _classic_lines(puzzles, box, diagonal, regions, digits, 2, False, _STATUS)
    if fast is not None:
        return fast[0]
    board, _, grids = _batch(puzzles, box, diagonal, regions, digits)
    counts, _ = _run(board, grids, 2)
    return [_STATUS[min(c, 2)] for c in counts]


def needs_search(
    puzzles: Iterable[str],
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> list[bool]:
    """For each puzzle of a batch, whether naked and hidden singles alone, applied until
    none is left, fail to settle it (to solve it, or to show it has no solution): the
    puzzles that make a solver branch, the usual meaning of a "hard" puzzle."""
    board, _, grids = _batch(puzzles, box, diagonal, regions, digits)
    n_puzzles = len(grids) // board.cells
    counts = array("i", bytes(4 * n_puzzles))
    branchings = array("q", bytes(8 * n_puzzles))
    _solver(board, locked=False).run(grids, 1, bytearray(grids), counts, branchings)
    return [b > 0 for b in branchings]


def conflicts(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> list[tuple[int, int]]:
    """The givens ``(row, column)`` (from 0) that share a unit with an equal given."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    values = parse(puzzle, board)
    clashing: set[int] = set()
    for unit in board.units():
        for a in unit:
            for b in unit:
                if a < b and values[a] and values[a] == values[b]:
                    clashing.update((a, b))
    n = board.size
    return [divmod(cell, n) for cell in sorted(clashing)]


def problem(
    puzzle: str,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> ExactCover:
    """The exact cover of ``puzzle`` for the generic engines: the board's cover with only
    the options its givens allow (a given cell keeps its one option; an option that
    repeats a given digit in one of its units is dropped). Decode a solution with
    :func:`grid_of`."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    values = parse(puzzle, board)
    n = board.size
    full = board.cover()
    forbidden: set[tuple[int, int]] = set()  # (cell, value) ruled out by a given
    for unit in board.units():
        for cell in unit:
            if values[cell]:
                forbidden.update((other, values[cell]) for other in unit if other != cell)
    cover = ExactCover(primary=full.primary_items)
    for option in range(full.n_options):
        cell, value = divmod(option, n)
        if (cell, value + 1) not in forbidden and values[cell] in (0, value + 1):
            cover.add_option(full.option_items(option))
    return cover


def grid_of(cover: ExactCover, solution: Iterable[int], *, digits: str | None = None) -> str:
    """The one-line grid of a solution of :func:`problem` (or of a killer cover), written
    with ``digits`` (default ``1-9A-Z``): in every option, each cell ``p<row>_<col>`` is
    followed by its row's digit ``r<row>_<digit>``."""
    placed: dict[tuple[int, int], int] = {}
    for option in solution:
        items = cover.option_items(option)
        for cell, row_digit in pairwise(items):
            if cell[0] == "p":
                row, column = map(int, cell[1:].split("_"))
                placed[row, column] = int(row_digit.split("_")[1])
    side = _side(len(placed))
    board = None if digits is None else Board((1, side), digits=digits)
    return _text(bytes(placed[divmod(k, side)] for k in range(side * side)), board)


def solutions(
    puzzle: str,
    limit: int | None = None,
    *,
    box: tuple[int, int] | None = None,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> Iterator[str]:
    """Every solution of ``puzzle`` (at most ``limit``), by the generic engine on
    :func:`problem`, each in the one-line format."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    cover = problem(
        puzzle, box=board.box, diagonal=diagonal, regions=board.regions, digits=board.symbols
    )
    for solution in cover.solutions(limit=limit):
        yield grid_of(cover, solution, digits=board.symbols)


def format_grid(
    puzzle: str, box: tuple[int, int] | None = None, *, digits: str | None = None
) -> str:
    """``puzzle`` (or a solution) as a grid over several lines, boxes set apart by ``|``
    and ``-`` (which the parser ignores, so the result reads back)."""
    board = board_for(puzzle, box, digits=digits)
    text = _text(parse(puzzle, board), board)
    n, (rows, columns) = board.size, board.box
    lines = []
    for row in range(n):
        if row and row % rows == 0:
            lines.append("-+-".join("-" * (2 * columns - 1) for _ in range(n // columns)))
        line = text[row * n : (row + 1) * n]
        chunks = [" ".join(line[k : k + columns]) for k in range(0, n, columns)]
        lines.append(" | ".join(chunks))
    return "\n".join(lines)


def generate(
    box: tuple[int, int] = (3, 3),
    seed: int | None = None,
    minimal: bool = True,
    symmetric: bool = False,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> str:
    """A random puzzle with exactly one solution, in the one-line format (written with
    ``digits``, default ``1-9A-Z``).

    First a random full grid: the compiled solver's first solution of the empty board,
    trying digits in a random order. Then givens are taken from that grid, cells in
    random order, up to the shortest prefix of that order whose givens have a unique
    solution (found by bisection, since adding givens of one grid only removes
    solutions). With ``minimal``, givens are then removed in random order whenever the
    solution stays unique, so that removing any remaining given would allow a second
    solution (a given that had to stay still has to: removing givens only adds
    solutions). With ``symmetric``, givens come and go in pairs of cells symmetric about
    the centre, and minimal means that no pair can go. Every puzzle is consistent with
    the grid drawn, so no check ever has to refute a puzzle without solution.

    Minimal puzzles cost about 0.6 s on 16x16 and 30 s on 20x20; on 25x25 the checks of
    sparse puzzles blow up (hours), so pass ``minimal=False`` there (0.05 s). Ctrl-C
    stops the compiled checks (KeyboardInterrupt).
    """
    size = Board(_check_box(box)).size  # a bad shape fails here, not after a huge string
    board = board_for("." * size * size, box, diagonal=diagonal, regions=regions, digits=digits)
    rng = random.Random(seed)
    cells = board.cells
    found, full = _run(board, bytes(cells), 1, seed=rng.getrandbits(64) | 1)
    if not found[0]:
        raise UsageError("this board has no solution at all: no puzzle to generate")
    groups = sorted({tuple(sorted({k, cells - 1 - k} if symmetric else {k})) for k in range(cells)})
    rng.shuffle(groups)

    def prefix(length: int) -> bytearray:
        grid = bytearray(cells)
        for group in groups[:length]:
            for cell in group:
                grid[cell] = full[cell]
        return grid

    low, high = 0, len(groups)  # the prefix of length high is unique, low is not known to be
    while high - low > 1:
        middle = (low + high) // 2
        if _run(board, bytes(prefix(middle)), 2)[0][0] == 1:
            high = middle
        else:
            low = middle
    grid = prefix(high)
    if minimal:
        filled = groups[:high]
        rng.shuffle(filled)
        for group in filled:
            for cell in group:
                grid[cell] = 0
            if _run(board, bytes(grid), 2)[0][0] != 1:
                for cell in group:
                    grid[cell] = full[cell]
    return _text(grid, board)


def svg_grid(
    puzzle: str,
    solution: str | None = None,
    box: tuple[int, int] | None = None,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    cages: Sequence[tuple[int, Sequence[tuple[int, int]]]] = (),
    digits: str | None = None,
) -> str:
    """An SVG picture of ``puzzle``: givens in black, the digits ``solution`` adds in blue,
    thick lines around the boxes (or the jigsaw regions), the two long diagonals in grey
    on a diagonal board, and killer ``cages`` (``(sum, [(row, column), ...])``, from 0)
    as dashed outlines inside their cells with the sum in the top left corner. With cages
    the digits are a little smaller and lower (:data:`DIGIT_WITH_CAGES`), so that no sum
    touches the digit of its cell."""
    board = board_for(puzzle, box, diagonal=diagonal, regions=regions, digits=digits)
    givens = _text(parse(puzzle, board), board)
    filled = givens if solution is None else _text(parse(solution, board), board)
    n, (rows, columns), cell = board.size, board.box, 32
    region = board.regions or tuple(
        (k // n // rows) * (n // columns) + (k % n) // columns for k in range(n * n)
    )
    side = n * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side + 4}" height="{side + 4}" '
        f'viewBox="-2 -2 {side + 4} {side + 4}" font-family="sans-serif" '
        f'font-size="{cell * 0.6:g}" text-anchor="middle">',
        f'<rect width="{side}" height="{side}" fill="white" stroke="black" stroke-width="3"/>',
    ]
    if diagonal:
        grey = 'stroke="#b0b0b0" stroke-width="2"'
        parts.append(f'<line class="diagonal" x1="0" y1="0" x2="{side}" y2="{side}" {grey}/>')
        parts.append(f'<line class="diagonal" x1="{side}" y1="0" x2="0" y2="{side}" {grey}/>')
    for k in range(n * n):
        row, column = divmod(k, n)
        x, y = column * cell, row * cell
        if column + 1 < n:  # the edge to the right neighbour
            width = 3 if region[k] != region[k + 1] else 1
            parts.append(_line(x + cell, y, x + cell, y + cell, width))
        if row + 1 < n:  # the edge to the neighbour below
            width = 3 if region[k] != region[k + n] else 1
            parts.append(_line(x, y + cell, x + cell, y + cell, width))
    for total, places in cages:
        cage = {(r, c) for r, c in places}
        if not cage or not all(0 <= r < n and 0 <= c < n for r, c in cage):
            raise ProblemError(f"the cage of sum {total} needs cells on the {n}x{n} board")
        parts += _cage_svg(total, cage, cell)
    size, baseline = DIGIT_WITH_CAGES if cages else DIGIT
    for k, symbol in enumerate(filled):
        if symbol != ".":
            colour = "black" if givens[k] != "." else "#1f5fbf"
            cx, cy = (k % n + 0.5) * cell, (k // n + baseline) * cell
            parts.append(
                f'<text x="{cx:g}" y="{cy:g}" font-size="{size * cell:g}" fill="{colour}">'
                f"{symbol}</text>"
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


#: A digit's font size and baseline, as fractions of a cell's side: centred a little below
#: the middle ...
DIGIT = (0.6, 0.71)
#: ... and with killer cages, smaller and lower: a digit's top (its baseline less 0.72 of
#: its size, the height of a digit) stays below the cage sum's baseline (:data:`CAGE_SUM`).
DIGIT_WITH_CAGES = (0.5, 0.82)
#: A cage sum's font size and baseline, as fractions of a cell's side (its left edge is
#: just inside the cage's dashed outline).
CAGE_SUM = (0.3, 0.4)


def _cage_svg(total: int, cage: set[tuple[int, int]], cell: int) -> list[str]:
    """The dashed outline of a killer cage, ``inset`` inside its cells, and its sum.

    Each side of a cell that borders a cell outside the cage gets a segment parallel to
    it; at each end the segment stops short (an outer corner), runs on to the next
    cell's segment (a straight border) or reaches out to meet the neighbouring cell's
    perpendicular segment (an inner corner)."""
    inset = 4
    parts = []
    for row, column in sorted(cage):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):  # the side's outward normal
            if (row + dr, column + dc) in cage:
                continue
            ar, ac = abs(dc), abs(dr)  # along the side
            ends = []
            for sign in (-1, 1):
                neighbour = (row + sign * ar, column + sign * ac)
                beyond = (neighbour[0] + dr, neighbour[1] + dc)
                if neighbour not in cage:
                    ends.append(-inset)
                elif beyond in cage:
                    ends.append(inset)
                else:
                    ends.append(0)
            # The side's line, inset from the edge, and its extent along the side.
            if dr:
                y = (row + (dr > 0)) * cell - dr * inset
                x1, x2 = column * cell - ends[0], (column + 1) * cell + ends[1]
                parts.append(_dashed(x1, y, x2, y))
            else:
                x = (column + (dc > 0)) * cell - dc * inset
                y1, y2 = row * cell - ends[0], (row + 1) * cell + ends[1]
                parts.append(_dashed(x, y1, x, y2))
    top, left = min(cage)
    size, baseline = CAGE_SUM
    parts.append(
        f'<text class="cage-sum" x="{left * cell + inset + 1:g}" '
        f'y="{(top + baseline) * cell:g}" font-size="{size * cell:g}" '
        f'text-anchor="start">{total}</text>'
    )
    return parts


def _dashed(x1: float, y1: float, x2: float, y2: float) -> str:
    return (
        f'<line class="cage" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
        'stroke="#555555" stroke-width="1" stroke-dasharray="3 2"/>'
    )


def _line(x1: float, y1: float, x2: float, y2: float, width: int) -> str:
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="black" '
        f'stroke-width="{width}" stroke-linecap="square"/>'
    )
