"""Steve Simpson's ``.non`` nonogram format, in the dialects that public puzzle sets write.

``non``: Steve Simpson's format: ``width W`` and ``height H`` (or ``columns W`` and
``rows H``), then ``rows`` followed by H clues and ``columns`` followed by W clues, blocks
separated by commas and ``0`` or a blank line for an empty line; lines starting with
``#`` are comments (Simpson's), other blank lines are skipped, ``title`` (possibly
quoted, with HTML entities) is kept, ``goal`` gives the picture as a string of ``0`` and
``1`` row by row, and other properties (``by``, ``copyright``, ``license``, ``maxrule``,
...) are ignored.

Colours come in two dialects, which may be mixed:

- mikix/nonogram-db's FORMAT.md: ``color CHAR #rrggbb`` lines, blocks written ``3a``
  (length, then the colour's char), a block without a char in the first colour, and a
  ``goal`` of colour chars;
- the Nonny game's files: ``color NAME RRGGBB [CHAR]`` lines (a name, the hex value with
  or without ``#``, then an optional char), and clues that name their colours before
  the blocks they colour, ``red 1 yellow 4 red 1`` or, as Nonny writes them,
  ``red: 1, yellow: 4, red: 1``; a block before any name is ``black`` (``000000``,
  declared by the file or implied, as in Nonny). A char that cannot name a colour here
  (a digit, ``.``, a char already taken) is replaced by a free one: the names, not the
  chars, tie the clues to the colours.
"""

from __future__ import annotations

from excover.errors import ProblemError
from excover.nonogram.formats._clues import (
    Clues,
    colour_text,
    fields_of,
    is_number,
    name_of,
    one_line,
    split_block,
)
from excover.nonogram.model import BLACK, WHITE, Clue, Puzzle, palette_of

__all__ = ["read", "write"]

#: How a ``.non`` file declares a colour, for the errors that need one.
DECLARE_HOW = "colours are declared in 'color CHAR #rrggbb' or 'color NAME RRGGBB [CHAR]' lines"

#: Nonny's colour of the blocks a clue gives before naming any colour.
DEFAULT_NAME = "black"

#: The properties that cannot start a clue, even one that names colours (``red 1``).
_PROPERTIES = frozenset({"width", "height", "rows", "columns", "goal", "color", "colour"})


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a ``.non`` file (``source`` names it in errors)."""
    clues = Clues(source)
    clues.declare_how = DECLARE_HOW
    names: dict[str, str] = {}  # a Nonny colour's name -> its char
    size: dict[str, int] = {}
    sections: dict[str, list[tuple[str, int]]] = {}  # clue lines, read once colours are known
    pending: list[tuple[str, int]] | None = None  # the section being filled
    wanted = 0
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):  # Simpson's comments, in a section or out of one
            continue
        if pending is not None and len(pending) < wanted:
            if line.partition(" ")[0].lower() in _PROPERTIES:
                raise clues.fail(f"{len(pending)} clues where the section needs {wanted}", number)
            # inside a section a blank line is an empty line of the picture, as the
            # format of mikix/nonogram-db allows (a "0" says the same)
            pending.append((line or "0", number))
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
            if key in sections:
                raise clues.fail(f"'{key}' given twice", number)
            pending, wanted = sections.setdefault(key, []), size[name]
        elif key == "title":
            clues.title = _unquote(value)
            if "&" in clues.title:  # an HTML entity: html is imported only then
                from html import unescape

                clues.title = unescape(clues.title)
        elif key in ("color", "colour"):
            _declare(clues, names, value.split(), number)
        elif key == "goal":
            clues.goal, clues.goal_line = _goal(clues, _unquote(value), size, number), number
    for key, target in (("rows", clues.rows), ("columns", clues.cols)):
        for clue_text, line_number in sections.get(key, []):
            _add_clue(clues, names, target, clue_text, line_number)
        expected = size.get("height" if key == "rows" else "width")
        if target and expected is not None and len(target) < expected:
            raise clues.fail(f"'{key}' lists {len(target)} clues, not {expected}", number)
    return clues.puzzle(number)


def _declare(clues: Clues, names: dict[str, str], fields: list[str], line: int) -> None:
    """Declare the colour of a ``color`` line: ``CHAR #rrggbb`` (mikix/nonogram-db) or
    ``NAME RRGGBB [CHAR]`` (Nonny)."""
    if len(fields) == 2 and len(fields[0]) == 1:
        clues.declare(fields[0], name_of(fields[1], fields[0]), fields[1], line)
        return
    if len(fields) not in (2, 3) or (len(fields) == 3 and len(fields[2]) != 1):
        raise clues.fail(
            "a colour line is 'color CHAR #rrggbb' (mikix/nonogram-db) or "
            "'color NAME RRGGBB [CHAR]' (Nonny)",
            line,
        )
    name, rgb = fields[0], fields[1]
    if name.lower() == "background":  # Nonny's white: declared only to change it
        if _rgb_of(clues, rgb, name, line) != (255, 255, 255):
            raise clues.fail(f"a background colour other than white ({rgb!r})", line)
        return
    if name.lower() in names:
        raise clues.fail(f"colour {name!r} declared twice", line)
    _rgb_of(clues, rgb, name, line)
    char = _free_char(clues, fields[2:] + list(name + name.upper()), line)
    clues.declare(char, name, rgb, line)
    names[name.lower()] = char


def _rgb_of(clues: Clues, rgb: str, name: str, line: int) -> tuple[int, int, int]:
    """The RGB triple of a colour line's value, or its located error."""
    try:
        return palette_of([("x", name, rgb)])[0].rgb
    except ProblemError:
        raise clues.fail(f"colour {name!r}: {rgb!r} is not a hex colour RRGGBB", line) from None


#: The chars tried, after the file's own and the name's letters, for a Nonny colour.
_SPARE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&*+-/<>@^~"


def _free_char(clues: Clues, wanted: list[str], line: int) -> str:
    """The first of ``wanted`` (then of :data:`_SPARE_CHARS`) that can name a colour
    and that no declared colour has."""
    taken = {colour.char for colour in clues.palette}
    candidates: list[str] = [*wanted, *_SPARE_CHARS]
    for char in candidates:
        if char in taken:
            continue
        try:
            palette_of([(char, "x", "000000")])
        except ProblemError:
            continue
        return char
    raise clues.fail("too many colours (no char is left for one more)", line)


def _add_clue(
    clues: Clues, names: dict[str, str], section: list[tuple[Clue, int]], text: str, line: int
) -> None:
    """Add one clue line: bare lengths or lengths with chars (``3a``), read by
    :meth:`Clues.add`, or with Nonny's colour names before the blocks they colour."""
    fields = fields_of(text.replace(":", " "))
    if not names and all(part[0].isdigit() for part in fields):
        clues.add(section, text, line)  # no colour names: a bare block has the first colour
        return
    lengths: list[str] = []
    colours: list[str | None] = []
    current: str | None = None  # until a name: Nonny's default colour, black
    for part in fields:
        if not part[0].isdigit():
            current = _named(clues, names, part, line)
            continue
        length, char = split_block(part)
        lengths.append(length)
        colours.append(char or current)
    if not lengths:
        raise clues.fail(f"{text!r}: colour names without blocks (an empty line is '0')", line)
    if lengths == ["0"]:  # the empty line, whatever colour was named before it
        clues.add_blocks(section, lengths, [], text, line)
        return
    if None in colours:
        black = _named(clues, names, DEFAULT_NAME, line)
        colours = [char or black for char in colours]
    clues.add_blocks(section, lengths, colours, text, line)


def _named(clues: Clues, names: dict[str, str], name: str, line: int) -> str:
    """The char of the colour ``name`` (Nonny's black is declared when first used)."""
    char = names.get(name.lower())
    if char is not None:
        return char
    if name.lower() != DEFAULT_NAME:
        known = ", ".join(names) or "none"
        raise clues.fail(
            f"colour {name!r} is not declared (declared by name: {known}; {DECLARE_HOW})", line
        )
    char = _free_char(clues, ["X", *DEFAULT_NAME], line)
    clues.declare(char, DEFAULT_NAME, "000000", line)
    names[DEFAULT_NAME] = char
    return char


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
