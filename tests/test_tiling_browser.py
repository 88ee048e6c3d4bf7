"""The SVG pictures of tilings, rendered by a real browser (headless Chromium).

Each picture is screenshot to a PNG, decoded by :func:`pictures.read_png` (no image
library), and checked against the SVG it came from: the centre of every cell polygon
shows that polygon's fill colour, every tile colour of the tiling is on screen over a
fair share of the area its cells cover, and the outlines between pieces are drawn dark.
Skipped only when no Chromium is installed outside CI (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from pictures import Image, read_png

from excover.tiling import (
    HexPattern,
    Pattern,
    Pattern3,
    Tiling,
    TilingSolution,
    TrianglePattern,
    pentominoes,
    polyhexes,
    polyiamonds,
    soma_pieces,
    tiles,
)

CHROMIUM = next(
    (path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None
)
# Skipped without Chromium on a developer's machine only: under CI (which installs it) the
# tests run and fail if it is missing.
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None and not os.environ.get("CI"), reason="Chromium is not installed"
    ),
    # one browser start draws the pictures of every grid (the fixture below): on one worker
    pytest.mark.xdist_group("tiling pictures in chromium"),
]

#: Blank pixels between two pictures of the page.
GAP = 40


def screenshots(svgs: dict[str, str], folder: Path) -> dict[str, Image]:
    """Each SVG as headless Chromium draws it, at one pixel per SVG unit: the pictures
    stacked in one page (each an ``<img>`` at a known place), one browser start for all
    (each start costs most of a second of CPU), the screenshot cut back into pictures."""
    places: dict[str, tuple[int, int, int]] = {}
    images, top = [], 0
    for name, svg in svgs.items():
        root = ET.fromstring(svg)
        width, height = int(root.get("width", "0")), int(root.get("height", "0"))
        (folder / f"{name}.svg").write_text(svg, encoding="utf-8")
        images.append(
            f'<img src="{name}.svg" width="{width}" height="{height}" '
            f'style="position:absolute;left:0;top:{top}px">'
        )
        places[name] = (top, width, height)
        top += height + GAP
    source = folder / "pictures.html"
    source.write_text(
        '<!DOCTYPE html><html><body style="margin:0;background:#fff">'
        + "".join(images)
        + "</body></html>",
        encoding="utf-8",
    )
    target = folder / "pictures.png"
    assert CHROMIUM is not None
    widest = max(width for _, width, _ in places.values())
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={folder / 'profile'}",
            f"--window-size={widest + 40},{top + 200}",  # room for the hidden browser frame
            f"--screenshot={target}",
            source.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    page = read_png(target)
    return {
        name: page[start : start + height, :width]
        for name, (start, width, height) in places.items()
    }


def rgb(fill: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a triple of ints."""
    return (int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16))


def most_varied(tiling: Tiling) -> TilingSolution:
    """Among the first tilings found, one using the most distinct tiles."""
    return max(tiling.solutions(limit=200), key=lambda s: len({p.tile.name for p in s}))


CASES: dict[str, Callable[[], Tiling]] = {
    "square": lambda: Tiling(Pattern.constant(5, 4), tiles(pentominoes(), "maybe")),
    "hex": lambda: Tiling(
        HexPattern([(q, r) for q in range(3) for r in range(4)]), tiles(polyhexes(3), "any")
    ),
    "triangle": lambda: Tiling(
        TrianglePattern.from_ascii("********\n********"), tiles(polyiamonds(4), "any")
    ),
    "cube": lambda: Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations")),
}


@pytest.fixture(scope="module")
def drawn(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[TilingSolution, str, Image]]:
    """For each grid of :data:`CASES`: a solution, its SVG and Chromium's picture of it."""
    solutions = {grid: most_varied(make()) for grid, make in CASES.items()}
    svgs = {grid: solution.svg(cell_size=30) for grid, solution in solutions.items()}
    images = screenshots(svgs, tmp_path_factory.mktemp("pictures"))
    return {grid: (solutions[grid], svgs[grid], images[grid]) for grid in CASES}


@pytest.mark.parametrize("grid", list(CASES))
def test_browser_draws_each_cell_in_its_tile_colour(
    grid: str, drawn: dict[str, tuple[TilingSolution, str, Image]]
) -> None:
    solution, svg, image = drawn[grid]
    root = ET.fromstring(svg)
    polygons = [e for e in root.iter() if e.tag.endswith("polygon")]
    assert len(polygons) == sum(len(p.cells) for p in solution)
    fills = {p.get("fill", "") for p in polygons}
    assert len(fills) == len({p.tile.name for p in solution}) >= 2
    area: dict[str, float] = dict.fromkeys(fills, 0.0)
    for polygon in polygons:
        points = np.array(
            [[float(v) for v in pair.split(",")] for pair in polygon.get("points", "").split()]
        )
        x, y = points.mean(axis=0)
        seen = image[int(y), int(x)].astype(int)
        expected = np.array(rgb(polygon.get("fill", "")))
        assert np.abs(seen - expected).max() <= 8, (grid, (x, y), seen, expected)
        xs, ys = points[:, 0], points[:, 1]  # the shoelace formula
        area[polygon.get("fill", "")] += (
            abs(float(np.dot(xs, np.roll(ys, 1)) - np.dot(ys, np.roll(xs, 1)))) / 2
        )
    for fill, expected_area in area.items():
        close = np.abs(image.astype(int) - np.array(rgb(fill))).max(axis=2) <= 8
        assert 0.3 * expected_area <= close.sum() <= 1.05 * expected_area, (grid, fill)
    dark = (image.astype(int).max(axis=2) <= 0x50).sum()
    assert dark > 0.02 * sum(area.values()), grid  # piece outlines are drawn
