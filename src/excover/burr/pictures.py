"""A disassembly drawn: a strip of isometric pictures, one per state.

:func:`strip_html` draws each state of a :class:`~excover.burr.Disassembly` (the
assembled state, then the state after each move, as :attr:`Disassembly.states
<excover.burr.Disassembly.states>` gives them) with the isometric view of
:func:`excover.tiling.solidview.solid_svg`, each piece in its own colour, under the
status, the level and the number of moves, each picture captioned with the move that led
to it. It is what a ``Disassembly`` shows in Jupyter (``_repr_html_``). On the
triangular-prism grid the voxels are turned into the prism grid's cells
(:func:`~excover.burr.xmpuzzle.lattice.prism_strips`). A set taken out flies off
beyond the assembly's box, so the later pictures are drawn smaller, to the same size.
"""

from __future__ import annotations

from html import escape

import numpy as np

from excover.tiling.colours import tile_colour
from excover.tiling.grids import by_burrtools
from excover.tiling.solidview import solid_svg

TYPE_CHECKING = False
if TYPE_CHECKING:  # a type only: disassembly.py imports this module to draw itself
    from excover.burr.disassembly import Disassembly

__all__ = ["state_svg", "strip_html"]

Vector = tuple[int, int, int]

#: The pixels of a picture's longer side, by default.
SIZE = 160


def state_svg(result: Disassembly, state: tuple[Vector, ...], size: float = SIZE) -> str:
    """An isometric SVG picture of the assembly's pieces, each moved by its translation
    in ``state``."""
    grid = by_burrtools(result.assembly.grid)
    pieces = []
    for piece, (dx, dy, dz) in zip(result.assembly.pieces, state, strict=True):
        voxels = np.array([(x + dx, y + dy, z + dz) for x, y, z in piece.voxels], dtype=np.int64)
        pieces.append(grid.from_voxels(voxels).tolist())
    fills = [tile_colour(k) for k in range(len(pieces))]
    return solid_svg(grid, pieces, fills, fit=size)


def strip_html(result: Disassembly, size: float = SIZE) -> str:
    """The HTML of the strip of pictures (see the module's notes): one per state, so
    an assembly that does not come apart shows its assembled state only."""
    if result.status == "solved":
        head = f"level {result.level}, {result.total} moves"
    else:
        head = result.status + (f" ({result.reason})" if result.reason else "")
    captions = ["assembled", *(f"{k}. {move}" for k, move in enumerate(result.moves, 1))]
    figures = [
        '<figure style="margin:0;text-align:center;flex:none">'
        f"{state_svg(result, state, size)}"
        f'<figcaption style="font:12px monospace">{escape(caption)}</figcaption></figure>'
        for state, caption in zip(result.states, captions, strict=True)
    ]
    return (
        f'<div class="excover-disassembly"><div style="font:13px sans-serif">'
        f"{escape(head)}</div>"
        '<div style="display:flex;gap:8px;overflow-x:auto">' + "".join(figures) + "</div></div>"
    )
