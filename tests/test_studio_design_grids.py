"""The studio's designs on BurrTools' solid grids (prisms, balls, rhombic dodecahedra,
tetrahedra-octahedra): drawings read as the grid's cells and drawn back, the catalog's
families, the size and grid checks, and the exported ``.cmb`` program counting as the
design's own tiling and opening as the same design."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from excover.lang import Interpreter, parse
from excover.studio.catalog import families
from excover.studio.cells import on_grid, shape
from excover.studio.design import MAX_RHOMBIC_SIDE, StudioDesign, StudioDesignError
from excover.studio.program import from_cmb
from excover.tiling import rhombic_dodecahedron
from excover.tiling.grids import GRIDS
from excover.tiling.tile import Shape

NEW_GRIDS = ("prism", "sphere", "rhombic", "tetraocta")

#: A small design on each grid: a board (layers, bottom first) and pieces of the catalog.
DESIGNS: dict[str, dict[str, Any]] = {
    "prism": {
        "board": [["****", "****"], ["****", "****"]],
        "pieces": {"P2a": "any", "P2b": "any"},
    },
    "sphere": {
        "board": [["*.*", ".*.", "*.*"], [".*.", "*.*", ".*."]],
        "pieces": {"S2": "any", "S3a": "0..1"},
    },
    "rhombic": {
        "board": [[".*.", "*.*"], ["*.*", ".*."]],
        "pieces": {"R2": "any"},
    },
    "tetraocta": {
        # the voxels of 2 x 2 cubes that are cells (each cube: a regular tetrahedron and
        # four corners), found by the grid itself
        "board": None,
        "pieces": {"TO2a": "any", "TO2b": "any"},
    },
}


def catalog(grid: str) -> dict[str, Any]:
    return {p["name"]: p["cells"] for f in families() if f["grid"] == grid for p in f["pieces"]}


def design(grid: str) -> dict[str, Any]:
    spec = DESIGNS[grid]
    board = spec["board"]
    if board is None:
        board = [
            [
                "".join("*" if on_grid(grid, x, 5 - i, z) else "." for x in range(6))
                for i in range(6)
            ]
            for z in range(3)
        ]
    pieces = catalog(grid)
    return {
        "grid": grid,
        "board": board,
        "pieces": [
            {"name": name, "cells": pieces[name], "count": count, "symmetry": "all"}
            for name, count in spec["pieces"].items()
        ],
    }


def count_program(text: str) -> int:
    out = io.StringIO()
    Interpreter(out, io.StringIO()).run(parse(text, "puzzle.cmb"))
    first = next(line for line in out.getvalue().splitlines() if " solutions" in line)
    return int(first.split(") ")[1].split()[0])


@pytest.mark.parametrize("grid", NEW_GRIDS)
def test_the_exported_program_counts_as_the_design(grid: str) -> None:
    made = StudioDesign.from_json(design(grid))
    number = made.tiling().count()
    assert number > 0
    text = made.to_cmb()
    assert f"pattern3 board = {grid} [" in text and "count3 dlx puzzle" in text
    assert count_program(text) == number
    again = from_cmb(text)
    assert again.grid == grid
    assert again.tiling().count() == number
    assert {p.name: p.count for p in again.pieces} == {p.name: p.count for p in made.pieces}


@pytest.mark.parametrize("grid", NEW_GRIDS)
def test_the_catalog_draws_its_pieces_on_the_grid(grid: str) -> None:
    found = [f for f in families() if f["grid"] == grid]
    assert found and all(f["symmetry"] == "all" for f in found)
    names = [p["name"] for f in found for p in f["pieces"]]
    assert len(names) == len(set(names))
    for family in found:
        for piece in family["pieces"]:
            cells = piece["cells"]
            assert isinstance(cells, list) and all(isinstance(layer, list) for layer in cells)
            for z, rows in enumerate(cells):
                for i, row in enumerate(rows):
                    for x, char in enumerate(row):
                        assert char == "." or on_grid(grid, x, len(rows) - 1 - i, z)
            pattern = shape(grid, tuple(tuple(rows) for rows in cells))
            assert len(pattern.coords()) > 0


def test_the_layers_are_the_documented_cells() -> None:
    balls = shape("sphere", ((".*.", "*.*"), ("*.*", ".*.")))
    # (column, row from the bottom, layer): x + y + z even
    expected = [(1, 1, 0), (0, 0, 0), (2, 0, 0), (0, 1, 1), (2, 1, 1), (1, 0, 1)]
    assert sorted(map(tuple, balls.coords().tolist())) == sorted(expected)
    dodecahedra = shape("rhombic", ((".*", "*."),))
    both = rhombic_dodecahedron((1, 1, 0)) + rhombic_dodecahedron((0, 0, 0))
    assert sorted(map(tuple, dodecahedra.coords().tolist())) == sorted(both)
    prisms = shape("prism", (("*",), ("*",)))
    cells = prisms.coords().tolist()
    assert len(cells) == 2 and cells[0][:3] == cells[1][:3] and {c[3] for c in cells} == {0, 1}
    voxels = shape("tetraocta", (("*..", "...", "..."), ("...", ".*.", "...")))
    assert sorted(map(tuple, voxels.coords().tolist())) == [(0, 2, 0), (1, 1, 1)]
    assert all(GRIDS["tetraocta"].is_cell(c) for c in voxels.coords().tolist())


@pytest.mark.parametrize(
    ("grid", "board", "where"),
    [
        ("sphere", [["**"]], "board layer 1"),
        ("rhombic", [["*."], ["*."]], "board layer 2"),
        ("tetraocta", [["*"]], "board layer 1"),
    ],
)
def test_a_cell_off_the_grid_is_refused_where_it_is(
    grid: str, board: list[list[str]], where: str
) -> None:
    data = {"grid": grid, "board": board, "pieces": []}
    with pytest.raises(StudioDesignError) as caught:
        StudioDesign.from_json(data)
    assert caught.value.where == where
    assert "not a cell of the grid" in caught.value.detail


def test_a_rhombic_board_is_bounded_more_tightly() -> None:
    side = MAX_RHOMBIC_SIDE + 1
    rows = ["".join("*" if (x + 1 - i) % 2 == 0 else "." for x in range(side)) for i in range(2)]
    with pytest.raises(StudioDesignError, match=f"expected 1 to {MAX_RHOMBIC_SIDE} of"):
        StudioDesign.from_json({"grid": "rhombic", "board": [rows], "pieces": []})
    StudioDesign.from_json({"grid": "sphere", "board": [rows], "pieces": []})  # balls: wider


def test_a_design_drawn_again_is_the_same_pattern() -> None:
    for grid in NEW_GRIDS:
        made = StudioDesign.from_json(design(grid))
        board: Shape = made.board_shape()
        again = StudioDesign.from_json(made.to_json()).board_shape()
        normal = board.grid.normalize
        assert np.array_equal(normal(board.coords()), normal(again.coords()))
