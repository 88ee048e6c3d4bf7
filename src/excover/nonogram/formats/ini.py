"""pynogram's INI nonogram files.

``ini``: pynogram's files: a ``[clues]`` section with ``columns =`` and ``rows =``,
clues separated by commas or line ends (``#`` and ``;`` comments); a ``.txt`` file that
starts with a ``[section]`` line is one. Colours are declared in a ``[colors]`` section
(``r = (red) %``) and named after a block's length (``2r``); a bare length is black.

An INI file: a ``[clues]`` section with the keys ``columns`` and ``rows`` (either
first), each holding its clues separated by commas or line ends, a clue optionally in
quotes; blank lines in a value are skipped; ``#`` or ``;`` starts a comment (at the
start of a line or after a blank). ``# title: ...`` names the puzzle, as in the plain
format. Colour puzzles: a ``[colors]`` section declares each colour as ``NAME =
(COLOUR) SYMBOL`` (COLOUR a colour name, ``R, G, B`` or ``rrggbb``; SYMBOL the char
pynogram draws it with), and a block gives its colour's NAME after its length
(``2r``); a block without one is black. A colour's char here is its NAME when that is
one character, else its SYMBOL; black's is ``#``. A file that declares colours holds
a colour puzzle (all the colours declared, in order, after black when a bare length
asks for it); one without, a black-and-white puzzle.
"""

from __future__ import annotations

import re

from excover.errors import UsageError
from excover.nonogram.formats._clues import (
    Clues,
    all_digits,
    clue_line,
    fields_of,
    is_number,
    name_of,
    one_line,
)
from excover.nonogram.model import BLACK, NAMED_COLOURS, Clue, Puzzle

__all__ = ["read", "write"]


_INI_KEY = r"([A-Za-z_]+)\s*[=:](.*)"
_INI_COMMENT = r"(^|\s)[#;].*"
_INI_BLOCK = r"(\d+)([^\d\s].*)?"
_INI_COLOUR = r"([^\s=]+)\s*=\s*\((.*)\)\s*(\S?)"


def read(text: str, source: str) -> Puzzle:
    """The puzzle of a pynogram file (``source`` names it in errors)."""
    clues = Clues(source)
    section = ""
    target: list[tuple[Clue, int]] | None = None
    entries: list[tuple[list[tuple[Clue, int]], str, int]] = []  # clue texts, by section
    declared: dict[str, tuple[str, str, int]] = {}  # colour name -> colour, symbol, line
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            clues.comment(stripped)
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
    plain = not declared and all_digits(fields_of(" ".join(part for _, part, _ in entries)))
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
    clues: Clues,
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
        if len(parts) == 3 and all(map(is_number, parts)) and max(map(int, parts)) < 256:
            colour = "#" + "".join(f"{int(part):02x}" for part in parts)
        elif colour.lower() not in NAMED_COLOURS and not colour.startswith("#"):
            colour = "#" + colour
        char = name if len(name) == 1 else symbol
        known = colour.lower() if colour.lower() in NAMED_COLOURS else name_of(colour, name)
        clues.declare(char, known, colour, line)
        chars[name] = char
    return chars


def _ini_char(length: str, name: str | None, chars: dict[str, str]) -> str:
    """The colour char of an INI block: its colour's, black's for a bare length, none
    for the ``0`` of an empty line."""
    if name is not None:
        return chars[name]
    return BLACK if length.strip("0") else ""


def write(puzzle: Puzzle) -> str:
    """``puzzle`` as a pynogram file, its colours in a ``[colors]`` section."""
    lines = [] if puzzle.title is None else [f"# title: {one_line(puzzle.title)}"]
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
    """A clue of an INI file: blocks of the colour ``plain`` without its name."""
    if puzzle.palette is None:
        return clue_line(puzzle.lines()[line])
    blocks = puzzle.blocks(line)
    return " ".join(f"{n}{'' if c == plain else c}" for n, c in blocks) or "0"
