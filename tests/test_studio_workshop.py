"""The studio as a burr workshop in a browser (issue 81, items 1-3), headless Chromium
(the fixtures of ``test_studio_browser``): a burr designer opens a BurrTools file, plays
its stored solution with the moves listed beside the 3D view (a click on a move goes
there), the pieces named on the view, a speed, a frame seen through and the view
scaled to its canvas, saves the moves as text; draws a new 2x2x8 burr stick in the
shape editor (size, fill, a voxel at a time, layer by layer, a turn undone), makes a
new problem with it, assembles and takes apart that problem, plays a solution and saves
the puzzle as an ``.xmpuzzle``, which the library reads with the same assemblies and
levels, and so does ``burrTxt -d`` where it is found (``EXCOVER_BURRTXT``, or on the
PATH; that comparison is skipped without it, saying so).

Two files: the repository's own six-piece burr (``tests/data/studio``), and BurrTools'
``PelikanBurr.xmpuzzle`` (GPL-3.0, not copied into the repository) read from a checkout
of BurrTools named by ``EXCOVER_BURR_TOOLS`` (a work tree or a bare git directory); the
Pelikan case is skipped without one, saying so. The independent figures: the burr's 36
assemblies and its solution of level 5.4 (burrTxt's, stored in the file), the Pelikan
burr's 12 assemblies and its solution of level 98.2.4.2 in 108 moves (BurrTools' file
and burrTxt -d)."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Page
from test_studio_browser import browser, page, server  # noqa: F401
from test_studio_workshop_save import (
    BURR,
    STICK_55,
    burrtxt_binary,
    burrtxt_verdict,
    stored_levels,
)

from excover import ExactCover
from excover.burr.xmpuzzle import parse_xmpuzzle, write_xmpuzzle


def pelikan_burr() -> bytes | None:
    """BurrTools' ``examples/PelikanBurr.xmpuzzle`` from the checkout ``EXCOVER_BURR_TOOLS``
    names (a work tree, or a bare git directory read with ``git show``), or None."""
    where = os.environ.get("EXCOVER_BURR_TOOLS")
    if not where:
        return None
    path = Path(where) / "examples" / "PelikanBurr.xmpuzzle"
    if path.is_file():
        return path.read_bytes()
    shown = subprocess.run(
        ["git", "-C", where, "show", "HEAD:examples/PelikanBurr.xmpuzzle"],
        capture_output=True,
        check=False,
    )
    return shown.stdout if shown.returncode == 0 else None


def errors_of(tab: Page) -> list[str]:
    """The tab's uncaught errors, collected from now on."""
    found: list[str] = []
    tab.on("pageerror", lambda error: found.append(str(error)))
    return found


def edits_done(tab: Page, count: int) -> None:
    tab.wait_for_function(
        f"Number(document.getElementById('puzzle-panel').dataset.edits || 0) >= {count}"
    )


def open_file(tab: Page, path: Path) -> None:
    tab.set_input_files("#import", str(path))
    tab.wait_for_selector("#puzzle-panel:not([hidden])")
    tab.wait_for_function(f"document.getElementById('puzzle-name').textContent === '{path.name}'")


def play_stored(tab: Page, level: str, moves: int) -> None:
    """Play the first stored solution, and follow it: the moves listed, a click on one,
    the names on the pieces, a frame seen through, the speed, the moves as text."""
    tab.click("#puzzle-stored li[data-index='0']")
    tab.wait_for_selector("#puzzle-level[data-status]")
    assert tab.inner_text("#puzzle-level") == f"level {level}, {moves} moves"
    assert tab.locator("#puzzle-moves li").count() == moves + 1  # "assembled" first
    canvas = tab.locator("#puzzle-view canvas")
    # the view scaled to its canvas: the assembled burr fills most of it
    width, height = (int(v) for v in (canvas.get_attribute("data-extent") or "0x0").split("x"))
    assert max(width, height) >= 0.6 * 380, (width, height)
    names = (canvas.get_attribute("data-labels") or "").split("|")
    legend = tab.locator("#puzzle-legend span").all_inner_texts()
    assert names == legend  # every piece named on the view, as the legend names it
    tab.locator("#puzzle-moves li").nth(3).click()
    assert tab.inner_text("#puzzle-move").startswith(f"move 3 of {moves}: ")
    assert "current" in (tab.locator("#puzzle-moves li").nth(3).get_attribute("class") or "")
    assert canvas.get_attribute("data-position") == "3.000"
    tab.select_option("#puzzle-view .see-through", "largest")
    assert canvas.get_attribute("data-see-through") == "largest"
    tab.select_option("#puzzle-speed", value="8")
    tab.click("#puzzle-play")
    tab.wait_for_function(
        f"document.querySelector('#puzzle-view canvas').dataset.position === '{moves}.000'"
        " && document.getElementById('puzzle-play').textContent === 'Play'",
        polling=100,
    )
    with tab.expect_download() as download:
        tab.click("#puzzle-text")
    text = Path(download.value.path()).read_text()
    lines = text.splitlines()
    assert lines[1] == f"level {level}, {moves} moves"
    assert len(lines) == moves + 2 and lines[2].startswith("1. ") and lines[-1].endswith(" out")


def draw_stick(tab: Page, layers: tuple[tuple[str, str], ...], name: str) -> None:
    """Draw a 2x2x8 stick in the shape editor: a new shape of 8 x 2 x 2, filled, then a
    click on each voxel to empty (``layers``: z from the bottom, rows y = 0 then 1); a
    quarter turn undone on the way; kept as a new shape."""
    shapes = tab.locator("#shape-list .piece").count()
    tab.click("#shape-new")
    tab.fill("#shape-x", "8")
    tab.fill("#shape-y", "2")
    tab.fill("#shape-z", "2")
    tab.click("#shape-resize")
    tab.click("#shape-fill")
    assert tab.get_attribute("#shape-box", "data-filled") == "32"
    for z, rows in enumerate(layers):
        tab.select_option("#shape-layer", index=z)  # a value would match a label too
        for y, row in enumerate(rows):
            for x, state in enumerate(row):
                if state == "_":  # y counted from the bottom: row 1 - y of the drawing
                    tab.click(f"#shape-editor .cell[data-x='{x}'][data-y='{1 - y}']")
    filled = sum(row.count("#") for rows in layers for row in rows)
    assert tab.get_attribute("#shape-box", "data-filled") == str(filled)
    tab.click("#shape-tools [data-rotate='2']")  # a quarter turn about z: 2 x 8 x 2
    assert tab.input_value("#shape-x") == "2" and tab.input_value("#shape-y") == "8"
    tab.click("#shape-undo")
    assert tab.input_value("#shape-x") == "8" and tab.input_value("#shape-y") == "2"
    tab.fill("#shape-name", name)
    edits = int(tab.get_attribute("#puzzle-panel", "data-edits") or 0)
    tab.click("#shape-copy")
    edits_done(tab, edits + 1)
    assert tab.locator("#shape-list .piece").count() == shapes + 1
    assert name in tab.locator("#shape-list .piece").last.inner_text()


def assemble(tab: Page) -> tuple[int, int]:
    tab.click("#puzzle-assemble")
    tab.wait_for_selector("#puzzle-status[data-done]")
    found = int(tab.get_attribute("#puzzle-status", "data-done") or -1)
    solved = int(tab.get_attribute("#puzzle-status", "data-solved") or -1)
    return found, solved


def saved_file(tab: Page, tmp_path: Path) -> Path:
    with tab.expect_download() as download:
        tab.click("#puzzle-save")
    (tmp_path / "saved").mkdir(exist_ok=True)
    path = tmp_path / "saved" / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.endswith(".xmpuzzle")
    return path


def check_saved(path: Path, problem: int, found: int, levels: Counter[str]) -> None:
    """The saved file, read by the library: the problem solved with the run's counts, its
    stored solutions of the run's levels, its assemblies counted again alike; and by
    burrTxt -d where it is found."""
    data = path.read_bytes()
    assert data.startswith(b"\x1f\x8b")
    puzzle = parse_xmpuzzle(data)
    spec = puzzle.problems[problem]
    assert (spec.state, spec.assemblies, spec.solutions) == (2, found, sum(levels.values()))
    assert stored_levels(data, problem) == levels
    assert ExactCover.from_burrtools(puzzle, problem).count(up_to_symmetry=True) == found
    if burrtxt_binary() is None:
        pytest.skip("burrTxt not found (EXCOVER_BURRTXT, PATH): its reading is not compared")
    assemblies, solutions, burrtxt_levels = burrtxt_verdict(path, problem)
    assert (assemblies, solutions) == (found, sum(levels.values()))
    assert burrtxt_levels == levels


def solution_levels(tab: Page) -> Counter[str]:
    texts = tab.locator("#puzzle-assemblies li[data-status=solved]").all_inner_texts()
    return Counter(t.split("level ", 1)[1].split(",", 1)[0] for t in texts)


@pytest.mark.slow  # a browser session: a burr opened, drawn, assembled, played and saved
def test_a_designer_draws_a_stick_into_the_burr_and_saves_it(
    page: Page,  # noqa: F811
    tmp_path: Path,
) -> None:
    errors = errors_of(page)
    open_file(page, BURR)
    play_stored(page, "5.4", 12)
    draw_stick(page, STICK_55, "stick")
    edits = int(page.get_attribute("#puzzle-panel", "data-edits") or 0)
    page.click("#problem-new")
    edits_done(page, edits + 1)
    assert page.locator("#puzzle-problem option").count() == 2
    assert page.input_value("#puzzle-problem") == "1"
    copies = page.locator("#puzzle-pieces .piece").nth(4).locator("input.copies")
    assert copies.input_value() == "2"  # piece 57 twice: one of them goes
    copies.fill("1")
    copies.press("Enter")
    page.wait_for_function(
        "document.getElementById('puzzle-problem-about').textContent.startsWith('5 pieces')"
    )
    page.select_option("#problem-shape", value="6")  # the stick drawn
    page.click("#problem-add")
    page.wait_for_function("document.querySelectorAll('#puzzle-pieces .piece').length === 6")
    assert "6 pieces of 6 shapes" in page.inner_text("#puzzle-problem-about")
    found, solved = assemble(page)
    assert (found, solved) == (72, 4)  # the library's count, checked again below
    levels = solution_levels(page)
    assert sum(levels.values()) == solved
    page.locator("#puzzle-assemblies li[data-status=solved]").first.click()
    page.wait_for_function(
        "document.getElementById('puzzle-caption').textContent.startsWith('Assembly')"
        " && document.querySelector('#puzzle-level[data-status]') !== null"
    )
    labels = page.get_attribute("#puzzle-view canvas", "data-labels") or ""
    assert "stick" in labels.split("|")
    path = saved_file(page, tmp_path)
    assert not errors, errors
    check_saved(path, 1, found, levels)


@pytest.mark.slow  # a browser session on BurrTools' Pelikan burr
def test_the_pelikan_burr_is_played_drawn_into_assembled_and_saved(
    page: Page,  # noqa: F811
    tmp_path: Path,
) -> None:
    data = pelikan_burr()
    if data is None:
        pytest.skip(
            "PelikanBurr.xmpuzzle is BurrTools' (GPL-3.0) and not in the repository: set "
            "EXCOVER_BURR_TOOLS to a checkout of github.com/burr-tools/burr-tools"
        )
    path = tmp_path / "PelikanBurr.xmpuzzle"
    path.write_bytes(data)
    errors = errors_of(page)
    open_file(page, path)
    play_stored(page, "98.2.4.2", 108)
    draw_stick(page, STICK_55, "stick")  # a new shape of the file, drawn beside its own
    assert page.locator("#shape-list .piece").count() == 9
    found, solved = assemble(page)
    assert (found, solved) == (12, 1)  # BurrTools' figures, stored in its file
    assert solution_levels(page) == Counter({"98.2.4.2": 1})
    saved = saved_file(page, tmp_path)
    assert not errors, errors
    assert parse_xmpuzzle(saved.read_bytes()).shapes[-1].name == "stick"
    check_saved(saved, 0, 12, Counter({"98.2.4.2": 1}))


@pytest.mark.slow  # a browser session
@pytest.mark.parametrize(
    ("name", "grid"),
    [
        ("spheres", "sphere"),
        ("prisms", "prism"),
        ("rhombic", "voxels"),
        ("tetra_octa", "tetraocta"),
    ],
)
def test_every_grid_s_shapes_open_in_the_editor_and_keep_their_voxels(
    page: Page,  # noqa: F811
    tmp_path: Path,
    name: str,
    grid: str,
) -> None:
    import test_grids_burrtools

    puzzle = getattr(test_grids_burrtools, name)()
    path = tmp_path / f"{name}.xmpuzzle"
    write_xmpuzzle(puzzle, path)
    errors = errors_of(page)
    open_file(page, path)
    for k in range(len(puzzle.shapes)):
        edits = int(page.get_attribute("#puzzle-panel", "data-edits") or 0)
        page.locator("#shape-list .piece").nth(k).click()
        assert page.get_attribute("#shape-box", "data-grid") == grid
        filled = sum(state == "#" for state in puzzle.shapes[k].states)
        assert page.get_attribute("#shape-box", "data-filled") == str(filled)
        page.click("#shape-keep")  # unchanged: the same voxels, drawn back
        edits_done(page, edits + 1)
    saved = saved_file(page, tmp_path)
    assert not errors, errors
    again = parse_xmpuzzle(saved.read_bytes())
    assert [(s.size, s.states) for s in again.shapes] == [(s.size, s.states) for s in puzzle.shapes]
    assert again.problems == puzzle.problems


@pytest.mark.slow  # a browser session
def test_a_burr_stick_is_drawn_as_one_s_own_piece(page: Page) -> None:  # noqa: F811
    """The piece editor is the board's, sized freely: a 2x2x8 stick on the cube grid,
    turned a quarter and back, then added as a piece of one's own."""
    errors = errors_of(page)
    page.select_option("#grid", "cube")
    page.click("#draw-piece summary")
    for axis, value in zip("xyz", (8, 2, 2), strict=True):
        page.fill(f"#own-{axis}", str(value))
    page.click("#own-resize")
    page.click("#own-fill")
    assert page.locator("#piece-editor .cell.on").count() == 16  # a layer of 8 x 2
    page.click("#piece-tools [data-rotate='0']")  # about x: 8 x 2 x 2 again, turned
    assert page.input_value("#own-y") == "2" and page.input_value("#own-z") == "2"
    page.click("#own-undo")
    page.fill("#piece-name", "stick")
    page.click("#piece-add")
    piece = page.locator('#pieces .piece[data-name="stick"]')
    piece.wait_for()
    assert page.input_value("#family") == "my pieces"
    assert "32 cells in all" in page.inner_text("#summary")
    assert not errors, errors


@pytest.mark.slow  # a browser session
def test_a_new_puzzle_is_drawn_from_nothing_assembled_and_saved(
    page: Page,  # noqa: F811
    tmp_path: Path,
) -> None:
    """New BurrTools puzzle (a unit cube into a 2x2x2 box): the piece redrawn as a domino,
    two voxels of the box's upper layer made variable, 1..3 dominoes."""
    errors = errors_of(page)
    page.click("#new-puzzle")
    page.wait_for_selector("#puzzle-panel:not([hidden])")
    assert page.get_attribute("#shape-box", "data-editing") == "0"
    page.fill("#shape-x", "2")
    page.click("#shape-resize")
    page.click("#shape-fill")
    page.fill("#shape-name", "domino")
    edits = int(page.get_attribute("#puzzle-panel", "data-edits") or 0)
    page.click("#shape-keep")
    edits_done(page, edits + 1)
    page.locator("#shape-list .piece").nth(1).click()  # the result
    page.select_option("#shape-layer", index=1)
    page.check("input[name='shape-tool'][value='2']")  # variable
    page.click("#shape-editor .cell[data-x='0'][data-y='0']")
    page.click("#shape-editor .cell[data-x='1'][data-y='0']")
    assert page.get_attribute("#shape-box", "data-variable") == "2"
    page.click("#shape-keep")
    edits_done(page, edits + 2)
    copies = page.locator("#puzzle-pieces input.copies")
    copies.fill("1..3")
    copies.press("Enter")
    page.wait_for_function(
        "document.getElementById('puzzle-problem-about').textContent.startsWith('1..3 pieces')"
    )
    found, solved = assemble(page)
    path = saved_file(page, tmp_path)
    assert not errors, errors
    puzzle = parse_xmpuzzle(path.read_bytes())
    assert [s.name for s in puzzle.shapes] == ["domino", "result"]
    assert puzzle.shapes[1].states.count("+") == 2 and puzzle.shapes[1].states.count("#") == 6
    assert ExactCover.from_burrtools(puzzle, 0).count(up_to_symmetry=True) == found
    assert solved == found and puzzle.problems[0].solutions == solved  # dominoes lift off


@pytest.mark.slow  # a browser session
def test_the_soma_cube_designed_on_the_board_opens_in_the_workshop(page: Page) -> None:  # noqa: F811
    """The board's design as a BurrTools puzzle: the Soma cube (pieces turned, never
    mirrored) opened in the workshop assembles as BurrTools counts it, 240 assemblies
    (Conway and Guy's count), each of which comes apart."""
    errors = errors_of(page)
    page.select_option("#grid", "cube")
    page.wait_for_function("document.querySelectorAll('#board .cell.on').length === 9")
    page.select_option("#family", "Soma pieces")
    for name in "VLTZABP":
        page.click(f'.piece[data-name="{name}"] svg')
    page.click("#design-workshop")  # the pieces may be turned over: BurrTools never mirrors
    page.wait_for_selector("#error:not([hidden])")
    assert "never mirrors a piece" in page.inner_text("#error-message")
    page.uncheck("#reflections")
    page.click("#design-workshop")
    page.wait_for_selector("#puzzle-panel:not([hidden])")
    assert page.inner_text("#puzzle-name") == "design.xmpuzzle"
    assert page.locator("#puzzle-pieces .piece").count() == 7
    assert assemble(page) == (240, 240)
    assert not errors, errors
