"""Screenshots of the studio for the docs (docs/images/studio*.png), taken in headless
Chromium as a person would make them: by clicking.

    python benchmarks/studio_screenshots.py [--out docs/images]

- ``studio.png``: the 6x10 board, the 12 pentominoes, a solution and the count up to
  symmetry;
- ``studio_soma.png``: the Soma cube (a 3x3x3 box, the 7 Soma pieces turned but not
  mirrored), its count up to symmetry and a solution;
- ``studio_hex.png``: the hexagon of side 3 without its centre, tiled by the trihexes;
- ``studio_maze.png``: the maze of ``examples/studio_maze.cmb`` opened, its solution in
  3D taken apart, at its last state (the cube out of the frame).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page
from studio_bench import open_page, studio

#: The maze opened for ``studio_maze.png``.
MAZE = Path(__file__).resolve().parent.parent / "examples" / "studio_maze.cmb"

#: The cells to remove from the full 5x5 frame of offset rows to leave the hexagon of
#: side 3 without its centre (column, row from the top).
HEX_HOLES = [(0, 0), (4, 0), (4, 1), (2, 2), (4, 3), (0, 4), (4, 4)]


def count(page: Page, button: str) -> None:
    page.evaluate("document.getElementById('result-count').removeAttribute('data-count')")
    page.click(button)
    page.wait_for_selector("#result-count[data-count]")


def pentominoes(page: Page, out: Path) -> None:
    page.fill("#board-width", "10")
    page.fill("#board-height", "6")
    page.click("#new-board")
    page.select_option("#family", "pentominoes")
    page.click("#select-family")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    count(page, "#count-symmetry")
    page.screenshot(path=str(out / "studio.png"))


def soma(page: Page, out: Path) -> None:
    page.select_option("#grid", "cube")
    page.select_option("#family", "Soma pieces")
    page.click("#select-family")
    page.uncheck("#reflections")
    count(page, "#count-symmetry")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    if page.is_visible("#views"):
        page.check('input[name="view"][value="isometric"]')
    page.screenshot(path=str(out / "studio_soma.png"))


def trihexes(page: Page, out: Path) -> None:
    page.select_option("#grid", "hex")
    for x, y in HEX_HOLES:
        page.click(f'#board .cell[data-x="{x}"][data-y="{y}"]')
    page.select_option("#family", "monohex to trihexes")
    for name in ("H3a", "H3b", "H3c"):
        page.click(f'.piece[data-name="{name}"] svg')
        box = page.locator(f'.piece[data-name="{name}"] input')
        box.fill("any")
        box.dispatch_event("change")
    count(page, "#count")
    page.click("#solve-all")
    page.wait_for_selector("#gallery figure")
    page.screenshot(path=str(out / "studio_hex.png"))


def maze(page: Page, out: Path) -> None:
    page.set_input_files("#import", str(MAZE))
    page.wait_for_function("document.getElementById('grid').value === 'cube'")
    page.click("#solve-first")
    page.wait_for_selector("#solution svg")
    page.check('input[name="view"][value="3d"]')
    page.click("#disassemble")
    page.wait_for_selector("#disassembly-level[data-status]")
    last = page.get_attribute("#disassembly-step", "max") or "0"
    page.fill("#disassembly-step", last)
    page.dispatch_event("#disassembly-step", "input")
    page.screenshot(path=str(out / "studio_maze.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/images", help="the folder of the pictures")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with studio() as (server, browser):
        for take in (pentominoes, soma, trihexes, maze):
            page, _ = open_page(browser, server)
            take(page, out)
            page.close()
            print(f"{take.__name__}: done")


if __name__ == "__main__":
    main()
