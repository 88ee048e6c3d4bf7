"""Sudoku of any box shape, with the diagonal and jigsaw variants, solved in batches.

A board of side ``N = r * c`` (boxes of ``r`` rows and ``c`` columns: 9x9 with 3x3 boxes,
6x6 with 2x3, 16x16 with 4x4, ...) is one exact cover whatever the puzzle: option
``cell * N + d`` writes digit ``d + 1`` in ``cell`` and covers four primary items, the
cell ``p<row>_<col>``, and the digit in the row ``r<row>_<digit>``, the column
``c<col>_<digit>`` and the box ``b<box>_<digit>``. Variants add constraints, not code: a
jigsaw board replaces the boxes by irregular regions, and the diagonal variant
(X-sudoku) adds the items ``x0_<digit>`` and ``x1_<digit>`` of the two long diagonals.
Every function names its board with the same keywords, :class:`Rules` (``box``,
``diagonal``, ``regions``, ``digits``).

A puzzle only says which options its givens force. The compiled solver
(:mod:`excover.puzzles.sudoku._grid`) keeps the cover of a board as bitsets (a word of candidate
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

The package's modules: :mod:`~excover.puzzles.sudoku.solver` (the functions above),
:mod:`~excover.puzzles.sudoku.board` (:class:`SudokuBoard`, :class:`Rules` and reading a
puzzle's text), :mod:`~excover.puzzles.sudoku.draw` (:func:`svg_grid`),
:mod:`~excover.puzzles.sudoku.generator` (batches of generated puzzles),
:mod:`~excover.puzzles.sudoku.killer` (killer Sudoku: cages and their sums),
:mod:`~excover.puzzles.sudoku.files` (files of puzzles), the compiled solvers
:mod:`~excover.puzzles.sudoku._grid` (any board) and :mod:`~excover.puzzles.sudoku._sudoku9`
(the classic 9x9 board) with :mod:`~excover.puzzles.sudoku.simd` (the instruction set the
latter runs with), and the ``excover sudoku`` command, :mod:`~excover.puzzles.sudoku.cli`
and :mod:`~excover.puzzles.sudoku.runs`.

Importing this package loads nothing else: each name is taken from its module on first
use, so that ``excover --version`` (which asks :mod:`~excover.puzzles.sudoku.simd`) and
the ``excover sudoku`` command's parser cost no solver.
"""

from __future__ import annotations

from excover.lazy import lazy_dir, lazy_getattr

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.puzzles.sudoku.board import (
        SYMBOLS,
        Rules,
        SudokuBoard,
        board_for,
        digit_set,
        parse,
    )
    from excover.puzzles.sudoku.draw import svg_grid
    from excover.puzzles.sudoku.solver import (
        Status,
        classify,
        classify_many,
        conflicts,
        count,
        format_grid,
        generate,
        grid_of,
        needs_search,
        problem,
        solutions,
        solve,
        solve_many,
    )

__all__ = [
    "SYMBOLS",
    "Rules",
    "Status",
    "SudokuBoard",
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

#: The public names imported on first use, by the module each lives in.
_LAZY = {
    "excover.puzzles.sudoku.board": [
        "SYMBOLS",
        "Rules",
        "SudokuBoard",
        "board_for",
        "digit_set",
        "parse",
    ],
    "excover.puzzles.sudoku.draw": ["svg_grid"],
    "excover.puzzles.sudoku.solver": [
        "Status",
        "classify",
        "classify_many",
        "conflicts",
        "count",
        "format_grid",
        "generate",
        "grid_of",
        "needs_search",
        "problem",
        "solutions",
        "solve",
        "solve_many",
    ],
}

__getattr__ = lazy_getattr(__name__, _LAZY, globals())
__dir__ = lazy_dir(_LAZY, globals())
