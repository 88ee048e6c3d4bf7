"""What the nonogram readers and writers share: :class:`Clues`, the clues of a file being
read with the line each came from (so that every error names its line), its title,
goal picture and colours, checked into a :class:`~excover.nonogram.model.Puzzle`; and
the small helpers of numbers, fields and colour names that every format uses."""

from __future__ import annotations

from excover.errors import FormatError, ProblemError
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
    "MAX_DIGITS",
    "Clues",
    "all_digits",
    "clue_line",
    "colour_text",
    "fields_of",
    "is_number",
    "name_of",
    "one_line",
    "one_word",
    "split_block",
]


class Clues:
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

    def comment(self, line: str) -> tuple[str, str]:
        """A ``# KEY: VALUE`` comment line, as the text formats write them: ``# title: ...``
        names the puzzle; the key (in lower case) and the value, for the format's others."""
        key, _, value = line[1:].partition(":")
        key = key.strip().lower()
        if key == "title" and value.strip():
            self.title = value.strip()
        return key, value

    def add(self, section: list[tuple[Clue, int]], text: str, line: int) -> None:
        """Append the clue ``text`` to ``section`` (``rows`` or ``cols``): block lengths,
        each with an optional colour char after it (``3r``), apart by spaces or commas."""
        fields = fields_of(text)
        if all_digits(fields):  # no colour char: the common case, made quick
            clue = self.clue(text, line)
            section.append((clue, line))
            target = self.row_colours if section is self.rows else self.col_colours
            target.append((None,) * len(clue))
            return
        colours: list[str | None] = []
        lengths: list[str] = []
        for part in fields:
            length, char = split_block(part)
            lengths.append(length)
            colours.append(char)
        self.add_blocks(section, lengths, colours, text, line)

    def add_blocks(
        self,
        section: list[tuple[Clue, int]],
        lengths: list[str],
        colours: list[str | None],
        text: str,
        line: int,
    ) -> None:
        """Append to ``section`` the clue of blocks ``lengths`` (as written), each of
        colour char ``colours[k]`` (None: the default colour); ``text`` is the clue as
        the file writes it, for errors."""
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
        fields = fields_of(text)
        if not all_digits(fields):
            bad = next(part for part in fields if not is_number(part))
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
MAX_DIGITS = 100


def is_number(text: str) -> bool:
    """Whether ``text`` is a run of ASCII digits that ``int`` converts (``str.isdigit``
    alone also accepts characters such as ``²``, and ``int`` refuses thousands of digits)."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def split_block(part: str) -> tuple[str, str | None]:
    """A block's length and colour char from its text: ``3r`` is ``("3", "r")``, ``3``
    is ``("3", None)``; anything else is returned whole, for the caller to refuse."""
    digits = len(part) - len(part.lstrip("0123456789"))
    if 0 < digits == len(part) - 1 and not part[-1].isdigit():
        return part[:-1], part[-1]
    return part, None


def fields_of(text: str) -> list[str]:
    """The fields of a clue's text, apart by white space or commas."""
    return text.replace(",", " ").split()


def all_digits(fields: list[str]) -> bool:
    """Whether every field :func:`is_number` (checked on them all at once: a large
    puzzle has thousands)."""
    if not fields:
        return True
    joined = "".join(fields)
    return joined.isascii() and joined.isdigit() and max(map(len, fields)) <= MAX_DIGITS


# ----- writing -----


def one_line(text: str) -> str:
    """``text`` on one line, runs of white space made single spaces."""
    return " ".join(text.split())


def name_of(rgb: str, char: str) -> str:
    """A colour's name from its RGB text (``#ff0000`` is ``red``), else ``char``."""
    try:
        value = palette_of([(char, char, rgb)])[0].rgb
    except ProblemError:
        return char
    return next((name for name, known in NAMED_COLOURS.items() if known == value), char)


def one_word(text: str) -> str:
    """``text`` as one word (runs of white space made dashes), ``colour`` if empty."""
    return "-".join(text.split()) or "colour"


def colour_text(puzzle: Puzzle, line: int, separator: str) -> str:
    """A colour clue as text: ``3r 2b`` (every block with its char), ``0`` if empty."""
    return separator.join(f"{length}{char}" for length, char in puzzle.blocks(line)) or "0"


def clue_line(clue: Clue, separator: str = " ") -> str:
    """A black-and-white clue as text, its lengths apart by ``separator``; ``0`` if
    empty."""
    return separator.join(map(str, clue)) or "0"
