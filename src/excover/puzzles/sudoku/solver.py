"""Solving, counting and generating Sudoku puzzles: the functions of
:mod:`excover.puzzles.sudoku`, which lends them (and the board's names of
:mod:`~excover.puzzles.sudoku.board`, and :func:`~excover.puzzles.sudoku.draw.svg_grid`)
on first use; the package's text says how a board is one exact cover and how its
puzzles are read.

Puzzles of a batch are solved by the compiled solver of the board
(:mod:`excover.puzzles.sudoku._grid`, bitsets built once per board, with its tables of
units and peers), or on the classic 9x9 board by the compiled core of its own
(:mod:`excover.puzzles.sudoku._sudoku9`); :func:`problem` builds the same cover as an
:class:`~excover.ExactCover` restricted to the puzzle, for the generic engines.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal

from excover.errors import ProblemError, UsageError
from excover.puzzles.sudoku import _LAZY
from excover.puzzles.sudoku.board import (
    _NO_LIMIT,
    SYMBOLS,
    Rules,
    SudokuBoard,
    _check_box,
    _digits_or_none,
    _side,
    _text,
    board_for,
    parse,
)
from excover.solving import ExactCover

if TYPE_CHECKING:
    from typing import Unpack

    from excover.puzzles.sudoku._grid import GridSolver

#: The names the package lends from this module (its table of names imported on first
#: use lists them), and :data:`CLASSIC`.
__all__ = ["CLASSIC", *_LAZY[__name__]]

#: What :func:`classify` says about a puzzle.
Status = Literal["none", "unique", "multiple"]


@lru_cache(maxsize=16)
def _solver(board: SudokuBoard, locked: bool = True) -> GridSolver:
    """The compiled solver of ``board``, built once per board (``locked``: with locked
    candidates; without, the propagation is naked and hidden singles only)."""
    from excover.puzzles.sudoku._grid import GridSolver

    return GridSolver(board.cells, board.size, board.units(), locked)


#: The classic board, 9x9 with 3x3 boxes: it has a compiled core of its own
#: (:mod:`excover.puzzles.sudoku._sudoku9`, digit-major bitboards), about three times as fast as
#: the general solver, which handles every other board and random first solutions.
CLASSIC = SudokuBoard()


def _run(
    board: SudokuBoard, grids: bytes, limit: int | None, seed: int = 0
) -> tuple[array[int], bytearray]:
    """Counts (up to ``limit``) and first solutions of the concatenated ``grids``; a
    nonzero ``seed`` makes the first solution a random one."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise UsageError(f"limit must be a positive integer or None, not {limit!r}")
    counts = array("i", bytes(4 * (len(grids) // board.cells)))
    out = bytearray(grids)
    cap = _NO_LIMIT if limit is None else min(limit, _NO_LIMIT)
    if board == CLASSIC and not seed:
        from excover.puzzles.sudoku.simd import core

        core().run(grids, cap, out, counts)
    else:
        _solver(board).run(grids, cap, out, counts, None, seed)
    return counts, out


def count(puzzle: str, limit: int | None = 2, **rules: Unpack[Rules]) -> int:
    """The number of solutions of ``puzzle``, counting no further than ``limit`` (None:
    all of them, up to 2**31 - 1; 2 is enough to tell a unique solution from several)."""
    board = board_for(puzzle, **rules)
    counts, _ = _run(board, parse(puzzle, board), limit)
    return counts[0]


def solve(puzzle: str, **rules: Unpack[Rules]) -> str | None:
    """A solution of ``puzzle`` in the one-line format, or None when it has none."""
    board = board_for(puzzle, **rules)
    counts, out = _run(board, parse(puzzle, board), 1)
    return _text(out, board) if counts[0] else None


def classify(puzzle: str, **rules: Unpack[Rules]) -> Status:
    """``"none"``, ``"unique"`` or ``"multiple"``: how many solutions ``puzzle`` has."""
    found = count(puzzle, 2, **rules)
    return _STATUS[min(found, 2)]


_STATUS: tuple[Status, Status, Status] = ("none", "unique", "multiple")


def _check_rules(rules: Rules) -> None:
    """Refuse a keyword that is none of :class:`Rules`'s, as a signature naming them
    would: a batch that needs no board (empty, or classic lines) would ignore it."""
    unknown = sorted(rules.keys() - Rules.__optional_keys__)
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")


def _batch(puzzles: Iterable[str], rules: Rules) -> tuple[SudokuBoard, list[str], bytes]:
    """The board of a batch (the first puzzle's size, the digits of them all), the
    puzzles, and their cells' values one puzzle after the other."""
    if isinstance(puzzles, str):  # else each character would be a 1x1 puzzle
        raise UsageError("give a batch of puzzles as a list of strings, not one string")
    texts = list(puzzles)
    if not texts:
        _check_rules(rules)
        return SudokuBoard(rules.get("box") or (3, 3)), texts, b""
    try:
        board = board_for(texts, **rules)
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
    rules: Rules,
    limit: int,
    solutions: bool,
    names: tuple[Status, ...] | None = None,
) -> tuple[list[Any], list[str | None] | None] | None:
    """The fast path of a batch: classic 9x9 puzzles, each one line of 81 cells, read,
    solved and written in compiled code; None when the batch is anything else (other
    rules, or digits given: the compiled reader knows ``1-9`` only)."""
    _check_rules(rules)
    box, digits = rules.get("box"), rules.get("digits")
    if rules.get("diagonal") or rules.get("regions") is not None or box not in (None, (3, 3)):
        return None
    if digits is not None and _digits_or_none(digits, 9) != SYMBOLS[:9]:
        return None
    if not isinstance(puzzles, list):
        return None
    from excover.puzzles.sudoku.simd import core

    done: tuple[list[Any], list[str | None] | None] | None
    done = core().run_texts(puzzles, limit, solutions, names)
    return done


def solve_many(puzzles: Iterable[str], **rules: Unpack[Rules]) -> list[str | None]:
    """:func:`solve` on each puzzle of a batch (all on one board), in one compiled loop."""
    fast = _classic_lines(puzzles, rules, 1, True)
    if fast is not None:
        return fast[1] or []
    board, _, grids = _batch(puzzles, rules)
    counts, out = _run(board, grids, 1)
    n = board.cells
    return [_text(out[k * n : (k + 1) * n], board) if c else None for k, c in enumerate(counts)]


def classify_many(puzzles: Iterable[str], **rules: Unpack[Rules]) -> list[Status]:
    """:func:`classify` on each puzzle of a batch (all on one board), in one compiled loop."""
    fast = _classic_lines(puzzles, rules, 2, False, _STATUS)
    if fast is not None:
        return fast[0]
    board, _, grids = _batch(puzzles, rules)
    counts, _ = _run(board, grids, 2)
    return [_STATUS[min(c, 2)] for c in counts]


def needs_search(puzzles: Iterable[str], **rules: Unpack[Rules]) -> list[bool]:
    """For each puzzle of a batch, whether naked and hidden singles alone, applied until
    none is left, fail to settle it (to solve it, or to show it has no solution): the
    puzzles that make a solver branch, the usual meaning of a "hard" puzzle."""
    board, _, grids = _batch(puzzles, rules)
    n_puzzles = len(grids) // board.cells
    counts = array("i", bytes(4 * n_puzzles))
    branchings = array("q", bytes(8 * n_puzzles))
    _solver(board, locked=False).run(grids, 1, bytearray(grids), counts, branchings)
    return [b > 0 for b in branchings]


def conflicts(puzzle: str, **rules: Unpack[Rules]) -> list[tuple[int, int]]:
    """The givens ``(row, column)`` (from 0) that share a unit with an equal given."""
    board = board_for(puzzle, **rules)
    values = parse(puzzle, board)
    clashing: set[int] = set()
    for unit in board.units():
        for a in unit:
            for b in unit:
                if a < b and values[a] and values[a] == values[b]:
                    clashing.update((a, b))
    n = board.size
    return [divmod(cell, n) for cell in sorted(clashing)]


def problem(puzzle: str, **rules: Unpack[Rules]) -> ExactCover:
    """The exact cover of ``puzzle`` for the generic engines: the board's cover with only
    the options its givens allow (a given cell keeps its one option; an option that
    repeats a given digit in one of its units is dropped). Decode a solution with
    :func:`grid_of`."""
    board = board_for(puzzle, **rules)
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
    board = None if digits is None else SudokuBoard((1, side), digits=digits)
    return _text(bytes(placed[divmod(k, side)] for k in range(side * side)), board)


def solutions(puzzle: str, limit: int | None = None, **rules: Unpack[Rules]) -> Iterator[str]:
    """Every solution of ``puzzle`` (at most ``limit``), by the generic engine on
    :func:`problem`, each in the one-line format."""
    board = board_for(puzzle, **rules)
    cover = problem(
        puzzle, box=board.box, diagonal=board.diagonal, regions=board.regions, digits=board.symbols
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

    Minimal puzzles take longer as the grid grows (docs/performance.md); on 25x25 the
    checks of sparse puzzles blow up (hours), so pass ``minimal=False`` there. Ctrl-C
    stops the compiled checks (KeyboardInterrupt).
    """
    size = SudokuBoard(_check_box(box)).size  # a bad shape fails here, not after a huge string
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
