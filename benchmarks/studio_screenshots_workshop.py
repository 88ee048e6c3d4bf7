"""The screenshots of the studio's burr workshop for the docs (docs/images/studio-workshop-*.png),
taken in headless Chromium as a designer would make them, and what the session found.

    python benchmarks/studio_screenshots_workshop.py [--out docs/images]

The repository's six-piece burr (``tests/data/studio/burr.xmpuzzle``) is opened with the
picker and its stored solution played to move 5 (the moves listed beside the view, the
pieces named on it, the largest piece seen through): ``studio-workshop-player.png``; a
2x2x8 stick (notchable piece 55) drawn in the shape editor, a voxel at a time on its two
layers: ``studio-workshop-editor.png``; a new problem with one copy of piece 57 and the
stick, assembled (each assembly taken apart) and its hardest solution played to move 3:
``studio-workshop-assembled.png``. The puzzle is saved from the page (Save .xmpuzzle)
beside the pictures' folder's temporary copy, and the script prints the counts the page
showed and those the library reads back from the saved file.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from studio_bench import open_page, studio

from excover import ExactCover
from excover.burr.xmpuzzle import parse_xmpuzzle

ROOT = Path(__file__).resolve().parent.parent
BURR = ROOT / "tests" / "data" / "studio" / "burr.xmpuzzle"
#: Notchable piece 55 as a 2x2x8 stick: layers from the bottom, rows y = 0 then 1.
STICK = (("########", "##____##"), ("###_####", "##____##"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/images", help="the folder of the pictures")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with studio() as (server, browser), tempfile.TemporaryDirectory() as folder:
        page, _ = open_page(browser, server)
        page.set_viewport_size({"width": 1300, "height": 1100})
        page.set_input_files("#import", str(BURR))
        page.wait_for_selector("#puzzle-panel:not([hidden])")
        # the stored solution, followed move by move
        page.click("#puzzle-stored li[data-index='0']")
        page.wait_for_selector("#puzzle-level[data-status]")
        page.select_option("#puzzle-view .see-through", "largest")
        page.locator("#puzzle-moves li").nth(5).click()
        page.locator(".puzzle-play").screenshot(path=str(out / "studio-workshop-player.png"))
        print("stored:", page.inner_text("#puzzle-level"), "|", page.inner_text("#puzzle-move"))
        # a new 2x2x8 stick, drawn
        page.click("#shape-new")
        for axis, value in zip("xyz", (8, 2, 2), strict=True):
            page.fill(f"#shape-{axis}", str(value))
        page.click("#shape-resize")
        page.click("#shape-fill")
        for z, rows in enumerate(STICK):
            page.select_option("#shape-layer", index=z)
            for y, row in enumerate(rows):
                for x, state in enumerate(row):
                    if state == "_":
                        page.click(f"#shape-editor .cell[data-x='{x}'][data-y='{1 - y}']")
        page.fill("#shape-name", "stick")
        page.select_option("#shape-layer", index=1)
        page.locator("#shape-box").screenshot(path=str(out / "studio-workshop-editor.png"))
        print("drawn:", page.inner_text("#shape-about"))
        page.click("#shape-copy")
        page.wait_for_function("document.querySelectorAll('#shape-list .piece').length === 7")
        # a new problem: one copy of piece 57 less, the stick more
        page.click("#problem-new")
        page.wait_for_function("document.querySelectorAll('#puzzle-problem option').length === 2")
        copies = page.locator("#puzzle-pieces .piece").nth(4).locator("input.copies")
        copies.fill("1")
        copies.press("Enter")
        page.wait_for_function(
            "document.getElementById('puzzle-problem-about').textContent.startsWith('5 pieces')"
        )
        page.select_option("#problem-shape", value="6")
        page.click("#problem-add")
        page.wait_for_function("document.querySelectorAll('#puzzle-pieces .piece').length === 6")
        page.click("#puzzle-assemble")
        page.wait_for_selector("#puzzle-status[data-done]")
        print("assembled:", page.inner_text("#puzzle-status"))
        page.locator("#puzzle-assemblies li[data-status=solved]").first.click()
        page.wait_for_function(
            "document.getElementById('puzzle-caption').textContent.startsWith('Assembly')"
            " && document.querySelector('#puzzle-level[data-status]') !== null"
        )
        page.locator("#puzzle-moves li").nth(3).click()
        page.locator("#shape-close").click()
        page.locator("#puzzle-panel").screenshot(path=str(out / "studio-workshop-assembled.png"))
        print("played:", page.inner_text("#puzzle-level"), "|", page.inner_text("#puzzle-move"))
        with page.expect_download() as download:
            page.click("#puzzle-save")
        saved = Path(folder) / download.value.suggested_filename
        download.value.save_as(saved)
        puzzle = parse_xmpuzzle(saved.read_bytes())
        spec = puzzle.problems[1]
        again = ExactCover.from_burrtools(puzzle, 1).count(up_to_symmetry=True)
        print(
            f"saved {saved.name}: problem 2 stores {spec.assemblies} assemblies, "
            f"{spec.solutions} solutions; the library counts {again} assemblies again"
        )


if __name__ == "__main__":
    main()
