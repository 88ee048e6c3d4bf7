"""A puzzle designed in excover, as a BurrTools puzzle: patterns in, :class:`BurrPuzzle` out.

``design(result, pieces)`` takes the result and the pieces as excover patterns
(:class:`~excover.tiling.Pattern3`, or a square-grid :class:`~excover.tiling.Pattern`,
which becomes one layer of cubes as BurrTools stores square-grid puzzles) and makes a
one-problem puzzle that :func:`~excover.burr.xmpuzzle.write_xmpuzzle` writes and
BurrTools opens::

    puzzle = design(Pattern3.constant(3, 3, 3, True), soma_pieces(), name="Soma")
    write_xmpuzzle(puzzle, "soma.xmpuzzle")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from excover.burr.xmpuzzle.model import BurrProblem, BurrPuzzle, BurrShape, Part, Voxel
from excover.errors import UsageError

__all__ = ["design"]


class Cells(Protocol):
    """A pattern of the square or cubic grid: its cells as coordinate tuples."""

    @property
    def cells(self) -> Sequence[tuple[int, ...]]: ...


#: A piece: a pattern (used once), or a pattern with a count, or with ``lo`` and ``hi``.
Piece = Cells | tuple[Cells, int] | tuple[Cells, int, int]


def _voxels(pattern: Cells, what: str) -> set[Voxel]:
    cells = [tuple(int(v) for v in cell) for cell in pattern.cells]
    if any(len(cell) not in (2, 3) for cell in cells):
        raise UsageError(f"{what}: cells of 2 or 3 coordinates (a Pattern or Pattern3) only")
    voxels = {(c[0], c[1], c[2] if len(c) == 3 else 0) for c in cells}
    if any(v < 0 for voxel in voxels for v in voxel):
        raise UsageError(f"{what}: negative coordinates")
    return voxels


def _part(number: int, piece: Piece, name: str) -> tuple[BurrShape, Part]:
    pattern, lo, hi = (piece, 1, 1) if not isinstance(piece, tuple) else (*piece, piece[-1])[:3]
    if not isinstance(lo, int) or not isinstance(hi, int) or not 0 <= lo <= hi:
        raise UsageError(f"piece {name!r}: counts must be 0 <= lo <= hi, not {lo}, {hi}")
    voxels = _voxels(pattern, f"piece {name!r}")
    return BurrShape.from_voxels(voxels, name=name), Part(number, lo, hi)


def design(
    result: Cells,
    pieces: Mapping[str, Piece],
    *,
    variable: Cells | None = None,
    name: str = "",
) -> BurrPuzzle:
    """A puzzle of one problem: ``pieces`` (by name: a pattern, ``(pattern, count)`` or
    ``(pattern, lo, hi)``) to assemble into ``result``, whose cells are filled voxels;
    ``variable``'s cells are added as variable voxels (they may stay empty)."""
    shapes: list[BurrShape] = []
    parts: list[Part] = []
    for number, (piece_name, piece) in enumerate(pieces.items()):
        shape, part = _part(number, piece, piece_name)
        shapes.append(shape)
        parts.append(part)
    optional = set() if variable is None else _voxels(variable, "variable")
    filled = _voxels(result, "result") - optional
    shapes.append(BurrShape.from_voxels(filled, optional, name=name or "result"))
    problem = BurrProblem(tuple(parts), len(shapes) - 1, name)
    return BurrPuzzle(tuple(shapes), (problem,))
