"""Grids and their isometry groups: the square, the cube, the hexagonal and triangular grids.

A *grid* fixes how cells are named by integer coordinates, which maps are its isometries,
and how a set of cells is brought to a canonical position (*normalised*) so that two
translates of one shape compare equal.

- **square**: cell ``(x, y)``, x to the right, y upward. Isometries: the dihedral group D4
  of the square (8 elements), acting linearly on coordinates.
- **cube**: cell ``(x, y, z)``, z upward through the layers. Isometries: the 48 signed
  permutation matrices, the 24 with determinant +1 being the rotations.
- **hex**: cell ``(q, r)`` in axial coordinates of pointy-top hexagons (``q`` to the right,
  ``r`` up and to the right). Isometries: the 12 of the regular hexagon.
- **triangle**: cell ``(a, b, c)`` with ``a + b + c`` equal to 1 (a triangle pointing up) or
  2 (pointing down); each coordinate numbers the strips between parallel grid lines of one
  of the three directions. Isometries: the 12 of the regular hexagon around a lattice
  vertex; the six that reverse orientation of the triangles are affine (``x -> 1 - Px``).

BurrTools' four other grids (:mod:`excover.burr.xmpuzzle.lattice` describes their
cells and how BurrTools numbers them; these grids use the same integer geometry):

- **prism**: triangular prisms, cell ``(a, b, c, z)``: the triangle ``(a, b, c)`` of the
  triangular grid in layer ``z``. Isometries: the 24 of the hexagonal prism lattice
  (those of the triangle, with or without ``z -> -z``), 12 of them rotations.
- **sphere**: spheres of the face-centred cubic packing, cell ``(x, y, z)`` with ``x + y
  + z`` even (BurrTools' voxels), each touching 12. Isometries: the 48 of the cube.
  Translations: the vectors with an even coordinate sum.
- **rhombic**: the 24 tetrahedra into which the six diagonal planes of a cube cut it, on
  BurrTools' voxels (a cube is a 5x5x5 block, 24 of whose voxels are cells); 48 of them
  make a rhombic dodecahedron. Isometries: the 48 of the cube, about a block's centre.
  Translations: multiples of 5.
- **tetraocta**: the regular tetrahedron and four corner tetrahedra of each cube (a 3x3x3
  block, alternating between neighbouring blocks); eight corner tetrahedra around a
  vertex make an octahedron of the tetrahedral-octahedral honeycomb. Isometries: the 48
  of the cube. Translations: multiples of 3 whose thirds sum to an even number.

An :class:`Isometry` is an affine map ``x -> M x + t`` on coordinates; an
:class:`IsometryGroup` is a finite set of isometries of one grid closed under composition.

Each grid carries its traits (:class:`GridTraits`, ``grid.traits``): whether its cells are
solids and how they are drawn (an :class:`~excover.tiling.outlines.Outline` in the plane, a
:class:`~excover.tiling.geometry.Solid` in space), whether it is layered or mirrored,
BurrTools' number for it, how the ``.cmb`` language writes its patterns, which cells
neighbour a cell. Every module that draws, meshes, writes or reads a grid's patterns asks
these, never the grid's name; the registry (:mod:`excover.tiling.registry`, whose
``GRIDS`` this module offers) lists the grids by trait. A new grid is a :class:`Grid`
with its traits, registered: see docs/architecture.md, "A new grid".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations, product
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from excover.burr.xmpuzzle.lattice import GRIDS as LATTICES
from excover.burr.xmpuzzle.lattice import LatticeGrid, prism_strips
from excover.errors import UsageError
from excover.tiling import geometry, outlines
from excover.tiling.geometry import Solid
from excover.tiling.outlines import Outline
from excover.tiling.plane import HEX_BASIS as HEX_BASIS  # offered here, where it was first
from excover.tiling.plane import TRIANGLE_NORMALS as TRIANGLE_NORMALS
from excover.tiling.plane import TRIANGLE_SIDE as TRIANGLE_SIDE
from excover.tiling.plane import triangle_cell as triangle_cell
from excover.tiling.plane import triangle_spot as triangle_spot
from excover.tiling.registry import GRIDS, by_burrtools, grid_names, register

if TYPE_CHECKING:
    from excover.tiling.tile import Shape

# the names excover.tiling offers: the package imports this list
__all__ = [
    "CUBE",
    "D4",
    "D4_SUBGROUPS",
    "DIAG1_REFL",
    "DIAG2_REFL",
    "GRIDS",
    "HEX",
    "HORIZ_REFL",
    "ID",
    "PRISM",
    "RHOMBIC",
    "ROT90",
    "ROT180",
    "ROT270",
    "SPHERE",
    "SQUARE",
    "TETRAOCTA",
    "TRIANGLE",
    "VERT_REFL",
    "Grid",
    "GridTraits",
    "Isometry",
    "IsometryGroup",
    "by_burrtools",
    "grid_names",
]

#: The names of the grids whose first three coordinates number the strips of a triangular
#: grid (``traits.strips``): filled as each grid is made, before its groups are.
_STRIP_GRIDS: set[str] = set()

#: An array of cells, one row of integer coordinates per cell.
Coords = npt.NDArray[np.int64]

Matrix = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Isometry:
    """An isometry of a grid: the affine map ``x -> matrix @ x + offset`` on coordinates.

    Isometries compose with ``*`` (``(g * h)(x) == g(h(x))``), invert with
    :meth:`inverse`, and apply to one cell by calling them: ``g((x, y))``. Equality ignores
    the name.
    """

    grid: str
    matrix: Matrix
    offset: tuple[int, ...]
    name: str = field(compare=False)

    def __call__(self, cell: Sequence[int]) -> tuple[int, ...]:
        """The image of one cell."""
        if len(cell) != len(self.offset):
            raise UsageError(
                f"{self.name} acts on cells of {len(self.offset)} coordinates, not {tuple(cell)}"
            )
        return tuple(
            sum(m * c for m, c in zip(row, cell, strict=True)) + t
            for row, t in zip(self.matrix, self.offset, strict=True)
        )

    def apply(self, coords: Coords) -> Coords:
        """The images of many cells (rows of ``coords``), as a new array."""
        result: Coords = coords @ np.array(self.matrix, dtype=np.int64).T
        return result + np.array(self.offset, dtype=np.int64)

    def __mul__(self, other: Isometry) -> Isometry:
        """The composition ``self`` after ``other``."""
        if not isinstance(other, Isometry):
            return NotImplemented
        if other.grid != self.grid:
            raise UsageError(f"cannot compose isometries of the {self.grid} and {other.grid} grids")
        matrix, offset = _compose((self.matrix, self.offset), (other.matrix, other.offset))
        return GRIDS[self.grid].isometry(matrix, offset)

    def inverse(self) -> Isometry:
        """The isometry undoing this one."""
        group = GRIDS[self.grid].isometries
        for candidate in group:
            if (candidate * self).is_identity():
                return candidate
        raise AssertionError(f"{self.name} has no inverse in its group")  # pragma: no cover

    def is_identity(self) -> bool:
        """True for the identity map."""
        size = len(self.matrix)
        return self.matrix == _identity_matrix(size) and not any(self.offset)

    @property
    def determinant(self) -> int:
        """+1 for a rotation (on the triangular grid: of the linear part's sign pattern), -1
        for a reflection."""
        sign = round(float(np.linalg.det(np.array(self.matrix))))
        if self.grid in _STRIP_GRIDS and any(self.offset[:3]):  # x -> 1 - Px: a half turn
            sign = -sign
        return sign

    def __repr__(self) -> str:
        return self.name


class IsometryGroup:
    """A finite group of isometries of one grid, with a name; iterable, sized, and
    supporting ``in``, ``==`` (same elements) and :meth:`is_subgroup_of`."""

    def __init__(self, name: str, elements: Iterable[Isometry]) -> None:
        given = list(elements)
        for element in given:
            if not isinstance(element, Isometry):
                raise UsageError(f"group {name!r}: {element!r} is not an Isometry")
        unique = list(dict.fromkeys(given))
        if not unique:
            raise UsageError(f"group {name!r} has no elements")
        grids = {element.grid for element in unique}
        if len(grids) > 1:
            raise UsageError(f"group {name!r} mixes isometries of the grids {sorted(grids)}")
        maps = {(element.matrix, element.offset) for element in unique}
        for g in unique:
            for h in unique:
                if _compose((g.matrix, g.offset), (h.matrix, h.offset)) not in maps:
                    raise UsageError(
                        f"{name!r} is not a group: {g.name} * {h.name} is missing from it"
                    )
        self.name = name
        self.grid = unique[0].grid
        self.elements = tuple(unique)

    @classmethod
    def _closed(cls, name: str, elements: Iterable[Isometry]) -> IsometryGroup:
        """The group of ``elements``, which the caller builds closed (a grid's own
        isometries and their subgroups): the check of every product, n squared
        compositions, is left out, as the grids are made when excover's tiling package is
        imported (the tests check their closure)."""
        group = cls.__new__(cls)
        group.elements = tuple(dict.fromkeys(elements))
        group.name = name
        group.grid = group.elements[0].grid
        return group

    def __iter__(self) -> Iterator[Isometry]:
        return iter(self.elements)

    def __len__(self) -> int:
        return len(self.elements)

    def __contains__(self, element: object) -> bool:
        return element in self.elements

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IsometryGroup):
            return NotImplemented
        return self.grid == other.grid and set(self.elements) == set(other.elements)

    def __hash__(self) -> int:
        return hash((self.grid, frozenset(self.elements)))

    def is_subgroup_of(self, other: IsometryGroup) -> bool:
        """True when every element of this group belongs to ``other``."""
        return all(element in other for element in self.elements)

    def __repr__(self) -> str:
        names = ", ".join(element.name for element in self.elements)
        return f"<IsometryGroup {self.name} of the {self.grid} grid: {names}>"


Map = tuple[Matrix, tuple[int, ...]]


def _compose(g: Map, h: Map) -> Map:
    """The affine map ``g`` after ``h`` (in plain integers: on matrices of 2 to 4 rows,
    numpy's set-up costs more than the arithmetic)."""
    (a, s), (b, t) = g, h
    columns = list(zip(*b, strict=True))
    matrix = tuple(
        tuple(sum(x * y for x, y in zip(row, column, strict=True)) for column in columns)
        for row in a
    )
    offset = tuple(
        sum(x * y for x, y in zip(row, t, strict=True)) + v for row, v in zip(a, s, strict=True)
    )
    return matrix, offset


def _identity_matrix(size: int) -> Matrix:
    return tuple(tuple(int(i == j) for j in range(size)) for i in range(size))


@dataclass(frozen=True)
class GridTraits:
    """What a grid is, for the modules that draw, mesh, write and read its patterns.

    - ``outline``: how a cell is drawn in the plane (on a solid grid, in its layer);
    - ``solid``: the cell as a solid in space, None on a planar grid (whose cells are
      polygons: an STL file extrudes them one cell high);
    - ``layered``: a solid grid whose patterns are sets of cells written as their layers,
      bottom first, of the ``layer`` grid (``pattern3 p = GRID [...]`` in ``.cmb``,
      :mod:`excover.lang.layers`); the cube's patterns are arrays of square layers of
      their own (:class:`~excover.tiling.pattern.Pattern3`), so it is not;
    - ``layer``: the name of the grid whose patterns are a solid grid's layers;
    - ``spot_cells``: how many cells one spot of a layer stands for (48 tetrahedra make
      a rhombic dodecahedron); ``spot_noun`` what a spot is called in a message;
      ``packed``: the spots of a layer sit on one colour of a checkerboard, those of the
      next layer on the other (``x + y + z`` all even or all odd);
    - ``mirrored``: reflecting any one coordinate across a board's middle is an
      isometry, so a board that is its own mirror image declares these maps to the
      frontier count's fold (:mod:`excover.tiling.mirrors`);
    - ``burrtools``: BurrTools' number of the grid (``<gridType type="N"/>``), or None;
      its cells are BurrTools' voxels but on the prism grid (``strips``);
    - ``art``: the word that starts a drawing of a planar pattern in ``.cmb``
      (``hex{...}``), ``""`` for the plain ``{...}`` of the square grid, None for a grid
      whose patterns are not drawn so;
    - ``strips``: the first three coordinates number the strips of a triangular grid
      (``a + b + c`` is 1 or 2), moved by translations keeping their sum;
    - ``steps``: the steps to a cell's neighbours across its faces, where they are the
      same for every cell (else they come from ``strips`` or the lattice);
    - ``seeds``: one cell of each class of cells up to translation (None: found from
      the lattice);
    - ``cell_rule``: what makes coordinates a cell, said when they do not;
    - ``studio_label``: the words for the grid in the studio's grid menu (empty: its
      name); ``studio_frame``: the width, height and layers of a new board of the grid
      in the studio (one layer on a planar grid).
    """

    outline: Outline
    solid: Solid | None = None
    layered: bool = False
    layer: str | None = None
    spot_cells: int = 1
    spot_noun: str = ""
    packed: bool = False
    mirrored: bool = False
    burrtools: int | None = None
    art: str | None = None
    strips: bool = False
    steps: tuple[tuple[int, ...], ...] | None = None
    seeds: tuple[tuple[int, ...], ...] | None = None
    cell_rule: str = ""
    studio_label: str = ""
    studio_frame: tuple[int, int, int] = (6, 6, 1)


class Grid:
    """A kind of grid: coordinates of its cells, its isometries, and normalisation.

    ``isometries`` is the full group and ``rotations`` its orientation-preserving half.
    ``lattice`` (BurrTools' solid grids but the prism) says which voxels are cells and
    which translations move a shape on the grid. ``traits`` (:class:`GridTraits`) says
    what the grid is and how its cells are drawn (by default: square cells of a planar
    grid); ``pattern`` is the class of its patterns. A grid is entered in the registry
    (:mod:`excover.tiling.registry`) by :func:`excover.tiling.registry.register`.
    """

    def __init__(
        self,
        name: str,
        dimension: int,
        maps: Iterable[tuple[Matrix, tuple[int, ...]]],
        namer: Callable[[Matrix, tuple[int, ...]], str],
        lattice: LatticeGrid | None = None,
        traits: GridTraits | None = None,
    ) -> None:
        self.name = name
        self.dimension = dimension
        self.lattice = lattice
        self.traits = GridTraits(outlines.SQUARE) if traits is None else traits
        self._pattern: type[Shape] | None = None
        if self.traits.strips:
            _STRIP_GRIDS.add(name)
        self._by_map: dict[tuple[Matrix, tuple[int, ...]], Isometry] = {}
        for matrix, offset in maps:
            self._by_map[matrix, offset] = Isometry(name, matrix, offset, namer(matrix, offset))
        self.isometries = IsometryGroup._closed("all", self._by_map.values())
        self.rotations = IsometryGroup._closed(
            "rotations", [g for g in self.isometries if g.determinant == 1]
        )
        self.trivial = IsometryGroup._closed(
            "none", [g for g in self.isometries if g.is_identity()]
        )

    @property
    def solid(self) -> bool:
        """True when the grid's cells are solids in space, False when they are polygons."""
        return self.traits.solid is not None

    def solid_cells(self) -> Solid:
        """The solids of the grid's cells; a UsageError on a planar grid."""
        return geometry.solid_of(self)

    @property
    def pattern(self) -> type[Shape]:
        """The class of the grid's patterns (:class:`~excover.tiling.pattern.Pattern` on
        the square grid, :class:`~excover.tiling.polyform.HexPattern` on the hexagonal,
        ...): the class that names this grid as its ``grid`` enters itself here as it is
        made (:meth:`set_pattern`)."""
        if self._pattern is None:
            raise UsageError(f"the {self.name} grid has no class of patterns")
        return self._pattern

    def set_pattern(self, cls: type[Shape]) -> None:
        """Make ``cls`` the class of the grid's patterns (the first class to claim the
        grid keeps it: a subclass of a pattern class does not take it over)."""
        if self._pattern is None:
            self._pattern = cls

    @property
    def layer_grid(self) -> Grid:
        """The grid of a solid grid's layers (a UsageError on a grid without layers)."""
        if self.traits.layer is None:
            raise UsageError(f"the {self.name} grid's patterns have no layers")
        return GRIDS[self.traits.layer]

    def neighbours(self, cell: Sequence[int]) -> list[tuple[int, ...]]:
        """The cells sharing a face with ``cell`` (on the sphere grid: touching it)."""
        cell = tuple(int(v) for v in cell)
        if self.traits.strips:
            step = 1 if sum(cell[:3]) == 1 else -1  # up triangles border down ones, and back
            beside = [tuple(v + step * (i == k) for i, v in enumerate(cell)) for k in range(3)]
            if self.dimension == 4:  # and the prisms above and below
                beside += [(*cell[:3], cell[3] + 1), (*cell[:3], cell[3] - 1)]
            return beside
        if self.lattice is not None:
            return list(self.lattice.neighbours(cell))
        if self.traits.steps is None:
            raise UsageError(f"the {self.name} grid does not say which cells are neighbours")
        return [tuple(a + b for a, b in zip(cell, d, strict=True)) for d in self.traits.steps]

    def seeds(self) -> list[tuple[int, ...]]:
        """One cell of each class of cells up to translation: polyforms grow from them
        (a triangle pointing up and one pointing down; every cell of a block or two)."""
        if self.traits.seeds is not None:
            return list(self.traits.seeds)
        if self.lattice is None:
            return [(0,) * self.dimension]
        period = self.lattice.period
        box = np.array(list(product(range(2 * period), range(period), range(period))))
        cells = box[self.lattice.is_cell(box)]
        starts = {tuple(int(v) for v in self.normalize(cell[None, :])[0]) for cell in cells}
        return sorted(starts)

    def from_voxels(self, voxels: Coords) -> Coords:
        """The cells of BurrTools' voxels of this grid (on the prism grid, its strips)."""
        if self.traits.burrtools is None:
            raise UsageError(f"the {self.name} grid is none of BurrTools' grids")
        if self.traits.strips:
            cells: Coords = prism_strips(voxels)
            return cells
        return voxels

    def isometry(self, matrix: Matrix, offset: tuple[int, ...]) -> Isometry:
        """The isometry of this grid with this matrix and offset."""
        try:
            return self._by_map[matrix, offset]
        except KeyError:
            raise UsageError(f"no isometry {matrix} + {offset} on the {self.name} grid") from None

    def group(self, spec: str | IsometryGroup) -> IsometryGroup:
        """The group named by ``spec`` ("none", "rotations", "all" or, on the square grid,
        the name of a subgroup of D4), or ``spec`` itself when it is a group of this grid."""
        if isinstance(spec, IsometryGroup):
            if spec.grid != self.name:
                raise UsageError(
                    f"the group {spec.name!r} acts on the {spec.grid} grid, "
                    f"not on the {self.name} grid"
                )
            return spec
        named = {"none": self.trivial, "rotations": self.rotations, "all": self.isometries}
        if self.isometries is D4:  # the square grid's subgroups have names
            named.update(D4_SUBGROUPS)
        if not isinstance(spec, str) or spec not in named:
            raise UsageError(
                f"unknown symmetry {spec!r} on the {self.name} grid; "
                f"choose one of {', '.join(named)} or an IsometryGroup"
            )
        return named[spec]

    def normalize(self, coords: Coords) -> Coords:
        """The canonical translate of a set of cells, rows sorted lexicographically.

        Every coordinate is shifted to start at 0, except on the triangular and prism
        grids where only ``a`` and ``b`` (and ``z``) are and ``c`` follows so that
        translations keep ``a + b + c``, and on the sphere, rhombic and tetraocta grids,
        moved by the largest translation of the grid below the lowest corner.
        """
        if len(coords) == 0:
            return coords.copy()
        moved = coords - self.shift(coords)
        order = np.lexsort(moved.T[::-1])
        result: Coords = moved[order]
        return result

    def symmetries(self, coords: Coords) -> IsometryGroup:
        """The isometries of the grid mapping a set of cells onto a translate of itself."""
        shape = self.normalize(coords)
        kept = [
            g for g in self.isometries if np.array_equal(self.normalize(g.apply(coords)), shape)
        ]
        return IsometryGroup("symmetries", kept)

    def shift(self, coords: Coords) -> Coords:
        """The translation :meth:`normalize` subtracts from a non-empty set of cells."""
        low: Coords = self.shifts(coords[None])[0]
        return low

    def normalize_many(self, shapes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`normalize` of each of several non-empty shapes of as many cells (an
        array of shape ``(shapes, cells, dimension)``) at once."""
        moved = shapes - self.shifts(shapes)[:, None, :]
        order = np.lexsort(np.moveaxis(moved, 2, 0)[::-1], axis=-1)
        result: npt.NDArray[np.int64] = np.take_along_axis(moved, order[:, :, None], axis=1)
        return result

    def shifts(self, shapes: npt.NDArray[np.int64]) -> Coords:
        """:meth:`shift` of each of several non-empty shapes of as many cells (an array
        of shape ``(shapes, cells, dimension)``), one row each."""
        if self.lattice is not None and not self.traits.strips:
            return self.lattice.shifts(shapes)
        low: Coords = shapes.min(axis=1)
        if self.traits.strips:
            low[:, 2] = -low[:, 0] - low[:, 1]
        return low

    def translations_ok(self, vectors: Coords) -> npt.NDArray[np.bool_]:
        """Which rows of ``vectors`` are translations of the grid (on the triangular and
        prism grids, those whose ``a + b + c`` is 0; on the grids with a lattice, its
        translations)."""
        if self.traits.strips:
            result: npt.NDArray[np.bool_] = vectors[:, :3].sum(axis=1) == 0
            return result
        if self.lattice is not None:
            return self.lattice.translations_ok(vectors)
        return np.ones(len(vectors), dtype=bool)

    def is_cell(self, cell: Sequence[int]) -> bool:
        """Whether integer coordinates name a cell of the grid."""
        if len(cell) != self.dimension:
            return False
        if self.traits.strips:
            return sum(cell[:3]) in (1, 2)
        if self.lattice is not None:
            return bool(self.lattice.is_cell(np.array([cell], dtype=np.int64))[0])
        return True

    def cell_name(self, cell: Sequence[int]) -> str:
        """The item name of a cell in an exact cover problem: coordinates joined by commas."""
        return ",".join(str(int(v)) for v in cell)

    def __repr__(self) -> str:
        return f"<Grid {self.name}>"


class _Namer:
    """Names the isometries of a grid from their maps: by a table, else as planar
    ``Rot<degrees>``/``Refl<axis degrees>`` when ``plane`` turns a matrix into the 2x2
    matrix of the same map on the plane, else as the signed permutation of ``x, y, z``."""

    def __init__(
        self,
        names: dict[Matrix, str],
        plane: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]] | None = None,
    ) -> None:
        self.names = names
        self.plane = plane

    def __call__(self, matrix: Matrix, offset: tuple[int, ...]) -> str:
        if matrix in self.names:
            return self.names[matrix]
        if self.plane is not None:
            a = self.plane(np.array(matrix, dtype=float))
            double = math.degrees(math.atan2(a[1, 0], a[0, 0]))
            if np.linalg.det(a) > 0:
                return f"Rot{round(double) % 360}"
            return f"Refl{round(double / 2) % 180}"
        parts = [
            ("-" if value < 0 else "") + "xyz"[position]
            for row in matrix
            for position, value in enumerate(row)
            if value
        ]
        return "(" + ",".join(parts) + ")"


def _closure(generators: Sequence[Map]) -> list[Map]:
    """All compositions of affine generators, identity first."""
    size = len(generators[0][0])
    identity: Map = (_identity_matrix(size), (0,) * size)
    found = [identity]
    frontier = [identity]
    while frontier:
        new = []
        for element in frontier:
            for generator in generators:
                image = _compose(generator, element)
                if image not in found:
                    found.append(image)
                    new.append(image)
        frontier = new
    return found


_D4_NAMES: dict[Matrix, str] = {
    ((1, 0), (0, 1)): "Id",
    ((0, -1), (1, 0)): "Rot90",
    ((-1, 0), (0, -1)): "Rot180",
    ((0, 1), (-1, 0)): "Rot270",
    ((-1, 0), (0, 1)): "VertRefl",
    ((1, 0), (0, -1)): "HorizRefl",
    ((0, 1), (1, 0)): "Diag1Refl",
    ((0, -1), (-1, 0)): "Diag2Refl",
}

_SQUARE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
SQUARE = Grid(
    "square",
    2,
    [(m, (0, 0)) for m in _D4_NAMES],
    _Namer(_D4_NAMES),
    traits=GridTraits(
        outlines.SQUARE,
        mirrored=True,
        art="",
        steps=_SQUARE_STEPS,
        studio_label="squares",
        studio_frame=(10, 6, 1),
    ),
)


def _signed_permutations() -> Iterator[tuple[Matrix, tuple[int, ...]]]:
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            rows = tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3))
            yield rows, (0, 0, 0)


CUBE = Grid(
    "cube",
    3,
    _signed_permutations(),
    _Namer({_identity_matrix(3): "Id"}),
    traits=GridTraits(
        outlines.CUBE_LAYERS,
        geometry.CUBES,
        layer="square",
        mirrored=True,
        burrtools=0,
        steps=((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)),
        studio_label="cubes (a box of layers)",
        studio_frame=(3, 3, 3),
    ),
)

HEX = Grid(
    "hex",
    2,
    _closure([(((0, -1), (1, 1)), (0, 0)), (((1, 0), (-1, -1)), (0, 0))]),
    _Namer({_identity_matrix(2): "Id"}, lambda m: HEX_BASIS @ m @ np.linalg.inv(HEX_BASIS)),
    traits=GridTraits(
        outlines.HEXAGON,
        art="hex",
        steps=((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
        studio_label="hexagons",
        studio_frame=(5, 5, 1),
    ),
)

TRIANGLE = Grid(
    "triangle",
    3,
    _closure(
        [
            (((0, 1, 0), (0, 0, 1), (1, 0, 0)), (0, 0, 0)),  # a cyclic shift: 120 degrees
            (((1, 0, 0), (0, 0, 1), (0, 1, 0)), (0, 0, 0)),  # a transposition: a reflection
            (((-1, 0, 0), (0, -1, 0), (0, 0, -1)), (1, 1, 1)),  # the half turn x -> 1 - x
        ]
    ),
    _Namer(
        {_identity_matrix(3): "Id"},
        lambda m: np.linalg.pinv(TRIANGLE_NORMALS) @ m @ TRIANGLE_NORMALS,
    ),
    traits=GridTraits(
        outlines.TRIANGLE,
        art="triangle",
        strips=True,
        seeds=((1, 0, 0), (1, 1, 0)),
        cell_rule="a + b + c is 1 or 2",
        studio_label="triangles",
        studio_frame=(8, 4, 1),
    ),
)


def _prism_name(matrix: Matrix, offset: tuple[int, ...]) -> str:
    """The triangle's name of the map's action on the layers, followed by ``+FlipZ``
    when it turns the layers upside down."""
    plane = tuple(row[:3] for row in matrix[:3])
    name = TRIANGLE.isometry(plane, offset[:3]).name
    return name + ("+FlipZ" if matrix[3][3] < 0 else "")


def _lattice_maps(number: int) -> list[Map]:
    """The integer isometries of BurrTools' grid ``number`` (on the sphere grid, the
    cube's 48; the half turns of the packing BurrTools tries on flat shapes are not
    isometries of the grid)."""
    return [(t.matrix, t.offset) for t in LATTICES[number].transformations if t.denominator == 1]


PRISM = Grid(
    "prism",
    4,
    _lattice_maps(1),
    _prism_name,
    traits=GridTraits(
        outlines.PRISM_TRIANGLE,
        geometry.PRISMS,
        layered=True,
        layer="triangle",
        burrtools=1,
        strips=True,
        seeds=((1, 0, 0, 0), (1, 1, 0, 0)),
        studio_label="triangular prisms (layers of triangles)",
        studio_frame=(6, 2, 2),
    ),
)
SPHERE = Grid(
    "sphere",
    3,
    _lattice_maps(2),
    _Namer({_identity_matrix(3): "Id"}),
    LATTICES[2],
    GridTraits(
        outlines.BALL,
        geometry.BALLS,
        layered=True,
        layer="square",
        spot_noun="sphere",
        packed=True,
        burrtools=2,
        seeds=((0, 0, 0),),
        studio_label="balls (layers of a sphere packing)",
        studio_frame=(5, 5, 3),
    ),
)
RHOMBIC = Grid(
    "rhombic",
    3,
    _lattice_maps(3),
    _Namer({_identity_matrix(3): "Id"}),
    LATTICES[3],
    GridTraits(
        outlines.VOXEL_SQUARE,
        geometry.RHOMBIC_TETRAHEDRA,
        layered=True,
        layer="square",
        spot_cells=48,
        spot_noun="rhombic dodecahedron",
        packed=True,
        burrtools=3,
        studio_label="rhombic dodecahedra (layers, as balls)",
        studio_frame=(3, 3, 2),
    ),
)
TETRAOCTA = Grid(
    "tetraocta",
    3,
    _lattice_maps(4),
    _Namer({_identity_matrix(3): "Id"}),
    LATTICES[4],
    GridTraits(
        outlines.VOXEL_SQUARE,
        geometry.TETRA_OCTA,
        layered=True,
        layer="square",
        spot_noun="voxel",
        burrtools=4,
        studio_label="tetrahedra and octahedra (layers of voxels)",
        studio_frame=(6, 6, 3),
    ),
)

for _grid in (SQUARE, CUBE, HEX, TRIANGLE, PRISM, SPHERE, RHOMBIC, TETRAOCTA):
    register(_grid)


def _d4(name: str) -> Isometry:
    return next(g for g in SQUARE.isometries if g.name == name)


ID = _d4("Id")
ROT90 = _d4("Rot90")
ROT180 = _d4("Rot180")
ROT270 = _d4("Rot270")
VERT_REFL = _d4("VertRefl")
HORIZ_REFL = _d4("HorizRefl")
DIAG1_REFL = _d4("Diag1Refl")
DIAG2_REFL = _d4("Diag2Refl")

#: The dihedral group of the square, all 8 isometries of the square grid.
D4 = SQUARE.isometries

#: The 10 subgroups of D4 by name.
D4_SUBGROUPS: dict[str, IsometryGroup] = {
    "none": IsometryGroup("none", [ID]),
    "rot180": IsometryGroup("rot180", [ID, ROT180]),
    "vertical": IsometryGroup("vertical", [ID, VERT_REFL]),
    "horizontal": IsometryGroup("horizontal", [ID, HORIZ_REFL]),
    "diag1": IsometryGroup("diag1", [ID, DIAG1_REFL]),
    "diag2": IsometryGroup("diag2", [ID, DIAG2_REFL]),
    "rotations": IsometryGroup("rotations", [ID, ROT90, ROT180, ROT270]),
    "axes": IsometryGroup("axes", [ID, ROT180, VERT_REFL, HORIZ_REFL]),
    "diagonals": IsometryGroup("diagonals", [ID, ROT180, DIAG1_REFL, DIAG2_REFL]),
    "all": D4,
}
