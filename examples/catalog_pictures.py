"""Draw the pictures of the piece catalog's sets: ``python examples/catalog_pictures.py OUTDIR``.

One SVG per set of ``include "excover:NAME"`` (see the language page), each piece in its
own colour with its name under it, polycubes as their layers side by side. The pictures
under ``docs/images/catalog/`` are made by this script, and the test suite checks that
they are still what it draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

from excover.lang.catalog import piece_sets
from excover.tiling.render import pieces_svg


def draw_all(folder: Path) -> list[Path]:
    """Write ``NAME.svg`` for every set into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for piece_set in piece_sets():
        path = folder / f"{piece_set.name}.svg"
        path.write_text(pieces_svg(piece_set.pieces) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/catalog_pictures.py OUTDIR")
    for path in draw_all(Path(sys.argv[1])):
        print(path)
