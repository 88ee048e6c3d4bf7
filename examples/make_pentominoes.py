"""Write the exact cover problem "pack the 12 pentominoes into a box" in Knuth's DLX format.

Usage::

    python examples/make_pentominoes.py ROWS COLS [-o FILE]

The items are the cells of the box, named by two base-36 digits, row then column (``00``
is the top left cell, ``3b`` row 3, column 11), followed by the 12 piece names
``F I L N P T U V W X Y Z``; all of them are primary, so every cell is covered once and
every piece is used once. There is one option per placement of a piece: its name and the
cells it covers, for every position and each of the piece's distinct orientations
(rotations and reflections: 8 for most pieces, fewer for the symmetric ones).

The 12 pentominoes cover 60 cells, so the box must have 60 cells: 3x20, 4x15, 5x12 or
6x10 (or the other way round). ``excover count`` then counts every packing, the
symmetric copies included: 8 for 3x20, 1472 for 4x15, 4040 for 5x12, 9356 for 6x10.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator

from excover import ExactCover

__all__ = ["PENTOMINOES", "cell_name", "orientations", "pentomino_dlx", "pentomino_problem"]

Cell = tuple[int, int]  # (row, column)
Shape = tuple[Cell, ...]  # sorted cells, shifted so the smallest row and column are 0

#: The 12 pentominoes under their usual letter names, drawn row by row ('#' = a square).
PENTOMINOES: dict[str, str] = {
    "F": ".## ##. .#.",
    "I": "#####",
    "L": "#### #...",
    "N": "##.. .###",
    "P": "## ## #.",
    "T": "### .#. .#.",
    "U": "#.# ###",
    "V": "#.. #.. ###",
    "W": "#.. ##. .##",
    "X": ".#. ### .#.",
    "Y": "#### .#..",
    "Z": "##. .#. .##",
}

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
AREA = 60  # 12 pieces of 5 squares


def _cells(drawing: str) -> list[Cell]:
    """The squares of a drawing whose rows are separated by spaces."""
    return [
        (r, c)
        for r, row in enumerate(drawing.split())
        for c, square in enumerate(row)
        if square == "#"
    ]


def _normalized(cells: Iterable[Cell]) -> Shape:
    """The cells moved to touch row 0 and column 0, sorted: equal shapes compare equal."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def orientations(drawing: str) -> list[Shape]:
    """The distinct images of a piece under the 8 symmetries of the square, sorted.

    The four rotations of the piece and of its mirror image; pieces with symmetries of
    their own give fewer distinct shapes (X has 1, I has 2, ...).
    """
    cells = _cells(drawing)
    shapes: set[Shape] = set()
    for mirrored in (cells, [(r, -c) for r, c in cells]):
        turned = mirrored
        for _ in range(4):
            shapes.add(_normalized(turned))
            turned = [(c, -r) for r, c in turned]  # a quarter turn
    return sorted(shapes)


def cell_name(row: int, col: int) -> str:
    """The item name of a cell: its row and column as base-36 digits."""
    return _DIGITS[row] + _DIGITS[col]


def _placements(shape: Shape, rows: int, cols: int) -> Iterator[list[str]]:
    """The cell names covered by each position of ``shape`` inside a rows x cols box."""
    height = 1 + max(r for r, _ in shape)
    width = 1 + max(c for _, c in shape)
    for top in range(rows - height + 1):
        for left in range(cols - width + 1):
            yield [cell_name(top + r, left + c) for r, c in shape]


def pentomino_problem(rows: int, cols: int) -> ExactCover:
    """The exact cover problem of packing the 12 pentominoes into a rows x cols box."""
    if not (1 <= rows <= len(_DIGITS) and 1 <= cols <= len(_DIGITS)):
        raise ValueError(f"rows and columns must be between 1 and {len(_DIGITS)}")
    if rows * cols != AREA:
        raise ValueError(
            f"the pentominoes cover {AREA} cells, a {rows}x{cols} box has {rows * cols}"
        )
    cells = [cell_name(r, c) for r in range(rows) for c in range(cols)]
    problem = ExactCover(primary=[*cells, *PENTOMINOES])
    for piece, drawing in PENTOMINOES.items():
        for shape in orientations(drawing):
            for covered in _placements(shape, rows, cols):
                problem.add_option([piece, *covered])
    return problem


def pentomino_dlx(rows: int, cols: int) -> str:
    """The problem as Knuth's DLX text, with a comment saying how it was made."""
    header = (
        f"| The 12 pentominoes in a {rows}x{cols} box, each once, in any orientation.\n"
        f"| Made by examples/make_pentominoes.py {rows} {cols}; cell rc = row r, column c.\n"
    )
    return header + pentomino_problem(rows, cols).to_dlx()


def main(argv: list[str] | None = None) -> None:
    """Write the problem for the box named on the command line."""
    parser = argparse.ArgumentParser(
        description="Write the exact cover problem of packing the 12 pentominoes into a box, "
        "in Knuth's DLX format."
    )
    parser.add_argument("rows", type=int, help="rows of the box")
    parser.add_argument("cols", type=int, help="columns of the box")
    parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = pentomino_dlx(args.rows, args.cols)
    except ValueError as exc:
        parser.error(str(exc))
    if args.output is None:
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)


if __name__ == "__main__":
    main()
