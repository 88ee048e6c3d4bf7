"""A disassembly drawn for Jupyter: one isometric picture per state, each piece where
that state puts it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from excover.burr import Assembly, assemblies, disassemble
from excover.burr.sixpiece import burr_puzzle, notchable_pieces

SVG = "{http://www.w3.org/2000/svg}"


def _cells(svg: ET.Element) -> dict[int, set[tuple[int, ...]]]:
    """The cells each piece of a picture draws (``data-piece``, ``data-cell``)."""
    found: dict[int, set[tuple[int, ...]]] = {}
    for group in svg.iter(f"{SVG}g"):
        if group.get("class") == "cell":
            cell = tuple(int(v) for v in (group.get("data-cell") or "").split(","))
            found.setdefault(int(group.get("data-piece") or -1), set()).add(cell)
    return found


def test_a_disassembly_draws_one_picture_per_state_each_piece_in_place() -> None:
    pieces = notchable_pieces()
    puzzle = burr_puzzle([pieces[k] for k in (5, 54, 55)], copies=3)
    result = next(
        r
        for a in assemblies(puzzle)
        if (r := disassemble(a)).status == "solved" and (r.total or 0) > 3
    )
    page = ET.fromstring(result._repr_html_())  # well-formed: it parses as XML
    pictures = page.findall(f".//{SVG}svg")
    assert len(pictures) == len(result.states) == len(result.moves) + 1
    captions = [c.text for c in page.iter("figcaption")]
    assert captions[0] == "assembled" and captions[1] == f"1. {result.moves[0]}"
    assert f"level {result.level}, {result.total} moves" in "".join(page.itertext())
    for picture, state in zip(pictures, result.states, strict=True):
        drawn = _cells(picture)
        for k, (piece, (dx, dy, dz)) in enumerate(zip(result.assembly.pieces, state, strict=True)):
            assert drawn[k] == {(x + dx, y + dy, z + dz) for x, y, z in piece.voxels}


def test_a_stuck_assembly_shows_its_assembled_state() -> None:
    shell = [
        (x, y, z) for x in range(3) for y in range(3) for z in range(3) if (x, y, z) != (1, 1, 1)
    ]
    result = disassemble(Assembly.of_voxels([shell, [(1, 1, 1)]]))
    assert result.status == "stuck"
    page = ET.fromstring(result._repr_html_())
    assert len(page.findall(f".//{SVG}svg")) == 1 and "stuck" in "".join(page.itertext())


def test_prisms_are_drawn_on_the_prism_grid() -> None:
    result = disassemble(Assembly.of_voxels([[(0, 0, 0)], [(1, 0, 0)]], grid=1))
    assert result.status == "solved"
    page = ET.fromstring(result._repr_html_())
    pictures = page.findall(f".//{SVG}svg")
    assert len(pictures) == len(result.states)
    assert all(
        len(cell) == 4
        for picture in pictures
        for cells in _cells(picture).values()
        for cell in cells
    )
