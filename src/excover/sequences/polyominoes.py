"""A328020: the n x n square tiled by free n-ominoes, up to the square's symmetries.

Jeff Bowermaster's sequence (2019) counts the "distinct tilings of an n X n square with
free n-polyominoes": the square is cut into n pieces of n cells each, any n-omino any
number of times (the 3 x 3 square cut into three straight trominoes counts), and two
tilings that a rotation or reflection of the square maps onto each other are one
(a(2) = 1: the two dominoes lie both across or both along, one tiling up to a quarter
turn; a(3) = 2). The pieces are not labelled: a tiling is the partition of the square.

The exact cover: one primary item per cell, one option per placement of each fixed
n-omino (every free n-omino turned and flipped every way, each distinct orientation
once), built by :class:`excover.tiling.Tiling` with each piece used any number of times.
The problem declares the 8 symmetries of the square, and the count is the number of
orbits of solutions under them (:meth:`excover.ExactCover.count` with
``up_to_symmetry=True``).
"""

from __future__ import annotations

from excover.solving import ExactCover

__all__ = ["square_by_ominoes"]


def square_by_ominoes(n: int) -> ExactCover:
    """The exact cover whose solutions are the tilings of the ``n x n`` square by
    ``n``-ominoes, declaring the square's symmetries (whose orbits A328020 counts)."""
    from excover.tiling import Pattern, Tiling, polyominoes, tiles

    tiling = Tiling(Pattern.constant(n, n), tiles(polyominoes(n), multiplicity="any"))
    problem = tiling.problem
    problem.declare_symmetries([maps.tolist() for maps in tiling.symmetry.option_maps])
    return problem
