"""A solution taken apart in the studio's page (issue #56), and the 3D view saved as a PNG
(issue #57), in headless Chromium (the fixtures of ``test_studio_browser``): the maze of
``test_studio_disassembly`` opened from its program, its solution shown in 3D, Disassemble
giving its level, the slider and Play moving the cube out of the frame."""

from __future__ import annotations

from pathlib import Path

import pytest
from pictures import read_png
from playwright.sync_api import Page
from test_studio_browser import browser, colours, page, server  # noqa: F401
from test_studio_disassembly import maze_design

from excover.studio.design import StudioDesign

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def maze_in_3d(page: Page, tmp_path: Path) -> None:  # noqa: F811
    """Open the maze's program, find its solution and show it in 3D."""
    program = tmp_path / "maze.cmb"
    program.write_text(StudioDesign.from_json(maze_design()).to_cmb())
    page.set_input_files("#import", str(program))
    page.wait_for_function("document.getElementById('grid').value === 'cube'")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    page.check('input[name="view"][value="3d"]')
    page.locator("#solution canvas").wait_for()


@pytest.mark.slow  # a browser session playing a disassembly
def test_a_solution_is_taken_apart_and_played(page: Page, tmp_path: Path) -> None:  # noqa: F811
    maze_in_3d(page, tmp_path)
    page.click("#disassemble")
    level = page.locator("#disassembly-level[data-status]")
    level.wait_for()
    assert level.inner_text() == "level 4, 4 moves"
    assert page.inner_text("#disassembly-move") == "assembled"
    canvas = page.locator("#solution canvas")
    assembled = tmp_path / "assembled.png"
    canvas.screenshot(path=str(assembled))
    page.fill("#disassembly-step", "4")
    page.dispatch_event("#disassembly-step", "input")
    assert canvas.get_attribute("data-position") == "4.000"
    said = page.inner_text("#disassembly-move")  # the frame stays put
    assert said.startswith("move 4 of 4: cube ") and said.endswith(" out")
    apart = tmp_path / "apart.png"
    canvas.screenshot(path=str(apart))
    assert (read_png(assembled) != read_png(apart)).any()  # the cube has left the frame
    page.evaluate(WATCH)
    page.click("#disassembly-play")  # from the end: played again from the start
    page.wait_for_function(
        "document.querySelector('#solution canvas').dataset.position === '4.000'"
        " && document.getElementById('disassembly-play').textContent === 'Play'",
        polling=100,
    )
    seen = [float(p) for p in page.evaluate("window.positions")]
    assert seen[0] < 1 and seen[-1] == 4 and seen == sorted(seen)  # from the start, onwards
    assert any(p % 1 > 0 for p in seen)  # between two states: the pieces glide


#: Keeps every position the 3D view draws in ``window.positions``.
WATCH = """
window.positions = [];
const canvas = document.querySelector('#solution canvas');
new MutationObserver(() => window.positions.push(canvas.dataset.position))
    .observe(canvas, {attributes: true, attributeFilter: ['data-position']});
"""


@pytest.mark.slow  # a browser session drawing a 3D view
def test_the_3d_view_downloads_as_a_png(page: Page, tmp_path: Path) -> None:  # noqa: F811
    maze_in_3d(page, tmp_path)
    with page.expect_download() as download:
        page.click("#download-png")
    made = tmp_path / "made.png"
    download.value.save_as(made)
    assert made.read_bytes().startswith(PNG_SIGNATURE)
    assert download.value.suggested_filename == "solution1.png"
    picture = read_png(made)
    width = page.evaluate("document.querySelector('#solution canvas').width")
    assert picture.shape[1] == width  # the canvas as drawn
    assert colours(picture) >= 2  # the frame's faces, shaded
