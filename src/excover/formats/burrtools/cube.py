"""The 48 isometries of the cube grid that fix the origin: signed permutations of the
axes, the 24 of determinant +1 being the rotations.

:mod:`excover.tiling.grids` holds the same group for tilings (``CUBE``); the formats sit
below the domains in excover's layers (docs/architecture.md), so the BurrTools reader
keeps this small copy of its own rather than import a domain.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product

from excover.formats.burrtools.model import Voxel

__all__ = ["IDENTITY", "ISOMETRIES", "ROTATIONS", "CubeMap"]

Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]


@dataclass(frozen=True)
class CubeMap:
    """The linear map ``v -> matrix @ v`` of a signed permutation matrix."""

    matrix: Matrix

    def __call__(self, voxel: Voxel) -> Voxel:
        """The image of one voxel."""
        x, y, z = (sum(m * c for m, c in zip(row, voxel, strict=True)) for row in self.matrix)
        return x, y, z

    def __mul__(self, other: CubeMap) -> CubeMap:
        """The map ``self`` after ``other``."""
        columns = list(zip(*other.matrix, strict=True))
        a, b, c = (
            (
                sum(p * q for p, q in zip(row, columns[0], strict=True)),
                sum(p * q for p, q in zip(row, columns[1], strict=True)),
                sum(p * q for p, q in zip(row, columns[2], strict=True)),
            )
            for row in self.matrix
        )
        return CubeMap((a, b, c))

    @property
    def determinant(self) -> int:
        """+1 for a rotation, -1 for a map that mirrors."""
        (a, b, c), (d, e, f), (g, h, i) = self.matrix
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)

    def is_identity(self) -> bool:
        """True for the identity."""
        return self == IDENTITY


def _signed_permutations() -> list[CubeMap]:
    maps = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            a, b, c = (
                tuple(signs[r] if col == perm[r] else 0 for col in range(3)) for r in range(3)
            )
            maps.append(CubeMap((a, b, c)))  # type: ignore[arg-type]
    return maps


#: The 48 isometries, the identity first.
ISOMETRIES: tuple[CubeMap, ...] = tuple(_signed_permutations())
IDENTITY = ISOMETRIES[0]
#: The 24 rotations.
ROTATIONS: tuple[CubeMap, ...] = tuple(g for g in ISOMETRIES if g.determinant > 0)
