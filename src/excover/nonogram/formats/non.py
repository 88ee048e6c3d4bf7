"""Steve Simpson's ``.non`` nonogram format.

``non``: Steve Simpson's format: ``width W`` and ``height H`` (or ``columns W`` and
``rows H``), then ``rows`` followed by H clues and ``columns`` followed by W clues, blocks
separated by commas and ``0`` or a blank line for an empty line; other blank lines are
skipped, ``title`` (possibly quoted) is kept, ``goal`` gives the picture as a string of
``0`` and ``1`` row by row, and other properties (``by``, ``copyright``, ...) are ignored.
"""

from __future__ import annotations

from excover.nonogram.formats._clues import Clues, colour_text, is_number, name_of, one_line
from excover.nonogram.model import BLACK, WHITE, Clue, Puzzle

__all__ = ["read", "write"]


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a ``.non`` file (``source`` names it in errors)."""
    clues = Clues(source)
    clues.declare_how = "colours are declared in 'color CHAR #rrggbb' lines"
    size: dict[str, int] = {}
    pending: list[tuple[Clue, int]] | None = None  # the section being filled
    wanted = 0
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if pending is not None and len(pending) < wanted:
            # inside a section a blank line is an empty line of the picture, as the
            # format of mikix/nonogram-db allows (a "0" says the same)
            clues.add(pending, line or "0", number)
            continue
        if not line:
            continue
        if line[0].isdigit():  # no property starts with a digit: a clue too many
            if pending is None:
                raise clues.fail("a clue before 'rows' or 'columns'", number)
            raise clues.fail(f"a clue too many: the section has its {wanted} clues", number)
        key, _, value = line.partition(" ")
        key, value = key.lower(), value.strip()
        if key in ("width", "height") or (key in ("rows", "columns") and value):
            name = {"columns": "width", "rows": "height"}.get(key, key)
            if name in size:
                raise clues.fail(f"{name} given twice", number)
            if not is_number(value) or int(value) < 1:
                raise clues.fail(f"bad {name} {value!r} (expected a positive integer)", number)
            size[name] = int(value)
        elif key in ("rows", "columns"):
            name = "height" if key == "rows" else "width"
            if name not in size:
                raise clues.fail(f"'{key}' before the {name} is given", number)
            pending, wanted = (clues.rows if key == "rows" else clues.cols), size[name]
            if pending:
                raise clues.fail(f"'{key}' given twice", number)
        elif key == "title":
            clues.title = _unquote(value)
            if "&" in clues.title:  # an HTML entity: html is imported only then
                from html import unescape

                clues.title = unescape(clues.title)
        elif key in ("color", "colour"):
            fields = value.split()
            if len(fields) != 2:
                raise clues.fail("a colour line is 'color CHAR #rrggbb'", number)
            clues.declare(fields[0], name_of(fields[1], fields[0]), fields[1], number)
        elif key == "goal":
            clues.goal, clues.goal_line = _goal(clues, _unquote(value), size, number), number
    for name, section in (("rows", clues.rows), ("columns", clues.cols)):
        expected = size.get("height" if name == "rows" else "width")
        if section and expected is not None and len(section) < expected:
            raise clues.fail(f"'{name}' lists {len(section)} clues, not {expected}", number)
    return clues.puzzle(number)


def _unquote(text: str) -> str:
    """``text`` without the double quotes around it, if it has them."""
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _goal(clues: Clues, text: str, size: dict[str, int], number: int) -> tuple[str, ...]:
    """The goal picture of a ``.non`` file: ``0`` white, anything else black."""
    if "width" not in size or "height" not in size:
        raise clues.fail("'goal' before the width and height", number)
    width, height = size["width"], size["height"]
    if len(text) != width * height:
        raise clues.fail(f"the goal has {len(text)} cells, not {width} x {height}", number)
    # '0' is white; the rest stays as written until the clues say whether the puzzle is
    # in colour (a char is then its colour, '1' the first colour) or not (all black)
    cells = "".join(WHITE if ch == "0" else ch for ch in text)
    return tuple(cells[k : k + width] for k in range(0, len(cells), width))


def write(puzzle: Puzzle) -> str:
    """``puzzle`` as a ``.non`` file (its goal picture too, when it has one)."""
    from html import escape

    lines = [] if puzzle.title is None else [f'title "{escape(one_line(puzzle.title))}"']
    if puzzle.palette is not None:
        lines += [f"color {c.char} {c.hex}" for c in puzzle.palette]
        lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
        lines += [colour_text(puzzle, r, ",") for r in range(puzzle.height)]
        lines += ["", "columns"]
        lines += [colour_text(puzzle, puzzle.height + c, ",") for c in range(puzzle.width)]
        if puzzle.goal is not None:
            lines += ["", f'goal "{"".join(puzzle.goal).replace(WHITE, "0")}"']
        return "\n".join(lines) + "\n"
    lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    lines += [",".join(map(str, clue)) or "0" for clue in puzzle.rows]
    lines += ["", "columns"]
    lines += [",".join(map(str, clue)) or "0" for clue in puzzle.cols]
    if puzzle.goal is not None:
        cells = "".join(puzzle.goal).replace(BLACK, "1").replace(WHITE, "0")
        lines += ["", f'goal "{cells}"']
    return "\n".join(lines) + "\n"
