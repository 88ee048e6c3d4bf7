"""The studio's result panel belongs to the design on the page: a count shown, then an
edit of the board or another grid, and the panel is empty (headless Chromium, as the
studio's other browser tests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from test_studio_browser import (  # the page, its server and helpers
    browser,
    new_board,
    page,
    pick_pentominoes,
    result,
    server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["browser", "page", "server"]  # fixtures, used by name


@pytest.mark.slow  # a browser and a studio of its own, three counts
def test_an_edit_clears_the_result_of_the_design_before(page: Page) -> None:
    new_board(page, 20, 3)
    pick_pentominoes(page)
    assert result(page, "#count") == 8
    page.click('#board .cell[data-x="0"][data-y="0"]')  # 59 cells now
    page.wait_for_function("document.getElementById('result-count').textContent === ''")
    assert "changed" in page.inner_text("#status")
    page.click('#board .cell[data-x="0"][data-y="0"]')  # the same design again
    assert result(page, "#count") == 8
    page.select_option("#grid", "hex")  # a new grid starts clean
    page.wait_for_function("document.getElementById('result-count').textContent === ''")
    page.select_option("#grid", "square")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    set_to = page.locator('.piece[data-name="X"] input')
    set_to.fill("0")
    set_to.dispatch_event("change")
    page.wait_for_function("document.querySelector('#solution svg') === null")
