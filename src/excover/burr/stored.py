"""Disassemblies as BurrTools stores them: solutions with their separations, to save in
an ``.xmpuzzle`` file that BurrTools opens and animates.

A stored solution numbers the pieces as BurrTools does (every copy of a ranged shape
counted, placed or not), gives each placed piece a placement (its hotspot's position and
BurrTools' transformation number: :mod:`excover.formats.burrtools.placements`) and, for
each separation, the pieces of the part and every state: the position of each piece's
hotspot, the start first, one state a move, the pieces taken out by the last move put
:data:`~excover.formats.burrtools.model.REMOVED` units away along it; then the
separations of the part removed and of the part left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from excover.burr.assembly import Assembly
from excover.burr.disassembly import Disassembly, Separation
from excover.errors import UsageError
from excover.formats.burrtools import Puzzle
from excover.formats.burrtools.model import REMOVED, Placement, Solution, StoredSeparation, Voxel
from excover.formats.burrtools.placements import placement_of

__all__ = ["placements", "solved_puzzle", "stored_solution"]


def placements(
    puzzle: Puzzle, problem: int, assembly: Assembly
) -> tuple[list[int], tuple[Placement | None, ...]]:
    """BurrTools' number of each piece of ``assembly``, and the placement of every piece
    of the problem (None for the copies left out), in BurrTools' numbering."""
    parts = puzzle.problems[problem].parts
    first = [sum(part.hi for part in parts[:k]) for k in range(len(parts))]
    found: list[Placement | None] = [None] * sum(part.hi for part in parts)
    used = [0] * len(parts)
    numbers = []
    for k, piece in enumerate(assembly.pieces):
        number = first[piece.part] + used[piece.part]
        used[piece.part] += 1
        where = placement_of(puzzle.shapes[piece.shape], puzzle.grid, piece.voxels)
        if where is None:
            raise UsageError(f"piece {k} of the assembly is no rotation of its shape")
        numbers.append(number)
        found[number] = where
    return numbers, tuple(found)


def _separation(
    tree: Separation, numbers: Sequence[int], origin: Sequence[Placement | None]
) -> StoredSeparation:
    """A separation tree as BurrTools stores it (see the module's text)."""

    def position(piece: int, t: Voxel) -> Voxel:
        where = origin[numbers[piece]]
        assert where is not None
        return (where[0] + t[0], where[1] + t[1], where[2] + t[2])

    states = [
        tuple(position(p, t) for p, t in zip(tree.pieces, state, strict=True))
        for state in tree.states()
    ]
    out = tree.moves[-1]
    gone = set(out.pieces)
    last = tuple(
        (
            w[0] + REMOVED * out.vector[0],
            w[1] + REMOVED * out.vector[1],
            w[2] + REMOVED * out.vector[2],
        )
        if p in gone
        else w
        for p, w in zip(tree.pieces, states[-1], strict=True)
    )
    return StoredSeparation(
        tuple(numbers[p] for p in tree.pieces),
        (*states, last),
        None if tree.left is None else _separation(tree.left, numbers, origin),
        None if tree.removed is None else _separation(tree.removed, numbers, origin),
    )


def stored_solution(
    puzzle: Puzzle,
    problem: int,
    result: Disassembly,
    assembly_number: int | None = None,
    solution_number: int | None = None,
) -> Solution:
    """The solution ``result`` (an assembly of ``problem`` that comes apart) as
    BurrTools stores it."""
    if result.tree is None:
        raise UsageError("only an assembly that comes apart is stored as a solution")
    numbers, where = placements(puzzle, problem, result.assembly)
    tree = _separation(result.tree, numbers, where)
    return Solution(where, tree, (), assembly_number, solution_number)


def solved_puzzle(
    puzzle: Puzzle, problem: int, results: Sequence[Disassembly], complete: bool = True
) -> Puzzle:
    """The puzzle with problem ``problem`` solved: its assemblies and solutions counted,
    the solutions (those of ``results`` that come apart, sorted by level as BurrTools
    sorts them) stored with their separations. ``complete`` False marks the problem as
    interrupted (BurrTools' state 1)."""
    solved = [(k, r) for k, r in enumerate(results) if r.status == "solved"]
    numbered = {k: n for n, (k, _) in enumerate(solved)}
    solved.sort(key=lambda pair: pair[1].sort_key())
    stored = tuple(stored_solution(puzzle, problem, result, k, numbered[k]) for k, result in solved)
    spec = replace(
        puzzle.problems[problem],
        state=2 if complete else 1,
        assemblies=len(results),
        solutions=len(stored),
        time=0,
        stored=stored,
    )
    problems = list(puzzle.problems)
    problems[problem] = spec
    return replace(puzzle, problems=tuple(problems))
