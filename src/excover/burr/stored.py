"""Disassemblies as BurrTools stores them: solutions with their separations, to save in
an ``.xmpuzzle`` file that BurrTools opens and animates.

A stored solution numbers the pieces as BurrTools does (every copy of a ranged shape
counted, placed or not), gives each placed piece a placement (its hotspot's position and
BurrTools' transformation number: :mod:`excover.burr.xmpuzzle.placements`) and, for
each separation, the pieces of the part and every state: the position of each piece's
hotspot, the start first, one state a move, the pieces taken out by the last move put
:data:`~excover.burr.xmpuzzle.model.REMOVED` units away along it; then the
separations of the part removed and of the part left.

Each stored separation is made when the file is written (a
:class:`~excover.burr.xmpuzzle.model.Deferred` one, made from the disassembly's
compact tree and not kept), so that a file of many solutions is formatted one solution
at a time. As BurrTools does (its "Limit" of solutions kept, 100 by default, the
hardest kept), :func:`solved_puzzle` may store only the ``keep`` hardest solutions,
the problem still counting them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

from excover.burr.assembly import Assembly
from excover.burr.disassembly import (
    DIRECTIONS,
    Disassembly,
    PackedSeparationTree,
    Separation,
    _pieces,
    held_tree,
)
from excover.burr.xmpuzzle import BurrPuzzle
from excover.burr.xmpuzzle.model import (
    REMOVED,
    Deferred,
    Placement,
    Solution,
    StoredSeparation,
    Voxel,
)
from excover.burr.xmpuzzle.placements import placement_of
from excover.errors import UsageError

__all__ = ["placements", "solved_puzzle", "stored_solution"]


def placements(
    puzzle: BurrPuzzle, problem: int, assembly: Assembly
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
    states.append(_taken_out(tree.pieces, states[-1], set(out.pieces), out.vector))
    return StoredSeparation(
        tuple(numbers[p] for p in tree.pieces),
        tuple(states),
        None if tree.left is None else _separation(tree.left, numbers, origin),
        None if tree.removed is None else _separation(tree.removed, numbers, origin),
    )


def _taken_out(
    pieces: Sequence[int], state: tuple[Voxel, ...], gone: set[int], vector: Voxel
) -> tuple[Voxel, ...]:
    """The last state of a separation: ``state`` (the positions of ``pieces``) with the
    pieces ``gone`` put :data:`REMOVED` units away along ``vector``."""
    ax, ay, az = (REMOVED * c for c in vector)
    return tuple(
        (w[0] + ax, w[1] + ay, w[2] + az) if p in gone else w
        for p, w in zip(pieces, state, strict=True)
    )


def _made(
    tree: Separation | PackedSeparationTree,
    numbers: Sequence[int],
    origin: Sequence[Placement | None],
) -> StoredSeparation:
    """:func:`_separation` of a disassembly's tree as it holds it: a compact
    :class:`PackedSeparationTree` is read word by word (no :class:`Separation` or move objects made,
    nothing kept in the disassembly)."""
    if not isinstance(tree, PackedSeparationTree):
        return _separation(tree, numbers, origin)
    words = memoryview(tree.words).cast("Q")
    vectors = DIRECTIONS[tree.grid]
    # each piece's position (its hotspot's), played along as the moves come
    where: list[Voxel] = []
    for number in numbers:
        placed = origin[number]
        assert placed is not None  # a piece of the assembly is placed
        where.append(placed[:3])

    def read(at: int) -> tuple[StoredSeparation, int]:
        pieces = _pieces(words[at])
        count, flags = words[at + 1], words[at + 2]
        states = [tuple(where[p] for p in pieces)]
        for k in range(at + 3, at + 3 * count, 3):  # every move but the last, out
            dx, dy, dz = vectors[words[k + 1]]
            distance = words[k + 2] - 1
            for p in _pieces(words[k]):
                x, y, z = where[p]
                where[p] = (x + dx * distance, y + dy * distance, z + dz * distance)
            states.append(tuple(where[p] for p in pieces))
        out = at + 3 * count
        states.append(
            _taken_out(pieces, states[-1], set(_pieces(words[out])), vectors[words[out + 1]])
        )
        at += 3 + 3 * count
        parts: list[StoredSeparation | None] = [None, None]
        for side in (0, 1):
            if flags >> side & 1:
                parts[side], at = read(at)
        left, removed = parts
        return StoredSeparation(tuple(numbers[p] for p in pieces), tuple(states), left, removed), at

    return read(0)[0]


def stored_solution(
    puzzle: BurrPuzzle,
    problem: int,
    result: Disassembly,
    assembly_number: int | None = None,
    solution_number: int | None = None,
) -> Solution:
    """The solution ``result`` (an assembly of ``problem`` that comes apart) as
    BurrTools stores it, its separation made when it is first read (and kept by the
    solution then: :func:`excover.burr.xmpuzzle.write_xmpuzzle` reads it without
    keeping it)."""
    tree = held_tree(result)
    if tree is None:
        raise UsageError("only an assembly that comes apart is stored as a solution")
    numbers, where = placements(puzzle, problem, result.assembly)
    later = Deferred(partial(_made, tree, numbers, where))
    return Solution(where, later, (), assembly_number, solution_number)


def solved_puzzle(
    puzzle: BurrPuzzle,
    problem: int,
    results: Mapping[int, Disassembly],
    assemblies: int,
    complete: bool = True,
    keep: int = 0,
) -> BurrPuzzle:
    """The puzzle with problem ``problem`` solved: its ``assemblies`` and solutions
    counted, the solutions (those of ``results``, disassemblies by the index of their
    assembly, that come apart) sorted by level as BurrTools sorts them and stored with
    their separations, only the ``keep`` hardest (the last ones) when ``keep`` is not
    0, as BurrTools keeps them. ``complete`` False marks the problem as interrupted
    (BurrTools' state 1)."""
    solved = sorted((k, r) for k, r in results.items() if r.status == "solved")
    numbered = {k: n for n, (k, _) in enumerate(solved)}
    solved.sort(key=lambda pair: pair[1].sort_key())
    if 0 < keep < len(solved):
        solved = solved[len(solved) - keep :]
    stored = tuple(stored_solution(puzzle, problem, result, k, numbered[k]) for k, result in solved)
    spec = replace(
        puzzle.problems[problem],
        state=2 if complete else 1,
        assemblies=assemblies,
        solutions=len(numbered),
        time=0,
        stored=stored,
    )
    problems = list(puzzle.problems)
    problems[problem] = spec
    return replace(puzzle, problems=tuple(problems))
