"""The tiling library's meshes and isometric pictures, for the studio's exports.

STL files (one per distinct piece, and a solution's assembly) are made by
:mod:`excover.tiling.mesh` through the mesh library of the ``mesh`` extra (trimesh), and
the isometric view of a polycube solution by the tiling library's renderer. Both are
looked up when first used, so that the studio runs (and says what is missing) without
them.
"""

from __future__ import annotations

import importlib
import io
import zipfile
from types import ModuleType
from typing import TYPE_CHECKING

from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.tiling import Tiling, TilingSolution

__all__ = ["isometric_svg", "pieces_zip", "solution_stl"]


def _mesh() -> ModuleType:
    """:mod:`excover.tiling.mesh`, or a UsageError saying what to install."""
    try:
        return importlib.import_module("excover.tiling.mesh")
    except ImportError as error:
        missing = error.name or "excover.tiling.mesh"
        raise UsageError(
            f"STL export needs {missing}, which is not installed: pip install 'excover[mesh]'"
        ) from None


def pieces_zip(tiling: Tiling) -> bytes:
    """A zip archive of one binary STL file per distinct piece of ``tiling``
    (``NAME.stl``)."""
    stls: dict[str, bytes] = _mesh().piece_stls(tiling)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in stls.items():
            archive.writestr(f"{name}.stl", data)
    return buffer.getvalue()


def solution_stl(solution: TilingSolution, gap: float = 0.0) -> bytes:
    """A binary STL file of a solution's assembly, each piece a closed mesh (``gap``
    millimetres between pieces)."""
    data: bytes = _mesh().solution_stl(solution, gap=gap)
    return data


def isometric_svg(solution: TilingSolution) -> str | None:
    """An isometric SVG picture of a polycube solution, each piece in its own colour;
    None when the tiling library does not draw them."""
    for name in ("excover.tiling.isometric", "excover.tiling.render"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        draw = getattr(module, "solution_isometric_svg", None)
        if draw is not None:
            picture: str = draw(solution, 24.0, each_piece=True)
            return picture
    return None
