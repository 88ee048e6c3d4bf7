"""A BurrTools file in the studio's page (issue 81, item 1), in headless Chromium (the
fixtures of ``test_studio_browser``): the design ``excover design burrs ... --write``
writes is opened with the picker, its stored solution played to the end in the 3D view
(level 5.4, 12 moves), its assemblies found (36, one of which comes apart) and that one
played; a plain-XML file dropped on the page shows its result's variable voxels."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from pictures import read_png
from playwright.sync_api import Page
from test_studio_browser import browser, page, server  # noqa: F401
from test_studio_disassembly_browser import WATCH
from test_studio_xmpuzzle import DATA, design_file  # noqa: F401

#: Keeps every position the puzzle's 3D view draws in ``window.positions``.
PUZZLE_WATCH = WATCH.replace("#solution canvas", "#puzzle-view canvas")


@pytest.mark.slow  # a browser session playing a burr apart
def test_a_written_design_is_opened_and_played_to_the_end(
    page: Page,  # noqa: F811
    design_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    page.set_input_files("#import", str(design_file))
    page.wait_for_selector("#puzzle-panel:not([hidden])")
    assert page.inner_text("#puzzle-name") == design_file.name
    assert "cubes" in page.inner_text("#puzzle-about")
    about = page.inner_text("#puzzle-problem-about")
    assert "6 pieces of 5 shapes" in about and "36 assemblies, 1 solution" in about
    assert page.locator("#puzzle-pieces .piece").count() == 5
    assert page.locator("#puzzle-result rect.variable").count() > 0  # the burr's holes
    stored = page.locator("#puzzle-stored li[data-index='0']")
    assert "level 5.4, 12 moves" in stored.inner_text()
    stored.click()
    level = page.locator("#puzzle-level[data-status]")
    level.wait_for()
    assert level.inner_text() == "level 5.4, 12 moves"
    assert page.inner_text("#puzzle-move") == "assembled"
    assert page.locator("#puzzle-legend span").count() == 6
    canvas = page.locator("#puzzle-view canvas")
    assembled = tmp_path / "assembled.png"
    canvas.screenshot(path=str(assembled))
    page.evaluate(PUZZLE_WATCH)
    page.click("#puzzle-play")
    page.wait_for_function(
        "document.querySelector('#puzzle-view canvas').dataset.position === '12.000'"
        " && document.getElementById('puzzle-play').textContent === 'Play'",
        polling=100,
    )
    seen = [float(p) for p in page.evaluate("window.positions")]
    assert seen[0] < 1 and seen[-1] == 12 and seen == sorted(seen)  # from the start, onwards
    assert any(p % 1 > 0 for p in seen)  # between two states: the pieces glide
    said = page.inner_text("#puzzle-move")
    assert said.startswith("move 12 of 12: piece ") and said.endswith(" out")
    apart = tmp_path / "apart.png"
    canvas.screenshot(path=str(apart))
    assert (read_png(assembled) != read_png(apart)).any()  # the pieces have come apart

    page.click("#puzzle-assemble")
    page.wait_for_selector("#puzzle-status[data-done]")
    assert page.get_attribute("#puzzle-status", "data-done") == "36"
    assert page.get_attribute("#puzzle-status", "data-solved") == "1"
    (solution,) = page.locator("#puzzle-assemblies li[data-status=solved]").all()
    assert "level 5.4, 12 moves" in solution.inner_text()
    solution.click()
    page.wait_for_function(
        "document.getElementById('puzzle-caption').textContent.startsWith('Assembly')"
        " && document.querySelector('#puzzle-level[data-status]') !== null"
    )
    assert page.inner_text("#puzzle-level") == "level 5.4, 12 moves"


@pytest.mark.slow  # a browser session
def test_a_plain_file_dropped_on_the_page_shows_its_variable_voxels(page: Page) -> None:  # noqa: F811
    plain = gzip.decompress((DATA / "variable.xmpuzzle").read_bytes())
    page.evaluate(
        """([name, bytes]) => {
            const data = new DataTransfer();
            data.items.add(new File([new Uint8Array(bytes)], name));
            const how = { dataTransfer: data, bubbles: true, cancelable: true };
            document.querySelector("main").dispatchEvent(new DragEvent("drop", how));
        }""",
        ["variable.xml", list(plain)],
    )
    page.wait_for_selector("#puzzle-panel:not([hidden])")
    assert page.inner_text("#puzzle-name") == "variable.xml"
    assert page.locator("#puzzle-result rect.variable").count() == 4
    assert page.locator("#puzzle-result rect.filled").count() == 6
    counts = [c.input_value() for c in page.locator("#puzzle-pieces input.copies").all()]
    assert counts == ["1", "0..4"]  # the copies of each piece, to change
    assert page.inner_text("#puzzle-stored") == "none"
