"""The nonogram model: a grid's row and column clues, checked, and the pictures they fit.

A *clue* lists the lengths of the black blocks of one line, in order (``()`` for an
empty line); the blocks are separated by at least one white cell. A :class:`Puzzle`
holds the clues of its rows (top to bottom) and columns (left to right); its height and
width are their numbers. A *picture* is one string per row, ``"#"`` for black and
``"."`` for white, the form every solver here returns.

Coloured nonograms would add a palette and a colour to every block (adjacent blocks of
different colours need no white cell between them); the clue of a line would then be a
tuple of ``(length, colour)`` pairs. The compiled core already stores a cell as the set
of values it may still take (one bit per colour, white included), so only the clue type
and the line solver would grow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import index

from excover.errors import ProblemError

__all__ = [
    "BLACK",
    "WHITE",
    "Clue",
    "Puzzle",
    "clue_error",
    "clue_of",
    "coerce_clue",
    "line_name",
]

#: A clue: the lengths of a line's black blocks, in order.
Clue = tuple[int, ...]

#: How pictures show a black and a white cell.
BLACK = "#"
WHITE = "."


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
        if any(isinstance(block, bool) for block in given):
            raise TypeError
        clue = tuple(index(block) for block in given)
    except TypeError:
        raise ProblemError(f"{what}: block lengths must be integers, not {given!r}") from None
    if clue == (0,):
        return ()
    if any(block < 1 for block in clue):
        raise ProblemError(f"{what}: every block needs at least one cell, not {list(clue)}")
    return clue


def clue_error(clue: Clue, length: int) -> str | None:
    """Why ``clue`` cannot fit a line of ``length`` cells, or None when it can."""
    need = sum(clue) + len(clue) - 1 if clue else 0
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, the line has {length}"
    return None


class Puzzle:
    """A black-and-white nonogram: the clues of its rows and of its columns.

    ``title`` and ``goal`` (the intended picture, when a file gives it) are carried along
    for the file formats. Construction checks that every clue fits its line and that the
    goal fits the clues, raising :class:`~excover.ProblemError` naming the culprit. A
    puzzle that passes may still have no solution: that is for the solvers to say, and
    when its rows and columns ask for different numbers of black cells,
    :attr:`contradiction` says so before any search.

    A puzzle is immutable, compared and hashed by its four fields. (A plain class, where
    a frozen dataclass would cost every ``excover nonogram`` run the import of
    ``dataclasses`` and ``inspect``, a sixth of its start-up.)
    """

    __slots__ = ("cols", "goal", "rows", "title")

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str | None
    goal: tuple[str, ...] | None

    def __init__(
        self,
        rows: tuple[Clue, ...],
        cols: tuple[Clue, ...],
        title: str | None = None,
        goal: tuple[str, ...] | None = None,
    ) -> None:
        for name, value in (("rows", rows), ("cols", cols), ("title", title), ("goal", goal)):
            object.__setattr__(self, name, value)
        self.__post_init__()

    def _fields(self) -> tuple[object, ...]:
        return (self.rows, self.cols, self.title, self.goal)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Puzzle)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Puzzle(rows={self.rows!r}, cols={self.cols!r}, title={self.title!r}, "
            f"goal={self.goal!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Puzzle is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Puzzle is immutable")

    def __reduce__(self) -> tuple[type[Puzzle], tuple[object, ...]]:
        return (self.__class__, self._fields())

    def __post_init__(self) -> None:
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
        for line, clue in enumerate(self.lines()):
            length = self.width if line < self.height else self.height
            error = clue_error(clue, length)
            if error is not None:
                raise ProblemError(f"{line_name(line, self.height)}: {error}")
        if self.goal is not None:
            problem = self.mismatch(self.goal)
            if problem is not None:
                raise ProblemError(f"the goal picture does not fit the clues: {problem}")
            object.__setattr__(self, "goal", tuple(self.goal))

    @classmethod
    def from_clues(
        cls,
        rows: Sequence[Iterable[int]],
        cols: Sequence[Iterable[int]],
        *,
        title: str | None = None,
    ) -> Puzzle:
        """A puzzle from clues given as any sequences of ints (``[0]`` or ``[]`` for an
        empty line), checked as the constructor does."""
        for name, clues in (("rows", rows), ("columns", cols)):
            if isinstance(clues, str | bytes) or not isinstance(clues, Sequence):
                raise ProblemError(f"the {name} must be a list of clues, not {clues!r}")
        return cls(
            tuple(coerce_clue(clue, f"row {r + 1}") for r, clue in enumerate(rows)),
            tuple(coerce_clue(clue, f"column {c + 1}") for c, clue in enumerate(cols)),
            title,
        )

    @classmethod
    def from_picture(cls, picture: Sequence[str], *, title: str | None = None) -> Puzzle:
        """The puzzle whose answer is ``picture`` (rows of ``"#"`` black and ``"."``
        white), with the picture as its goal."""
        goal = _check_picture(picture, None)
        rows = tuple(clue_of(row) for row in goal)
        cols = tuple(clue_of(row[c] for row in goal) for c in range(len(goal[0])))
        return cls(rows, cols, title, goal)

    @property
    def contradiction(self) -> str | None:
        """Why the puzzle has no solution, when its clues alone show it (the rows and the
        columns ask for different numbers of black cells), else None."""
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
        try:
            rows = _check_picture(picture, (self.height, self.width))
        except ProblemError as error:
            return str(error)
        for r, clue in enumerate(self.rows):
            if clue_of(rows[r]) != clue:
                return f"row {r + 1} reads {list(clue_of(rows[r]))}, its clue is {list(clue)}"
        for c, clue in enumerate(self.cols):
            found = clue_of(row[c] for row in rows)
            if found != clue:
                return f"column {c + 1} reads {list(found)}, its clue is {list(clue)}"
        return None

    def is_solution(self, picture: Sequence[str]) -> bool:
        """Whether ``picture`` satisfies every clue."""
        return self.mismatch(picture) is None

    def _repr_svg_(self) -> str:
        """The puzzle as SVG for Jupyter: clues in the margins, the goal when known."""
        from excover.puzzles.nonogram_draw import svg_grid

        return svg_grid(self, self.goal)


def _check_picture(picture: object, shape: tuple[int, int] | None) -> tuple[str, ...]:
    """``picture`` as a tuple of rows of ``#`` and ``.``, checked to be a rectangle (of
    ``shape`` = (height, width) when given)."""
    if isinstance(picture, str) or not isinstance(picture, Sequence):
        raise ProblemError(f"a picture is a list of rows, not {picture!r}")
    rows = tuple(picture)
    if not rows or not all(isinstance(row, str) and row for row in rows):
        raise ProblemError("a picture needs at least one non-empty row of text")
    for r, row in enumerate(rows):
        bad = set(row) - {BLACK, WHITE}
        if bad:
            raise ProblemError(f"picture row {r + 1}: {sorted(bad)[0]!r} is not '#' or '.'")
        if len(row) != len(rows[0]):
            raise ProblemError(f"picture row {r + 1} has {len(row)} cells, row 1 {len(rows[0])}")
    if shape is not None and (len(rows), len(rows[0])) != shape:
        raise ProblemError(
            f"the picture is {len(rows)}x{len(rows[0])}, the puzzle {shape[0]}x{shape[1]}"
        )
    return rows
