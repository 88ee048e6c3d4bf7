"""The model of a BurrTools puzzle: its grid, shapes, colours and problems.

BurrTools (burr-tools.sourceforge.net) keeps a *puzzle* as a list of *shapes* (voxel
spaces) and a list of *problems*. A problem names some shapes as pieces, each with a
count (or a ``min``..``max`` range: how many copies of that shape are used), and one
shape as the *result* to assemble. A voxel is empty, filled, or *variable* (a result
voxel that may stay empty), and may carry a colour: a colour constraint of the problem
(``<bitmap>`` pairs) says which piece colours may go on which result colours.

Voxels are stored x fastest, then y, then z, as in BurrTools' files: the voxel at
``(x, y, z)`` is number ``x + X * (y + Y * z)`` of a shape of size ``X x Y x Z``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CUBE_GRID",
    "EMPTY",
    "FILLED",
    "GRID_NAMES",
    "REMOVED",
    "VARIABLE",
    "BurrProblem",
    "BurrPuzzle",
    "BurrShape",
    "Deferred",
    "Part",
    "Placement",
    "Solution",
    "StoredSeparation",
    "Voxel",
]

EMPTY = "_"
FILLED = "#"
VARIABLE = "+"

#: BurrTools' grid types by number (``<gridType type="N"/>``); only the cube grid (0)
#: is read into exact cover problems (square-grid puzzles are one-layer cube puzzles).
GRID_NAMES = {
    0: "cubes (bricks)",
    1: "triangular prisms",
    2: "spheres",
    3: "rhombic dodecahedra",
    4: "tetrahedra-octahedra",
}
CUBE_GRID = 0

#: A voxel position ``(x, y, z)``.
Voxel = tuple[int, int, int]
#: Where a stored assembly puts a piece: its hotspot's position and BurrTools'
#: transformation number, ``(x, y, z, t)`` (see :mod:`excover.burr.xmpuzzle.placements`).
Placement = tuple[int, int, int, int]
#: How far BurrTools puts a piece taken out, in the last state of a separation: this
#: many units along the direction of the move (a coordinate beyond 10,000 marks it).
REMOVED = 20_000


@dataclass(frozen=True)
class BurrShape:
    """A voxel space: its size, a state per voxel (``#``, ``+`` or ``_``) and a colour
    per voxel (0: no colour), plus what BurrTools keeps beside them (name, weight,
    hotspot) so that writing the shape back loses nothing."""

    size: tuple[int, int, int]
    states: str
    colors: tuple[int, ...] = ()
    name: str = ""
    weight: int = 1
    hotspot: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self) -> None:
        if not self.colors:
            object.__setattr__(self, "colors", (0,) * len(self.states))

    @classmethod
    def from_voxels(
        cls,
        filled: set[Voxel] | frozenset[Voxel],
        variable: set[Voxel] | frozenset[Voxel] = frozenset(),
        name: str = "",
    ) -> BurrShape:
        """The smallest shape holding the ``filled`` and ``variable`` voxels (at
        non-negative coordinates, kept where they are), without colours."""
        every = set(filled) | set(variable)
        size = tuple(max((v[axis] for v in every), default=0) + 1 for axis in range(3))
        sx, sy, sz = size
        states = [EMPTY] * (sx * sy * sz)
        for voxel in every:
            x, y, z = voxel
            states[x + sx * (y + sy * z)] = FILLED if voxel in filled else VARIABLE
        return cls((sx, sy, sz), "".join(states), name=name)

    def voxels(self) -> Iterator[tuple[Voxel, str, int]]:
        """Every non-empty voxel: its position, state and colour."""
        sx, sy, _ = self.size
        for index, state in enumerate(self.states):
            if state != EMPTY:
                x, rest = index % sx, index // sx
                yield (x, rest % sy, rest // sy), state, self.colors[index]

    def cells(self, state: str) -> list[Voxel]:
        """The positions of the voxels in ``state``."""
        return [voxel for voxel, s, _ in self.voxels() if s == state]

    def colored(self) -> dict[Voxel, tuple[str, int]]:
        """The non-empty voxels, each with its state and colour."""
        return {voxel: (state, color) for voxel, state, color in self.voxels()}

    def text(self) -> str:
        """The voxels as BurrTools writes them: a state character per voxel, followed by
        its colour number when it has one."""
        return "".join(
            state + (str(color) if color and state != EMPTY else "")
            for state, color in zip(self.states, self.colors, strict=True)
        )

    def label(self, number: int) -> str:
        """How messages name this shape: its number from 0, and its name if it has one."""
        return f"shape {number}" + (f" ({self.name!r})" if self.name else "")


@dataclass(frozen=True)
class Part:
    """A piece of a problem: a shape used between ``lo`` and ``hi`` times; ``groups``
    are BurrTools' disassembly groups, ``(group, count)`` pairs, kept for writing."""

    shape: int
    lo: int = 1
    hi: int = 1
    groups: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class StoredSeparation:
    """A separation as BurrTools stores it (``<separation>``): the ``pieces`` of the part
    (numbers in the assembly, unplaced copies counted), the position of each piece's
    hotspot in each state (``states[k][i]``: piece ``pieces[i]`` after ``k`` moves; in
    the last state the pieces taken out are :data:`REMOVED` units away along the move),
    and the separations of the part ``left`` and the part ``removed`` (None: a single
    piece, or a group left together). ``line`` is where the file has it."""

    pieces: tuple[int, ...]
    states: tuple[tuple[Voxel, ...], ...]
    left: StoredSeparation | None = None
    removed: StoredSeparation | None = None
    line: int = field(default=0, compare=False)


class Deferred:
    """A stored separation not read yet: ``read()`` reads it (the reader of a file
    leaves the ``<separation>`` trees, most of a solved file's elements, until a
    solution's ``separation`` is first asked for; disassembling never asks)."""

    def __init__(self, read: Callable[[], StoredSeparation]) -> None:
        self.read = read


class _SeparationField:
    """The ``separation`` of a :class:`Solution`: a :class:`StoredSeparation`, None, or
    a :class:`Deferred` one, read (and kept) the first time it is asked for."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, solution: Any, owner: type | None = None) -> StoredSeparation | None:
        if solution is None:  # the dataclass asks the class for the field's default
            return None
        value = solution.__dict__[self.slot]
        if isinstance(value, Deferred):
            value = solution.__dict__[self.slot] = value.read()
        result: StoredSeparation | None = value
        return result

    def __set__(self, solution: Any, value: StoredSeparation | Deferred | None) -> None:
        solution.__dict__[self.slot] = value


@dataclass(frozen=True)
class Solution:
    """A solution stored in a problem (``<solution>``): the ``placements`` of its
    assembly (one a piece, None for an unplaced copy), its ``separation`` if stored
    (given as a :class:`Deferred` one, it is read when first asked for), else
    BurrTools' ``<separationInfo>`` (the moves of each separation plus one, in
    pre-order, 0 for no separation) when present; ``assembly_number`` and
    ``solution_number`` are BurrTools' ``asmNum`` and ``solNum``."""

    placements: tuple[Placement | None, ...]
    separation: _SeparationField = _SeparationField()
    info: tuple[int, ...] = ()
    assembly_number: int | None = None
    solution_number: int | None = None
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class BurrProblem:
    """A problem: the pieces, the result shape, colour constraints and, once BurrTools
    solved it (``state`` 2; 1 means interrupted), the number of assemblies it found,
    and the solutions stored with it (``stored``)."""

    parts: tuple[Part, ...]
    result: int
    name: str = ""
    color_pairs: frozenset[tuple[int, int]] = frozenset()
    max_holes: int | None = None
    state: int = 0
    assemblies: int | None = None
    solutions: int | None = None
    time: int | None = None
    stored: tuple[Solution, ...] = ()

    def label(self, number: int) -> str:
        """How messages name this problem: its number from 0, and its name if any."""
        return f"problem {number}" + (f" ({self.name!r})" if self.name else "")


@dataclass(frozen=True)
class BurrPuzzle:
    """A whole ``.xmpuzzle`` file: grid type, colours (RGB), shapes, problems, comment."""

    shapes: tuple[BurrShape, ...]
    problems: tuple[BurrProblem, ...] = ()
    grid: int = CUBE_GRID
    colors: tuple[tuple[int, int, int], ...] = ()
    comment: str = ""
    comment_popup: bool = False
    #: Where the puzzle was read from, for messages.
    source: str = field(default="<puzzle>", compare=False)

    @property
    def grid_name(self) -> str:
        """The grid type in words."""
        return GRID_NAMES.get(self.grid, f"unknown grid type {self.grid}")
