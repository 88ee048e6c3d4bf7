"""Grids carry their traits and geometry (issue 79, item 2; docs/architecture.md, "A new
grid").

Two rules are read off the source with :mod:`ast` (nothing is imported), and one is tried:

1. no module but :mod:`excover.tiling.grids` (where the grids are made) compares a grid's
   name with a string: a comparison (``==``, ``!=``, ``in``, ``not in``, a ``match``
   case) one of whose operands is a grid's name, or a tuple, list or set of them, is a
   question the grid's traits answer (``grid.solid``, ``grid.traits.layered``, ...);
2. no module writes a list of grids by hand: a tuple, list, set or dict literal naming
   two grids or more is a list the registry gives by trait
   (:func:`excover.tiling.registry.grid_names`);
3. a grid added in one module (here: a toy grid of bricks, registered by a fixture) is
   drawn as SVG and ASCII art, meshed, grown into polyforms, tiled and counted, its
   board's mirrors declared, and refused with a clear :class:`~excover.ExcoverError`
   where its traits say it cannot go (an isometric view, solids, a ``.cmb`` 3D pattern,
   BurrTools).

The studio's Python modules are held to rules 1 and 2 as well (their own test, so that a
failure says which side names a grid)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from excover import ExcoverError
from excover.tiling import Tile, Tiling
from excover.tiling.grids import GRIDS, Grid, GridTraits, by_burrtools, grid_names
from excover.tiling.outlines import Outline
from excover.tiling.polyform import CellSet
from excover.tiling.registry import register, unregister
from excover.tiling.tile import Shape

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "excover"

#: The grids' names, as registered when excover is imported.
NAMES = frozenset(GRIDS)

#: Where grids are made, and so named.
HOME = "tiling/grids.py"

#: The studio's modules, whose side of the item is done separately.
STUDIO = "studio/"


@cache
def sources() -> dict[str, ast.Module]:
    """Every module of the package, parsed, by its path under ``src/excover``."""
    return {
        path.relative_to(SOURCE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SOURCE.rglob("*.py"))
    }


def _named(node: ast.AST) -> list[str]:
    """The grid names a node is or holds (a string, or a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES:
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [
            element.value
            for element in node.elts
            if isinstance(element, ast.Constant) and element.value in NAMES
        ]
    return []


def _pattern_names(pattern: ast.pattern) -> list[str]:
    """The grid names a ``match`` case's pattern compares with."""
    return [
        node.value.value
        for node in ast.walk(pattern)
        if isinstance(node, ast.MatchValue)
        and isinstance(node.value, ast.Constant)
        and node.value.value in NAMES
    ]


def name_tests(tree: ast.Module) -> Iterator[tuple[int, list[str]]]:
    """Each comparison with a grid's name in a module: its line and the names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            named = [name for part in (node.left, *node.comparators) for name in _named(part)]
            if named:
                yield node.lineno, named
        elif isinstance(node, ast.match_case):
            named = _pattern_names(node.pattern)
            if named:
                yield node.pattern.lineno, named


def hand_lists(tree: ast.Module) -> Iterator[tuple[int, list[str]]]:
    """Each literal tuple, list, set or dict (by its keys) naming two grids or more."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            named = _named(node)
        elif isinstance(node, ast.Dict):
            named = [name for key in node.keys if key is not None for name in _named(key)]
        else:
            continue
        if len(named) >= 2:
            yield node.lineno, named


def offences(check: str, studio: bool) -> list[str]:
    """The offences against rule ``check`` ("names" or "lists") outside the grids'
    module: in the studio's modules, or in all the others."""
    find = name_tests if check == "names" else hand_lists
    return [
        f"{path}:{line}: {', '.join(named)}"
        for path, tree in sources().items()
        if path != HOME and path.startswith(STUDIO) == studio
        for line, named in find(tree)
    ]


@pytest.mark.parametrize("check", ["names", "lists"])
def test_no_module_but_the_grids_names_a_grid(check: str) -> None:
    """Outside :mod:`excover.tiling.grids`, no grid's name is compared and no list of
    grids is written: the grid's traits and the registry answer instead."""
    found = offences(check, studio=False)
    assert not found, (
        "ask the grid's traits (grid.solid, grid.traits...) or the registry "
        "(grid_names(...)) instead of naming grids:\n" + "\n".join(found)
    )


@pytest.mark.parametrize("check", ["names", "lists"])
def test_the_studio_names_no_grid(check: str) -> None:
    """The studio's modules keep the rules too: its Python asks the grids."""
    found = offences(check, studio=True)
    assert not found, "the studio names grids:\n" + "\n".join(found)


def test_the_checks_find_a_name_test_and_a_hand_list() -> None:
    """The readers see the forms they forbid (and not a grid's name used otherwise)."""
    tree = ast.parse(
        "if grid.name == 'hex': pass\n"
        "if name in ('cube', 'prism'): pass\n"
        "match grid:\n    case 'sphere': pass\n"
        "KNOWN = {'square': 1, 'cube': 2}\n"
        "pattern = GRIDS['hex']\n"
        "label = f'{grid}' == 'hexagon'\n"
    )
    assert sorted(line for line, _ in name_tests(tree)) == [1, 2, 4]
    assert sorted(hand_lists(tree)) == [(2, ["cube", "prism"]), (5, ["square", "cube"])]


def test_the_lists_of_grids_come_from_the_registry() -> None:
    """The lists other modules read (solid, layered grids) are the registry's, by trait."""
    from excover.lang import layers
    from excover.tiling import geometry

    assert list(geometry.SOLID_GRIDS) == grid_names(solid=True)
    assert list(layers.LAYERED_GRIDS) == grid_names(layered=True)
    assert grid_names(solid=True) == [name for name, grid in GRIDS.items() if grid.solid]
    assert set(grid_names(solid=False)) == {"square", "hex", "triangle"}
    assert [by_burrtools(n).name for n in range(5)] == grid_names(solid=True)
    for grid in GRIDS.values():
        pattern: Any = grid.pattern
        assert pattern.grid is grid
        if grid.traits.layer is not None:
            assert grid.solid and not grid.layer_grid.solid


# ----- a grid added in one module -----


#: The bricks' isometries: the identity, the mirrors across the two axes, the half turn.
_BRICK_MAPS: dict[tuple[tuple[int, ...], ...], str] = {
    ((1, 0), (0, 1)): "Id",
    ((-1, 0), (0, 1)): "VertRefl",
    ((1, 0), (0, -1)): "HorizRefl",
    ((-1, 0), (0, -1)): "Rot180",
}


def _brick(cell: object, dx: float = 0.0) -> list[tuple[float, float]]:
    x, y = (int(v) for v in cell)  # type: ignore[attr-defined]
    left = 2.0 * x + dx
    return [(left, y), (left + 2, y), (left + 2, y + 1), (left, y + 1)]


def _brick_spot(cell: object) -> tuple[int, int]:
    x, y = (int(v) for v in cell)  # type: ignore[attr-defined]
    return x, y


def _brick_corners(cell: object) -> list[tuple[int, ...]]:
    x, y = (int(v) for v in cell)  # type: ignore[attr-defined]
    return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


def _brick_placer(size: float) -> Callable[[tuple[int, ...]], np.ndarray]:
    def place(key: tuple[int, ...]) -> np.ndarray:
        return np.array([2.0 * key[0], float(key[1])]) * size

    return place


def _make_brick() -> Grid:
    return Grid(
        "brick",
        2,
        [(matrix, (0, 0)) for matrix in _BRICK_MAPS],
        lambda matrix, offset: _BRICK_MAPS[matrix],
        traits=GridTraits(
            Outline(_brick, _brick_spot, corners=_brick_corners, placer=_brick_placer),
            mirrored=True,
            steps=((1, 0), (-1, 0), (0, 1), (0, -1)),
        ),
    )


@pytest.fixture
def brick() -> Iterator[Grid]:
    """The brick grid (cells 2 x 1, one row of integer coordinates each), registered for
    one test, and its class of patterns."""
    grid = register(_make_brick())

    class BrickPattern(CellSet):
        grid = GRIDS["brick"]
        __slots__ = ()

    assert grid.pattern is BrickPattern
    try:
        yield grid
    finally:
        unregister("brick")


def _shape(grid: Grid, cells: list[tuple[int, int]]) -> Shape:
    """The pattern of ``cells`` in the grid's class of patterns."""
    pattern: Any = grid.pattern
    shape: Shape = pattern(cells)
    return shape


def _wall(grid: Grid, width: int, height: int) -> Shape:
    return _shape(grid, [(x, y) for x in range(width) for y in range(height)])


def test_a_new_grid_is_listed_by_its_traits(brick: Grid) -> None:
    assert "brick" in grid_names(solid=False)
    assert "brick" in grid_names(mirrored=True)
    assert "brick" not in grid_names(layered=True)
    assert brick.group("rotations").elements == brick.rotations.elements
    assert len(brick.rotations) == 2


def test_a_new_grid_is_drawn(brick: Grid) -> None:
    """Its patterns and tilings are drawn as SVG (its outlines) and ASCII art (its
    spots, as the .cmb language prints them too), and a notebook shows its tiling's
    picture."""
    from excover.lang.evaluate import draw
    from excover.tiling.render import cell_polygons, pattern_svg, pieces_svg

    wall = _wall(brick, 2, 2)
    polygons = cell_polygons(brick, wall.coords())
    assert polygons[0] == _brick((0, 0))
    assert pattern_svg(wall).count("<polygon") == 4
    assert pieces_svg({"wall": wall}).count("<polygon") == 4
    domino = _shape(brick, [(0, 0), (1, 0)])
    tiling = Tiling(wall, [Tile(domino, name="D", multiplicity="any", symmetry="all")])
    solution = tiling.first()
    assert solution is not None
    assert solution.ascii() == "DD\nDD" or set(solution.ascii()) <= {"A", "B", "\n"}
    assert solution.svg().count("<polygon") == 4
    assert "<svg" in tiling._repr_html_()
    assert draw(_shape(brick, [(0, 0), (1, 0), (1, 1)])) == ".*\n**"  # as .cmb prints it


def test_a_new_grid_is_tiled_and_counted(brick: Grid) -> None:
    """A 4 x 2 wall of bricks tiled by pairs of bricks side by side and stacked (no
    isometry of the grid turns one into the other): as the 4 x 2 rectangle by dominoes,
    5 ways, 4 up to the wall's mirrors; its board's mirrors declared by trait."""
    from excover.tiling.mirrors import mirror_maps

    wall = _wall(brick, 4, 2)
    side = _shape(brick, [(0, 0), (1, 0)])
    stacked = _shape(brick, [(0, 0), (0, 1)])
    alone = Tiling(wall, [Tile(side, multiplicity="any", symmetry="all")])
    assert alone.count() == 1
    tiles = [Tile(shape, multiplicity="any", symmetry="all") for shape in (side, stacked)]
    tiling = Tiling(wall, tiles)
    assert tiling.count() == 5
    assert tiling.count(method="zdd") == 5
    assert tiling.count(up_to_symmetry=True) == 4
    assert len(mirror_maps(brick, wall.coords())) == 2


def test_a_new_grid_grows_polyforms(brick: Grid) -> None:
    from excover.tiling.catalog import polyforms

    # the straight trominoes lie or stand; the four bent ones are mirror images
    assert [len(polyforms(brick, n)) for n in (1, 2, 3)] == [1, 2, 3]
    assert [len(polyforms("brick", n, "none")) for n in (1, 2, 3)] == [1, 2, 6]


def test_a_new_grid_is_meshed(brick: Grid) -> None:
    """Its cells extruded one cell high make a closed surface of the right volume."""
    from excover.tiling.surface import surface

    body = surface(np.array([[0, 0], [1, 0], [1, 1]]), brick, 1.0)
    triangles = body.triangles.tolist()
    edges: dict[tuple[int, int], int] = {}
    for a, b, c in triangles:
        for p, q in ((a, b), (b, c), (c, a)):
            key = (min(p, q), max(p, q))
            edges[key] = edges.get(key, 0) + 1
    assert set(edges.values()) == {2}
    points = body.vertices[np.array(triangles)]
    volume = np.einsum("ij,ij->i", points[:, 0], np.cross(points[:, 1], points[:, 2])).sum() / 6
    assert volume == pytest.approx(3 * 2.0)


def test_a_new_grid_is_refused_where_its_traits_say(brick: Grid) -> None:
    """Where a planar grid without BurrTools' number cannot go, it is refused with an
    ExcoverError that says why."""
    from excover.lang import Interpreter, parse
    from excover.lang.layers import solid_layers, solid_pattern
    from excover.tiling.geometry import cell_faces
    from excover.tiling.isometric import pattern_isometric_svg

    wall = _wall(brick, 2, 1)
    with pytest.raises(ExcoverError, match="isometric view is drawn of a solid grid"):
        pattern_isometric_svg(wall)
    with pytest.raises(ExcoverError, match="brick grid's cells are not solids"):
        cell_faces(brick, (0, 0))
    with pytest.raises(ExcoverError, match="unknown grid 'brick'; choose one of prism"):
        solid_pattern("brick", [[(0, 0)]])
    with pytest.raises(ExcoverError, match="brick pattern is not drawn in layers"):
        solid_layers(wall)
    with pytest.raises(ExcoverError, match="unknown grid 'brick' for a 3D pattern"):
        Interpreter().run(parse("pattern3 p = brick [{*}]\n"))
    with pytest.raises(ExcoverError, match="none of BurrTools' grids"):
        brick.from_voxels(np.zeros((1, 3), dtype=np.int64))
    with pytest.raises(ExcoverError, match="no grid is BurrTools' grid 9"):
        by_burrtools(9)
    with pytest.raises(ExcoverError, match="registered already"):
        register(_make_brick())
