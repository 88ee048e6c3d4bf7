"""The studio's 3D view of a solution: what the server sends for it (each piece's closed
surface, or its balls), and the page turning the Soma cube's pieces, pulled apart, in
headless Chromium (the fixtures of ``test_studio_browser``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pictures import read_png
from playwright.sync_api import Page
from test_studio_browser import browser, colours, page, result, server  # noqa: F401

from excover.studio.library import solid_view
from excover.tiling import Pattern3, SpherePattern, Tile, Tiling, polyspheres, soma_pieces, tiles
from excover.tiling.colours import tile_colour


def test_the_view_has_each_piece_closed_surface_and_colour() -> None:
    solution = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces())).first()
    assert solution is not None
    view = solid_view(solution)
    assert [p["colour"] for p in view["pieces"]] == [tile_colour(k) for k in range(7)]
    assert [p["name"] for p in view["pieces"]] == [q.tile.name for q in solution.placements]
    for piece, placement in zip(view["pieces"], solution.placements, strict=True):
        edges: Counter[tuple[tuple[float, ...], tuple[float, ...]]] = Counter()
        for face in piece["faces"]:
            points = [tuple(p) for p in face["points"]]
            assert len(face["creases"]) == len(points) == 4
            for a, b in zip(points, points[1:] + points[:1], strict=True):
                edges[a, b] += 1
        assert all(edges[b, a] == n for (a, b), n in edges.items())  # closed, wound alike
        inside = sum(
            1
            for c in placement.cells
            for d in placement.cells
            if sum(abs(u - v) for u, v in zip(c, d, strict=True)) == 1
        )
        assert len(piece["faces"]) == 6 * len(placement.cells) - inside
    board = SpherePattern([(0, 0, 0), (1, 1, 0), (2, 0, 0), (1, 0, 1)])
    balls = Tiling(board, [Tile(polyspheres(2)[0], "pair", "any")]).first()
    assert balls is not None
    assert sorted(len(p["balls"]) for p in solid_view(balls)["pieces"]) == [2, 2]


@pytest.mark.slow  # a long session of clicks
def test_the_soma_cube_turns_in_3d(page: Page, tmp_path: Path) -> None:  # noqa: F811
    page.select_option("#grid", "cube")
    page.wait_for_function("document.querySelectorAll('#board .cell.on').length === 9")
    page.select_option("#family", "Soma pieces")
    for name in "VLTZABP":
        page.click(f'.piece[data-name="{name}"] svg')
    page.uncheck("#reflections")
    assert result(page, "#count-symmetry") == 240
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    page.check('input[name="view"][value="3d"]')
    canvas = page.locator("#solution canvas")
    canvas.wait_for()
    assert int(canvas.get_attribute("data-drawn") or 0) > 20  # faces turned to the viewer
    labels = (canvas.get_attribute("data-labels") or "").split("|")
    assert sorted(labels) == sorted("VLTZABP")  # each piece named on the view
    before = tmp_path / "before.png"
    canvas.screenshot(path=str(before))
    assert colours(read_png(before)) >= 7  # seven pieces, each face shaded
    box = canvas.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 200, box["y"] + 190)
    page.mouse.down()
    page.mouse.move(box["x"] + 300, box["y"] + 150, steps=6)
    page.mouse.up()
    assert canvas.get_attribute("data-yaw") != f"{-3.141592653589793 / 4:.3f}"
    after = tmp_path / "after.png"
    canvas.screenshot(path=str(after))
    assert (read_png(before) != read_png(after)).any()  # turned
    page.fill("#explode", "0")
    page.dispatch_event("#explode", "input")
    together = tmp_path / "together.png"
    canvas.screenshot(path=str(together))
    assert (read_png(together) != read_png(after)).any()  # pushed together
