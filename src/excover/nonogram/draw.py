"""Pictures of nonograms: text and SVG, with the clues in the margins.

Both take a :class:`~excover.nonogram.model.Puzzle` (this module reads it through
:class:`Drawable` and imports nothing of the model, which imports it to show a puzzle
in Jupyter) and, optionally, a picture
(rows of ``#`` black, ``.`` white and ``?`` undecided, as the solvers and
:func:`~excover.nonogram.search.propagated` return them); without a picture the
grid is drawn empty. A colour puzzle's clues show each block with its colour's char
(``3r``) in text and in its colour in SVG, and its cells are its palette's chars in text
and filled with their colours in SVG. Column clues stand above their columns,
bottom-aligned, and row clues to the left of their rows, right-aligned, as puzzles are
printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from excover.errors import ProblemError
from excover.nonogram.cells import BLACK, WHITE, Clue

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Protocol

    class Paint(Protocol):
        """What drawing reads of a colour (a :class:`~excover.nonogram.model.Colour`)."""

        @property
        def char(self) -> str: ...
        @property
        def rgb(self) -> tuple[int, int, int]: ...
        @property
        def hex(self) -> str: ...

    class Drawable(Protocol):
        """What drawing reads of a puzzle (a :class:`~excover.nonogram.model.Puzzle`):
        its shape, its title, its clues, its palette (None in black and white)."""

        @property
        def title(self) -> str | None: ...
        @property
        def rows(self) -> Sequence[Clue]: ...
        @property
        def cols(self) -> Sequence[Clue]: ...
        @property
        def height(self) -> int: ...
        @property
        def width(self) -> int: ...
        @property
        def palette(self) -> Sequence[Paint] | None: ...
        def lines(self) -> Sequence[Clue]: ...
        def blocks(self, line: int) -> Sequence[tuple[int, str]]: ...
        def colour(self, char: str) -> Paint: ...


__all__ = ["ascii_grid", "svg_grid"]

#: The attributes of :class:`Drawable`: an object without them is no puzzle to draw.
_READ = ("title", "rows", "cols", "height", "width", "palette", "lines", "blocks", "colour")

#: SVG sizes in pixels: a cell, and the room of one clue number.
_CELL = 20
_NUMBER = 16

#: The cells a picture may show: black, white and undecided.
_DRAWN = {BLACK, WHITE, "?"}


def ascii_grid(puzzle: Drawable, picture: Sequence[str] | None = None) -> str:
    """The puzzle as text: column clues on top, row clues on the left, then the cells."""
    _check(puzzle, picture)
    rows = [" ".join(map(str, _labels(puzzle, r))) for r in range(puzzle.height)]
    margin = max(map(len, rows))
    cols = [_labels(puzzle, puzzle.height + c) for c in range(puzzle.width)]
    digits = max(len(label) for clue in cols for label in clue)
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


def svg_grid(puzzle: Drawable, picture: Sequence[str] | None = None) -> str:
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
                fill = "#bbb" if cell == "?" else "black" if cell == BLACK else _fill(puzzle, cell)
                x, y = left + c * _CELL, top + r * _CELL
                out.append(
                    f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}"/>'
                )
    for k in range(puzzle.width + 1):
        out.append(_rule(left + k * _CELL, top, left + k * _CELL, height - 2, k, puzzle.width))
    for k in range(puzzle.height + 1):
        out.append(_rule(left, top + k * _CELL, width - 2, top + k * _CELL, k, puzzle.height))
    for r in range(puzzle.height):
        y = top + r * _CELL + _CELL // 2 + 4
        for k, (block, colour) in enumerate(reversed(_painted(puzzle, r))):
            x = left - 4 - k * _NUMBER - _NUMBER // 2
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle"{colour}>{block}</text>')
    for c in range(puzzle.width):
        x = left + c * _CELL + _CELL // 2
        for k, (block, colour) in enumerate(reversed(_painted(puzzle, puzzle.height + c))):
            y = top - 6 - k * _NUMBER
            out.append(f'<text x="{x}" y="{y}" text-anchor="middle"{colour}>{block}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _labels(puzzle: Drawable, line: int) -> list[str]:
    """A line's clue as text labels: ``3`` (``3r`` in colour), ``0`` when empty."""
    if puzzle.palette is None:
        return [str(block) for block in _shown(puzzle.lines()[line])]
    return [f"{length}{char}" for length, char in puzzle.blocks(line)] or ["0"]


def _fill(puzzle: Drawable, char: str) -> str:
    """The SVG fill of a colour char."""
    return puzzle.colour(char).hex


def _painted(puzzle: Drawable, line: int) -> list[tuple[int, str]]:
    """A line's blocks for SVG: each length with its ``fill`` attribute (none in black
    and white); ``0`` when empty. Colours too pale to read on white get a grey outline."""
    if puzzle.palette is None:
        return [(block, "") for block in _shown(puzzle.lines()[line])]
    painted = []
    for length, char in puzzle.blocks(line):
        colour = puzzle.colour(char)
        pale = sum(colour.rgb) > 600
        outline = ' stroke="#888" stroke-width="0.4"' if pale else ""
        painted.append((length, f' fill="{colour.hex}" font-weight="bold"{outline}'))
    return painted or [(0, "")]


def _check(puzzle: Drawable, picture: object) -> None:
    """Raise :class:`~excover.ProblemError` unless ``puzzle`` is a puzzle and ``picture``
    is None or rows of ``#``, ``.`` and ``?`` (in colour, the palette's chars, ``.`` and
    ``?``) of the puzzle's shape (naming the first bad row)."""
    if not all(hasattr(puzzle, name) for name in _READ):
        raise ProblemError(f"a nonogram Puzzle is needed, not {puzzle!r}")
    if picture is None:
        return
    if isinstance(picture, str) or not isinstance(picture, Sequence):
        raise ProblemError(f"a picture is a list of rows, not {picture!r}")
    if len(picture) != puzzle.height:
        raise ProblemError(f"the picture has {len(picture)} rows, the puzzle {puzzle.height}")
    drawn = _DRAWN
    shown = "'#', '.' or '?'"
    if puzzle.palette is not None:
        drawn = {WHITE, "?"} | {colour.char for colour in puzzle.palette}
        shown = "'.', '?' or a colour's char"
    for r, row in enumerate(picture):
        if not isinstance(row, str) or len(row) != puzzle.width or set(row) - drawn:
            raise ProblemError(
                f"picture row {r + 1}: {row!r} is not {puzzle.width} cells of {shown}"
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
