"""The grids as the server describes them to the page (excover.studio.page_grids): the
page keeps no copy of their geometry, so what it is sent must draw what it drew before."""

from __future__ import annotations

import math
import re
from itertools import product
from pathlib import Path

import pytest

from excover.studio.cells import GRIDS, LAYERED, on_grid
from excover.studio.design import max_side
from excover.studio.page_grids import VOXELS, page_grids
from excover.tiling.grids import GRIDS as REGISTRY

STATIC = Path(__file__).resolve().parent.parent / "src" / "excover" / "studio" / "static"

#: What the page held before the server sent it (studio.js, 2026-11-29).
OLD_SHIFT = {
    "hex": [1, 2, 1],
    "triangle": [2, 2, 1],
    "prism": [2, 2, 1],
    "sphere": [2, 2, 2],
    "rhombic": [2, 2, 2],
    "tetraocta": [6, 6, 6],
}
OLD_TURNING = {"square", "cube", VOXELS}
OLD_LAYER = {"prism": "triangle", "sphere": "ball", "rhombic": "ball", "cube": "square"}
OLD_LAYER["tetraocta"] = "square"
#: The page's own frames of a new board (width, height, layers) and its grid menu's words
#: (studio.js FRAMES and index.html's options, 2026-11-29), now the grids' traits.
OLD_FRAMES = {
    "square": [10, 6, 1],
    "hex": [5, 5, 1],
    "triangle": [8, 4, 1],
    "cube": [3, 3, 3],
    "prism": [6, 2, 2],
    "sphere": [5, 5, 3],
    "rhombic": [3, 3, 2],
    "tetraocta": [6, 6, 3],
}
OLD_LABELS = {
    "square": "squares",
    "hex": "hexagons",
    "triangle": "triangles",
    "cube": "cubes (a box of layers)",
    "prism": "triangular prisms (layers of triangles)",
    "sphere": "balls (layers of a sphere packing)",
    "rhombic": "rhombic dodecahedra (layers, as balls)",
    "tetraocta": "tetrahedra and octahedra (layers of voxels)",
}


def _old_outline(grid: str, x: int, y: int, size: float) -> list[tuple[float, float]]:
    """studio.js's outline() as it was."""
    if grid == "ball":
        r, cx, cy = size * 0.48, x * size + size / 2 + 1, y * size + size / 2 + 1
        return [
            (cx + r * math.cos(k * math.pi / 8), cy + r * math.sin(k * math.pi / 8))
            for k in range(16)
        ]
    if grid == "hex":
        r = size / math.sqrt(3)
        cx, cy = x * size + (y % 2) * size / 2 + size / 2 + 1, r + y * 1.5 * r + 1
        return [
            (
                cx + r * math.cos(math.radians(60 * k - 90)),
                cy + r * math.sin(math.radians(60 * k - 90)),
            )
            for k in range(6)
        ]
    if grid == "triangle":
        s = size * 1.25
        h, left, top = s * math.sqrt(3) / 2, x * s / 2 + 1, y * s * math.sqrt(3) / 2 + 1
        if (x + y) % 2 == 0:
            return [(left, top + h), (left + s, top + h), (left + s / 2, top)]
        return [(left, top), (left + s, top), (left + s / 2, top + h)]
    return [
        (x * size + 1, y * size + 1),
        ((x + 1) * size + 1, y * size + 1),
        ((x + 1) * size + 1, (y + 1) * size + 1),
        (x * size + 1, (y + 1) * size + 1),
    ]


def _old_extent(grid: str, width: int, height: int, size: float) -> tuple[float, float]:
    if grid == "hex":
        r = size / math.sqrt(3)
        return width * size + (size / 2 if height > 1 else 0) + 2, 2 * r + (
            height - 1
        ) * 1.5 * r + 2
    if grid == "triangle":
        s = size * 1.25
        return (width + 1) * s / 2 + 2, height * s * math.sqrt(3) / 2 + 2
    return width * size + 2, height * size + 2


def _outline(drawing: str, x: int, y: int, size: float) -> list[tuple[float, float]]:
    """studio.js's outline() as it is now, from what the server sends."""
    d = page_grids()["drawings"][drawing]
    left, top = x * d["advance"][0] + (y % 2) * d["stagger"], y * d["advance"][1]
    polygon = d["polygons"][(x + y) % 2 if d["alternating"] else 0]
    return [((left + px) * size + 1, (top + py) * size + 1) for px, py in polygon]


def _extent(drawing: str, width: int, height: int, size: float) -> tuple[float, float]:
    d = page_grids()["drawings"][drawing]
    advance, stagger, box = d["advance"], d["stagger"], d["box"]
    return (
        ((width - 1) * advance[0] + (stagger if height > 1 else 0) + box[0]) * size + 2,
        ((height - 1) * advance[1] + box[1]) * size + 2,
    )


def test_every_grid_the_studio_edits_is_described() -> None:
    grids = page_grids()["grids"]
    assert list(grids) == [*GRIDS, VOXELS]
    for name in GRIDS:
        described = grids[name]
        assert described["solid"] == (name in LAYERED)
        assert described["layer"] == OLD_LAYER.get(name, name)
        assert described["shift"] == OLD_SHIFT.get(name, [1, 1, 1])
        assert described["turning"] == (name in OLD_TURNING)
        assert described["max_side"] == max_side(name)
        assert described["burrtools"] == REGISTRY[name].traits.burrtools
        assert described["frame"] == OLD_FRAMES[name]
        assert described["label"] == OLD_LABELS[name]
        assert described["plays"] == (name in {"cube", "prism"})
    assert grids[VOXELS]["turning"] and grids[VOXELS]["solid"]
    assert grids[VOXELS]["label"] is None  # the workshop's, not in the grid menu


def test_every_grid_has_a_frame_and_a_label() -> None:
    """Every registered grid says how the studio starts a board of it."""
    for grid in REGISTRY.values():
        width, height, layers = grid.traits.studio_frame
        assert min(width, height, layers) >= 1 and grid.traits.studio_label
        assert layers == 1 or grid.solid


@pytest.mark.parametrize("grid", GRIDS)
def test_the_mask_is_on_grid(grid: str) -> None:
    """The page's onGrid (a period of spots) says what excover.studio.cells.on_grid does."""
    mask = page_grids()["grids"][grid]["mask"]
    for x, y, z in product(range(13), repeat=3):
        page = True if mask is None else mask[z % len(mask)][y % len(mask)][x % len(mask)]
        assert page == on_grid(grid, x, y, z), (x, y, z)


@pytest.mark.parametrize("drawing", ["square", "hex", "triangle", "ball"])
def test_the_drawings_draw_as_the_page_did(drawing: str) -> None:
    """Each cell's polygon and each frame's size are what the page drew with its own
    copies: the same corners (a ball's disc now has the ball outline's corners, on the
    same circle)."""
    for x, y, size in product(range(4), range(4), (8.0, 24.0)):
        new, old = _outline(drawing, x, y, size), _old_outline(drawing, x, y, size)
        if drawing == "ball":
            cx, cy = x * size + size / 2 + 1, y * size + size / 2 + 1
            assert all(math.isclose(math.hypot(px - cx, py - cy), size * 0.48) for px, py in new)
            continue
        key = sorted((round(px, 6), round(py, 6)) for px, py in new)
        assert key == sorted((round(px, 6), round(py, 6)) for px, py in old), (x, y)
    for width, height in product(range(1, 5), repeat=2):
        assert _extent(drawing, width, height, 10.0) == pytest.approx(
            _old_extent(drawing, width, height, 10.0)
        )


def named_grids(text: str, suffix: str) -> list[tuple[int, str]]:
    """The lines of a page's file (a script or the page) that name a grid: as a string
    (quoted), as a key of an object literal (``cube: [3, 3, 3]``) in a script, or as an
    option's words (``>squares<``) in the page."""
    names = "|".join(sorted(REGISTRY))
    forms = [rf"""["'`]({names})["'`]"""]
    if suffix == ".js":
        forms.append(rf"""(^|[{{,\s])({names})\s*:""")
    else:
        forms.append(rf">\s*({'|'.join(re.escape(w) for w in OLD_LABELS.values())})\s*<")
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if any(re.search(form, line) for form in forms)
    ]


def test_the_page_names_no_grid() -> None:
    """The page's scripts and the page itself keep no grid's name, as a string, an
    object's key (studio.js's FRAMES was the default board by grid) or an option of the
    grid menu: what they know of a grid is what the server sends (its menu's words and
    new board are the grid's traits, sent with the catalog)."""
    files = [*sorted(STATIC.glob("*.js")), STATIC / "index.html"]
    found = [
        f"{path.name}:{number}: {line}"
        for path in files
        for number, line in named_grids(path.read_text(encoding="utf-8"), path.suffix)
    ]
    assert not found, "\n".join(found)


def test_the_name_check_finds_what_the_page_held() -> None:
    """The check sees the forms the page used to name grids by."""
    script = "const FRAMES = {\n  square: [10, 6, 1], hex: [5, 5, 1],\n};\nf('cube');\n"
    assert [n for n, _ in named_grids(script, ".js")] == [2, 4]
    page = '<select id="grid">\n<option value="square">squares</option>\n</select>\n'
    assert [n for n, _ in named_grids(page, ".html")] == [2]
    assert not named_grids("const squares = 2; // a cube's faces: six", ".js")


def test_the_family_shown_first_is_the_one_the_page_showed() -> None:
    """The catalog marks the family the page shows first where it is not the grid's first."""
    from excover.studio.catalog import families

    old = {
        "square": "pentominoes",
        "hex": "monohex to trihexes",
        "triangle": "moniamond to triamond",
        "cube": "Soma pieces",
        "prism": "monoprism to triprisms",
        "sphere": "one to three balls",
        "rhombic": "one to three dodecahedra",
        "tetraocta": "tetrahedra and octahedron",
    }
    for grid, name in old.items():
        on_grid_ = [f for f in families() if f["grid"] == grid]
        marked = [f["name"] for f in on_grid_ if f["first"]]
        assert (marked[0] if marked else on_grid_[0]["name"]) == name
