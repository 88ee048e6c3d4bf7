"""BurrTools' five grids as integer geometry: which voxels are cells, which translations
keep a shape on the grid, its neighbours, and the transformations BurrTools turns a
shape by, on the voxel coordinates BurrTools writes in its files.

Every grid stores its shapes in a box of voxels ``(x, y, z)``; the grids differ in
which voxels are cells and how those cells sit in space:

- **0, cubes**: every voxel is a unit cube. Translations: every integer vector.
  Transformations: the 48 signed permutations of the axes (24 rotations).
- **1, triangular prisms**: layers ``z`` of triangles; in a layer, row ``y`` holds
  triangles pointing up where ``x + y`` is even, down where it is odd, each half a
  column from the next. Translations: ``x + y`` even. Transformations: the 24 of the
  hexagonal prism lattice (12 rotations: six turns about the vertical axis through a
  lattice vertex, six half turns about horizontal axes), computed in the three strip
  coordinates of the triangles (see :func:`prism_strips`).
- **2, spheres**: the voxels with ``x + y + z`` even are the centres of spheres of
  diameter ``sqrt(2)``: the face-centred cubic packing, each sphere touching 12 others.
  Translations: ``x + y + z`` even. Transformations: the 48 of the cube, and, as
  BurrTools has them, the rotations of the twinned packing: a half turn about a body
  diagonal of the cube after a rotation of the cube (96 more rotations, 120 in all, and
  their 120 mirror images). A half turn about a body diagonal maps a layer of spheres
  across that diagonal onto itself but the packing onto its twin, so it applies only
  to shapes whose image lands on sphere centres again (flat shapes, in practice):
  :meth:`Transformation.apply` says None otherwise, as BurrTools' ``transform`` fails.
- **3, rhombic dodecahedra**: every cube of side 5 voxels is cut by its six diagonal
  planes into 24 equal tetrahedra, one per pair of a face of the cube and an edge of
  that face; the tetrahedron of face ``z = 0`` and its edge ``y = 0`` is the voxel
  ``(2, 1, 0)`` of the cube's block, and so on: a voxel of a block is a cell when its
  offsets, folded by ``s -> 4 - s`` above 2, are 0, 1 and 2 in some order. A rhombic
  dodecahedron is the 24 cells of one cube and the 4 cells on each face of its six
  neighbours. Translations: multiples of 5. Transformations: those of the cube, about
  the centre of a block (voxel ``(2, 2, 2)``).
- **4, tetrahedra-octahedra**: every cube of side 3 voxels is cut into a regular
  tetrahedron (voxel ``(1, 1, 1)`` of the block) and four corner tetrahedra, at the
  corners of the block with an odd coordinate sum when the block's coordinates sum to
  an even number, even otherwise (voxels 0 or 2 on each axis); eight corner tetrahedra
  around a vertex make an octahedron. Translations: multiples of 3 whose thirds sum to
  an even number. Transformations: those of the cube, about the centre of the
  octahedron at ``(2.5, 2.5, 2.5)``.

A :class:`LatticeGrid` brings a set of voxels to a canonical translate
(:meth:`LatticeGrid.shift`), says which translations keep a shape on the grid, and
lists the transformations: ``rotations`` (BurrTools' first ``NUM_TRANSFORMATIONS``)
then ``mirrors``. Shapes are numpy arrays of voxels, one row each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product

import numpy as np
import numpy.typing as npt

__all__ = [
    "GRIDS",
    "LatticeGrid",
    "Transformation",
    "from_prism_strips",
    "prism_strips",
]

#: Voxels, one row of ``(x, y, z)`` per voxel.
Voxels = npt.NDArray[np.int64]
Matrix = tuple[tuple[int, ...], ...]


def _signed_permutations() -> list[Matrix]:
    """The 48 signed permutation matrices of size 3, the identity first."""
    found = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            found.append(
                tuple(tuple(signs[r] if c == perm[r] else 0 for c in range(3)) for r in range(3))
            )
    return found


def _determinant(matrix: Matrix) -> int:
    """The determinant of a 3 by 3 integer matrix."""
    (a, b, c), (d, e, f), (g, h, i) = matrix
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def prism_strips(voxels: Voxels) -> Voxels:
    """The triangular-prism voxels ``(x, y, z)`` as ``(a, b, c, z)``: ``a``, ``b`` and
    ``c`` number the strips between the grid lines of the three directions, ``a + b +
    c`` is 1 for a triangle pointing up and 2 for one pointing down (the triangular
    grid's coordinates of :mod:`excover.tiling.grids`)."""
    x, y, z = voxels[:, 0], voxels[:, 1], voxels[:, 2]
    down = (x + y) % 2
    i = (x - y - down) // 2
    return np.stack([-i, -y, i + y + 1 + down, z], axis=1)


def from_prism_strips(strips: Voxels) -> Voxels:
    """The voxels ``(x, y, z)`` of prisms given as ``(a, b, c, z)``: the inverse of
    :func:`prism_strips`."""
    a, b, c, z = strips[:, 0], strips[:, 1], strips[:, 2], strips[:, 3]
    down = a + b + c - 1
    return np.stack([-2 * a - b + down, -b, z], axis=1)


@dataclass(frozen=True)
class Transformation:
    """A map of the voxels: ``v -> (matrix @ v) / denominator + offset`` (on the
    prism grid, of the strip coordinates ``(a, b, c, z)``); ``proper`` is False for a
    mirror image."""

    matrix: Matrix
    offset: tuple[int, ...]
    proper: bool
    denominator: int = 1
    prism: bool = False

    @property
    def determinant(self) -> int:
        """+1 for a rotation, -1 for a mirror image."""
        return 1 if self.proper else -1

    def is_identity(self) -> bool:
        """True for the identity."""
        size = len(self.matrix)
        return self.matrix == _identity(size) and not any(self.offset) and self.denominator == 1

    def __call__(self, voxel: Sequence[int]) -> tuple[int, int, int]:
        """The image of one voxel (the half turns of the sphere packing, defined on
        shapes up to translation, map one sphere onto itself)."""
        image = self.apply(np.array([voxel], dtype=np.int64))
        assert image is not None
        x, y, z = (int(v) for v in image[0])
        return x, y, z

    def apply(self, voxels: Voxels) -> Voxels | None:
        """The image of a shape, up to a translation of the grid; None when the image
        does not land on cells (only half turns of the sphere packing can fail)."""
        if self.prism:
            moved = prism_strips(voxels) @ np.array(self.matrix, dtype=np.int64).T
            return from_prism_strips(moved + np.array(self.offset, dtype=np.int64))
        image: Voxels = voxels @ np.array(self.matrix, dtype=np.int64).T
        if self.denominator == 1:
            return image + np.array(self.offset, dtype=np.int64)
        if len(image) == 0:
            return image
        steps = image - image[0]
        if (steps % self.denominator).any():
            return None
        steps //= self.denominator
        if (steps.sum(axis=1) % 2).any():
            return None
        result: Voxels = steps + voxels[0]
        return result


class LatticeGrid:
    """One of BurrTools' grids: its cells, translations, neighbours and
    transformations (see the module's text)."""

    def __init__(
        self,
        number: int,
        name: str,
        period: int,
        even: bool,
        rotations: Sequence[Transformation],
        mirrors: Sequence[Transformation],
    ) -> None:
        self.number = number
        self.name = name
        #: Translations are multiples of ``period`` on each axis ...
        self.period = period
        #: ... whose multiples sum to an even number when ``even`` (the prism grid:
        #: whose x and y sum to an even number).
        self.even = even
        self.rotations = tuple(rotations)
        self.mirrors = tuple(mirrors)
        self.transformations = self.rotations + self.mirrors

    def translations_ok(self, vectors: Voxels) -> npt.NDArray[np.bool_]:
        """Which rows of ``vectors`` are translations of the grid."""
        ok: npt.NDArray[np.bool_] = (vectors % self.period == 0).all(axis=1)
        if self.even:
            steps = vectors // self.period
            total = steps[:, :2].sum(axis=1) if self.number == 1 else steps.sum(axis=1)
            ok &= total % 2 == 0
        return ok

    def shift(self, voxels: Voxels) -> Voxels:
        """The translation of the grid bringing a non-empty shape to its canonical
        place: the largest one below the shape's lowest corner (less one more voxel
        along x when parity asks)."""
        result: Voxels = self.shifts(voxels[None])[0]
        return result

    def shifts(self, shapes: npt.NDArray[np.int64]) -> Voxels:
        """:meth:`shift` of each of several shapes of as many voxels (an array of
        shape ``(shapes, voxels, 3)``), one row each."""
        low = shapes.min(axis=1) // self.period
        if self.even:
            total = low[:, :2].sum(axis=1) if self.number == 1 else low.sum(axis=1)
            low[:, 0] -= total % 2
        result: Voxels = low * self.period
        return result

    @cached_property
    def _stacked(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """The transformations' matrices and offsets as arrays, and which of them
        have the denominator 3 (the sphere packing's half turns)."""
        matrices = np.array([t.matrix for t in self.transformations], dtype=np.int64)
        offsets = np.array([t.offset for t in self.transformations], dtype=np.int64)
        thirds = np.array([t.denominator != 1 for t in self.transformations], dtype=bool)
        return matrices, offsets, thirds

    def images(self, voxels: Voxels) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """The images of a shape under every transformation at once, in the order of
        ``transformations``: an array of shape ``(transformations, voxels, 3)``, each
        as :meth:`Transformation.apply` gives it, and which of them land on cells
        (where ``apply`` says None the image is meaningless)."""
        matrices, offsets, thirds = self._stacked
        count = len(matrices)
        ok = np.ones(count, dtype=bool)
        if self.number == 1:
            strips = prism_strips(voxels) @ matrices.transpose(0, 2, 1) + offsets[:, None, :]
            moved = from_prism_strips(strips.reshape(-1, 4))
            return moved.reshape(count, len(voxels), 3), ok
        image: npt.NDArray[np.int64] = voxels @ matrices.transpose(0, 2, 1) + offsets[:, None, :]
        if thirds.any() and len(voxels):
            steps = image[thirds] - image[thirds][:, :1]
            ok[thirds] = ~(steps % 3).any(axis=(1, 2))
            steps //= 3
            ok[thirds] &= ~(steps.sum(axis=2) % 2).any(axis=1)
            image[thirds] = steps + voxels[0]
        return image, ok

    def is_cell(self, voxels: Voxels) -> npt.NDArray[np.bool_]:
        """Which voxels are cells of the grid."""
        offsets = voxels % self.period
        if self.number == 2:
            result: npt.NDArray[np.bool_] = voxels.sum(axis=1) % 2 == 0
            return result
        if self.number == 3:
            folded = np.sort(np.minimum(offsets, 4 - offsets), axis=1)
            rhombic: npt.NDArray[np.bool_] = (folded == np.array([0, 1, 2])).all(axis=1)
            return rhombic
        if self.number == 4:
            block = (voxels // 3).sum(axis=1) % 2
            centre = (offsets == 1).all(axis=1)
            corner = (offsets != 1).all(axis=1) & ((offsets.sum(axis=1) // 2 + block) % 2 == 1)
            both: npt.NDArray[np.bool_] = centre | corner
            return both
        return np.ones(len(voxels), dtype=bool)

    def neighbours(self, voxel: Sequence[int]) -> list[tuple[int, int, int]]:
        """The cells sharing a face with a cell (on the sphere grid: touching it)."""
        x, y, z = (int(v) for v in voxel)
        steps: list[tuple[int, int, int]]
        if self.number == 0:
            steps = [(d * (a == 0), d * (a == 1), d * (a == 2)) for a in range(3) for d in (-1, 1)]
        elif self.number == 1:
            up = (x + y) % 2 == 0
            steps = [(-1, 0, 0), (1, 0, 0), (0, -1 if up else 1, 0), (0, 0, -1), (0, 0, 1)]
        elif self.number == 2:
            steps = [
                (a, b, c)
                for a, b, c in product((-1, 0, 1), repeat=3)
                if abs(a) + abs(b) + abs(c) == 2
            ]
        elif self.number == 3:
            steps = _rhombic_steps((x % 5, y % 5, z % 5))
        else:
            steps = _tetra_octa_steps((x, y, z))
        return [(x + dx, y + dy, z + dz) for dx, dy, dz in steps]

    def __repr__(self) -> str:
        return f"<LatticeGrid {self.number}: {self.name}>"


def _rhombic_steps(offset: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The moves to the four neighbours of the tetrahedron at ``offset`` in its block:
    across the cube's face, to the tetrahedron of the same edge on the other face, and
    to the two tetrahedra of the neighbouring edges on the same face."""
    face = next(a for a in range(3) if offset[a] in (0, 4))
    edge = next(a for a in range(3) if offset[a] in (1, 3))
    other = 3 - face - edge
    out = -1 if offset[face] == 0 else 1
    steps = []
    across = [0, 0, 0]
    across[face] = out
    steps.append(tuple(across))
    turned = [0, 0, 0]
    turned[face] = 1 if offset[face] == 0 else -1  # to 1 or 3 on the old face axis
    turned[edge] = (0 if offset[edge] == 1 else 4) - offset[edge]  # to 0 or 4
    steps.append(tuple(turned))
    for side in (1, 3):
        along = [0, 0, 0]
        along[edge] = 2 - offset[edge]
        along[other] = side - 2
        steps.append(tuple(along))
    return steps  # type: ignore[return-value]


def _tetra_octa_steps(voxel: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The moves to the four neighbours of a cell: the centre of a block touches the
    block's four corner tetrahedra; a corner tetrahedron touches the centre and, across
    each of its three faces on the block's faces, the corner tetrahedron of the same
    octahedron in the next block."""
    offset = tuple(v % 3 for v in voxel)
    if offset == (1, 1, 1):
        block = sum(v // 3 for v in voxel) % 2
        return [
            (sx - 1, sy - 1, sz - 1)
            for sx, sy, sz in product((0, 2), repeat=3)
            if ((sx + sy + sz) // 2 + block) % 2 == 1
        ]
    steps = [(1 - offset[0], 1 - offset[1], 1 - offset[2])]
    for axis in range(3):
        step = [0, 0, 0]
        step[axis] = -1 if offset[axis] == 0 else 1
        steps.append((step[0], step[1], step[2]))
    return steps


def _cube_like(number: int, name: str, period: int, even: bool, centre: int) -> LatticeGrid:
    """A grid on the cube's voxels whose transformations are the cube's 48 about the
    point ``(centre, centre, centre) / 2``, which they all fix (so that they form a
    group): the centre of a block on the rhombic grid, of an octahedron on the
    tetrahedra-octahedra grid. Checks that they map cells onto cells."""
    probe = LatticeGrid(number, name, period, even, (), ())
    block = np.array(list(product(range(2 * period), repeat=3)), dtype=np.int64)
    cells = block[probe.is_cell(block)]
    matrices = _signed_permutations()
    offsets = [tuple(centre * (sum(row) < 0) for row in matrix) for matrix in matrices]
    images = cells @ np.array(matrices, dtype=np.int64).transpose(0, 2, 1)
    images += np.array(offsets, dtype=np.int64)[:, None, :]
    on_cells = probe.is_cell(images.reshape(-1, 3)).reshape(len(matrices), -1).all(axis=1)
    if not on_cells.all():  # pragma: no cover - checked by the tests
        bad = int(np.flatnonzero(~on_cells)[0])
        raise AssertionError(f"{name}: {matrices[bad]} + {offsets[bad]} moves cells off the grid")
    maps = [
        Transformation(matrix, offset, _determinant(matrix) > 0)
        for matrix, offset in zip(matrices, offsets, strict=True)
    ]
    return _grid(number, name, period, even, maps)


def _prism_maps() -> list[Transformation]:
    """The 24 isometries of the triangular prism lattice, on strip coordinates
    ``(a, b, c, z)``: a permutation of the strips (turning the plane by a multiple of
    120 degrees, or mirroring it), possibly the half turn ``(a, b, c) -> 1 - (a, b, c)``,
    possibly ``z -> -z``."""
    maps = []
    for perm in permutations(range(3)):
        even_perm = sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3)) % 2 == 0
        for half_turn, flip in product((False, True), repeat=2):
            sign = -1 if half_turn else 1
            rows = [(*(sign * (c == perm[r]) for c in range(3)), 0) for r in range(3)]
            rows.append((0, 0, 0, -1 if flip else 1))
            offset = (1, 1, 1, 0) if half_turn else (0, 0, 0, 0)
            maps.append(Transformation(tuple(rows), offset, even_perm != flip, prism=True))
    maps.sort(key=lambda t: (not t.proper, t.matrix != _identity(4), t.matrix, t.offset))
    return maps


def _identity(size: int) -> Matrix:
    return tuple(tuple(int(r == c) for c in range(size)) for r in range(size))


def _sphere_maps() -> list[Transformation]:
    """The 240 transformations BurrTools tries on the sphere grid: the cube's 48 and,
    for each of the 4 body diagonals ``n``, the half turn ``2 n n^T / 3 - I`` after
    each of the cube's 48 (exact, over the denominator 3)."""
    cube = _signed_permutations()
    maps = [Transformation(m, (0, 0, 0), _determinant(m) > 0) for m in cube]
    for n in ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)):
        half = np.outer(n, n) * 2 - 3 * np.eye(3, dtype=np.int64)
        for m in cube:
            product_ = half @ np.array(m, dtype=np.int64)
            matrix = tuple(tuple(int(v) for v in row) for row in product_)
            maps.append(Transformation(matrix, (0, 0, 0), _determinant(m) > 0, denominator=3))
    maps.sort(key=lambda t: not t.proper)
    return maps


def _grid(
    number: int, name: str, period: int, even: bool, maps: Sequence[Transformation]
) -> LatticeGrid:
    return LatticeGrid(
        number,
        name,
        period,
        even,
        [t for t in maps if t.proper],
        [t for t in maps if not t.proper],
    )


#: How each of BurrTools' grids is made, by number.
_MAKERS: dict[int, Callable[[], LatticeGrid]] = {
    0: lambda: _cube_like(0, "cubes", 1, False, 0),
    1: lambda: _grid(1, "triangular prisms", 1, True, _prism_maps()),
    2: lambda: _grid(2, "spheres", 1, True, _sphere_maps()),
    3: lambda: _cube_like(3, "rhombic dodecahedra", 5, False, 4),
    4: lambda: _cube_like(4, "tetrahedra-octahedra", 3, True, 5),
}


class _Grids(Mapping[int, LatticeGrid]):
    """BurrTools' grids by number, each made when first asked for (a puzzle uses one)."""

    def __init__(self) -> None:
        self._made: dict[int, LatticeGrid] = {}

    def __getitem__(self, number: int) -> LatticeGrid:
        if number not in self._made:
            self._made[number] = _MAKERS[number]()
        return self._made[number]

    def __contains__(self, number: object) -> bool:
        return number in _MAKERS

    def __iter__(self) -> Iterator[int]:
        return iter(_MAKERS)

    def __len__(self) -> int:
        return len(_MAKERS)


#: BurrTools' grids by their number in ``<gridType type="N"/>``.
GRIDS: Mapping[int, LatticeGrid] = _Grids()
