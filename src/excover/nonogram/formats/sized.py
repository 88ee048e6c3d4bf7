"""The nonogram formats that start with the size: Wilk's ``.nin`` (that of webpbn's
survey sample) and Olsak's ``.mk``.

``nin``: Jakub Wilk's format, that of webpbn's survey sample: a line ``W H`` (width,
height), then the H row clues and the W column clues, one per line, blocks separated by
spaces, ``0`` or a blank line for an empty line. ``mk``: Olsak's, as pbnsolve reads it:
``H W``, the row clues, a line ``#``, the column clues.
"""

from __future__ import annotations

from excover.nonogram.formats._clues import Clues, clue_line, is_number
from excover.nonogram.model import Puzzle

__all__ = ["read_mk", "read_nin", "write_mk", "write_nin"]


def _read_sized(text: str, source: str, kind: str) -> Puzzle:
    """A ``nin`` file (``W H``, the H row clues, the W column clues) or an ``mk`` file
    (``H W``, the row clues, a ``#`` line, the column clues). Blocks are separated by
    spaces; ``0`` or a blank line is an empty line of the picture, blank lines after the
    last clue are ignored."""
    clues = Clues(source)
    size: list[int] | None = None
    lines: list[tuple[str, int]] = []
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if size is None:
            if line and not (kind == "nin" and line.startswith("#")):
                what = "the width and the height" if kind == "nin" else "the height and width"
                size = _numbers(clues, line, number, 2, what)
        else:
            lines.append((line, number))
    if size is None:
        raise clues.fail("no size line", number or None)
    height, width = (size[1], size[0]) if kind == "nin" else (size[0], size[1])
    if kind == "mk":
        marks = [k for k, (line, _) in enumerate(lines) if line == "#"]
        if not marks:
            raise clues.fail("no '#' line between the row clues and the column clues", number)
        split = marks[0]
        if split != height:
            raise clues.fail(f"'#' after {split} row clues, not {height}", lines[split][1])
        row_lines, col_lines = lines[:split], lines[split + 1 :]
    else:
        row_lines, col_lines = lines[:height], lines[height:]
    while col_lines and not col_lines[-1][0]:
        col_lines.pop()
    if len(col_lines) > width:
        raise clues.fail(f"a clue too many: the puzzle has {width} columns", col_lines[width][1])
    if len(row_lines) < height or len(col_lines) < width:
        found = len(row_lines) + len(col_lines)
        raise clues.fail(f"{found} clues, not {height} rows + {width} columns", number)
    for section, chosen in ((clues.rows, row_lines), (clues.cols, col_lines)):
        for line, line_number in chosen:
            section.append((clues.clue(line or "0", line_number), line_number))
    return clues.puzzle(number)


def read_nin(text: str, source: str) -> Puzzle:
    """The puzzle of a ``.nin`` file (``source`` names it in errors)."""
    return _read_sized(text, source, "nin")


def read_mk(text: str, source: str) -> Puzzle:
    """The puzzle of a ``.mk`` file (``source`` names it in errors)."""
    return _read_sized(text, source, "mk")


def write_nin(puzzle: Puzzle) -> str:
    """``puzzle`` as a ``.nin`` file."""
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [clue_line(clue) for clue in puzzle.lines()]
    return "\n".join(lines) + "\n"


def write_mk(puzzle: Puzzle) -> str:
    """``puzzle`` as a ``.mk`` file."""
    lines = [f"{puzzle.height} {puzzle.width}"]
    lines += [clue_line(clue) for clue in puzzle.rows]
    lines.append("#")
    lines += [clue_line(clue) for clue in puzzle.cols]
    return "\n".join(lines) + "\n"


def _numbers(clues: Clues, line: str, number: int, count: int, what: str) -> list[int]:
    """``count`` positive integers on a line (the size of a ``nin`` or ``mk`` file)."""
    fields = line.split()
    if len(fields) != count or not all(map(is_number, fields)) or 0 in map(int, fields):
        raise clues.fail(f"expected {what} (positive integers), not {line!r}", number)
    return [int(field) for field in fields]
