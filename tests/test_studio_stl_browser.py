"""A solution's STL file downloaded from the studio's page with a gap between its pieces
(issue 81, item 5), in headless Chromium (the fixtures of ``test_studio_browser``): the
grid menu made from the catalog, the Soma cube solved, the gap's input beside the
download holding the command line's default, a gap typed and the file downloaded, each
piece a closed solid of its own that far from the others; a gap out of range refused with
the server's reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page
from test_studio_browser import browser, page, server  # noqa: F401
from test_studio_stl import SOMA_SIZES, pieces_apart

from excover.studio.page_grids import page_grids
from excover.tiling.mesh import PRINT_GAP


@pytest.mark.slow  # a browser session: a solution and two downloads
def test_a_solution_is_downloaded_as_stl_with_a_gap(page: Page) -> None:  # noqa: F811
    grids = page_grids()["grids"]
    menu = page.eval_on_selector_all("#grid option", "os => os.map(o => [o.value, o.text])")
    assert menu == [[name, grid["label"]] for name, grid in grids.items() if grid["label"]]
    page.select_option("#grid", "hex")  # a new board of the grid's own frame
    assert [page.input_value(f"#board-{side}") for side in ("width", "height")] == ["5", "5"]
    page.select_option("#grid", "cube")
    page.wait_for_function("document.querySelectorAll('#board .cell.on').length === 9")
    assert page.input_value("#board-depth") == "3"
    page.select_option("#family", "Soma pieces")
    for name in "VLTZABP":
        page.click(f'.piece[data-name="{name}"] svg')
    page.uncheck("#reflections")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    gap = page.locator("#stl-gap")
    assert float(gap.input_value()) == PRINT_GAP and gap.is_enabled()
    gap.fill("1.5")
    with page.expect_download() as download:
        page.click("#download-stl")
    assert download.value.suggested_filename == "solution1.stl"
    assert pieces_apart(Path(download.value.path()).read_bytes(), 1.5) == SOMA_SIZES
    gap.fill("3")  # a quarter of a cell or more: refused, with the command line's words
    page.click("#download-stl")
    page.wait_for_selector("#error:not([hidden])")
    assert "under 2.5" in page.inner_text("#error-message")
