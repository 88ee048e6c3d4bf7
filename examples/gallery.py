"""Draw the pictures of the documentation's gallery: ``python examples/gallery.py OUTDIR``.

Each picture is computed here, from the problem to its first solution, so the gallery
always shows what the current excover draws. The documentation build runs this script
(``docs/hooks/gallery.py``); the titles below become the gallery's captions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from excover import nonogram
from excover.puzzles import queens, sudoku
from excover.puzzles.sudoku import killer
from excover.tiling import (
    HexPattern,
    Pattern,
    Pattern3,
    Tiling,
    TrianglePattern,
    pentominoes,
    polyhexes,
    polyiamonds,
    soma_pieces,
    tiles,
)

EXAMPLES = Path(__file__).resolve().parent

CLASSIC_SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _first(tiling: Tiling) -> str:
    solution = tiling.first()
    assert solution is not None, "the gallery's problems all have solutions"
    return solution.svg()


def scott() -> str:
    """Scott's problem: the 12 pentominoes in an 8x8 square with a 2x2 hole."""
    board = Pattern.read(EXAMPLES / "scott_board.txt")
    return _first(Tiling(board, tiles(pentominoes())))


def pentomino_rectangle() -> str:
    """The 12 pentominoes in a 6x10 rectangle (one of 9,356 packings)."""
    return _first(Tiling(Pattern.constant(10, 6), tiles(pentominoes())))


def trihexes() -> str:
    """A hexagon of side 3 without its centre, tiled by the three trihexes."""
    cells = [
        (q, r)
        for q in range(-2, 3)
        for r in range(-2, 3)
        if max(abs(q), abs(r), abs(q + r)) <= 2 and (q, r) != (0, 0)
    ]
    return _first(Tiling(HexPattern(cells), tiles(polyhexes(3), "any")))


def tetriamonds() -> str:
    """A strip of triangles tiled by the three tetriamonds."""
    board = TrianglePattern.from_ascii("************\n************")
    return _first(Tiling(board, tiles(polyiamonds(4), "any")))


def soma_cube() -> str:
    """The Soma cube: seven pieces, one 3x3x3 cube (one of 11,520 ways, by rotations)."""
    return _first(Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations")))


def soma_cube_isometric() -> str:
    """The Soma cube seen from above: the same kind of solution, each piece in its own colour."""
    tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
    solution = tiling.first()
    assert solution is not None
    return solution.isometric_svg(32)


def eight_queens() -> str:
    """Eight queens on a chessboard, none attacking another (one of 92)."""
    first = queens.queens(8).first()
    assert first is not None
    return queens.svg_board(8, queens.decode(8, first))


def _side_by_side(pictures: list[str], columns: int, gap: int = 12) -> str:
    """Several SVG pictures of one size in a grid, as one SVG picture."""
    width = int(pictures[0].split('width="')[1].split('"')[0])
    height = int(pictures[0].split('height="')[1].split('"')[0])
    rows = -(-len(pictures) // columns)
    total_width = columns * width + (columns - 1) * gap
    total_height = rows * height + (rows - 1) * gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" '
        f'height="{total_height}" viewBox="0 0 {total_width} {total_height}">'
    ]
    for number, picture in enumerate(pictures):
        row, column = divmod(number, columns)
        at = f'<svg x="{column * (width + gap)}" y="{row * (height + gap)}" '
        parts.append(picture.replace("<svg ", at, 1))
    parts.append("</svg>")
    return "\n".join(parts)


def queens_classes() -> str:
    """The 12 essentially different placements of eight queens (92 up to the square's 8)."""
    problem = queens.queens(8)
    boards = [
        queens.svg_board(8, queens.decode(8, found), cell=16)
        for found in problem.solutions(up_to_symmetry=True)
    ]
    return _side_by_side(boards, columns=6)


def pentomino_3x20_classes() -> str:
    """The 2 essentially different packings of the pentominoes in a 3x20 rectangle (of 8)."""
    tiling = Tiling(Pattern.constant(20, 3), tiles(pentominoes()))
    found = [solution.svg() for solution in tiling.solutions(up_to_symmetry=True)]
    return _side_by_side(found, columns=1)


def classic_sudoku() -> str:
    """A classic sudoku with its solution."""
    return sudoku.svg_grid(CLASSIC_SUDOKU, sudoku.solve(CLASSIC_SUDOKU))


def killer_sudoku() -> str:
    """A killer sudoku: no givens, only cages with their sums."""
    cages = killer.read_cages((EXAMPLES / "sudoku" / "killer_cages.txt").read_text(), 9)
    solution = killer.solve(cages)
    return sudoku.svg_grid("." * 81, solution, cages=cages)


def heart_nonogram() -> str:
    """A nonogram and the picture its clues describe."""
    puzzle = nonogram.read(EXAMPLES / "nonograms" / "heart.non")
    return nonogram.svg_grid(puzzle, nonogram.solve(puzzle))


#: The gallery, in order: file name and the function that draws it.
PICTURES: dict[str, Callable[[], str]] = {
    "scott": scott,
    "pentomino-rectangle": pentomino_rectangle,
    "trihexes": trihexes,
    "tetriamonds": tetriamonds,
    "soma-cube": soma_cube,
    "soma-cube-isometric": soma_cube_isometric,
    "eight-queens": eight_queens,
    "queens-classes": queens_classes,
    "pentomino-3x20-classes": pentomino_3x20_classes,
    "classic-sudoku": classic_sudoku,
    "killer-sudoku": killer_sudoku,
    "heart-nonogram": heart_nonogram,
}


def draw_all(folder: Path) -> list[tuple[str, str]]:
    """Write every picture into ``folder`` as NAME.svg; return (file name, caption) pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn = []
    for name, draw in PICTURES.items():
        (folder / f"{name}.svg").write_text(draw(), encoding="utf-8")
        drawn.append((f"{name}.svg", (draw.__doc__ or name).strip()))
    return drawn


if __name__ == "__main__":
    for file_name, caption in draw_all(Path(sys.argv[1] if len(sys.argv) > 1 else "gallery")):
        print(f"{file_name}: {caption}")
