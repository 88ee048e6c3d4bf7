"""The pictures the documentation shows are committed files, and still what the code draws.

A page is read on the built site and in the repository (on GitHub, in an editor) alike,
so a picture it shows must be a file of the repository, not one the site build makes.
``examples/docs_pictures.py`` draws the pages' pictures under ``docs/images/``; the
getting-started page shows the program whose output one of them is.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCRIPT = ROOT / "examples" / "docs_pictures.py"

#: Pages the site build writes (git-ignored): they may show what the build draws.
BUILT_PAGES = {"gallery.md"}

#: A picture in Markdown (``![alt](path)``) or HTML (``<img src="path">``).
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\bsrc=\"([^\"]+)\"")


def test_every_picture_a_page_shows_is_a_committed_file() -> None:
    shown = 0
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        if page.name in BUILT_PAGES:
            continue
        for match in PICTURE.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if "://" in target:
                continue
            picture = (page.parent / target.split("#")[0]).resolve()
            assert picture.is_file(), f"{page.relative_to(ROOT)} shows {target}: no such file"
            assert DOCS / "gallery" not in picture.parents, (
                f"{page.relative_to(ROOT)} shows {target}, which only the site build draws"
            )
            shown += 1
    assert shown >= 5


@pytest.mark.slow  # draws every picture of the pages
def test_the_committed_pictures_are_what_the_script_draws(tmp_path: Path) -> None:
    draw_all = runpy.run_path(str(SCRIPT))["draw_all"]
    for drawn in draw_all(tmp_path):
        committed = DOCS / "images" / drawn.name
        assert committed.is_file() and committed.read_text() == drawn.read_text(), (
            f"docs/images/{drawn.name} is stale: run python examples/docs_pictures.py docs/images"
        )


def test_the_getting_started_page_shows_the_program_that_draws_its_picture() -> None:
    program = runpy.run_path(str(SCRIPT))["BOX_PROGRAM"]
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert f"```text\n{program}```" in page
    assert "images/pentomino-box.svg" in page
