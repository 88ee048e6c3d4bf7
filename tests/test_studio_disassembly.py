"""A solution of the studio taken apart (issue #56): the endpoint
``POST /api/listings/ID/K/disassemble`` on designs drawn here, whose answers are known by
hand: a cube walled into a maze comes out in one move per straight run of its corridor
(the frame, the largest piece, staying put),
and not at all when the corridor is closed; the state cap makes the answer unknown,
never stuck; a planar design is refused; on the prism grid a move goes along the grid's
own axes."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from test_studio_api import ADDRESS, PORT, TOKEN, events, pentomino_design, start

from excover.studio.app import create_app
from excover.studio.design import StudioDesign
from excover.studio.disassembly import MAX_STATES

#: The middle layer of the maze (rows top first): the frame's walls (``*``), the cube
#: (``o``) and the corridor (``.``), which leaves the box at the bottom row. From ``o``
#: the corridor runs right, down, left and down: four straight runs, four moves.
MAZE = ("*****", "*o..*", "***.*", "*...*", "*.***")


def maze_design(corridor: tuple[str, ...] = MAZE) -> dict[str, Any]:
    """A frame (a full floor, the maze's walls, a full ceiling) and a cube in the maze."""
    full = ["*****"] * 5
    walls = [row.replace("o", ".") for row in corridor]
    board = [row.replace("o", "*").replace(".", "_").replace("_", ".") for row in corridor]
    return {
        "grid": "cube",
        "board": [full, board, full],
        "pieces": [
            {"name": "frame", "cells": [full, walls, full], "symmetry": "rotations"},
            {"name": "cube", "cells": [["*"]]},
        ],
    }


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(TOKEN, PORT)
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as test_client:
        yield test_client


def solved(client: TestClient, design: dict[str, Any]) -> str:
    """The key of a listing of ``design``'s first solution."""
    key = start(client, design, "first")
    assert events(client, key)[-1]["found"] is True
    return key


def cells_of(client: TestClient, key: str, design: dict[str, Any]) -> list[list[tuple[int, ...]]]:
    """The cells of each piece of the listed solution, in the order of its placements."""
    (entry,) = client.get(f"/api/listings/{key}/json").json()["solutions"]
    solution = StudioDesign.from_json(design).tiling().decode(entry["options"])
    return [[tuple(int(v) for v in cell) for cell in p.cells] for p in solution.placements]


UNIT = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0)}
UNIT |= {"+z": (0, 0, 1), "-z": (0, 0, -1)}


def played(
    found: dict[str, Any], pieces: list[list[tuple[int, ...]]]
) -> list[list[tuple[int, ...]]]:
    """The states of a disassembly's answer on the cube grid, checked: the assembled
    state first, then one per move, in which the pieces of the move (and only they) slide
    along its direction, by its distance (out: beyond where they were), and no two pieces
    ever share a cell."""
    states = [[tuple(round(v) for v in shift) for shift in state] for state in found["states"]]
    assert len(states) == len(found["moves"]) + 1
    assert states[0] == [(0, 0, 0)] * len(pieces)
    for move, (before, after) in zip(found["moves"], itertools.pairwise(states), strict=True):
        for p, (a, b) in enumerate(zip(before, after, strict=True)):
            step = tuple(v - u for u, v in zip(a, b, strict=True))
            if p not in move["pieces"]:
                assert step == (0, 0, 0)
            elif move["distance"] is not None:
                assert step == tuple(move["distance"] * c for c in UNIT[move["direction"]])
            else:
                assert step == tuple(abs(max(step, key=abs)) * c for c in UNIT[move["direction"]])
        moved = [
            {tuple(c + d for c, d in zip(cell, shift, strict=True)) for cell in cells}
            for cells, shift in zip(pieces, after, strict=True)
        ]
        assert sum(map(len, moved)) == len(set().union(*moved))  # never two in one cell
    return states


def test_a_cube_comes_out_of_a_maze_one_move_a_straight_run(client: TestClient) -> None:
    design = maze_design()
    key = solved(client, design)
    response = client.post(f"/api/listings/{key}/0/disassemble", json={})
    assert response.status_code == 200, response.text
    found = response.json()
    assert (found["status"], found["level"], found["total"]) == ("solved", "4", 4)
    assert not found["beyond_greedy"] and found["states_explored"] > 0
    assert sorted(found["names"]) == ["cube", "frame"]
    pieces = cells_of(client, key, design)
    states = played(found, pieces)
    frame = found["names"].index("frame")
    assert all(state[frame] == (0, 0, 0) for state in states)  # the largest piece stays put
    assert all(move["pieces"] == [1 - frame] for move in found["moves"])
    (cell,) = pieces[1 - frame]
    out = [v + d for v, d in zip(cell, states[-1][1 - frame], strict=True)]
    box = pieces[frame]
    assert any(not min(c[a] for c in box) <= out[a] <= max(c[a] for c in box) for a in range(3))


def test_every_part_keeps_its_largest_piece_still() -> None:
    """The Soma cube taken apart (in this process): the level and the moves as the
    disassembler counts them, and each move slides pieces of the part it separates, never
    that part's largest piece, which stays where it is."""
    from excover.burr import Assembly, Separation, disassemble
    from excover.studio.disassembly import described
    from excover.tiling import Pattern3, Tiling, soma_pieces, tiles

    solution = Tiling(Pattern3.constant(3, 3, 3), tiles(soma_pieces())).first()
    assert solution is not None
    voxels = [[(int(x), int(y), int(z)) for x, y, z in p.cells] for p in solution.placements]
    pieces: list[list[tuple[int, ...]]] = [list(cells) for cells in voxels]
    result = disassemble(Assembly.of_voxels(voxels))
    assert result.tree is not None
    found = described(result, "cube", pieces)
    assert (found["status"], found["level"]) == ("solved", result.level)
    assert found["total"] == result.total == len(found["moves"]) >= 6

    def parts(node: Separation | None) -> list[tuple[int, ...]]:
        """The part each move separates, in the order of the moves."""
        if node is None:
            return []
        return [node.pieces] * len(node.moves) + parts(node.left) + parts(node.removed)

    states = played(found, pieces)
    for part, move, (before, after) in zip(
        parts(result.tree), found["moves"], itertools.pairwise(states), strict=True
    ):
        held = max(part, key=lambda p: (len(pieces[p]), -p))
        assert set(move["pieces"]) < set(part) and held not in move["pieces"]
        assert before[held] == after[held]


def test_a_closed_maze_does_not_come_apart_unless_the_state_cap_says_unknown(
    client: TestClient,
) -> None:
    closed = maze_design((*MAZE[:-1], "*****"))
    key = solved(client, closed)
    found = client.post(f"/api/listings/{key}/0/disassemble", json={}).json()
    assert (found["status"], found["level"], found["moves"]) == ("stuck", None, [])
    assert found["states"] == [[[0.0, 0.0, 0.0]] * 2]  # assembled, and no further
    capped = client.post(f"/api/listings/{key}/0/disassemble", json={"max_states": 2})
    found = capped.json()
    assert (found["status"], found["level"]) == ("unknown", None)
    assert "2 states" in found["reason"]
    bounds: object
    for bounds in (
        {"max_states": 0},
        {"max_states": MAX_STATES + 1},
        {"max_states": "9"},
        {"seconds": -1},
        {"seconds": "x"},
        [],
    ):
        refused = client.post(f"/api/listings/{key}/0/disassemble", json=bounds)
        assert refused.status_code == 400, bounds
        assert refused.json()["error"]["message"].startswith("disassembly: ")


def test_only_solutions_of_the_cube_and_prism_grids_come_apart(client: TestClient) -> None:
    key = solved(client, pentomino_design(20, 3))
    refused = client.post(f"/api/listings/{key}/0/disassemble", json={})
    assert refused.status_code == 400
    message = refused.json()["error"]["message"]
    assert "cube" in message and "prism" in message and "square" in message
    page = client.get(f"/api/listings/{key}").json()["solutions"]
    assert "disassembles" not in page[0]  # the page offers no Disassemble
    assert client.post(f"/api/listings/{key}/1/disassemble", json={}).status_code == 404
    assert client.post("/api/listings/nope/0/disassemble", json={}).status_code == 404


def test_a_solution_of_more_than_64_pieces_is_refused_with_the_reason(client: TestClient) -> None:
    """The disassembler takes at most 64 pieces: a solution of 65 unit cubes is refused
    with its own words and a 4xx status, never as an internal error (issue #80)."""
    design = {
        "grid": "cube",
        "board": [["*" * 13] * 5],
        "pieces": [{"name": "c", "cells": [["*"]], "count": "65"}],
    }
    key = solved(client, design)
    refused = client.post(f"/api/listings/{key}/0/disassemble", json={})
    assert 400 <= refused.status_code < 500
    message = refused.json()["error"]["message"]
    assert "internal" not in message
    assert "65 pieces" in message and "at most 64 pieces" in message


def test_on_the_prism_grid_a_move_goes_along_the_grid(client: TestClient) -> None:
    """Two prisms stacked: the one on top is lifted off (or the other pulled down), one
    move along the vertical, one prism's height per unit."""
    design = {
        "grid": "prism",
        "board": [["*"], ["*"]],
        "pieces": [{"name": "p", "cells": [["*"]], "count": "2"}],
    }
    key = solved(client, design)
    assert client.get(f"/api/listings/{key}").json()["solutions"][0]["disassembles"] is True
    found = client.post(f"/api/listings/{key}/0/disassemble", json={}).json()
    assert (found["status"], found["level"]) == ("solved", "1")
    ((move,),) = [found["moves"]]
    assert move["direction"] in ("+z", "-z") and move["distance"] is None
    first, last = found["states"]
    assert first == [[0.0, 0.0, 0.0]] * 2
    (shift,) = [s for s in last if s != [0.0, 0.0, 0.0]]
    assert shift[0] == shift[1] == 0.0 and abs(shift[2]) >= 2
