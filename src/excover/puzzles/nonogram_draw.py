"""Pictures of nonograms: text and SVG, with the clues in the margins.

Both take a :class:`~excover.puzzles.nonogram_model.Puzzle` and, optionally, a picture
(rows of ``#`` black, ``.`` white and ``?`` undecided, as the solvers and
:func:`~excover.puzzles.nonogram_search.propagated` return them); without a picture the
grid is drawn empty. Column clues stand above their columns, bottom-aligned, and row
clues to the left of their rows, right-aligned, as puzzles are printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from excover.errors import ProblemError
from excover.puzzles.nonogram_model import BLACK, WHITE, Clue, Puzzle

__all__ = ["ascii_grid", "svg_grid"]

#: SVG sizes in pixels: a cell, and the room of one clue number.
_CELL = 20
_NUMBER = 16

#: The cells a picture may show: black, white and undecided.
_DRAWN = {BLACK, WHITE, "?"}


def ascii_grid(puzzle: Puzzle, picture: Sequence[str] | None = None) -> str:
    """The puzzle as text: column clues on top, row clues on the left, then the cells."""
    _check(puzzle, picture)
    rows = [" ".join(map(str, _shown(clue))) for clue in puzzle.rows]
    margin = max(map(len, rows))
    digits = max((len(str(block)) for clue in puzzle.cols for block in clue), default=1)
    cols = [_shown(clue) for clue in puzzle.cols]
    tall = max(map(len, cols))
    lines = []
    for level in range(tall):
        cells = []
        for clue in cols:
            at = level - (tall - len(clue))
            cells.append(str(clue[at]).rjust(digits) if at >= 0 else " " * digits)
        lines.append(" " * margin + " | " + " ".join(cells))
    lines.append("-" * margin + "-+-" + "-" * ((digits + 1) * puzzle.width - 1))
    for r in range(puzzle.height):
        row = picture[r] if picture is not None else " " * puzzle.width
        lines.append(rows[r].rjust(margin) + " | " + " ".join(ch.rjust(digits) for ch in row))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def svg_grid(puzzle: Puzzle, picture: Sequence[str] | None = None) -> str:
    """The puzzle as an SVG document: black cells filled, undecided cells grey, a bold
    rule every five lines, and the clues in the margins."""
    _check(puzzle, picture)
    left = _NUMBER * max(len(_shown(clue)) for clue in puzzle.rows) + 6
    top = _NUMBER * max(len(_shown(clue)) for clue in puzzle.cols) + 6
    width = left + _CELL * puzzle.width + 2
    height = top + _CELL * puzzle.height + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
    ]
    if puzzle.title:
        out.append(f"<title>{escape(puzzle.title)}</title>")
    out.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    for r, row in enumerate(picture or ()):
        for c, cell in enumerate(row):
            if cell != WHITE:
                fill = "black" if cell == BLACK else "#bbb"
                x, y = left + c * _CELL, top + r * _CELL
                out.append(
                    f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}"/>'
                )
    for k in range(puzzle.width + 1):
        out.append(_rule(left + k * _CELL, top, left + k * _CELL, height - 2, k, puzzle.width))
    for k in range(puzzle.height + 1):
        out.append(_rule(left, top + k * _CELL, width - 2, top + k * _CELL, k, puzzle.height))
    for r, clue in enumerate(puzzle.rows):
        y = top + r * _CELL + _CELL // 2 + 4
        for k, block in enumerate(reversed(_shown(clue))):
            x = left - 4 - k * _NUMBER - _NUMBER // 2
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle">{block}</text>')
    for c, clue in enumerate(puzzle.cols):
        x = left + c * _CELL + _CELL // 2
        for k, block in enumerate(reversed(_shown(clue))):
            y = top - 6 - k * _NUMBER
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle">{block}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _check(puzzle: object, picture: object) -> None:
    """Raise :class:`~excover.ProblemError` unless ``picture`` is None or rows of
    ``#``, ``.`` and ``?`` of the puzzle's shape (naming the first bad row)."""
    if not isinstance(puzzle, Puzzle):
        raise ProblemError(f"a nonogram Puzzle is needed, not {puzzle!r}")
    if picture is None:
        return
    if isinstance(picture, str) or not isinstance(picture, Sequence):
        raise ProblemError(f"a picture is a list of rows, not {picture!r}")
    if len(picture) != puzzle.height:
        raise ProblemError(f"the picture has {len(picture)} rows, the puzzle {puzzle.height}")
    for r, row in enumerate(picture):
        if not isinstance(row, str) or len(row) != puzzle.width or set(row) - _DRAWN:
            raise ProblemError(
                f"picture row {r + 1}: {row!r} is not {puzzle.width} cells of '#', '.' or '?'"
            )


def _shown(clue: Clue) -> Clue:
    """A clue as printed: ``0`` for an empty line."""
    return clue or (0,)


def _rule(x1: int, y1: int, x2: int, y2: int, k: int, last: int) -> str:
    """A grid line, bold on the border and every fifth line."""
    bold = k % 5 == 0 or k == last
    return (
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" '
        f'stroke-width="{2 if bold else 0.5}"/>'
    )
