"""The documentation site builds with ``mkdocs build --strict``, and its gallery's pictures,
drawn at build time by the examples, load in a real browser (headless Chromium).

The browser opens a copy of the built gallery page with a small script added that, once
the page has loaded, writes each picture's natural size into the page; the DOM Chromium
dumps then says whether every picture was found and decoded. Without Chromium the browser
test is skipped on a developer's machine and fails under CI (``CI`` set), which installs it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Building the whole site (the gallery's pictures computed) takes most of a minute: slow
#: tests (-m slow). The build writes the gallery into docs/ (docs/gallery/ and
#: docs/gallery.md): the tests that build it run on one pytest-xdist worker, one build at
#: a time.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("builds the documentation site")]

CHROMIUM = next(
    (path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None
)

#: Added to the gallery page: after loading, list every image's source and natural size.
PROBE = """
<script>
window.addEventListener("load", () => {
  const report = document.createElement("pre");
  report.id = "image-report";
  report.textContent = Array.from(document.images)
    .map((img) => [img.getAttribute("src"), img.complete,
                   `${img.naturalWidth}x${img.naturalHeight}`].join(" "))
    .join("\\n");
  document.body.appendChild(report);
});
</script>
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site, built strictly into a scratch folder."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_the_site_has_every_page_of_the_navigation(site: Path) -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s*([\w./-]+)\.md\s*$", nav, flags=re.MULTILINE)
    assert {"index", "gallery", "api", "cli"} <= set(pages)
    for page in pages:
        built = site / ("index.html" if page == "index" else f"{page}/index.html")
        assert built.is_file(), page


def test_the_api_reference_is_generated_from_docstrings(site: Path) -> None:
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    # the docstrings of ExactCover's methods are there, not just the page's headings
    assert "add_option" in html and "set_multiplicity" in html and "Family" in html


def test_the_gallery_pictures_load_in_a_browser(site: Path, tmp_path: Path) -> None:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed, and CI must run the browser tests")
        pytest.skip("Chromium is not installed (CI installs it)")
    gallery = site / "gallery"
    page = gallery / "index.html"
    sources = re.findall(r'<img[^>]*src="([^"]+)"', page.read_text(encoding="utf-8"))
    assert len(sources) >= 8
    probed = gallery / "probed.html"
    probed.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=10000",
            "--dump-dom",
            probed.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = re.search(r'<pre id="image-report">(.*?)</pre>', done.stdout, flags=re.DOTALL)
    assert report is not None, done.stderr[-2000:]
    lines = report.group(1).strip().splitlines()
    assert [line.split()[0] for line in lines] == sources
    for line in lines:
        _, complete, size = line.split()
        width, height = (int(v) for v in size.split("x"))
        assert complete == "true" and width > 0 and height > 0, line
