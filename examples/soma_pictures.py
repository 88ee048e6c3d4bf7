"""Draw the documentation's pictures of a Soma cube solution, each piece in its own colour:
its layers side by side and its isometric view.
``python examples/soma_pictures.py [FOLDER]`` writes ``soma-layers.svg`` and
``soma-isometric.svg`` into FOLDER (``docs/images`` by default, where the docs find them).
"""

import sys
from pathlib import Path

from excover.tiling import Pattern3, Tiling, soma_pieces, tiles

folder = (
    Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent.parent / "docs" / "images"
)
tiling = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations"))
solution = tiling.first()
assert solution is not None
(folder / "soma-layers.svg").write_text(solution.svg(each_piece=True), encoding="utf-8")
(folder / "soma-isometric.svg").write_text(solution.isometric_svg(32), encoding="utf-8")
