"""The problems the SAT benchmarks run on, built here so the benchmarks stand alone.

Knuth's files (Scott's pentomino problem, the 6x10 pentomino box) are read from the shared
benchmark directory; 16 queens and the large board, a 20x20 square packed with the 12
pentominoes once each and any number of dominoes, are generated below.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from excover import ExactCover

__all__ = ["KNUTH_DIR", "PENTOMINOES", "board", "problems", "queens"]

KNUTH_DIR = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "knuth"

#: The 12 pentominoes, rows separated by spaces, '#' a square.
PENTOMINOES = {
    "F": ".## ##. .#.",
    "I": "#####",
    "L": "#### #...",
    "N": "##.. .###",
    "P": "## ## #.",
    "T": "### .#. .#.",
    "U": "#.# ###",
    "V": "#.. #.. ###",
    "W": "#.. ##. .##",
    "X": ".#. ### .#.",
    "Y": "#### .#..",
    "Z": "##. .#. .##",
}

Shape = tuple[tuple[int, int], ...]


def _shapes(drawing: str) -> set[Shape]:
    """The distinct rotations and reflections of a drawn piece, each moved to the origin."""
    cells = [
        (r, c) for r, row in enumerate(drawing.split()) for c, mark in enumerate(row) if mark == "#"
    ]
    found: set[Shape] = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            top, left = min(r for r, _ in cells), min(c for _, c in cells)
            found.add(tuple(sorted((r - top, c - left) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return found


def board(size: int) -> ExactCover:
    """A size x size square covered by the 12 pentominoes (each exactly once) and any
    number of dominoes: cells and piece names are primary items."""
    cells = [f"{r}_{c}" for r in range(size) for c in range(size)]
    problem = ExactCover(primary=[*cells, *PENTOMINOES])
    pieces = [(name, _shapes(drawing)) for name, drawing in PENTOMINOES.items()]
    pieces.append(("", _shapes("##")))
    for name, shapes in pieces:
        for shape in sorted(shapes):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for top in range(size - height + 1):
                for left in range(size - width + 1):
                    placed = [f"{top + r}_{left + c}" for r, c in shape]
                    problem.add_option([name, *placed] if name else placed)
    return problem


def queens(n: int) -> ExactCover:
    """n queens in Knuth's formulation: rows and columns primary, diagonals secondary."""
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    problem = ExactCover(primary=lines, secondary=diagonals)
    for i in range(n):
        for j in range(n):
            problem.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return problem


def problems() -> dict[str, Callable[[], ExactCover]]:
    """The benchmark problems by name, built on demand."""
    return {
        "scott": lambda: ExactCover.read(KNUTH_DIR / "scott.dlx"),
        "pento6x10": lambda: ExactCover.read(KNUTH_DIR / "pento6x10.dlx"),
        "queens16": lambda: queens(16),
        "board20": lambda: board(20),
    }
