"""The assemblies of a BurrTools problem, as pieces placed in the result.

An :class:`Assembly` is what the disassembler starts from: each piece's filled voxels
where the assembly puts them, the piece's shape (its number in the puzzle, for names and
groups) and its weight. Pieces are numbered as BurrTools numbers them: the problem's
shapes in their order, the copies of one shape one after another (here ordered by their
lowest voxel), unplaced copies of a ranged shape left out.

:func:`assemblies` finds the assemblies the way ``excover count FILE.xmpuzzle`` counts
them (:meth:`ExactCover.from_burrtools <excover.ExactCover.from_burrtools>`, one
assembly per orbit under the result's symmetries, as BurrTools counts them), and
:func:`assembly_of` decodes one solution of that exact cover problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from excover.errors import UsageError
from excover.formats.burrtools import Puzzle
from excover.formats.burrtools.cover import kind_name
from excover.solving import ExactCover

__all__ = ["Assembly", "Piece", "assemblies", "assembly_of", "cover_of"]

#: A voxel position.
Voxel = tuple[int, int, int]


@dataclass(frozen=True)
class Piece:
    """One piece of an assembly: the shape it is a copy of (its number in the puzzle),
    the problem's part it belongs to (its index in the problem's ``<shapes>``), its
    weight and its filled voxels in the assembled position."""

    shape: int
    part: int
    weight: int
    voxels: tuple[Voxel, ...]


@dataclass(frozen=True)
class Assembly:
    """The pieces of one assembly, numbered as BurrTools numbers them, and the groups
    of the problem's parts: ``groups[part]`` is that part's ``(group, count)`` pairs
    (group 0: none), BurrTools' pieces that may stay together. ``options`` are the
    options of the exact cover solution it was decoded from (empty when built by hand);
    ``grid`` is BurrTools' grid number (0 cubes, 1 triangular prisms), which gives the
    directions of the moves."""

    pieces: tuple[Piece, ...]
    groups: tuple[tuple[tuple[int, int], ...], ...] = ()
    options: tuple[int, ...] = ()
    grid: int = 0

    @classmethod
    def of_voxels(cls, pieces: Sequence[Sequence[Voxel]], grid: int = 0) -> Assembly:
        """An assembly of the given voxel sets, each its own shape, without groups (for
        designs made in Python and for tests), on BurrTools' grid ``grid``."""
        return cls(
            tuple(
                Piece(k, k, 1, tuple(sorted(tuple(int(c) for c in v) for v in voxels)))  # type: ignore[misc]
                for k, voxels in enumerate(pieces)
            ),
            grid=grid,
        )


def cover_of(puzzle: Puzzle, problem: int) -> ExactCover:
    """The exact cover problem of ``problem`` whose solutions are the assemblies."""
    return ExactCover.from_burrtools(puzzle, problem)


def _cells(cover: ExactCover) -> dict[str, Voxel]:
    """The voxel of each item of ``cover`` naming one (``x,y,z``)."""
    found = {}
    for name in cover.items:
        parts = name.split(",")
        if len(parts) == 3 and all(p.lstrip("-").isdigit() for p in parts):
            found[name] = (int(parts[0]), int(parts[1]), int(parts[2]))
    return found


def assembly_of(
    puzzle: Puzzle,
    problem: int,
    cover: ExactCover,
    options: Sequence[int],
    cells: dict[str, Voxel] | None = None,
) -> Assembly:
    """The assembly of one solution (``options``) of ``cover`` (made by :func:`cover_of`;
    ``cells``: its voxel items by name, when already known)."""
    spec = puzzle.problems[problem]
    kinds = {kind_name(puzzle, part.shape): k for k, part in enumerate(spec.parts) if part.hi > 0}
    cells = _cells(cover) if cells is None else cells
    placed: list[tuple[int, Voxel, tuple[Voxel, ...]]] = []
    for option in options:
        names = cover.option_items(option)
        part = next((kinds[name] for name in names if name in kinds), None)
        if part is None:  # a hole of a problem with maxHoles
            continue
        voxels = tuple(sorted(cells[name] for name in names if name in cells))
        placed.append((part, voxels[0], voxels))
    placed.sort()
    pieces = tuple(
        Piece(
            spec.parts[part].shape,
            part,
            puzzle.shapes[spec.parts[part].shape].weight,
            cells,
        )
        for part, _, cells in placed
    )
    return Assembly(
        pieces,
        tuple(part.groups for part in spec.parts),
        tuple(sorted(options)),
        puzzle.grid,
    )


def assemblies(puzzle: Puzzle, problem: int = 0) -> Iterator[Assembly]:
    """Every assembly of problem ``problem`` of the puzzle, one per symmetry orbit."""
    if not 0 <= problem < len(puzzle.problems):
        raise UsageError(f"{puzzle.source}: no problem {problem}")
    cover = cover_of(puzzle, problem)
    cells = _cells(cover)
    smallest = _smallest_of_orbit(cover)
    for solution in cover.solutions(up_to_symmetry=True):
        yield assembly_of(puzzle, problem, cover, smallest(solution), cells)


def _smallest_of_orbit(cover: ExactCover) -> Callable[[Sequence[int]], list[int]]:
    """The member of a solution's orbit under the result's symmetries whose sorted list of
    options is the smallest: the copy that stands for its class (docs/burr.md, "Which
    assembly of a symmetry class"), whichever member the symmetry-broken listing met
    first. The groups of BurrTools' grids have at most 48 elements, so they are listed."""
    elements = [g.tolist() for g in cover.symmetries().option_elements()]

    def smallest(solution: Sequence[int]) -> list[int]:
        return min(sorted(g[option] for option in solution) for g in elements)

    return smallest
