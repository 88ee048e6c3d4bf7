"""The assembly that stands for its symmetry class is BurrTools' own, pieces in its order.

BurrTools keeps, of each class of assemblies, the smallest by its pieces' placements
(its transformation numbers, then the hotspots' positions), one piece (its symmetry
breaker) compared first (:mod:`excover.burr.xmpuzzle.breaking`). excover numbers the
options of a problem in that order, so that the smallest sorted list of options (with the
breaker's option first) is BurrTools' assembly, and the disassembler meets the pieces in
BurrTools' order: where separations tie, the level is then BurrTools'.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from excover import ExactCover
from excover.burr import assemblies, disassemble_all
from excover.burr.assembly import assembly_of
from excover.burr.sixpiece import NOTCHABLE, SHAPE, notchable_pieces
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part, read_xmpuzzle
from excover.burr.xmpuzzle.cover import breaker, item_voxels, kind_name
from excover.burr.xmpuzzle.placements import placement_of
from excover.symmetry import Group

ROOT = Path(__file__).resolve().parents[1]


def test_options_in_burrtools_order() -> None:
    """Each kind's options of the Soma cube, read back as BurrTools' placements ``(x, y,
    z, t)`` (the lowest transformation number, as the files store them), come by ``t``,
    then ``x``, ``y``, ``z``: BurrTools' order of placements."""
    puzzle = read_xmpuzzle(ROOT / "examples" / "soma.xmpuzzle")
    cover = ExactCover.from_burrtools(puzzle, 0)
    voxels = item_voxels(puzzle, 0)
    data = cover.engine_input()
    problem = puzzle.problems[0]
    kinds = {cover.items.index(kind_name(puzzle, p.shape)): p.shape for p in problem.parts}
    placements: dict[int, list[tuple[int, int, int, int]]] = {}
    for option in range(cover.n_options):
        items = data.node_item[data.option_start[option] : data.option_start[option + 1]]
        shape = next(kinds[i] for i in items if i in kinds)
        cells = [v for i in items if (v := voxels[i]) is not None]
        found = placement_of(puzzle.shapes[shape], puzzle.grid, cells)
        assert found is not None
        x, y, z, t = found
        placements.setdefault(shape, []).append((t, x, y, z))
    assert len(placements) == len(problem.parts)
    for shape, listed in placements.items():
        assert listed == sorted(listed), shape
        assert len({t for t, *_ in listed}) > 1


def test_breaker_of_the_soma_cube() -> None:
    """The cube's 48 symmetries are every symmetry of the grid: each shape shares all of
    its own (V 4, L 2, T 4, Z 4, A 2, B 2, P 6) and L, the first with 2, is the breaker."""
    assert breaker(read_xmpuzzle(ROOT / "examples" / "soma.xmpuzzle"), 0) == 1


def six_piece(parts: list[tuple[int, int, int]], holes: bool = True) -> BurrPuzzle:
    """A six-piece burr of notchable pieces: ``(piece, min, max)`` each, the piece's
    number in :func:`notchable_pieces`."""
    pieces = notchable_pieces()
    shapes = [
        BurrShape.from_voxels(pieces[k], name=f"piece {n + 1}") for n, (k, _, _) in enumerate(parts)
    ]
    variable = NOTCHABLE if holes else frozenset()
    shapes.append(BurrShape.from_voxels(SHAPE - variable, variable, name="burr"))
    problem = BurrProblem(tuple(Part(n, lo, hi) for n, (_, lo, hi) in enumerate(parts)), len(parts))
    return BurrPuzzle(tuple(shapes), (problem,))


#: Six-piece burrs, each with what ``burrTxt -d`` printed: its counts of assemblies and
#: solutions, and of each level. Drawn around random assemblies (the differential's
#: burrs); the first with ranges (excover printed 436 assemblies before it identified
#: the mirror images BurrTools identifies, then two of level 2.2 where BurrTools has 2:
#: a copy of another class member), the others with fixed counts and a breaker.
BURRS = [
    (
        [(58, 2, 5), (0, 0, 1), (57, 0, 2), (14, 0, 3), (32, 1, 1), (12, 0, 1)],
        416,
        383,
        {"1": 325, "1.2": 8, "2": 44, "2.2": 2, "3": 4},
    ),
    ([(58, 2, 2), (50, 1, 1), (49, 3, 3)], 7, 7, {"1": 6, "2": 1}),
    ([(52, 1, 1), (58, 3, 3), (32, 1, 1), (14, 1, 1)], 22, 18, {"1": 10, "2": 3, "2.2": 1, "3": 4}),
]


@pytest.mark.parametrize(("parts", "assemblies", "solutions", "levels"), BURRS)
def test_levels_are_burrtools(
    parts: list[tuple[int, int, int]], assemblies: int, solutions: int, levels: dict[str, int]
) -> None:
    results = list(disassemble_all(six_piece(parts), 0, complete=False))
    assert len(results) == assemblies
    solved = [r.level for r in results if r.status == "solved"]
    assert len(solved) == solutions
    assert Counter(solved) == levels


@pytest.mark.parametrize("parts", [parts for parts, *_ in BURRS])
def test_each_assembly_is_the_smallest_of_its_class(parts: list[tuple[int, int, int]]) -> None:
    """By brute force: every member of each class (the images of the assembly under the
    result's symmetries, a mirror image kept when it is an assembly, its pieces swapped
    with their partners), compared as BurrTools compares them, by BurrTools' placements
    of its pieces (:func:`placement_of`: the transformation number, then the hotspot),
    the breaker's first; and the pieces in BurrTools' order."""
    puzzle = six_piece(parts)
    problem = puzzle.problems[0]
    first = breaker(puzzle, 0)
    cover = ExactCover.from_burrtools(puzzle, 0)
    widening = cover.declared_widening()
    inside = None if widening is None else widening.problem
    kept = set() if widening is None else set(widening.options)

    def placement(part: int, cells: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
        """BurrTools' placement of a piece, ``(t, x, y, z)``."""
        found = placement_of(puzzle.shapes[problem.parts[part].shape], 0, cells)
        assert found is not None
        x, y, z, t = found
        return (t, x, y, z)

    def key(pieces: list[tuple[int, tuple[tuple[int, int, int], ...]]]) -> list[tuple[int, ...]]:
        """The pieces as BurrTools compares them: the breaker's, then by part and
        placement."""
        return sorted((part != first, part, *placement(part, cells)) for part, cells in pieces)

    whole = Group(cover, cover.declared_symmetries() or [])
    larger = None if inside is None else Group(inside, inside.declared_symmetries() or [])
    for assembly in assemblies(puzzle, 0):
        options = sorted(assembly.options)
        if (
            widening is not None
            and set(options) <= kept
            and widening.problem.is_solution([widening.options.index(o) for o in options])
        ):
            number = list(widening.options)
            members = [
                sorted(number[k] for k in g.apply([number.index(o) for o in options]))
                for g in larger.elements()  # type: ignore[union-attr]
            ]
        else:
            members = [g.apply(options) for g in whole.elements()]
        mine = key([(p.part, p.voxels) for p in assembly.pieces])
        for member in members:
            other = assembly_of(puzzle, 0, cover, member)
            assert mine <= key([(p.part, p.voxels) for p in other.pieces])
        order = [(p.part, *placement(p.part, p.voxels)) for p in assembly.pieces]
        assert order == sorted(order)
