"""Where a solution stored in an ``.xmpuzzle`` file puts each piece: BurrTools'
*placements*, and the voxels they fill.

BurrTools stores an assembly as one placement a piece, ``x y z t`` (or ``x`` for a copy
of a ranged shape left out): ``t`` numbers one of the grid's transformations and
``(x, y, z)`` is where the piece's *hotspot* (a voxel of its shape, ``(0, 0, 0)`` unless
the file says ``hx hy hz``) lands. The piece then fills ``T(v) - T(h) + (x, y, z)`` for
each filled voxel ``v`` of its shape, ``T`` being transformation ``t`` of voxel positions
and ``h`` the hotspot (BurrTools moves a turned shape back into its box, which shifts
``T(v)`` and ``T(h)`` alike). The separations stored beside it give the hotspot's
position in each state the same way.

The transformations are numbered as BurrTools numbers them: first its rotations, then
their mirror images (each rotation after the mirror ``x -> -x``). On the cube grid rotation
``4 g + k`` is ``A_g R_x^k`` (``R_x``, ``R_y``, ``R_z`` the quarter turns about the axes,
``A = (I, R_y, R_y^2, R_y^3, R_z, R_z^3)``). On the triangular-prism grid, where a voxel
``(x, y, z)`` is the triangle of centre ``(x / 2 + 1 / 2, (y + 1 / 3) h, z)`` (``(y + 2 / 3)
h`` for one pointing down, where ``x + y`` is odd; ``h`` the height of a row), rotation
``k`` turns the plane by ``60 k`` degrees and rotation ``6 + k`` does so after the half
turn ``(x, y, z) -> (-x, y, -z)``, the centre mapped back to the voxel holding it.
Only these two grids are read (the only ones BurrTools disassembles).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from excover.burr.xmpuzzle.model import FILLED, BurrShape, Placement, Voxel
from excover.errors import UsageError

__all__ = ["TRANSFORMATIONS", "placed", "placement_of", "transform"]

#: The number of rotations (the transformations BurrTools places pieces in) of each grid.
TRANSFORMATIONS = {0: 24, 1: 12}
_ROW = np.sqrt(0.75)


def _power(matrix: npt.NDArray[np.float64], k: int) -> npt.NDArray[np.float64]:
    result: npt.NDArray[np.float64] = np.linalg.matrix_power(matrix, k)
    return result


@cache
def _matrices(grid: int) -> tuple[npt.NDArray[np.float64], ...]:
    """BurrTools' transformation matrices of the grid, rotations then mirror images."""
    mirror = np.diag([-1.0, 1.0, 1.0])
    if grid == 0:
        rx = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])
        ry = np.array([[0.0, 0, -1], [0, 1, 0], [1, 0, 0]])
        rz = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
        firsts = [_power(ry, k) for k in range(4)] + [rz, _power(rz, 3)]
        rotations = [a @ _power(rx, k) for a in firsts for k in range(4)]
    elif grid == 1:
        turn = np.array([[0.5, -_ROW, 0], [_ROW, 0.5, 0], [0, 0, 1]])
        flip = np.diag([-1.0, 1.0, -1.0])
        rotations = [_power(turn, k) for k in range(6)]
        rotations += [_power(turn, k) @ flip for k in range(6)]
    else:
        raise UsageError(
            f"placements on BurrTools' grid {grid} are not read (only the cube and "
            "triangular-prism grids)"
        )
    return tuple(rotations + [m @ mirror for m in rotations])


def transform(grid: int, t: int, voxels: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """BurrTools' transformation ``t`` of the grid applied to voxel positions (rows)."""
    matrices = _matrices(grid)
    if not 0 <= t < len(matrices):
        raise UsageError(f"no transformation {t} on BurrTools' grid {grid}")
    matrix = matrices[t]
    if grid == 0:
        image: npt.NDArray[np.int64] = voxels @ np.rint(matrix).astype(np.int64).T
        return image
    if t == 0:
        return voxels.copy()
    x, y, z = (voxels[:, a].astype(np.float64) for a in range(3))
    down = (voxels[:, 0] + voxels[:, 1]) % 2 == 1
    centres = np.stack([0.5 + 0.5 * x, (y + np.where(down, 2 / 3, 1 / 3)) * _ROW, z], axis=1)
    turned = centres @ matrix.T
    return np.stack(
        [
            np.rint((turned[:, 0] - 0.5) * 2),
            np.floor(turned[:, 1] / _ROW),
            np.rint(turned[:, 2]),
        ],
        axis=1,
    ).astype(np.int64)


def _filled(shape: BurrShape) -> npt.NDArray[np.int64]:
    return np.array(shape.cells(FILLED), dtype=np.int64).reshape(-1, 3)


def _moved(shape: BurrShape, grid: int, t: int) -> npt.NDArray[np.int64]:
    """The shape's filled voxels under transformation ``t``, its hotspot at 0."""
    hotspot = transform(grid, t, np.array([shape.hotspot], dtype=np.int64))
    moved: npt.NDArray[np.int64] = transform(grid, t, _filled(shape)) - hotspot
    return moved


def placed(shape: BurrShape, grid: int, placement: Placement) -> list[Voxel]:
    """The voxels a piece of ``shape`` fills at ``placement`` ``(x, y, z, t)``."""
    x, y, z, t = placement
    moved = _moved(shape, grid, t) + np.array([x, y, z], dtype=np.int64)
    return [(int(a), int(b), int(c)) for a, b, c in moved.tolist()]


def placement_of(shape: BurrShape, grid: int, voxels: Iterable[Sequence[int]]) -> Placement | None:
    """The placement (the lowest transformation number) at which a piece of ``shape``
    fills exactly ``voxels``; None when no rotation of the shape does."""
    target = sorted((int(v[0]), int(v[1]), int(v[2])) for v in voxels)
    if not target:
        return None
    x, y, z = target[0]
    found = _orientations(shape, grid).get(tuple((a - x, b - y, c - z) for a, b, c in target))
    if found is None:
        return None
    (ix, iy, iz), t = found
    return (x - ix, y - iy, z - iz, t)


@lru_cache(maxsize=256)
def _orientations(shape: BurrShape, grid: int) -> dict[tuple[Voxel, ...], tuple[Voxel, int]]:
    """The shape's images under the grid's rotations, each once, by its voxels sorted
    and moved so that the first is at the origin: that first voxel where the rotation
    (its hotspot at 0) puts it, and the rotation's number (the lowest of those giving
    the image). Made once a shape: a file of many stored solutions places every piece
    of each (a dictionary look-up, where turning the shape 24 times took 0.2 ms)."""
    table: dict[tuple[Voxel, ...], tuple[Voxel, int]] = {}
    for t in range(TRANSFORMATIONS[grid]):
        image = sorted((int(a), int(b), int(c)) for a, b, c in _moved(shape, grid, t).tolist())
        if not image:  # a shape without filled voxels places nothing
            break
        x, y, z = image[0]
        key = tuple((a - x, b - y, c - z) for a, b, c in image)
        table.setdefault(key, ((x, y, z), t))
    return table
