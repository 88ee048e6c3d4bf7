"""The board's mirrors along the grid's axes, as maps of its cells: the symmetries a
tiling declares for the frontier count's fold (:mod:`excover.zdd.folding`) where finding
the board's whole group (:mod:`excover.tiling.symmetry`) would cost more than the fold
saves (seconds on a 5 x 1000 board, against milliseconds here).

A mirror is given only when it takes the board's cells onto its cells; whether it also
takes the tiles' placements onto placements (pieces without their mirror images, a tile
item that a chiral pair would swap) is checked exactly where it is used
(:func:`excover.zdd.folding.item_maps` drops a map that does not), so the count stays
exact."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from excover.tiling.grids import GRIDS, Grid

__all__ = ["mirror_maps"]


def mirror_maps(grid: Grid | str, cells: npt.NDArray[np.int64]) -> list[dict[int, int]]:
    """For each axis of ``grid`` (a grid or its name) along which the board of ``cells``
    (one row of coordinates a cell; cell ``k`` is the problem's item ``k``) is its own
    mirror image, the map of each cell's number to its mirror's; none on grids whose
    coordinates are not mirrored axis by axis by an isometry (``traits.mirrored``)."""
    if isinstance(grid, str):
        grid = GRIDS[grid]
    if not grid.traits.mirrored or len(cells) == 0:
        return []
    number = {cell: k for k, cell in enumerate(map(tuple, cells.tolist()))}
    maps: list[dict[int, int]] = []
    for axis in range(cells.shape[1]):
        mirrored = cells.copy()
        mirrored[:, axis] = cells[:, axis].min() + cells[:, axis].max() - cells[:, axis]
        images = [number.get(cell) for cell in map(tuple, mirrored.tolist())]
        if any(image is None for image in images):
            continue
        cell_map = {k: image for k, image in enumerate(images) if image is not None and image != k}
        if cell_map:
            maps.append(cell_map)
    return maps
