"""The problems the SAT benchmarks run on, built here so the benchmarks stand alone.

Knuth's files (Scott's pentomino problem, the 6x10 pentomino box) are read from the repository's
benchmark directory; 16 queens comes from ``excover.puzzles.queens`` and the large board, a
20x20 square packed with the 12 pentominoes once each and any number of dominoes, from the
tiling library.
"""

from __future__ import annotations

from collections.abc import Callable

from _data import KNUTH_DATA

from excover import ExactCover
from excover.puzzles.queens import queens
from excover.tiling import Pattern, Tile, Tiling, pentominoes

__all__ = ["KNUTH_DIR", "board", "problems", "queens"]

KNUTH_DIR = KNUTH_DATA


def board(size: int) -> ExactCover:
    """A size x size square covered by the 12 pentominoes (each exactly once) and any
    number of dominoes, built with the tiling library."""
    tiles = [Tile(shape, name) for name, shape in pentominoes().items()]
    tiles.append(Tile("**", "domino", multiplicity="any"))
    return Tiling(Pattern.constant(size, size, True), tiles).problem


def problems() -> dict[str, Callable[[], ExactCover]]:
    """The benchmark problems by name, built on demand."""
    return {
        "scott": lambda: ExactCover.read(KNUTH_DIR / "scott.dlx"),
        "pento6x10": lambda: ExactCover.read(KNUTH_DIR / "pento6x10.dlx"),
        "queens16": lambda: queens(16),
        "board20": lambda: board(20),
    }
