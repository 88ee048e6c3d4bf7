"""The nonogram model: a grid's row and column clues, checked, and the pictures they fit.

A *clue* lists the lengths of the black blocks of one line, in order (``()`` for an
empty line); the blocks are separated by at least one white cell. A :class:`Puzzle`
holds the clues of its rows (top to bottom) and columns (left to right); its height and
width are their numbers. A *picture* is one string per row, ``"#"`` for black and
``"."`` for white, the form every solver here returns.

**Colour nonograms.** A puzzle may carry a *palette*, a tuple of :class:`Colour` (a
one-character ``char``, a ``name`` and an ``rgb`` triple); every block then has a colour
as well as a length, and two consecutive blocks of *different* colours need no white
cell between them (blocks of the same colour still do). The lengths stay in
:attr:`Puzzle.rows` and :attr:`Puzzle.cols`, so that everything written for black and
white reads a colour puzzle's block lengths unchanged; the colours, one ``char`` per
block, are in :attr:`Puzzle.row_colours` and :attr:`Puzzle.col_colours`, and
:meth:`Puzzle.blocks` gives a line as :class:`Block` pairs ``(length, colour)``. A colour
picture has one character per cell: the colour's ``char``, or ``.`` for white. Build one
with :meth:`Puzzle.from_clues` (blocks as ``(3, "r")``, ``Block(3, "r")`` or ``"3r"``; a
bare int takes the palette's first colour) or :meth:`Puzzle.from_picture`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import index

from excover.errors import ProblemError
from excover.nonogram.cells import BLACK, WHITE, Clue

__all__ = [
    "BLACK",
    "WHITE",
    "Block",
    "Clue",
    "Colour",
    "Puzzle",
    "clue_error",
    "clue_of",
    "coerce_clue",
    "colour_clue_error",
    "colour_clue_of",
    "line_name",
    "palette_of",
]


def clue_of(cells: Iterable[object]) -> Clue:
    """The clue of a line of cells, each black when true (``"#"`` is black; any other
    string, such as ``"."``, is white)."""
    blocks: list[int] = []
    run = 0
    for cell in cells:
        if cell == BLACK if isinstance(cell, str) else bool(cell):
            run += 1
        elif run:
            blocks.append(run)
            run = 0
    if run:
        blocks.append(run)
    return tuple(blocks)


def _runs(cells: str) -> Clue:
    """The clue of a line of ``#`` and ``.`` (:func:`clue_of` for text, by splitting at the
    white cells: checking a picture of a large puzzle is then a small part of reading it)."""
    return tuple(len(run) for run in cells.split(WHITE) if run)


def line_name(line: int, height: int) -> str:
    """``"row 3"`` or ``"column 5"`` (1-based) for line ``line`` of the numbering that
    puts the ``height`` rows first, then the columns."""
    return f"row {line + 1}" if line < height else f"column {line - height + 1}"


def coerce_clue(blocks: object, what: str) -> Clue:
    """``blocks`` as a clue (a tuple of positive ints); ``(0,)`` means an empty line.
    Raises :class:`ProblemError` naming ``what`` (such as ``"row 3"``)."""
    if isinstance(blocks, str | bytes) or not isinstance(blocks, Iterable):
        raise ProblemError(f"{what}: a clue is a list of block lengths, not {blocks!r}")
    given = list(blocks)
    try:
        if bool in set(map(type, given)):  # True is an int, but no block length
            raise TypeError
        clue = tuple(map(index, given))
    except TypeError:
        raise ProblemError(f"{what}: block lengths must be integers, not {given!r}") from None
    if clue == (0,):
        return ()
    if clue and min(clue) < 1:
        raise ProblemError(f"{what}: every block needs at least one cell, not {list(clue)}")
    return clue


def clue_error(clue: Clue, length: int) -> str | None:
    """Why ``clue`` cannot fit a line of ``length`` cells, or None when it can."""
    need = sum(clue) + len(clue) - 1 if clue else 0
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, the line has {length}"
    return None


TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import NamedTuple

    class _Colour(NamedTuple):
        char: str
        name: str
        rgb: tuple[int, int, int]

    class _Block(NamedTuple):
        length: int
        colour: str

else:  # the same named tuples, made without typing
    from collections import namedtuple

    _Colour = namedtuple("_Colour", ["char", "name", "rgb"])
    _Block = namedtuple("_Block", ["length", "colour"])


class Colour(_Colour):
    """One colour of a palette: ``char`` (one character, how pictures and clue texts
    show it), a ``name`` and its ``rgb`` triple (0..255 each)."""

    __slots__ = ()

    @property
    def hex(self) -> str:
        """The colour as ``#rrggbb``."""
        return "#" + "".join(f"{part:02x}" for part in self.rgb)


class Block(_Block):
    """A block of a colour clue: its ``length`` and the ``char`` of its ``colour``."""

    __slots__ = ()


#: Colour names understood without an RGB triple (CSS's basic colours and a few more).
NAMED_COLOURS: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "lime": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
    "pink": (255, 192, 203),
    "brown": (165, 42, 42),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
    "silver": (192, 192, 192),
    "maroon": (128, 0, 0),
    "navy": (0, 0, 128),
    "olive": (128, 128, 0),
    "teal": (0, 128, 128),
    "aqua": (0, 255, 255),
    "cyan": (0, 255, 255),
    "fuchsia": (255, 0, 255),
    "magenta": (255, 0, 255),
}

#: The colours given to letters that a clue uses but no palette declares, in turn.
_AUTO_COLOURS = ("black", "red", "blue", "green", "orange", "purple", "brown", "teal")

#: Characters a colour may not use: white and undecided cells, and what clue texts need.
_RESERVED = frozenset(".?,;|=()[]'\"")

#: The most colours (white aside) a puzzle may have: the compiled solver's cell bit set.
MAX_COLOURS = 31


def _rgb(value: object, what: str) -> tuple[int, int, int]:
    """An RGB triple from a triple of ints, ``#rrggbb``/``rrggbb``/``#rgb``, or a name
    of :data:`NAMED_COLOURS`."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in NAMED_COLOURS:
            return NAMED_COLOURS[text]
        digits = text.removeprefix("#")
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        if len(digits) == 6 and all(d in "0123456789abcdef" for d in digits):
            return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
        raise ProblemError(
            f"{what}: {value!r} is not a colour name ({', '.join(sorted(NAMED_COLOURS))}) "
            "or #rrggbb"
        )
    if isinstance(value, Sequence) and len(value) == 3:
        try:
            parts = tuple(index(part) for part in value)
        except TypeError:
            parts = ()
        if len(parts) == 3 and all(0 <= part <= 255 for part in parts):
            return (parts[0], parts[1], parts[2])
    raise ProblemError(f"{what}: {value!r} is not an RGB triple of ints 0..255")


def _check_char(char: object, what: str) -> str:
    if not isinstance(char, str) or len(char) != 1 or not char.isprintable() or char.isspace():
        raise ProblemError(f"{what}: a colour's char must be one printable character, not {char!r}")
    if char.isdigit() or char in _RESERVED:
        raise ProblemError(
            f"{what}: {char!r} cannot name a colour "
            f"(digits and {''.join(sorted(_RESERVED))} are taken)"
        )
    return char


def auto_colour(char: str, taken: int) -> Colour:
    """The colour given to ``char`` when no palette declares it, the ``taken``-th such."""
    name = _AUTO_COLOURS[taken % len(_AUTO_COLOURS)]
    return Colour(char, char if taken >= len(_AUTO_COLOURS) else name, NAMED_COLOURS[name])


def palette_of(spec: object) -> tuple[Colour, ...]:
    """A palette, checked: from :class:`Colour` values (or ``(char, name, rgb)``
    triples), or a mapping from each ``char`` to a colour name, ``#rrggbb`` or an RGB
    triple (the name is then the given name, or the char). Chars must differ, and be
    neither a digit, white's ``.``, nor ``?``."""
    colours: list[Colour] = []
    if isinstance(spec, Mapping):
        for char, value in spec.items():
            _check_char(char, "the palette")
            name = (
                value.strip()
                if isinstance(value, str) and value.strip().lower() in NAMED_COLOURS
                else char
            )
            rgb = _rgb(value, f"colour {char!r}")
            if name == char:  # given by RGB: named after a known colour of that RGB
                name = next((known for known, v in NAMED_COLOURS.items() if v == rgb), char)
            colours.append(Colour(char, name, rgb))
    elif isinstance(spec, Iterable) and not isinstance(spec, str | bytes):
        for entry in spec:
            if isinstance(entry, str | bytes) or not isinstance(entry, Sequence) or len(entry) != 3:
                raise ProblemError(f"a palette entry is (char, name, rgb), not {entry!r}")
            char, name, rgb = entry
            _check_char(char, "the palette")
            if not isinstance(name, str) or not name.strip():
                raise ProblemError(
                    f"colour {char!r}: a name must be a non-empty string, not {name!r}"
                )
            colours.append(Colour(char, name.strip(), _rgb(rgb, f"colour {char!r}")))
    else:
        raise ProblemError(
            f"a palette is a mapping from chars to colours or a list of Colour, not {spec!r}"
        )
    if not colours:
        raise ProblemError("a palette needs at least one colour")
    seen: set[str] = set()
    for colour in colours:
        if colour.char in seen:
            raise ProblemError(f"the palette gives colour {colour.char!r} twice")
        seen.add(colour.char)
    if len(colours) > MAX_COLOURS:
        raise ProblemError(f"a palette has at most {MAX_COLOURS} colours, not {len(colours)}")
    return tuple(colours)


def colour_clue_of(cells: Iterable[str]) -> tuple[Block, ...]:
    """The colour clue of a line of picture characters (``.`` white, any other
    character a cell of that colour)."""
    blocks: list[Block] = []
    run, current = 0, WHITE
    for cell in cells:
        if cell != current:
            if run and current != WHITE:
                blocks.append(Block(run, current))
            run, current = 0, cell
        run += 1
    if run and current != WHITE:
        blocks.append(Block(run, current))
    return tuple(blocks)


def colour_clue_error(clue: Clue, colours: Sequence[str], length: int) -> str | None:
    """Why the colour clue (lengths ``clue``, colours ``colours``) cannot fit a line of
    ``length`` cells, or None: blocks of one colour side by side need a white cell
    between them, blocks of different colours none."""
    gaps = sum(1 for k in range(1, len(clue)) if colours[k] == colours[k - 1])
    need = sum(clue) + gaps
    if need > length:
        shown = " ".join(f"{block}{colour}" for block, colour in zip(clue, colours, strict=True))
        return f"clue {shown} needs {need} cells, the line has {length}"
    return None


def _coerce_block(block: object, default: str | None, what: str) -> Block:
    """One block of a colour clue: ``(length, char)``, ``"3r"``, or an int (``default``'s
    colour)."""
    if isinstance(block, str):
        text = block.strip()
        digits = len(text) - len(text.lstrip("0123456789"))
        if digits and text[:digits].isascii() and len(text) <= digits + 1:
            colour = text[digits:] or default
            if colour is None:
                raise ProblemError(f"{what}: block {block!r} has no colour and there is no default")
            return Block(int(text[:digits]), colour)
        raise ProblemError(f"{what}: {block!r} is not a block such as '3r' (length, then colour)")
    if isinstance(block, tuple | list) and len(block) == 2:
        length, colour = block
        if isinstance(length, bool) or not isinstance(length, int) or not isinstance(colour, str):
            raise ProblemError(f"{what}: a block is (length, colour char), not {block!r}")
        return Block(length, colour)
    if isinstance(block, int) and not isinstance(block, bool):
        if default is None:
            raise ProblemError(f"{what}: block {block!r} has no colour and there is no default")
        return Block(block, default)
    raise ProblemError(
        f"{what}: a block is (length, colour), 'LENGTHchar' or an int, not {block!r}"
    )


def _coerce_colour_clue(blocks: object, default: str | None, what: str) -> tuple[Block, ...]:
    if isinstance(blocks, str):
        blocks = blocks.replace(",", " ").split()
    if isinstance(blocks, bytes) or not isinstance(blocks, Iterable):
        raise ProblemError(f"{what}: a clue is a list of blocks, not {blocks!r}")
    clue = tuple(
        _coerce_block(block, default, f"{what}, block {k + 1}") for k, block in enumerate(blocks)
    )
    if len(clue) == 1 and clue[0].length == 0:
        return ()
    for k, block in enumerate(clue):
        if block.length < 1:
            raise ProblemError(
                f"{what}, block {k + 1}: a block needs at least one cell, not {block.length}"
            )
    return clue


class Puzzle:
    """A nonogram: the clues of its rows and of its columns (black and white, or with a
    palette, in colour: see the module's notes).

    ``title`` and ``goal`` (the intended picture, when a file gives it) are carried along
    for the file formats. Construction checks that every clue fits its line and that the
    goal fits the clues, raising :class:`~excover.ProblemError` naming the culprit. A
    puzzle that passes may still have no solution: that is for the solvers to say, and
    when its rows and columns ask for different numbers of black cells (or of cells of
    one colour), :attr:`contradiction` says so before any search.

    A colour puzzle has a ``palette`` and the colour of every block in ``row_colours``
    and ``col_colours`` (one tuple of chars per line, aligned with ``rows`` and
    ``cols``); a black-and-white one has None in all three.

    A puzzle is immutable, compared and hashed by its seven fields, and pickled. (A
    plain class, where a frozen dataclass would cost every ``excover nonogram`` run the
    import of ``dataclasses`` and ``inspect``, a quarter of its start-up beyond Python's.)
    """

    __slots__ = ("col_colours", "cols", "goal", "palette", "row_colours", "rows", "title")
    __match_args__ = ("rows", "cols", "title", "goal", "palette", "row_colours", "col_colours")

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str | None
    goal: tuple[str, ...] | None
    palette: tuple[Colour, ...] | None
    row_colours: tuple[tuple[str, ...], ...] | None
    col_colours: tuple[tuple[str, ...], ...] | None

    def __init__(
        self,
        rows: tuple[Clue, ...],
        cols: tuple[Clue, ...],
        title: str | None = None,
        goal: tuple[str, ...] | None = None,
        palette: tuple[Colour, ...] | None = None,
        row_colours: tuple[tuple[str, ...], ...] | None = None,
        col_colours: tuple[tuple[str, ...], ...] | None = None,
    ) -> None:
        for name, value in zip(
            self.__match_args__,
            (rows, cols, title, goal, palette, row_colours, col_colours),
            strict=True,
        ):
            object.__setattr__(self, name, value)
        self._check()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Puzzle)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"Puzzle({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Puzzle is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Puzzle is immutable")

    def __reduce__(self) -> tuple[type[Puzzle], tuple[object, ...]]:
        return (self.__class__, self._fields())

    def _check(self) -> None:
        """Check the fields as given, storing the clues as tuples of ints."""
        for name, kind in (("rows", "row"), ("cols", "column")):
            clues = getattr(self, name)
            if isinstance(clues, str | bytes) or not isinstance(clues, Sequence):
                raise ProblemError(f"the {kind}s must be a list of clues, not {clues!r}")
            checked = tuple(coerce_clue(clue, f"{kind} {k + 1}") for k, clue in enumerate(clues))
            object.__setattr__(self, name, checked)  # tuples of ints >= 1, whatever came in
        if self.title is not None and not isinstance(self.title, str):
            raise ProblemError(f"a title must be a string, not {self.title!r}")
        if not self.rows or not self.cols:
            raise ProblemError("a nonogram needs at least one row and one column")
        if self.palette is None:
            if self.row_colours is not None or self.col_colours is not None:
                raise ProblemError("block colours need a palette")
        else:
            self._check_colours()
        for line, clue in enumerate(self.lines()):
            length = self.width if line < self.height else self.height
            if self.palette is None:
                error = clue_error(clue, length)
            else:
                error = colour_clue_error(clue, self.line_colours(line), length)
            if error is not None:
                raise ProblemError(f"{line_name(line, self.height)}: {error}")
        if self.goal is not None:
            problem = self.mismatch(self.goal)
            if problem is not None:
                raise ProblemError(f"the goal picture does not fit the clues: {problem}")
            object.__setattr__(self, "goal", tuple(self.goal))

    def _check_colours(self) -> None:
        """Check the palette and the block colours, storing them as tuples."""
        palette = palette_of(self.palette)
        object.__setattr__(self, "palette", palette)
        chars = {colour.char for colour in palette}
        for name, kind, clues in (
            ("row_colours", "row", self.rows),
            ("col_colours", "column", self.cols),
        ):
            given = getattr(self, name)
            if given is None or isinstance(given, str) or not isinstance(given, Sequence):
                raise ProblemError(f"a colour puzzle needs {name} (one tuple of chars per {kind})")
            if len(given) != len(clues):
                raise ProblemError(
                    f"{name} has {len(given)} lines, the puzzle {len(clues)} {kind}s"
                )
            lines = []
            for k, (colours, clue) in enumerate(zip(given, clues, strict=True)):
                colours = tuple(colours)
                if len(colours) != len(clue):
                    raise ProblemError(
                        f"{kind} {k + 1}: {len(clue)} blocks but {len(colours)} colours"
                    )
                for j, colour in enumerate(colours):
                    if colour not in chars:
                        raise ProblemError(
                            f"{kind} {k + 1}, block {j + 1}: colour {colour!r} is not in the "
                            f"palette ({''.join(sorted(chars))})"
                        )
                lines.append(colours)
            object.__setattr__(self, name, tuple(lines))

    @classmethod
    def from_clues(
        cls,
        rows: Sequence[Iterable[object]],
        cols: Sequence[Iterable[object]],
        *,
        title: str | None = None,
        palette: object = None,
    ) -> Puzzle:
        """A puzzle from clues given as any sequences of ints (``[0]`` or ``[]`` for an
        empty line), checked as the constructor does.

        For a colour puzzle give blocks as ``(length, char)`` pairs, :class:`Block`
        values or strings such as ``"3r"`` (a whole clue may also be one string,
        ``"3r 2b"``), and the ``palette`` (see :func:`palette_of`); a bare int then takes
        the palette's first colour. Without a palette, the chars the clues use get
        colours of their own (black, red, blue, ... in order of appearance)."""
        for name, clues in (("rows", rows), ("columns", cols)):
            if isinstance(clues, str | bytes) or not isinstance(clues, Sequence):
                raise ProblemError(f"the {name} must be a list of clues, not {clues!r}")
        rows, cols = _listed(rows), _listed(cols)
        if palette is None and not _any_colour(rows, cols):
            return cls(
                tuple(coerce_clue(clue, f"row {r + 1}") for r, clue in enumerate(rows)),
                tuple(coerce_clue(clue, f"column {c + 1}") for c, clue in enumerate(cols)),
                title,
            )
        colours = None if palette is None else palette_of(palette)
        default = None if colours is None else colours[0].char
        row_blocks = [
            _coerce_colour_clue(clue, default, f"row {r + 1}") for r, clue in enumerate(rows)
        ]
        col_blocks = [
            _coerce_colour_clue(clue, default, f"column {c + 1}") for c, clue in enumerate(cols)
        ]
        if colours is None:
            used: dict[str, None] = {}
            for clue in row_blocks + col_blocks:
                for block in clue:
                    used.setdefault(_check_char(block.colour, "a block"), None)
            colours = tuple(auto_colour(char, k) for k, char in enumerate(used))
        return cls.from_blocks(row_blocks, col_blocks, colours, title=title)

    @classmethod
    def from_blocks(
        cls,
        rows: Sequence[Sequence[Block]],
        cols: Sequence[Sequence[Block]],
        palette: object,
        *,
        title: str | None = None,
        goal: Sequence[str] | None = None,
    ) -> Puzzle:
        """A colour puzzle from its clues as :class:`Block` pairs and its palette."""
        return cls(
            tuple(tuple(block[0] for block in clue) for clue in rows),
            tuple(tuple(block[0] for block in clue) for clue in cols),
            title,
            None if goal is None else tuple(goal),
            palette_of(palette),
            tuple(tuple(block[1] for block in clue) for clue in rows),
            tuple(tuple(block[1] for block in clue) for clue in cols),
        )

    @classmethod
    def from_picture(
        cls, picture: Sequence[str], *, title: str | None = None, palette: object = None
    ) -> Puzzle:
        """The puzzle whose answer is ``picture`` (rows of ``"#"`` black and ``"."``
        white), with the picture as its goal. A picture with other characters (or with
        a ``palette``) makes a colour puzzle, one colour per character."""
        if (
            palette is None
            and isinstance(picture, Sequence)
            and not isinstance(picture, str)
            and all(isinstance(row, str) and set(row) <= {BLACK, WHITE} for row in picture)
        ):
            goal = _check_picture(picture, None)
            rows = tuple(clue_of(row) for row in goal)
            cols = tuple(clue_of(row[c] for row in goal) for c in range(len(goal[0])))
            return cls(rows, cols, title, goal)
        colours = None if palette is None else palette_of(palette)
        if colours is None:
            used = sorted({ch for row in picture for ch in row if isinstance(row, str)} - {WHITE})
            if not used:
                used = [BLACK]
            colours = tuple(
                auto_colour(_check_char(ch, "the picture"), k) for k, ch in enumerate(used)
            )
        goal = _check_picture(picture, None, {c.char for c in colours})
        rows_b = [colour_clue_of(row) for row in goal]
        cols_b = [colour_clue_of(row[c] for row in goal) for c in range(len(goal[0]))]
        return cls.from_blocks(rows_b, cols_b, colours, title=title, goal=goal)

    @property
    def is_colour(self) -> bool:
        """Whether the puzzle has a palette (blocks of colours, not only black)."""
        return self.palette is not None

    def line_colours(self, line: int) -> tuple[str, ...]:
        """The colour chars of the blocks of line ``line`` (rows first, then columns);
        all ``#`` in a black-and-white puzzle."""
        if self.palette is None or self.row_colours is None or self.col_colours is None:
            return (BLACK,) * len(self.lines()[line])
        if line < self.height:
            return self.row_colours[line]
        return self.col_colours[line - self.height]

    def blocks(self, line: int) -> tuple[Block, ...]:
        """Line ``line`` (rows first, then columns) as :class:`Block` pairs."""
        clue = self.lines()[line]
        return tuple(Block(*pair) for pair in zip(clue, self.line_colours(line), strict=True))

    @property
    def row_blocks(self) -> tuple[tuple[Block, ...], ...]:
        """The row clues as :class:`Block` pairs."""
        return tuple(self.blocks(r) for r in range(self.height))

    @property
    def col_blocks(self) -> tuple[tuple[Block, ...], ...]:
        """The column clues as :class:`Block` pairs."""
        return tuple(self.blocks(self.height + c) for c in range(self.width))

    def colour(self, char: str) -> Colour:
        """The palette's colour of ``char`` (black for ``#`` in a black-and-white
        puzzle, white for ``.``)."""
        if char == WHITE:
            return Colour(WHITE, "white", (255, 255, 255))
        for colour in self.palette or (Colour(BLACK, "black", (0, 0, 0)),):
            if colour.char == char:
                return colour
        raise ProblemError(f"{char!r} is not a colour of this puzzle")

    @property
    def contradiction(self) -> str | None:
        """Why the puzzle has no solution, when its clues alone show it (the rows and the
        columns ask for different numbers of black cells, or of cells of one colour),
        else None."""
        if self.palette is not None:
            for colour in self.palette:
                by_rows = sum(
                    length
                    for r, clue in enumerate(self.rows)
                    for length, char in zip(clue, self.line_colours(r), strict=True)
                    if char == colour.char
                )
                by_cols = sum(
                    length
                    for c, clue in enumerate(self.cols)
                    for length, char in zip(clue, self.line_colours(self.height + c), strict=True)
                    if char == colour.char
                )
                if by_rows != by_cols:
                    return (
                        f"the row clues ask for {by_rows} {colour.name} cells, "
                        f"the column clues {by_cols}"
                    )
            return None
        row_cells = sum(map(sum, self.rows))
        col_cells = sum(map(sum, self.cols))
        if row_cells != col_cells:
            return f"the row clues ask for {row_cells} black cells, the column clues {col_cells}"
        return None

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.cols)

    def lines(self) -> tuple[Clue, ...]:
        """Every clue, the rows' then the columns' (the numbering of :func:`line_name`)."""
        return self.rows + self.cols

    def mismatch(self, picture: Sequence[str]) -> str | None:
        """Why ``picture`` is not a solution (the first line whose clue it breaks, or a
        wrong shape), or None when it solves the puzzle."""
        allowed = None if self.palette is None else {colour.char for colour in self.palette}
        try:
            rows = _check_picture(picture, (self.height, self.width), allowed)
        except ProblemError as error:
            return str(error)
        if self.palette is not None:
            for line in range(self.height + self.width):
                if line < self.height:
                    cells: Iterable[str] = rows[line]
                else:
                    cells = (row[line - self.height] for row in rows)
                found = colour_clue_of(cells)
                if found != self.blocks(line):
                    return (
                        f"{line_name(line, self.height)} reads {_shown(found)}, "
                        f"its clue is {_shown(self.blocks(line))}"
                    )
            return None
        for r, clue in enumerate(self.rows):
            if _runs(rows[r]) != clue:
                return f"row {r + 1} reads {list(_runs(rows[r]))}, its clue is {list(clue)}"
        for c, column in enumerate(map("".join, zip(*rows, strict=True))):
            if _runs(column) != self.cols[c]:
                return (
                    f"column {c + 1} reads {list(_runs(column))}, its clue is {list(self.cols[c])}"
                )
        return None

    def is_solution(self, picture: Sequence[str]) -> bool:
        """Whether ``picture`` satisfies every clue."""
        return self.mismatch(picture) is None

    def _repr_svg_(self) -> str:
        """The puzzle as SVG for Jupyter: clues in the margins, the goal when known."""
        from excover.nonogram.draw import svg_grid

        return svg_grid(self, self.goal)


def _shown(blocks: Sequence[Block]) -> str:
    """A colour clue as text: ``3r 2b``, or ``0`` when empty."""
    return " ".join(f"{length}{colour}" for length, colour in blocks) or "0"


def _listed(clues: Sequence[Iterable[object]]) -> list[Iterable[object]]:
    """The clues, each one-shot iterable among them made a list (read twice here)."""
    return [
        clue
        if isinstance(clue, str | bytes | Sequence) or not isinstance(clue, Iterable)
        else list(clue)
        for clue in clues
    ]


def _any_colour(rows: Sequence[object], cols: Sequence[object]) -> bool:
    """Whether some clue is written as a colour clue: a string such as ``"3r 2b"``, or a
    block such as ``"3r"`` or ``(3, "r")``."""

    def colour_block(block: object) -> bool:
        if isinstance(block, str):
            return block[:1].isdigit()
        return isinstance(block, tuple | list) and len(block) == 2 and isinstance(block[1], str)

    for clue in (*rows, *cols):
        if isinstance(clue, str):
            if clue[:1].isdigit():
                return True
        elif isinstance(clue, Sequence) and any(colour_block(block) for block in clue):
            return True
    return False


def _check_picture(
    picture: object, shape: tuple[int, int] | None, colours: set[str] | None = None
) -> tuple[str, ...]:
    """``picture`` as a tuple of rows of ``#`` and ``.`` (or of ``.`` and the chars
    ``colours``), checked to be a rectangle (of ``shape`` = (height, width) when given)."""
    if isinstance(picture, str) or not isinstance(picture, Sequence):
        raise ProblemError(f"a picture is a list of rows, not {picture!r}")
    rows = tuple(picture)
    if not rows or not all(isinstance(row, str) and row for row in rows):
        raise ProblemError("a picture needs at least one non-empty row of text")
    for r, row in enumerate(rows):
        bad = set(row) - ({BLACK, WHITE} if colours is None else colours | {WHITE})
        if bad:
            expected = "'#' or '.'" if colours is None else "'.' or a colour of the palette"
            raise ProblemError(f"picture row {r + 1}: {sorted(bad)[0]!r} is not {expected}")
        if len(row) != len(rows[0]):
            raise ProblemError(f"picture row {r + 1} has {len(row)} cells, row 1 {len(rows[0])}")
    if shape is not None and (len(rows), len(rows[0])) != shape:
        raise ProblemError(
            f"the picture is {len(rows)}x{len(rows[0])}, the puzzle {shape[0]}x{shape[1]}"
        )
    return rows
