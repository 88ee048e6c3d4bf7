"""A solution's STL file from the studio (issue 81, item 5, "the STL gap"): the command
line's writer (``excover solve --stl FILE --gap MM``, :func:`excover.tiling.mesh.solution_stl`)
with the command line's default gap, each piece its own closed solid, pieces that touch in
the solution the gap apart.

The file is read here as a program reading an STL file does (nothing but triangles:
corners at equal points are merged), without the mesh library, so that "closed" is
checked as printing software checks it: every edge of a body shared by exactly two of its
triangles."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("trimesh")
from test_studio_api import client, events, soma_design, start  # noqa: F401

from excover.cli.exact_cover.commands import _gap
from excover.tiling import mesh
from excover.tiling.grids import GRIDS
from excover.tiling.mesh import PRINT_GAP

#: The edge of a cell in the STL files, in millimetres.
CELL = 10.0


def triangles(data: bytes) -> np.ndarray[Any, Any]:
    """The corners of a binary STL file's triangles: an array (triangles, 3, 3)."""
    (count,) = np.frombuffer(data, dtype="<u4", count=1, offset=80)
    assert len(data) == 84 + 50 * int(count)
    record = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("extra", "<u2")])
    found: np.ndarray[Any, Any] = np.frombuffer(data, dtype=record, offset=84)["corners"]
    return found.astype(np.float64)


def bodies(corners: np.ndarray[Any, Any]) -> list[tuple[np.ndarray[Any, Any], list[int]]]:
    """The bodies of a triangle soup: its corners merged at equal points (to a thousandth
    of a millimetre), triangles that share a point in one body; each body's points and
    its triangles' numbers."""
    keys = np.round(corners.reshape(-1, 3), 3)
    _, point_of = np.unique(keys, axis=0, return_inverse=True)
    point_of = point_of.reshape(-1, 3)
    parent = list(range(int(point_of.max()) + 1))

    def root(p: int) -> int:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for a, b, c in point_of.tolist():
        for other in (b, c):
            parent[root(other)] = root(a)
    by_root: dict[int, list[int]] = {}
    for number, (a, _, _) in enumerate(point_of.tolist()):
        by_root.setdefault(root(a), []).append(number)
    return [(point_of[numbers], numbers) for numbers in by_root.values()]


def closed(points: np.ndarray[Any, Any]) -> bool:
    """Whether every edge of a body's triangles (by merged point) is shared by exactly two
    of them, once each way (a closed, consistently wound surface)."""
    edges = Counter((int(p), int(q)) for a, b, c in points for p, q in ((a, b), (b, c), (c, a)))
    undirected = Counter((min(p, q), max(p, q)) for p, q in edges.elements())
    return set(undirected.values()) == {2} and set(edges.values()) == {1}


def volume(corners: np.ndarray[Any, Any]) -> float:
    """The volume a closed surface's triangles enclose, in cubic millimetres."""
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def cells_of(corners: np.ndarray[Any, Any]) -> set[tuple[int, ...]]:
    """The cells of the box that hold a corner of a body (a corner on the face between
    two cells counts in the upper one: with a gap, a corner on a face is between two
    cells of its own piece, the rest strictly inside one)."""
    return {tuple(int(v) for v in cell) for cell in np.floor(corners.reshape(-1, 3) / CELL)}


def distance(point: np.ndarray[Any, Any], cell: tuple[int, ...]) -> float:
    """The distance from ``point`` to the cube of ``cell``, along the axis that is farthest
    (0 inside)."""
    low = np.array(cell, dtype=np.float64) * CELL
    return float(np.maximum(np.maximum(low - point, point - low - CELL), 0).max())


def soma_stl(client: Any, query: str = "") -> tuple[bytes, Any]:  # noqa: F811
    """The STL file of the Soma cube's first solution as the studio serves it, and the
    solution."""
    key = start(client, soma_design(), "first")
    assert events(client, key)[-1]["found"] is True
    response = client.get(f"/api/listings/{key}/0/stl{query}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "model/stl"
    return response.content, client.app.state.studio.listings[key].solution(0)


def pieces_apart(data: bytes, gap: float) -> list[int]:
    """Check an STL file of a 3x3x3 box's solution with a gap: closed bodies, none sharing
    a point, each in its own cells and at least half the gap from every other cell of the
    box (so two pieces are at least the gap apart), of less than its cells' volume, the
    box filled; the bodies' sizes in cells, smallest first."""
    corners = triangles(data)
    box = set(itertools.product(range(3), repeat=3))
    taken: set[tuple[int, ...]] = set()
    sizes = []
    for points, numbers in bodies(corners):
        assert closed(points)
        own = cells_of(corners[numbers])
        assert own <= box and not own & taken
        taken |= own
        sizes.append(len(own))
        assert 0 < volume(corners[numbers]) < len(own) * CELL**3
        samples = np.concatenate([corners[numbers].reshape(-1, 3), corners[numbers].mean(axis=1)])
        nearest = min(distance(p, cell) for p in samples for cell in box - own)
        assert nearest >= gap / 2 - 1e-4
    assert taken == box
    return sorted(sizes)


#: The sizes of the Soma pieces, in cubes.
SOMA_SIZES = [3, 4, 4, 4, 4, 4, 4]


@pytest.mark.parametrize("gap", [0.4, 2.0])
def test_each_piece_is_a_closed_solid_the_gap_apart(client: Any, gap: float) -> None:  # noqa: F811
    """The 7 Soma pieces of a 3x3x3 solution: 7 closed bodies the gap apart
    (:func:`pieces_apart`); the bytes the command line writes."""
    data, solution = soma_stl(client, f"?gap={gap}")
    assert data == mesh.solution_stl(solution, gap)  # the command line's writer
    assert len(solution.placements) == 7
    assert pieces_apart(data, gap) == SOMA_SIZES


def test_the_default_gap_is_the_command_lines(client: Any) -> None:  # noqa: F811
    """Without a gap the file has the command line's default (its ``--gap``'s), which the
    page is sent with the catalog; with a gap of 0 the pieces touch, and a reader merging
    points finds them one body."""
    assert _gap(None, "solution.stl") is None  # the grid's default, then
    assert mesh.default_gap(GRIDS["cube"]) == PRINT_GAP > 0
    cube = client.get("/api/catalog").json()["grids"]["cube"]
    assert cube["stl_gap"] == PRINT_GAP
    data, solution = soma_stl(client)
    assert data == mesh.solution_stl(solution, PRINT_GAP)
    assert len(bodies(triangles(data))) == 7
    touching, _ = soma_stl(client, "?gap=0")
    assert len(bodies(triangles(touching))) < 7


@pytest.mark.parametrize(
    ("gap", "said"),
    [("2.5", "under 2.5"), ("-1", "at least 0"), ("wide", "'wide'"), ("nan", "'nan'")],
)
def test_a_gap_out_of_range_is_refused(client: Any, gap: str, said: str) -> None:  # noqa: F811
    key = start(client, soma_design(), "first")
    assert events(client, key)[-1]["found"] is True
    response = client.get(f"/api/listings/{key}/0/stl?gap={gap}")
    assert response.status_code == 400
    assert said in response.json()["error"]["message"]
