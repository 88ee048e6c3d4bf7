"""The assembly that stands for its symmetry class is BurrTools' own, pieces in its order.

BurrTools keeps, of each class of assemblies, the smallest by its pieces' placements
(its transformation numbers, then the hotspots' positions), one piece (its symmetry
breaker) compared first (:mod:`excover.formats.burrtools.breaking`). excover numbers the
options of a problem in that order, so that the smallest sorted list of options (with the
breaker's option first) is BurrTools' assembly, and the disassembler meets the pieces in
BurrTools' order: where separations tie, the level is then BurrTools'.
"""

from __future__ import annotations

from pathlib import Path

from excover import ExactCover
from excover.formats.burrtools import read_xmpuzzle
from excover.formats.burrtools.cover import item_voxels, kind_name
from excover.formats.burrtools.placements import placement_of

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
