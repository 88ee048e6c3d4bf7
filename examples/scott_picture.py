"""Draw one solution of Scott's problem (the 12 pentominoes in an 8x8 square with a 2x2
hole in the middle) as an SVG picture: ``python examples/scott_picture.py OUT.svg``."""

import sys

from excover.tiling import Pattern, Tile, Tiling, pentominoes

board = Pattern.from_ascii(
    """
********
********
********
***..***
***..***
********
********
********"""
)
tiles = [Tile(shape, multiplicity="one", symmetry="all") for shape in pentominoes().values()]
tiling = Tiling(board, tiles)
solution = tiling.first()
assert solution is not None
with open(sys.argv[1] if len(sys.argv) > 1 else "scott.svg", "w", encoding="utf-8") as out:
    out.write(solution.svg())
