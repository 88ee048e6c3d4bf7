"""The screenshot of a BurrTools file in the studio for the docs
(docs/images/studio_burrtools.png), taken in headless Chromium as a person would make it.

    python benchmarks/studio_screenshot_burrtools.py [--out docs/images]

The design of ``excover design burrs --catalog notchable:35,39,51,54,57 --top 1 --by
level --write DIR`` (written here, in a temporary folder) is opened with the picker, its
stored solution played, and the panel *BurrTools puzzle* pictured at move 5 of 12 (the
first piece out).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from studio_bench import open_page, studio

#: The design pictured: the top notchable burr of five pieces by level.
DESIGN = ["design", "burrs", "--catalog", "notchable:35,39,51,54,57", "--top", "1"]
DESIGN += ["--by", "level", "--write"]
#: The move shown.
MOVE = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/images", help="the folder of the picture")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "designs"
        command = [sys.executable, "-m", "excover", *DESIGN, str(written)]
        subprocess.run(command, cwd=folder, check=True, capture_output=True)
        (design,) = written.glob("*.xmpuzzle")
        with studio() as (server, browser):
            page, _ = open_page(browser, server)
            page.set_viewport_size({"width": 1300, "height": 1000})
            page.set_input_files("#import", str(design))
            page.wait_for_selector("#puzzle-panel:not([hidden])")
            page.click("#puzzle-stored li[data-index='0']")
            page.wait_for_selector("#puzzle-level[data-status]")
            page.fill("#puzzle-step", str(MOVE))
            page.dispatch_event("#puzzle-step", "input")
            page.locator("#puzzle-panel").screenshot(path=str(out / "studio_burrtools.png"))
            print(page.inner_text("#puzzle-level"), "|", page.inner_text("#puzzle-move"))


if __name__ == "__main__":
    main()
