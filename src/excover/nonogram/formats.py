"""Nonogram files, read and written: plain text, Simpson's ``.non``, webpbn's XML and more.

``text``: the row clues, one per line, top to bottom; a blank line; the column clues,
left to right. A clue is its block lengths separated by spaces or commas, ``0`` for an
empty line. Lines starting with ``#`` are comments; ``# title: ...`` names the puzzle::

    # title: a plus sign
    1
    3
    1

    1
    3
    1

``non``: Steve Simpson's format: ``width W`` and ``height H`` (or ``columns W`` and
``rows H``), then ``rows`` followed by H clues and ``columns`` followed by W clues, blocks
separated by commas and ``0`` or a blank line for an empty line; other blank lines are
skipped, ``title`` (possibly quoted) is kept, ``goal`` gives the picture as a string of
``0`` and ``1`` row by row, and other properties (``by``, ``copyright``, ...) are ignored.

``xml``: the export format of webpbn.com (``<puzzleset><puzzle>`` with ``<clues
type="columns">`` and ``<clues type="rows">`` of ``<line><count>N</count>...</line>``, a
``<title>``, and a ``<solution type="goal">`` image of ``|X..|`` rows); black and white
puzzles only: a count of another colour is refused.

``nin``: Jakub Wilk's format, that of webpbn's survey sample: a line ``W H`` (width,
height), then the H row clues and the W column clues, one per line, blocks separated by
spaces, ``0`` or a blank line for an empty line. ``mk``: Olsak's, as pbnsolve reads it:
``H W``, the row clues, a line ``#``, the column clues.

``tcga``: the files of the TCGA, TAAI and ICGA tournaments, many puzzles in one file:
``$N`` opens puzzle N, then its n column clues and its n row clues (n x n cells),
blocks separated by tabs. Read them with :func:`read_all`; a ``.txt`` file whose first
line starts with ``$`` is one.

``ini``: pynogram's files: a ``[clues]`` section with ``columns =`` and ``rows =``,
clues separated by commas or line ends (``#`` and ``;`` comments); a ``.txt`` file that
starts with a ``[section]`` line is one. Colours are declared in a ``[colors]`` section
(``r = (red) %``) and named after a block's length (``2r``); a bare length is black.

``g``: Olsak's format (read by pbnsolve too), with colours: free text, colour
declarations after a ``#d`` line (``  r:%  red``, ``1:`` the colour of bare lengths),
then the row clues and the column clues, each section opened by a line starting with
``:``; blocks such as ``3`` or ``3r``, a blank line for an empty line.

Errors are :class:`~excover.FormatError` carrying the file and line (``file:line: ...``):
a bad number, a missing section, a clue that does not fit its line, a colour that the
file does not declare (in every format: ``6x`` is a typo, not a colour of its own).
Rows and columns that disagree on the number of black cells make a well-formed puzzle
without solution.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator

from excover.errors import FormatError, ProblemError, UsageError
from excover.formats.text import read_text
from excover.nonogram.model import (
    BLACK,
    NAMED_COLOURS,
    WHITE,
    Clue,
    Colour,
    Puzzle,
    clue_error,
    colour_clue_error,
    line_name,
    palette_of,
)

__all__ = [
    "FORMATS",
    "MANY",
    "dumps",
    "dumps_all",
    "format_for",
    "loads",
    "loads_all",
    "read",
    "read_all",
    "write",
    "write_all",
]

#: The formats, by name, with the file suffixes that select them.
FORMATS = {
    "text": (".txt", ".clues"),
    "non": (".non",),
    "xml": (".xml", ".pbn"),
    "nin": (".nin",),
    "mk": (".mk",),
    "tcga": (".tcga",),
    "ini": (".ini",),
    "g": (".g",),
}

#: The formats whose files hold many puzzles (read them with :func:`read_all`).
MANY = ("tcga",)


def format_for(path: str | os.PathLike[str]) -> str:
    """The format of a file, from its suffix (``text`` for anything unknown)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()  # not pathlib: start-up time
    return next((name for name, suffixes in FORMATS.items() if suffix in suffixes), "text")


def loads(text: str, format: str = "text", source: str = "<string>") -> Puzzle:
    """The puzzle in ``text``, written in ``format`` (``text``, ``non`` or ``xml``);
    ``source`` names the input in error messages."""
    if not isinstance(text, str):
        raise UsageError(f"a nonogram text must be a str, not {type(text).__name__}")
    reader = _READERS.get(format)
    if reader is None:
        raise UsageError(f"unknown nonogram format {format!r}; choose one of {', '.join(FORMATS)}")
    return reader(text.removeprefix("\ufeff"), source)  # a byte order mark is no clue


def dumps(puzzle: Puzzle, format: str = "text") -> str:
    """``puzzle`` as text in ``format`` (the goal picture too, where the format has one)."""
    if not isinstance(puzzle, Puzzle):
        raise UsageError(f"a nonogram Puzzle is needed, not {puzzle!r}")
    writer = _WRITERS.get(format)
    if writer is None:
        raise UsageError(f"unknown nonogram format {format!r}; choose one of {', '.join(FORMATS)}")
    _check_colours(puzzle, format)
    return writer(puzzle)


#: The formats that can hold a colour puzzle.
COLOUR_FORMATS = ("text", "non", "xml", "ini", "g")


def _check_colours(puzzle: Puzzle, format: str) -> None:
    """Refuse to write a colour puzzle in a format without colours."""
    if puzzle.palette is not None and format not in COLOUR_FORMATS:
        raise UsageError(
            f"the {format} format has no colours: write a colour puzzle as "
            f"{', '.join(COLOUR_FORMATS)}"
        )


def read(path: str | os.PathLike[str], format: str | None = None) -> Puzzle:
    """The puzzle in the file ``path`` (UTF-8); the format comes from the suffix unless
    given (see :data:`FORMATS`)."""
    text, source = read_text(path)
    return loads(text, format_for(path) if format is None else format, source)


def write(puzzle: Puzzle, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write ``puzzle`` to the file ``path``, in the format its suffix names unless given."""
    _write_file(path, lambda chosen: dumps(puzzle, chosen), format)


def _write_file(
    path: str | os.PathLike[str], text_in: Callable[[str], str], format: str | None
) -> None:
    """Write ``text_in(format)`` to ``path``, the format its suffix names unless given;
    failures are usage errors."""
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    text = text_in(format_for(path) if format is None else format)
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except OSError as error:
        raise UsageError(f"cannot write {os.fspath(path)}: {error.strerror}") from None


# ----- building a puzzle with line numbers -----


class _Clues:
    """Clues read from a file, each with the line it came from, and the file's extras."""

    def __init__(self, source: str, title: str | None = None) -> None:
        self.source = source
        self.rows: list[tuple[Clue, int]] = []
        self.cols: list[tuple[Clue, int]] = []
        self.title = title
        self.goal: tuple[str, ...] | None = None
        self.goal_line: int | None = None
        # Colour puzzles: the declared palette, and each clue's block colours (None for a
        # block without a colour char: the palette's first colour), parallel to rows/cols.
        self.palette: list[Colour] = []
        self.row_colours: list[tuple[str | None, ...]] = []
        self.col_colours: list[tuple[str | None, ...]] = []
        self.file_chars: dict[str, str] = {}  # XML image char -> char
        # How the format declares a colour, for the error on an undeclared one.
        self.declare_how = "colours are declared in '# colour: CHAR NAME #rrggbb' lines"

    def fail(self, message: str, line: int | None) -> FormatError:
        return FormatError(message, source=self.source, line=line)

    def add(self, section: list[tuple[Clue, int]], text: str, line: int) -> None:
        """Append the clue ``text`` to ``section`` (``rows`` or ``cols``): block lengths,
        each with an optional colour char after it (``3r``), apart by spaces or commas."""
        fields = _fields(text)
        if _all_digits(fields):  # no colour char: the common case, made quick
            clue = self.clue(text, line)
            section.append((clue, line))
            target = self.row_colours if section is self.rows else self.col_colours
            target.append((None,) * len(clue))
            return
        colours: list[str | None] = []
        lengths: list[str] = []
        for part in fields:
            digits = len(part) - len(part.lstrip("0123456789"))
            if 0 < digits == len(part) - 1 and not part[-1].isdigit():
                lengths.append(part[:-1])
                colours.append(part[-1])
            else:
                lengths.append(part)
                colours.append(None)
        clue = self.clue(" ".join(lengths), line)
        if not clue and any(colours):
            raise self.fail(f"{text.strip()!r}: an empty line is '0' alone, without a colour", line)
        section.append((clue, line))
        target = self.row_colours if section is self.rows else self.col_colours
        target.append(tuple(colours))

    def declare(self, char: str, name: str, rgb: str, line: int) -> None:
        """Add a colour to the palette (``rgb`` as ``#rrggbb``, ``rrggbb``, ``rgb`` or a
        colour name)."""
        try:
            colour = palette_of([(char, name, rgb)])[0]
        except ProblemError as error:
            raise self.fail(str(error), line) from None
        if any(known.char == char for known in self.palette):
            raise self.fail(f"colour {char!r} declared twice", line)
        self.palette.append(colour)

    def colour_puzzle(self, end: int) -> Puzzle:
        """The colour puzzle of the clues read: blocks without a char take the first
        colour; a char the file does not declare is refused (a typo such as ``6x``
        must not make a colour puzzle of a black-and-white one)."""
        self.check_declared()
        palette = list(self.palette)
        default = palette[0].char
        rows = tuple(clue for clue, _ in self.rows)
        cols = tuple(clue for clue, _ in self.cols)
        row_colours = tuple(tuple(c or default for c in cs) for cs in self.row_colours)
        col_colours = tuple(tuple(c or default for c in cs) for cs in self.col_colours)
        height = len(rows)
        for number, (clue, line) in enumerate(self.rows + self.cols):
            colours = (row_colours + col_colours)[number]
            why = colour_clue_error(clue, colours, len(cols) if number < height else height)
            if why is not None:
                raise self.fail(f"{line_name(number, height)}: {why}", line)
        try:
            puzzle = Puzzle(rows, cols, self.title, None, tuple(palette), row_colours, col_colours)
        except ProblemError as error:
            raise self.fail(str(error), end or None) from None
        if self.goal is None:
            return puzzle
        problem = puzzle.mismatch(self.goal)
        if problem is not None:
            raise self.fail(f"the goal picture does not fit the clues: {problem}", self.goal_line)
        return Puzzle(
            rows,
            cols,
            self.title,
            self.goal,
            puzzle.palette,
            puzzle.row_colours,
            puzzle.col_colours,
        )

    def check_declared(self) -> None:
        """Refuse the first block whose colour char the file did not declare, naming its
        line, its row or column and the char."""
        declared = [colour.char for colour in self.palette]
        height = len(self.rows)
        lines = self.rows + self.cols
        for number, colours in enumerate(self.row_colours + self.col_colours):
            char = next((c for c in colours if c is not None and c not in declared), None)
            if char is None:
                continue
            block = colours.index(char)
            written = f"{lines[number][0][block]}{char}"
            known = f"declared: {' '.join(declared)}" if declared else "the file declares none"
            raise self.fail(
                f"{line_name(number, height)}, block {block + 1} {written!r}: colour "
                f"{char!r} is not declared ({known}; {self.declare_how})",
                lines[number][1],
            )

    @property
    def is_colour(self) -> bool:
        """Whether the file declares colours or gives a block a colour char."""
        return bool(self.palette) or any(
            char is not None for colours in self.row_colours + self.col_colours for char in colours
        )

    def clue(self, text: str, line: int) -> Clue:
        """A clue from its text (block lengths apart by spaces or commas; ``0`` alone for
        an empty line)."""
        fields = _fields(text)
        if not _all_digits(fields):
            bad = next(part for part in fields if not _is_number(part))
            raise self.fail(f"bad block length {bad!r} (expected a non-negative integer)", line)
        blocks = tuple(map(int, fields))
        if blocks == (0,):
            return ()
        if 0 in blocks:
            raise self.fail("a block of length 0 (only '0' alone means an empty line)", line)
        return blocks

    def puzzle(self, end: int) -> Puzzle:
        """The puzzle, checked line by line so that errors point into the file."""
        if not self.rows or not self.cols:
            raise self.fail(f"no {'row' if not self.rows else 'column'} clues", end or None)
        if self.is_colour:
            if self.goal is not None and self.palette:
                first = self.palette[0].char
                self.goal = tuple(row.replace("1", first) for row in self.goal)
            return self.colour_puzzle(end)
        if self.goal is not None:
            self.goal = tuple(
                "".join(WHITE if ch == WHITE else BLACK for ch in row) for row in self.goal
            )
        height, width = len(self.rows), len(self.cols)
        for number, (clue, line) in enumerate(self.rows + self.cols):
            error = clue_error(clue, width if number < height else height)
            if error is not None:
                raise self.fail(f"{line_name(number, height)}: {error}", line)
        rows = tuple(clue for clue, _ in self.rows)
        cols = tuple(clue for clue, _ in self.cols)
        puzzle = Puzzle(rows, cols, self.title)
        if self.goal is None:
            return puzzle
        problem = puzzle.mismatch(self.goal)
        if problem is not None:
            raise self.fail(f"the goal picture does not fit the clues: {problem}", self.goal_line)
        return Puzzle(rows, cols, self.title, self.goal)


#: More digits than any line length needs, and fewer than ``int`` accepts.
_MAX_DIGITS = 100


def _is_number(text: str) -> bool:
    """Whether ``text`` is a run of ASCII digits that ``int`` converts (``str.isdigit``
    alone also accepts characters such as ``²``, and ``int`` refuses thousands of digits)."""
    return text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS


def _fields(text: str) -> list[str]:
    """The fields of a clue's text, apart by white space or commas."""
    return text.replace(",", " ").split()


def _all_digits(fields: list[str]) -> bool:
    """Whether every field :func:`_is_number` (checked on them all at once: a large
    puzzle has thousands)."""
    if not fields:
        return True
    joined = "".join(fields)
    return joined.isascii() and joined.isdigit() and max(map(len, fields)) <= _MAX_DIGITS


# ----- plain text -----


def _read_text(text: str, source: str) -> Puzzle:
    sniffed = _sniff(text)
    if sniffed is not None:  # a .txt file in pynogram's or the tournaments' format
        return _READERS[sniffed](text, source)
    clues = _Clues(source)
    section = clues.rows
    gap = False  # a blank line since the last clue
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            if key.strip().lower() == "title" and value.strip():
                clues.title = value.strip()
            elif key.strip().lower() in ("colour", "color"):
                fields = value.split()
                if len(fields) != 3:
                    raise clues.fail("a colour line is '# colour: CHAR NAME #rrggbb'", number)
                clues.declare(fields[0], fields[1], fields[2], number)
        elif not line:
            gap = bool(clues.rows)
        else:
            if gap:
                if section is clues.cols:
                    raise clues.fail("a third section: rows, a blank line, then columns", number)
                section, gap = clues.cols, False
            clues.add(section, line, number)
    if not clues.rows:
        raise clues.fail("no clues", number or None)
    if section is clues.rows and gap:
        raise clues.fail("no column clues after the blank line", number)
    if section is clues.rows:
        raise clues.fail("no blank line between the row clues and the column clues", number)
    return clues.puzzle(number)


def _write_text(puzzle: Puzzle) -> str:
    lines = [] if puzzle.title is None else [f"# title: {_one_line(puzzle.title)}"]
    if puzzle.palette is not None:
        lines += [f"# colour: {c.char} {_one_word(c.name)} {c.hex}" for c in puzzle.palette]
        lines += [_colour_text(puzzle, r, " ") for r in range(puzzle.height)]
        lines.append("")
        lines += [_colour_text(puzzle, puzzle.height + c, " ") for c in range(puzzle.width)]
        return "\n".join(lines) + "\n"
    lines += [" ".join(map(str, clue)) or "0" for clue in puzzle.rows]
    lines.append("")
    lines += [" ".join(map(str, clue)) or "0" for clue in puzzle.cols]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _name_of(rgb: str, char: str) -> str:
    """A colour's name from its RGB text (``#ff0000`` is ``red``), else ``char``."""
    try:
        value = palette_of([(char, char, rgb)])[0].rgb
    except ProblemError:
        return char
    return next((name for name, known in NAMED_COLOURS.items() if known == value), char)


def _one_word(text: str) -> str:
    return "-".join(text.split()) or "colour"


def _colour_text(puzzle: Puzzle, line: int, separator: str) -> str:
    """A colour clue as text: ``3r 2b`` (every block with its char), ``0`` if empty."""
    return separator.join(f"{length}{char}" for length, char in puzzle.blocks(line)) or "0"


# ----- Simpson's .non -----


def _read_non(text: str, source: str) -> Puzzle:
    clues = _Clues(source)
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
            if not _is_number(value) or int(value) < 1:
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
            clues.declare(fields[0], _name_of(fields[1], fields[0]), fields[1], number)
        elif key == "goal":
            clues.goal, clues.goal_line = _goal(clues, _unquote(value), size, number), number
    for name, section in (("rows", clues.rows), ("columns", clues.cols)):
        expected = size.get("height" if name == "rows" else "width")
        if section and expected is not None and len(section) < expected:
            raise clues.fail(f"'{name}' lists {len(section)} clues, not {expected}", number)
    return clues.puzzle(number)


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _goal(clues: _Clues, text: str, size: dict[str, int], number: int) -> tuple[str, ...]:
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


def _write_non(puzzle: Puzzle) -> str:
    from html import escape

    lines = [] if puzzle.title is None else [f'title "{escape(_one_line(puzzle.title))}"']
    if puzzle.palette is not None:
        lines += [f"color {c.char} {c.hex}" for c in puzzle.palette]
        lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
        lines += [_colour_text(puzzle, r, ",") for r in range(puzzle.height)]
        lines += ["", "columns"]
        lines += [_colour_text(puzzle, puzzle.height + c, ",") for c in range(puzzle.width)]
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


# ----- webpbn XML -----


class _Element:
    """An XML element with the line it starts on."""

    def __init__(self, tag: str, attributes: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attributes = attributes
        self.line = line
        self.children: list[_Element] = []
        self.text = ""
        self.chunks: list[str] = []  # the text, joined at the end tag

    def find(self, tag: str) -> list[_Element]:
        return [child for child in self.children if child.tag == tag]


def _parse_xml(text: str, source: str) -> _Element:
    """The element tree of ``text``, each element with its line (expat keeps them; the
    standard tree builder does not). External entities are never fetched."""
    from xml.parsers import expat

    parser = expat.ParserCreate()
    root = _Element("", {}, 0)
    stack = [root]

    def start(tag: str, attributes: dict[str, str]) -> None:
        element = _Element(tag, attributes, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    def end(tag: str) -> None:
        element = stack.pop()
        element.text = "".join(element.chunks)

    def data(chunk: str) -> None:
        stack[-1].chunks.append(chunk)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        message = expat.errors.messages[error.code] if error.code else str(error)
        raise FormatError(f"bad XML: {message}", source=source, line=error.lineno) from None
    return root


def _read_xml(text: str, source: str) -> Puzzle:
    clues = _Clues(source)
    root = _parse_xml(text, source)
    top = root.children[0]
    puzzles = top.find("puzzle") if top.tag == "puzzleset" else [top]
    if not puzzles or puzzles[0].tag != "puzzle":
        raise clues.fail("no <puzzle> element", top.line)
    puzzle = puzzles[0]
    default = puzzle.attributes.get("defaultcolor", "black")
    colours = _xml_palette(clues, puzzle)
    titles = puzzle.find("title")
    if titles:
        clues.title = titles[0].text.strip() or None
    for element in puzzle.find("clues"):
        kind = element.attributes.get("type")
        if kind not in ("rows", "columns"):
            raise clues.fail(f"<clues type={kind!r}>: expected 'rows' or 'columns'", element.line)
        section = clues.rows if kind == "rows" else clues.cols
        if section:
            raise clues.fail(f"a second <clues type={kind!r}>", element.line)
        for line in element.find("line"):
            clue, chars = _xml_colour_clue(clues, line, default, colours)
            section.append((clue, line.line))
            (clues.row_colours if section is clues.rows else clues.col_colours).append(chars)
    used = {char for chars in clues.row_colours + clues.col_colours for char in chars}
    black_only = used <= {colours[default].char if default in colours else None}
    if black_only and (default not in colours or colours[default].rgb == (0, 0, 0)):
        clues.row_colours, clues.col_colours = [], []  # black and white after all
    else:
        clues.palette = [colour for colour in colours.values() if colour.char != WHITE]
    for solution in puzzle.find("solution"):
        if solution.attributes.get("type", "goal") == "goal" and solution.find("image"):
            image = solution.find("image")[0]
            if clues.is_colour:
                clues.goal, clues.goal_line = _xml_colour_image(clues, image), image.line
            else:
                clues.goal, clues.goal_line = _xml_image(clues, image), image.line
    return clues.puzzle(puzzle.line)


def _xml_palette(clues: _Clues, puzzle: _Element) -> dict[str, Colour]:
    """The ``<color>`` elements of a puzzle by name, each with the char pictures show it
    by (the background colour ``.``; a char the file does not give or that is taken, a
    free letter)."""
    background = puzzle.attributes.get("backgroundcolor", "white")
    colours: dict[str, Colour] = {}
    taken = {WHITE}
    for element in puzzle.find("color"):
        name = element.attributes.get("name", "").strip()
        if not name:
            raise clues.fail("a <color> without a name", element.line)
        try:
            rgb = palette_of([("x", name, element.text.strip() or name)])[0].rgb
        except ProblemError as error:
            raise clues.fail(str(error), element.line) from None
        char = element.attributes.get("char", "")
        if name == background:
            char = WHITE
        else:
            try:
                palette_of([(char, name, rgb)])
                if char in taken:
                    raise ProblemError("taken")
            except ProblemError:
                char = next(
                    ch
                    for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    if ch not in taken
                )
        taken.add(char)
        colours[name] = Colour(char, name, rgb)
        clues.file_chars[element.attributes.get("char", char)] = char
    return colours


def _xml_colour_clue(
    clues: _Clues, line: _Element, default: str, colours: dict[str, Colour]
) -> tuple[Clue, tuple[str | None, ...]]:
    """A ``<line>``'s block lengths and the chars of their colours."""
    blocks: list[int] = []
    chars: list[str | None] = []
    for count in line.find("count"):
        name = count.attributes.get("color", default)
        if name not in colours:
            if name != default or colours:
                raise clues.fail(f"colour {name!r} has no <color> element", count.line)
            colours[name] = Colour(BLACK, name, (0, 0, 0))
        value = count.text.strip()
        if not _is_number(value) or int(value) < 1:
            raise clues.fail(f"bad count {value!r} (expected a positive integer)", count.line)
        blocks.append(int(value))
        chars.append(colours[name].char)
    return tuple(blocks), tuple(chars)


def _xml_colour_image(clues: _Clues, image: _Element) -> tuple[str, ...]:
    """The picture of a colour ``<image>``: the file's chars, as the palette's chars."""
    rows = [row.strip().strip("|") for row in image.text.splitlines() if row.strip()]
    if not rows:
        raise clues.fail("an empty <image>", image.line)
    known = clues.file_chars
    for number, row in enumerate(rows):
        unknown = set(row) - set(known)
        if unknown:
            raise clues.fail(
                f"<image> row {number + 1}: {sorted(unknown)[0]!r} is no colour's char",
                image.line,
            )
    return tuple("".join(known[ch] for ch in row) for row in rows)


def _xml_image(clues: _Clues, image: _Element) -> tuple[str, ...]:
    """The picture of an ``<image>``: rows between ``|`` bars, ``.`` white, else black."""
    rows = [row.strip().strip("|") for row in image.text.splitlines() if row.strip()]
    if not rows:
        raise clues.fail("an empty <image>", image.line)
    return tuple("".join(WHITE if ch == "." else BLACK for ch in row) for row in rows)


def _write_xml(puzzle: Puzzle) -> str:
    from html import escape

    if puzzle.palette is not None:
        return _write_colour_xml(puzzle)
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">',
        "<puzzleset>",
        '<puzzle type="grid" defaultcolor="black">',
    ]
    if puzzle.title is not None:
        lines.append(f"<title>{escape(re.sub(_XML_INVALID, '', puzzle.title))}</title>")
    lines += [
        '<color name="white" char=".">fff</color>',
        '<color name="black" char="X">000</color>',
    ]
    for kind, section in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        lines.append(f'<clues type="{kind}">')
        for clue in section:
            counts = "".join(f"<count>{block}</count>" for block in clue)
            lines.append(f"<line>{counts}</line>")
        lines.append("</clues>")
    if puzzle.goal is not None:
        lines.append('<solution type="goal">')
        lines.append("<image>")
        lines += [f"|{row.replace(BLACK, 'X')}|" for row in puzzle.goal]
        lines.append("</image>")
        lines.append("</solution>")
    lines += ["</puzzle>", "</puzzleset>"]
    return "\n".join(lines) + "\n"


def _write_colour_xml(puzzle: Puzzle) -> str:
    """A colour puzzle in webpbn's XML: a ``<color>`` per colour (white ``.``), counts
    of any colour but the default one with a ``color`` attribute."""
    from html import escape

    palette = puzzle.palette or ()
    names: dict[str, str] = {}
    for colour in palette:  # XML names must be unique and not white's
        name = "-".join(colour.name.split()) or "colour"
        while name in names.values() or name == "white":
            name = f"{name}-{colour.char}" if not name.endswith(colour.char) else name + "x"
        names[colour.char] = name
    default = names[palette[0].char]
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">',
        "<puzzleset>",
        f'<puzzle type="grid" defaultcolor="{escape(default)}" backgroundcolor="white">',
    ]
    if puzzle.title is not None:
        lines.append(f"<title>{escape(re.sub(_XML_INVALID, '', puzzle.title))}</title>")
    lines.append('<color name="white" char=".">ffffff</color>')
    for colour in palette:
        lines.append(
            f'<color name="{escape(names[colour.char])}" char="{escape(colour.char)}">'
            f"{colour.hex[1:]}</color>"
        )
    for kind, first, count in (
        ("columns", puzzle.height, puzzle.width),
        ("rows", 0, puzzle.height),
    ):
        lines.append(f'<clues type="{kind}">')
        for line in range(first, first + count):
            counts = "".join(
                f"<count>{length}</count>"
                if names[char] == default
                else f'<count color="{escape(names[char])}">{length}</count>'
                for length, char in puzzle.blocks(line)
            )
            lines.append(f"<line>{counts}</line>")
        lines.append("</clues>")
    if puzzle.goal is not None:
        lines += ['<solution type="goal">', "<image>"]
        lines += [f"|{escape(row)}|" for row in puzzle.goal]
        lines += ["</image>", "</solution>"]
    lines += ["</puzzle>", "</puzzleset>"]
    return "\n".join(lines) + "\n"


#: The characters XML 1.0 cannot hold (control characters but tab, newline and return,
#: surrogates, U+FFFE and U+FFFF): dropped from a title, else the file would not read.
#: (Patterns are compiled on first use, by ``re``'s cache, not at import.)
_XML_INVALID = "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"

# ----- many puzzles in one file -----


def loads_all(text: str, format: str = "text", source: str = "<string>") -> list[Puzzle]:
    """Every puzzle in ``text``: the many of a ``tcga`` file (a ``text`` file that starts
    with a ``$`` line is one), or the one of any other format."""
    if not isinstance(text, str):
        raise UsageError(f"a nonogram text must be a str, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    if format == "text":
        format = _sniff(text) or format
    if format in MANY:
        return [clues.puzzle(end) for clues, _, end in _tcga_blocks(text, source)]
    return [loads(text, format, source)]


def read_all(path: str | os.PathLike[str], format: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file ``path`` (see :func:`loads_all`)."""
    text, source = read_text(path)
    return loads_all(text, format_for(path) if format is None else format, source)


def dumps_all(puzzles: Iterable[Puzzle], format: str = "tcga") -> str:
    """``puzzles`` as one text: a ``tcga`` file of all of them (labelled by their titles
    when these are single words, else by their rank from 1), or any format's text of
    a single puzzle."""
    given = list(puzzles)
    if format not in MANY:
        if len(given) != 1:
            raise UsageError(f"a {format} file holds one puzzle, not {len(given)}")
        return dumps(given[0], format)
    for puzzle in given:
        if not isinstance(puzzle, Puzzle):
            raise UsageError(f"a nonogram Puzzle is needed, not {puzzle!r}")
        _check_colours(puzzle, format)
    return "".join(_write_tcga(puzzle, rank) for rank, puzzle in enumerate(given, start=1))


def write_all(
    puzzles: Iterable[Puzzle], path: str | os.PathLike[str], format: str | None = None
) -> None:
    """Write ``puzzles`` to the file ``path`` (see :func:`dumps_all`); the format comes
    from the suffix unless given."""
    given = list(puzzles)
    _write_file(path, lambda chosen: dumps_all(given, chosen), format)


def _sniff(text: str) -> str | None:
    """The format of a ``.txt`` file that is not excover's plain text: ``tcga`` when
    its first line starts with ``$``, ``ini`` when it is a ``[section]``."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("$"):
            return "tcga"
        if line.startswith("[") and line.endswith("]"):
            return "ini"
        return None
    return None


def _numbers(clues: _Clues, line: str, number: int, count: int, what: str) -> list[int]:
    """``count`` positive integers on a line (the size of a ``nin`` or ``mk`` file)."""
    fields = line.split()
    if len(fields) != count or not all(map(_is_number, fields)) or 0 in map(int, fields):
        raise clues.fail(f"expected {what} (positive integers), not {line!r}", number)
    return [int(field) for field in fields]


def _clue_line(clue: Clue, separator: str = " ") -> str:
    return separator.join(map(str, clue)) or "0"


# ----- tournament files (TCGA, TAAI, ICGA) -----
#
# ``$N`` opens puzzle N; the n column clues follow, then the n row clues (n x n cells,
# 25 in the tournaments), blocks separated by tabs; ``0`` or a blank line is an empty
# line of the picture (blank lines at the end of a puzzle are dropped).


def _tcga_blocks(text: str, source: str) -> Iterator[tuple[_Clues, int, int]]:
    """Each puzzle of a tournament file, its clues read with their lines, and the lines
    that start and end it."""
    blocks: list[tuple[_Clues, int, list[tuple[str, int]]]] = []
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("$"):
            label = line[1:].strip()
            blocks.append((_Clues(source, title=label or None), number, []))
        elif blocks:
            blocks[-1][2].append((line, number))
        elif line:
            raise FormatError("a clue before the first '$' line", source=source, line=number)
    if not blocks:
        raise FormatError("no puzzle: no '$N' line", source=source, line=number or None)
    for clues, start, lines in blocks:
        while lines and not lines[-1][0]:
            lines.pop()
        if not lines or len(lines) % 2:
            raise clues.fail(
                f"puzzle ${clues.title or ''} has {len(lines)} clue lines: an n x n puzzle "
                "has 2n (n columns, then n rows)",
                start,
            )
        half = len(lines) // 2
        for k, (line, line_number) in enumerate(lines):
            section = clues.cols if k < half else clues.rows
            section.append((clues.clue(line or "0", line_number), line_number))
        yield clues, start, lines[-1][1]


def _read_tcga(text: str, source: str) -> Puzzle:
    puzzles = list(_tcga_blocks(text, source))
    if len(puzzles) > 1:
        clues, start, _ = puzzles[1]
        raise clues.fail(f"a file of {len(puzzles)} puzzles: read it with read_all", start)
    clues, _, end = puzzles[0]
    return clues.puzzle(end)


def _write_tcga(puzzle: Puzzle, rank: int = 1) -> str:
    if puzzle.height != puzzle.width:
        raise UsageError(
            f"the tournament format holds n x n puzzles, not {puzzle.height}x{puzzle.width}"
        )
    title = puzzle.title
    label = title if title is not None and title.split() == [title] else str(rank)
    lines = [f"${label}"]
    lines += [_clue_line(clue, "\t") for clue in puzzle.cols]
    lines += [_clue_line(clue, "\t") for clue in puzzle.rows]
    return "\n".join(lines) + "\n"


# ----- Wilk's .nin (the format of webpbn's survey sample) and Olsak's .mk -----


def _read_sized(text: str, source: str, kind: str) -> Puzzle:
    """A ``nin`` file (``W H``, the H row clues, the W column clues) or an ``mk`` file
    (``H W``, the row clues, a ``#`` line, the column clues). Blocks are separated by
    spaces; ``0`` or a blank line is an empty line of the picture, blank lines after the
    last clue are ignored."""
    clues = _Clues(source)
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


def _read_nin(text: str, source: str) -> Puzzle:
    return _read_sized(text, source, "nin")


def _read_mk(text: str, source: str) -> Puzzle:
    return _read_sized(text, source, "mk")


def _write_nin(puzzle: Puzzle) -> str:
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [_clue_line(clue) for clue in puzzle.lines()]
    return "\n".join(lines) + "\n"


def _write_mk(puzzle: Puzzle) -> str:
    lines = [f"{puzzle.height} {puzzle.width}"]
    lines += [_clue_line(clue) for clue in puzzle.rows]
    lines.append("#")
    lines += [_clue_line(clue) for clue in puzzle.cols]
    return "\n".join(lines) + "\n"


# ----- Olsak's .g -----
#
# The format of Olsak's griddler solver, read by pbnsolve too: free text (ignored; a
# ``# title: ...`` line names the puzzle) up to a line starting with ``:``, then the row
# clues up to the next such line, then the column clues up to the next (or the end);
# anything after is free text again. Blocks are separated by spaces or commas, a blank
# line (or ``0``) is an empty line of the picture. A line starting with ``#d`` in the
# free text opens the colour declarations, one per line up to the first ``:`` line:
# ``<inchar>:<outchar> <colour> <comment>`` where ``inchar`` is the char written after a
# block's length (``3r``), ``outchar`` the char Olsak's program prints for it, and
# ``colour`` a colour name or ``#rrggbb`` (the comment, when the colour is given by RGB,
# names it). ``inchar`` ``0`` declares the background (white here), ``1`` the colour of
# the blocks written without a char (its char here is ``outchar``, else ``#``). Without
# declarations the puzzle is black and white. Triangles (a colour ``black/orange``) and
# triddlers (``#t``) are refused, as pbnsolve does.


def _read_g(text: str, source: str) -> Puzzle:
    clues = _Clues(source)
    clues.declare_how = "colours are declared after a '#d' line, as in '  r:r  red'"
    sections: list[list[tuple[str, int]]] = [[], []]
    state, default = "free", None  # free, colours, rows, columns, after
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if state == "colours" and raw.lstrip().startswith(":"):
            state = "rows"
        elif state == "colours" and raw.strip():
            default = _g_colour(clues, raw, number, default)
        elif raw.startswith(":") and state != "after":
            state = {"free": "rows", "rows": "columns", "columns": "after"}[state]
        elif state in ("rows", "columns"):
            sections[state == "columns"].append((raw, number))
        elif state == "free" and raw[:2] in ("#d", "#D"):
            state = "colours"
        elif state == "free" and raw[:2] in ("#t", "#T"):
            raise clues.fail("triddlers (a '#t' line) are not supported", number)
        elif state == "free" and raw.startswith("#"):
            key, _, value = raw[1:].partition(":")
            if key.strip().lower() == "title" and value.strip():
                clues.title = value.strip()
    if state in ("free", "colours"):
        raise clues.fail("no ':' line before the row clues", number or None)
    if state == "rows":
        raise clues.fail("no ':' line between the row clues and the column clues", number)
    while state == "columns" and sections[1] and not sections[1][-1][0].strip():
        sections[1].pop()  # blank lines at the end of a file without a closing ':' line
    for target, section in ((clues.rows, sections[0]), (clues.cols, sections[1])):
        for text_line, at in section:
            clues.add(target, text_line.strip() or "0", at)
    if clues.palette:  # blocks without a char take the default colour ('1:')
        lines = clues.rows + clues.cols
        for colours, (_, at) in zip(clues.row_colours + clues.col_colours, lines, strict=True):
            if None in colours and default is None:
                raise clues.fail("a block without a colour char, and no default colour", at)
        for found in (clues.row_colours, clues.col_colours):
            found[:] = [tuple(char or default for char in colours) for colours in found]
    return clues.puzzle(number)


def _g_colour(clues: _Clues, raw: str, number: int, default: str | None) -> str | None:
    """Read one colour declaration (``  r:&  red  comment``) into ``clues``; the char of
    the default colour, when this line declares it, else ``default`` unchanged."""
    line = raw.strip()
    fields = line[3:].split()
    if len(line) < 4 or line[1] != ":" or not fields:
        raise clues.fail("a colour line is '<inchar>:<outchar> <colour> [comment]'", number)
    inchar, outchar, colour = line[0], line[2], fields[0]
    if "/" in colour or "\\" in colour:
        raise clues.fail(f"triangles (colour {colour!r}) are not supported", number)
    if inchar == "0":
        return default  # the background, white here
    if inchar == "1" and default is not None:
        raise clues.fail("a second default colour ('1:')", number)
    # the default colour takes Olsak's char for it when a colour may have it, else '#'
    taken = {known.char for known in clues.palette}
    chars = [inchar] if inchar != "1" else [c for c in (outchar, BLACK) if c not in taken]
    for k, char in enumerate(chars):
        hexed = colour.startswith("#")
        name = (" ".join(fields[1:]) or _name_of(colour, char)) if hexed else colour
        try:
            clues.declare(char, name, colour, number)
        except FormatError:
            if k + 1 == len(chars):
                raise
            continue
        return char if inchar == "1" else default
    raise clues.fail("no char left for the default colour", number)


def _write_g(puzzle: Puzzle) -> str:
    lines = [] if puzzle.title is None else [f"# title: {_one_line(puzzle.title)}"]
    if puzzle.palette is not None:
        if any(colour.char == ":" for colour in puzzle.palette):
            raise UsageError("the g format cannot hold a colour whose char is ':'")
        lines.append("#d")
        lines += [f"   {c.char}:{c.char}  {c.hex}  {_one_line(c.name)}" for c in puzzle.palette]
    lines.append(": rows")
    text = [_g_clue(puzzle, line) for line in range(puzzle.height + puzzle.width)]
    lines += text[: puzzle.height]
    lines.append(": columns")
    lines += text[puzzle.height :]
    lines.append(": end")
    return "\n".join(lines) + "\n"


def _g_clue(puzzle: Puzzle, line: int) -> str:
    """A clue of a ``.g`` file: blank when empty (pbnsolve refuses ``0``)."""
    if puzzle.palette is None:
        return " ".join(map(str, puzzle.lines()[line]))
    return " ".join(f"{length}{char}" for length, char in puzzle.blocks(line))


# ----- pynogram's files -----
#
# An INI file: a ``[clues]`` section with the keys ``columns`` and ``rows`` (either
# first), each holding its clues separated by commas or line ends, a clue optionally in
# quotes; blank lines in a value are skipped; ``#`` or ``;`` starts a comment (at the
# start of a line or after a blank). ``# title: ...`` names the puzzle, as in the plain
# format. Colour puzzles: a ``[colors]`` section declares each colour as ``NAME =
# (COLOUR) SYMBOL`` (COLOUR a colour name, ``R, G, B`` or ``rrggbb``; SYMBOL the char
# pynogram draws it with), and a block gives its colour's NAME after its length
# (``2r``); a block without one is black. A colour's char here is its NAME when that is
# one character, else its SYMBOL; black's is ``#``. A file that declares colours holds
# a colour puzzle (all the colours declared, in order, after black when a bare length
# asks for it); one without, a black-and-white puzzle.

_INI_KEY = r"([A-Za-z_]+)\s*[=:](.*)"
_INI_COMMENT = r"(^|\s)[#;].*"
_INI_BLOCK = r"(\d+)([^\d\s].*)?"
_INI_COLOUR = r"([^\s=]+)\s*=\s*\((.*)\)\s*(\S?)"


def _read_ini(text: str, source: str) -> Puzzle:
    clues = _Clues(source)
    section = ""
    target: list[tuple[Clue, int]] | None = None
    entries: list[tuple[list[tuple[Clue, int]], str, int]] = []  # clue texts, by section
    declared: dict[str, tuple[str, str, int]] = {}  # colour name -> colour, symbol, line
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            key, _, value = stripped[1:].partition(":")
            if key.strip().lower() == "title" and value.strip():
                clues.title = value.strip()
            continue
        line = re.sub(_INI_COMMENT, "", raw).strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section, target = line[1:-1].strip().lower(), None
            continue
        if section == "colors":
            colour = re.fullmatch(_INI_COLOUR, line)
            if colour is None:
                raise clues.fail("a colour is 'NAME = (COLOUR) SYMBOL'", number)
            if colour.group(1) in declared:
                raise clues.fail(f"colour {colour.group(1)!r} declared twice", number)
            declared[colour.group(1)] = (colour.group(2).strip(), colour.group(3), number)
        if section != "clues":
            continue
        match = re.fullmatch(_INI_KEY, line)
        if match is not None:
            key = match.group(1).lower()
            if key not in ("rows", "columns", "cols"):
                raise clues.fail(f"unknown key {match.group(1)!r} in [clues]", number)
            target = clues.rows if key == "rows" else clues.cols
            if any(given is target for given, _, _ in entries):
                raise clues.fail(f"'{key}' given twice", number)
            line = match.group(2).strip()
        elif target is None:
            raise clues.fail("a clue before 'columns =' or 'rows ='", number)
        for part in line.split(","):
            part = part.strip().strip("'\"").strip()
            if part:
                entries.append((target, part, number))
    # Only lengths and no colour declared: black and white, read without matching each
    # block (a large puzzle has thousands).
    plain = not declared and _all_digits(_fields(" ".join(part for _, part, _ in entries)))
    blocks = [
        (target, [re.fullmatch(_INI_BLOCK, token) for token in part.split()], part, at)
        for target, part, at in ([] if plain else entries)
    ]
    chars = _ini_palette(clues, declared, blocks)
    if not chars:  # black and white
        for target, part, at in entries:
            target.append((clues.clue(part, at), at))
    else:
        for target, found, part, at in blocks:
            bad = next((token for token, m in zip(part.split(), found, strict=True) if not m), None)
            if bad is not None:
                raise clues.fail(f"bad block {bad!r} (expected a length and a colour's name)", at)
            colours = [m.group(2) for m in found if m is not None]
            text = " ".join(
                m.group(1) + _ini_char(m.group(1), name, chars)
                for m, name in zip(found, colours, strict=True)
                if m is not None
            )
            clues.add(target, text or "0", at)
    if not clues.rows and not clues.cols:
        raise clues.fail("no [clues] section with 'rows' and 'columns'", number or None)
    return clues.puzzle(number)


def _ini_palette(
    clues: _Clues,
    declared: dict[str, tuple[str, str, int]],
    blocks: list[tuple[list[tuple[Clue, int]], list[re.Match[str] | None], str, int]],
) -> dict[str, str]:
    """Declare the colours (black first, when a block has no colour name) and map each
    colour name to its char; empty for a black-and-white puzzle (no colours declared)."""
    used: dict[str, int] = {}  # colour name -> the line that first uses it
    plain = False
    for _, found, _, line in blocks:
        for m in found:
            if m is not None and m.group(2):
                used.setdefault(m.group(2), line)
            plain = plain or (m is not None and not m.group(2) and int(m.group(1)) > 0)
    if not used and not declared:
        return {}
    for name, line in used.items():
        if name not in declared:
            raise clues.fail(f"colour {name!r} is not declared in [colors]", line)
    if plain:
        clues.declare(BLACK, "black", "#000000", min(line for *_, line in blocks))
    chars: dict[str, str] = {}
    for name, (colour, symbol, line) in declared.items():
        parts = [part.strip() for part in colour.split(",")]
        if len(parts) == 3 and all(map(_is_number, parts)) and max(map(int, parts)) < 256:
            colour = "#" + "".join(f"{int(part):02x}" for part in parts)
        elif colour.lower() not in NAMED_COLOURS and not colour.startswith("#"):
            colour = "#" + colour
        char = name if len(name) == 1 else symbol
        known = colour.lower() if colour.lower() in NAMED_COLOURS else _name_of(colour, name)
        clues.declare(char, known, colour, line)
        chars[name] = char
    return chars


def _ini_char(length: str, name: str | None, chars: dict[str, str]) -> str:
    """The colour char of an INI block: its colour's, black's for a bare length, none
    for the ``0`` of an empty line."""
    if name is not None:
        return chars[name]
    return BLACK if length.strip("0") else ""


def _write_ini(puzzle: Puzzle) -> str:
    lines = [] if puzzle.title is None else [f"# title: {_one_line(puzzle.title)}"]
    plain = None  # the colour whose blocks go without a name: black as '#'
    if puzzle.palette is not None:
        lines.append("[colors]")
        for colour in puzzle.palette:
            if colour.char == BLACK and colour.rgb == (0, 0, 0):
                plain = colour.char
                continue
            if colour.char in "#;=[]()," or colour.char.isspace():
                raise UsageError(f"the ini format cannot name a colour {colour.char!r}")
            named = NAMED_COLOURS.get(colour.name.lower()) == colour.rgb
            shown = colour.name.lower() if named else colour.hex[1:]
            lines.append(f"{colour.char} = ({shown}) {colour.char}")
        lines.append("")
    lines += ["[clues]", "columns ="]
    text = [_ini_clue(puzzle, line, plain) for line in range(puzzle.height + puzzle.width)]
    lines += [f"    {clue}" for clue in text[puzzle.height :]]
    lines += ["", "rows ="]
    lines += [f"    {clue}" for clue in text[: puzzle.height]]
    return "\n".join(lines) + "\n"


def _ini_clue(puzzle: Puzzle, line: int, plain: str | None) -> str:
    if puzzle.palette is None:
        return _clue_line(puzzle.lines()[line])
    blocks = puzzle.blocks(line)
    return " ".join(f"{n}{'' if c == plain else c}" for n, c in blocks) or "0"


_READERS: dict[str, Callable[[str, str], Puzzle]] = {
    "text": _read_text,
    "non": _read_non,
    "xml": _read_xml,
    "nin": _read_nin,
    "mk": _read_mk,
    "tcga": _read_tcga,
    "ini": _read_ini,
    "g": _read_g,
}
_WRITERS: dict[str, Callable[[Puzzle], str]] = {
    "text": _write_text,
    "non": _write_non,
    "xml": _write_xml,
    "nin": _write_nin,
    "mk": _write_mk,
    "tcga": _write_tcga,
    "ini": _write_ini,
    "g": _write_g,
}
