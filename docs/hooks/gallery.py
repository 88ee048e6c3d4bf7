"""MkDocs hook: draw the gallery's pictures before the site is built.

``examples/gallery.py`` computes every picture from its problem; this hook runs it into
``docs/gallery/`` (not kept in git) and writes ``docs/gallery.md`` around the pictures,
so the published gallery always shows what the current code draws.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[1]
GALLERY_SCRIPT = DOCS.parent / "examples" / "gallery.py"

INTRO = """# Gallery

Pictures drawn by excover while this site was built: each is the first solution of its
problem, computed by `examples/gallery.py` (run it yourself:
`python examples/gallery.py OUTDIR`).
"""


def on_pre_build(config: Any) -> None:
    """Draw the pictures and write the gallery page that shows them."""
    draw_all = runpy.run_path(str(GALLERY_SCRIPT))["draw_all"]
    drawn = draw_all(DOCS / "gallery")
    sections = [INTRO]
    for file_name, caption in drawn:
        sections.append(
            f"## {caption.split(':')[0].rstrip('.')}\n\n{caption}\n\n"
            f"![{caption}](gallery/{file_name})\n"
        )
    page = "\n".join(sections)
    target = DOCS / "gallery.md"
    if not target.exists() or target.read_text(encoding="utf-8") != page:
        target.write_text(page, encoding="utf-8")
