"""The studio's page on a new solid grid, in headless Chromium (the fixtures of
``test_studio_browser``): a board of balls made in a box of two layers, a ball clicked
away, pairs of balls picked from the catalog, counted as the library counts the design
the page sends, and a solution turned in the 3D view."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page
from test_studio_browser import browser, page, result, server, set_count  # noqa: F401

from excover.studio.design import StudioDesign


@pytest.mark.slow  # a browser session with counts and a 3D view
def test_a_board_of_balls_counts_and_shows_in_3d(page: Page) -> None:  # noqa: F811
    page.select_option("#grid", "sphere")
    page.fill("#board-width", "3")
    page.fill("#board-height", "3")
    page.fill("#board-depth", "2")
    page.click("#new-board")
    # the bottom layer's checkerboard of a 3 x 3 frame: five balls, and no other spot
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 5")
    assert page.locator("#board .cell.on").count() == 5
    page.click("#layer-up")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 4")
    page.locator("#board .cell").first.click()  # a ball of the upper layer taken away
    page.wait_for_function("document.querySelectorAll('#board .cell.on').length === 3")
    page.wait_for_function("document.querySelector('#board-isometric svg') !== null")
    page.select_option("#family", "one to three balls")
    page.click('.piece[data-name="S2"] svg')
    set_count(page, "S2", "any")
    sent = json.loads(page.evaluate("JSON.stringify(design())"))
    assert sent["grid"] == "sphere" and len(sent["board"]) == 2
    expected = StudioDesign.from_json(sent).tiling().count()
    assert expected > 0
    assert result(page, "#count") == expected
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    page.check('input[name="view"][value="3d"]')
    canvas = page.locator("#solution canvas")
    canvas.wait_for()
    assert int(canvas.get_attribute("data-drawn") or 0) > 0
