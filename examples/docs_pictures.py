"""Draw the pictures the documentation pages show: ``python examples/docs_pictures.py OUTDIR``.

The pages are read on the site and in the repository alike, so the pictures they show are
committed under ``docs/images/``; this script makes them, and the test suite checks that
the committed files are still what it draws (``tests/test_docs_pictures.py``). Run it
with ``docs/images`` as OUTDIR after a change to the drawings.

- ``pentomino-box.svg``: what the getting-started page's program writes, made by running
  that very program (``BOX_PROGRAM``) with ``excover run`` in a scratch folder;
- ``nonogram-heart.svg`` and ``nonogram-ladybird.svg``: what ``excover nonogram FILE
  --svg OUT`` writes for two of the shipped puzzles (the nonogram tutorial);
- ``queens-classes.svg`` and ``pentomino-3x20-classes.svg``: the classes of solutions
  the symmetry page shows, drawn by the gallery's own functions (``examples/gallery.py``);
- ``grid-prism.svg``, ``grid-sphere.svg``, ``grid-rhombic.svg`` and ``grid-tetraocta.svg``:
  a small tiling on each of BurrTools' solid grids, exploded (the tiling page).
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import excover

EXAMPLES = Path(__file__).resolve().parent

#: The getting-started page's first program of one's own (the page shows it verbatim).
BOX_PROGRAM = """\
include "excover:pentominoes"

problem box = constant 10x6 true pentominoes
count dlx box
solve dlx box ascii
solve dlx box svg "box.svg"
"""


def _written_by(command: list[str], picture: str, files: dict[str, str] | None = None) -> str:
    """The SVG file ``picture`` that ``excover COMMAND`` writes, run in a scratch folder
    holding ``files`` (name: text) and a link to the examples."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "examples").symlink_to(EXAMPLES)
        for name, text in (files or {}).items():
            (folder / name).write_text(text, encoding="utf-8")
        # the excover this script imports (the source tree, or the installed package)
        source = str(Path(excover.__file__).resolve().parents[1])
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": source if not path else source + os.pathsep + path}
        subprocess.run(
            [sys.executable, "-m", "excover", *command],
            cwd=folder,
            env=env,
            check=True,
            capture_output=True,
        )
        return (folder / picture).read_text(encoding="utf-8")


def pentomino_box() -> str:
    """The SVG file that ``excover run box.cmb`` writes for ``BOX_PROGRAM``."""
    return _written_by(["run", "box.cmb"], "box.svg", {"box.cmb": BOX_PROGRAM})


def heart_nonogram() -> str:
    """The SVG file of the nonogram tutorial's heart, as ``--svg`` writes it."""
    command = ["nonogram", "examples/nonograms/heart.txt", "--svg", "heart.svg"]
    return _written_by(command, "heart.svg")


def ladybird_nonogram() -> str:
    """The SVG file of the nonogram tutorial's colour puzzle, as ``--svg`` writes it."""
    command = ["nonogram", "examples/nonograms/ladybird.txt", "--svg", "ladybird.svg"]
    return _written_by(command, "ladybird.svg")


def _from_gallery(name: str) -> Callable[[], str]:
    """The gallery's function ``name`` (``examples/gallery.py`` is a script, not a module)."""
    function: Callable[[], str] = runpy.run_path(str(EXAMPLES / "gallery.py"))[name]
    return function


def _exploded(grid: str) -> Callable[[], str]:
    """The first tiling of a small box of ``grid`` by its smallest pieces, exploded."""

    def draw() -> str:
        from itertools import product

        from excover.tiling import (
            PrismPattern,
            RhombicPattern,
            SpherePattern,
            TetraOctaPattern,
            Tile,
            Tiling,
            polyforms,
            rhombic_dodecahedron,
        )
        from excover.tiling.tile import Shape

        board: Shape
        shapes: list[Shape]
        if grid == "prism":  # a box of 6 x 2 triangles, 2 layers, by the triprisms
            board = PrismPattern.from_voxels(product(range(6), range(2), range(2)))
            shapes = [PrismPattern(p.tolist()) for p in polyforms("prism", 3)]
        elif grid == "sphere":  # a tetrahedron of 10 balls, by pairs
            layers = [(0, 0, 0), (1, 1, 0), (2, 2, 0), (1, 0, 1), (0, 1, 1), (2, 1, 1)]
            layers += [(1, 2, 1), (2, 0, 2), (0, 2, 2), (1, 1, 2)]
            board = SpherePattern(layers)
            shapes = [SpherePattern(p.tolist()) for p in polyforms("sphere", 2)]
        elif grid == "rhombic":  # four touching rhombic dodecahedra
            centres = [(1, 1, 1), (2, 2, 1), (2, 1, 2), (1, 2, 2)]
            board = RhombicPattern([c for m in centres for c in rhombic_dodecahedron(m)])
            shapes = [RhombicPattern(rhombic_dodecahedron((0, 0, 0)))]
        else:  # an octahedron with a tetrahedron on each face, by pairs of cells
            corners = list(product((2, 3), repeat=3))
            regular = {tuple(3 * (v // 3) + 1 for v in c) for c in corners}
            board = TetraOctaPattern(corners + sorted(regular))
            shapes = [TetraOctaPattern(p.tolist()) for p in polyforms("tetraocta", 2)]
        tiles = [Tile(shape, f"p{k}", "any") for k, shape in enumerate(shapes)]
        solution = Tiling(board, tiles).first()
        assert solution is not None, grid
        return solution.exploded_svg(cell_size=50 if grid == "rhombic" else 40)

    return draw


def _deepest_unique_burr(moves: int) -> Callable[[], str]:
    """The deepest notchable burr with a unique solution (Cutler's survey: pieces 39 53
    53 54 57 57, level 5.4), after ``moves`` moves of its solution."""

    def draw() -> str:
        from excover.burr import disassemble_all
        from excover.burr.designs import design_puzzle
        from excover.burr.pictures import state_svg

        found = disassemble_all(design_puzzle((38, 52, 52, 53, 56, 56)), 0, complete=False)
        (solved,) = [result for result in found if result.status == "solved"]
        return state_svg(solved, solved.states[moves], size=260)

    return draw


#: The pictures: file name (without .svg) and the function that draws it.
PICTURES: dict[str, Callable[[], str]] = {
    "pentomino-box": pentomino_box,
    "nonogram-heart": heart_nonogram,
    "nonogram-ladybird": ladybird_nonogram,
    "queens-classes": _from_gallery("queens_classes"),
    "pentomino-3x20-classes": _from_gallery("pentomino_3x20_classes"),
    **{f"grid-{grid}": _exploded(grid) for grid in ("prism", "sphere", "rhombic", "tetraocta")},
    "notchable-5.4-assembled": _deepest_unique_burr(0),
    "notchable-5.4-opened": _deepest_unique_burr(4),
}


def draw_all(folder: Path) -> list[Path]:
    """Write every picture into ``folder`` as NAME.svg; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in PICTURES.items():
        path = folder / f"{name}.svg"
        path.write_text(draw(), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/docs_pictures.py OUTDIR")
    for written in draw_all(Path(sys.argv[1])):
        print(written)
