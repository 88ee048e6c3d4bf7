"""The studio's designs on every grid, without a server: the page's drawings and the
tiling library's patterns (both ways), the ``.cmb`` program of a design (``excover run``
counts it as the library does; the studio opens it again as the same design), and the
checks of what the page sends.

The drawings' layout is checked against an independent description: the page draws a
hexagon of offset rows at known plane positions and a triangle pointing up or down by the
parity of its column and row; the patterns the drawings become must put their cells at
the same positions, up to a translation of the whole."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import excover
from excover.studio.cells import cmb_pattern, drawing, shape
from excover.studio.design import StudioDesign, StudioDesignError
from excover.studio.program import from_cmb
from excover.tiling import Tile, Tiling, polyhexes, polyiamonds, soma_pieces
from excover.tiling.grids import HEX_BASIS, TRIANGLE_NORMALS

ROOT = Path(__file__).resolve().parents[1]


def layers(grid: str) -> st.SearchStrategy[tuple[tuple[str, ...], ...]]:
    """Random drawings with at least one cell (layers on the cube)."""
    depth = st.integers(1, 3) if grid == "cube" else st.just(1)

    def frame(width: int, height: int, count: int) -> st.SearchStrategy[Any]:
        row = st.text(alphabet="*..", min_size=width, max_size=width)
        layer = st.lists(row, min_size=height, max_size=height).map(tuple)
        return st.lists(layer, min_size=count, max_size=count).map(tuple)

    return (
        st.tuples(st.integers(1, 6), st.integers(1, 6), depth)
        .flatmap(lambda size: frame(*size))
        .filter(lambda drawn: any("*" in row for layer in drawn for row in layer))
    )


def normal(grid: str, drawn: tuple[tuple[str, ...], ...]) -> list[list[int]]:
    found = shape(grid, drawn)
    result: list[list[int]] = found.grid.normalize(found.coords()).tolist()
    return result


def centres(grid: str, drawn: tuple[tuple[str, ...], ...]) -> list[tuple[float, float]]:
    """The plane positions of the cells of a planar drawing as the page draws them (x to
    the right, y upward), up to one translation: the page's layout, written out here."""
    (rows,) = drawn
    spots = []
    for i, row in enumerate(rows):
        for j, char in enumerate(row):
            if char != "*":
                continue
            if grid == "hex":  # hexagons of circumradius 1, odd rows shifted by half
                spots.append((math.sqrt(3) * (j + (i % 2) / 2), -1.5 * i))
            else:  # triangles of height 1: up ones have their centre 1/3 above the base
                up = (i + j) % 2 == 0
                side = 2 / math.sqrt(3)
                spots.append((j * side / 2, -i - (2 / 3 if up else 1 / 3)))
    return spots


def plane(grid: str, cells: list[list[int]]) -> list[tuple[float, float]]:
    """The centres of the library's cells in the plane (the library's own geometry)."""
    if grid == "hex":
        return [tuple((HEX_BASIS @ np.array(cell, dtype=float)).tolist()) for cell in cells]
    to_plane = np.linalg.pinv(TRIANGLE_NORMALS)
    found = []
    for a, b, c in cells:
        if a + b + c == 1:
            corners = [(a - 1, b, c), (a, b - 1, c), (a, b, c - 1)]
        else:
            corners = [(a - 1, b - 1, c), (a - 1, b, c - 1), (a, b - 1, c - 1)]
        points = np.array([to_plane @ np.array(v, dtype=float) for v in corners])
        found.append(tuple(points.mean(axis=0).tolist()))
    return found


def same_up_to_translation(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    def rounded(spots: Any) -> list[tuple[float, float]]:
        return sorted((round(x, 4) + 0.0, round(y, 4) + 0.0) for x, y in spots)

    def lowest(spots: list[tuple[float, float]]) -> Any:
        return np.array(min(spots, key=lambda spot: rounded([spot])))

    shift = lowest(a) - lowest(b)
    return rounded((np.array(b) + shift).tolist()) == rounded(a)


@pytest.mark.parametrize("grid", ["hex", "triangle"])
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_the_page_layout_is_the_library_geometry(grid: str, data: st.DataObject) -> None:
    drawn = data.draw(layers(grid))
    cells = shape(grid, drawn).coords().tolist()
    assert same_up_to_translation(centres(grid, drawn), plane(grid, cells))


@pytest.mark.parametrize("grid", ["square", "hex", "triangle", "cube"])
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_drawings_and_patterns_go_both_ways(grid: str, data: st.DataObject) -> None:
    drawn = data.draw(layers(grid))
    again = drawing(shape(grid, drawn))
    assert normal(grid, again) == normal(grid, drawn)
    assert drawing(shape(grid, again)) == again  # the smallest frame is a fixed point
    keyword = "pattern3" if grid == "cube" else "pattern"
    program = f"{keyword} p = {cmb_pattern(grid, drawn)}\nproblem3 q = p [p]\n"
    if grid != "cube":
        program = program.replace("problem3", "problem")
    opened = from_cmb(program)
    assert normal(grid, opened.board) == normal(grid, drawn)


def test_full_frames_come_back_whole() -> None:
    for grid in ("square", "hex", "triangle"):
        for width in range(1, 6):
            for height in range(1, 6):
                full = (("*" * width,) * height,)
                assert drawing(shape(grid, full)) == full, (grid, width, height)


def run_program(text: str, tmp_path: Path) -> str:
    path = tmp_path / "design.cmb"
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "excover", "run", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        # the excover this test imports (the source tree, or the installed package)
        env={"PYTHONPATH": str(Path(excover.__file__).resolve().parents[1]), "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def soma() -> dict[str, Any]:
    pieces = [
        {"name": name, "cells": [list(layer) for layer in drawing(p)], "symmetry": "rotations"}
        for name, p in soma_pieces().items()
    ]
    return {"grid": "cube", "board": [["***"] * 3] * 3, "pieces": pieces}


def ring() -> dict[str, Any]:
    """The hexagon of side 3 without its centre (examples/trihexes.cmb), trihexes."""
    board = [".***.", "****.", "**.**", "****.", ".***."]
    pieces = [
        {"name": f"tri{k}", "cells": list(drawing(p)[0]), "count": "any"}
        for k, p in enumerate(polyhexes(3))
    ]
    return {"grid": "hex", "board": board, "pieces": pieces}


def lozenges() -> dict[str, Any]:
    """The hexagon of side 2 on the triangular grid (examples/lozenges.cmb), lozenges."""
    board = ["..*****.", ".*******", ".*******", "..*****."]
    (lozenge,) = polyiamonds(2)
    return {
        "grid": "triangle",
        "board": board,
        "pieces": [{"name": "lozenge", "cells": list(drawing(lozenge)[0]), "count": "any"}],
    }


@pytest.mark.parametrize(
    ("make", "counts"),
    [(soma, (11520, 240)), (ring, (311, 34)), (lozenges, (20, None))],
    ids=["soma", "trihexes", "lozenges"],
)
def test_a_program_of_each_grid_counts_as_the_library(
    make: Any, counts: tuple[int, int | None], tmp_path: Path
) -> None:
    design = StudioDesign.from_json(make())
    tiling = design.tiling()
    total, classes = tiling.count(), tiling.count(up_to_symmetry=True)
    assert total == counts[0]  # published: examples/*.cmb name their sources
    assert counts[1] in (None, classes)
    printed = run_program(design.to_cmb(), tmp_path)
    assert f"puzzle : (DLX) {total} solutions\n" in printed
    assert f"puzzle : (DLX) {classes} solutions up to symmetry\n" in printed
    assert from_cmb(design.to_cmb()) == design  # and the studio opens it again


def test_the_library_builds_the_same_problems_by_itself() -> None:
    """The ring and the lozenge hexagon as the library's own patterns count the same."""
    from excover.tiling import HexPattern, TrianglePattern

    ring_board = HexPattern.from_ascii("  * * *\n * * * *\n* * . * *\n * * * *\n  * * *")
    trihexes = [Tile(p, f"t{k}", "any") for k, p in enumerate(polyhexes(3))]
    assert Tiling(ring_board, trihexes).count() == StudioDesign.from_json(ring()).tiling().count()
    hexagon = TrianglePattern.from_ascii("..*****\n.*******\n.*******\n..*****")
    (lozenge,) = polyiamonds(2)
    library = Tiling(hexagon, [Tile(lozenge, "l", "any")]).count(up_to_symmetry=True)
    assert library == StudioDesign.from_json(lozenges()).tiling().count(up_to_symmetry=True)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"grid": "octagon"}, "grid"),
        ({"grid": "cube", "board": ["***"]}, "board"),
        ({"grid": "cube", "board": [["**"], ["***"]]}, "board layer 2"),
        ({"grid": "cube", "board": [["*"]] * 17}, "board"),
        (
            {"grid": "hex", "pieces": [{"name": "a", "cells": ["*"], "symmetry": "rot180"}]},
            "piece 1 'a'",
        ),
        ({"pieces": [{"name": "a", "cells": ["..."]}]}, "piece 1 'a'"),
    ],
)
def test_bad_designs_name_the_field_at_fault(change: dict[str, Any], where: str) -> None:
    data = {"board": ["**"], "pieces": [{"name": "d", "cells": ["**"]}], **change}
    with pytest.raises(StudioDesignError) as refused:
        StudioDesign.from_json(data)
    assert refused.value.where == where


def test_a_program_with_tiles_of_another_grid_is_refused_with_its_line() -> None:
    from excover.lang.errors import LangError

    program = "pattern b = hex{* * *}\npattern t = {***}\nproblem p = b [t]\n"
    with pytest.raises(LangError) as refused:
        from_cmb(program)
    assert refused.value.pos.line == 3


def test_a_programs_patterns_share_one_budget_in_the_studio() -> None:
    """Patterns each under the frame limit but together past the program's budget are
    refused at the first one past it, as ``excover run`` refuses them (lang.limits)."""
    from excover.lang.errors import LangError

    lines = [f"pattern a{number} = constant 4096x4096 false\n" for number in range(40)]
    program = "".join(lines) + "problem p = constant 2x2 true [{**} ~sym]\n"
    with pytest.raises(LangError, match="past the 512 MiB") as refused:
        from_cmb(program)
    assert refused.value.pos.line == 33
