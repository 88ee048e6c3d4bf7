"""webpbn's XML nonogram format.

``xml``: the export format of webpbn.com (``<puzzleset><puzzle>`` with ``<clues
type="columns">`` and ``<clues type="rows">`` of ``<line><count>N</count>...</line>``, a
``<title>``, and a ``<solution type="goal">`` image of ``|X..|`` rows). A colour puzzle
has a ``<color name=... char=...>`` element per colour (the background one is white
here) and gives the counts of colours other than the default one a ``color``
attribute; a count of a colour without its ``<color>`` element is refused.
"""

from __future__ import annotations

import re

from excover.errors import ProblemError
from excover.formats.xmltree import Element, parse
from excover.nonogram.formats._clues import Clues, is_number
from excover.nonogram.model import BLACK, WHITE, Clue, Colour, Puzzle, palette_of

__all__ = ["read", "write"]


def read(text: str, source: str) -> Puzzle:
    """The first puzzle of a webpbn XML file (``source`` names it in errors)."""
    clues = Clues(source)
    top = parse(text, source)
    puzzles = top.all("puzzle") if top.tag == "puzzleset" else [top]
    if not puzzles or puzzles[0].tag != "puzzle":
        raise clues.fail("no <puzzle> element", top.line)
    puzzle = puzzles[0]
    default = puzzle.attributes.get("defaultcolor", "black")
    colours = _xml_palette(clues, puzzle)
    titles = puzzle.all("title")
    if titles:
        clues.title = titles[0].text.strip() or None
    for element in puzzle.all("clues"):
        kind = element.attributes.get("type")
        if kind not in ("rows", "columns"):
            raise clues.fail(f"<clues type={kind!r}>: expected 'rows' or 'columns'", element.line)
        section = clues.rows if kind == "rows" else clues.cols
        if section:
            raise clues.fail(f"a second <clues type={kind!r}>", element.line)
        for line in element.all("line"):
            clue, chars = _xml_colour_clue(clues, line, default, colours)
            section.append((clue, line.line))
            (clues.row_colours if section is clues.rows else clues.col_colours).append(chars)
    used = {char for chars in clues.row_colours + clues.col_colours for char in chars}
    black_only = used <= {colours[default].char if default in colours else None}
    if black_only and (default not in colours or colours[default].rgb == (0, 0, 0)):
        clues.row_colours, clues.col_colours = [], []  # black and white after all
    else:
        clues.palette = [colour for colour in colours.values() if colour.char != WHITE]
    for solution in puzzle.all("solution"):
        if solution.attributes.get("type", "goal") == "goal" and solution.all("image"):
            image = solution.all("image")[0]
            if clues.is_colour:
                clues.goal, clues.goal_line = _xml_colour_image(clues, image), image.line
            else:
                clues.goal, clues.goal_line = _xml_image(clues, image), image.line
    return clues.puzzle(puzzle.line)


def _xml_palette(clues: Clues, puzzle: Element) -> dict[str, Colour]:
    """The ``<color>`` elements of a puzzle by name, each with the char pictures show it
    by (the background colour ``.``; a char the file does not give or that is taken, a
    free letter)."""
    background = puzzle.attributes.get("backgroundcolor", "white")
    colours: dict[str, Colour] = {}
    taken = {WHITE}
    for element in puzzle.all("color"):
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
    clues: Clues, line: Element, default: str, colours: dict[str, Colour]
) -> tuple[Clue, tuple[str | None, ...]]:
    """A ``<line>``'s block lengths and the chars of their colours."""
    blocks: list[int] = []
    chars: list[str | None] = []
    for count in line.all("count"):
        name = count.attributes.get("color", default)
        if name not in colours:
            if name != default or colours:
                raise clues.fail(f"colour {name!r} has no <color> element", count.line)
            colours[name] = Colour(BLACK, name, (0, 0, 0))
        value = count.text.strip()
        if not is_number(value) or int(value) < 1:
            raise clues.fail(f"bad count {value!r} (expected a positive integer)", count.line)
        blocks.append(int(value))
        chars.append(colours[name].char)
    return tuple(blocks), tuple(chars)


def _xml_colour_image(clues: Clues, image: Element) -> tuple[str, ...]:
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


def _xml_image(clues: Clues, image: Element) -> tuple[str, ...]:
    """The picture of an ``<image>``: rows between ``|`` bars, ``.`` white, else black."""
    rows = [row.strip().strip("|") for row in image.text.splitlines() if row.strip()]
    if not rows:
        raise clues.fail("an empty <image>", image.line)
    return tuple("".join(WHITE if ch == "." else BLACK for ch in row) for row in rows)


def write(puzzle: Puzzle) -> str:
    """``puzzle`` in webpbn's XML (its goal picture too, when it has one)."""
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
