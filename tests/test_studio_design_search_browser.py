"""The studio's panel *Which pieces?* in headless Chromium (the fixtures of
``test_studio_browser``): a 5x4 board and the 12 pentominoes clicked, the panel's search
run (4 pieces a design, the number the panel proposes), its progress and list of the 9
sets that fill the board in exactly one way (those of the packing design space of the
pentominoes), a design of the list loaded as the design on the page and counted there
(its tilings all one up to symmetry), then the pieces searched brought back."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page
from test_studio_browser import browser, new_board, page, pick_pentominoes, result, server  # noqa: F401

from excover.design import Goal, search
from excover.studio.design import StudioDesign
from excover.tiling.designs import PackingSpace


@pytest.mark.slow  # a browser session with a search and a count
def test_the_panel_finds_the_unique_sets_and_loads_one(page: Page) -> None:  # noqa: F811
    new_board(page, 5, 4)
    pick_pentominoes(page)
    # the panel proposes the number of pieces that cover the board
    assert page.input_value("#search-pieces") == "4"
    assert "4 of them cover it" in (page.text_content("#search-fits") or "")
    page.click("#search-start")
    page.wait_for_selector("#search-summary[data-qualifying]")
    assert page.get_attribute("#search-summary", "data-qualifying") == "9"
    status = page.text_content("#search-status") or ""
    assert "495 of 495 designs searched" in status, status
    summary = page.text_content("#search-summary") or ""
    assert "0: 469, 1: 9, 2 or more: 17" in summary, summary
    items = page.locator("#search-list li")
    assert items.count() == 9
    listed = [set((items.nth(k).get_attribute("data-pieces") or "").split()) for k in range(9)]
    expected = search(PackingSpace(board="5x4", catalog="pentominoes", pieces=4), Goal())
    assert sorted(map(sorted, listed)) == sorted(sorted(f.key.split()) for f in expected.found)
    assert items.nth(0).locator("svg").count() == 4  # a picture of each piece

    # a click loads the third design: the board and just its four pieces
    items.nth(2).click()
    page.wait_for_selector("#search-list li.chosen")
    loaded = json.loads(page.evaluate("JSON.stringify(design())"))
    assert loaded["board"] == ["*****"] * 4
    assert {p["name"] for p in loaded["pieces"]} == listed[2]
    assert all(p["count"] == "1" for p in loaded["pieces"])
    tiling = StudioDesign.from_json(loaded).tiling()
    assert tiling.count(up_to_symmetry=True) == 1
    assert result(page, "#count") == tiling.count() > 0
    # and back to every piece searched
    page.click("#search-restore")
    page.wait_for_function("document.querySelectorAll('.piece.used').length === 12")
    assert len(json.loads(page.evaluate("JSON.stringify(design())"))["pieces"]) == 12
