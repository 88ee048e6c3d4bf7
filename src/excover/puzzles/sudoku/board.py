"""A Sudoku board and its text: the box shape or jigsaw regions, the digits, and reading a
puzzle into cell values (see :mod:`excover.puzzles.sudoku`, which re-exports the public
names: this module holds what solving, drawing and generating all read).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from operator import index
from typing import TypedDict

from excover.errors import ExcoverWarning, ProblemError, UsageError
from excover.solving import ExactCover

__all__ = ["SYMBOLS", "Rules", "SudokuBoard", "board_for", "digit_set", "parse"]

#: The symbols of the values 1, 2, ...: digits, then letters.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The order of the ranges of a digit set: ``0-F`` is ``0123456789ABCDEF``.
_ORDER = "0" + SYMBOLS

#: Characters a multi-line grid may use for layout; they are not cells.
_LAYOUT = frozenset(" \t\r\n|+-")

#: The largest count limit the compiled solver takes (``limit=None`` means this).
_NO_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class SudokuBoard:
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


class Rules(TypedDict, total=False):
    """The keywords that name a puzzle's board, taken alike by :func:`board_for` and every
    solving function of :mod:`excover.puzzles.sudoku`: ``box``, the box shape
    ``(rows, columns)`` (default: inferred from the puzzle's size); ``diagonal``
    (X-sudoku); ``regions`` (jigsaw: one symbol per cell naming its region, or a list of
    region numbers, row by row); ``digits``, the symbols of the values (see
    :func:`digit_set`; default: ``1-9A-Z`` cut to the board, or what the givens show)."""

    box: tuple[int, int] | None
    diagonal: bool
    regions: str | Sequence[int] | None
    digits: str | None


def board_for(
    puzzle: str | list[str] | tuple[str, ...],
    box: tuple[int, int] | None = None,
    *,
    diagonal: bool = False,
    regions: str | Sequence[int] | None = None,
    digits: str | None = None,
) -> SudokuBoard:
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
        digits = _detect_digits(puzzles, SudokuBoard(box).size)
    return SudokuBoard(box, diagonal, None if regions is None else tuple(regions), digits)


def parse(puzzle: str, board: SudokuBoard) -> bytes:
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


def _text(values: bytes | bytearray, board: SudokuBoard | None = None) -> str:
    """Cell values as a one-line puzzle, in ``board``'s digits (default: ``1-9A-Z``)."""
    table = _TO_SYMBOL if board is None or board.digits is None else _writer(board.digits)
    return bytes(values).translate(table).decode()


@cache
def _writer(symbols: str) -> bytes:
    """The ``bytes.translate`` table from values to ``symbols`` (0: a blank, ``.``)."""
    return bytes.maketrans(bytes(range(len(symbols) + 1)), ("." + symbols).encode())
