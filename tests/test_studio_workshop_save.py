"""The studio as a burr workshop, its server (issue 81, items 1 and 2): a BurrTools puzzle
opened is saved as an ``.xmpuzzle`` that reads back as the same puzzle (shapes, result
with its variable voxels, counts, stored solutions and their separations); a puzzle
edited on the page (``POST /api/puzzles``: shapes drawn, problems changed) is made again,
assembled and saved with its problem solved (``GET /api/puzzles/ID/save?run=RUN``), and
the library reads the saved file with the run's assemblies and levels. Where BurrTools'
command-line solver is found (``EXCOVER_BURRTXT``, or ``burrTxt`` on the ``PATH``),
``burrTxt -d`` reads the saved file and finds the same assemblies, solutions and
levels; without it that comparison is skipped, saying why.

The independent figures: the burr of ``tests/data/studio`` stores BurrTools' 36
assemblies and 1 solution of level 5.4 (``burrTxt -d``'s, see that folder's README)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from test_studio_api import ADDRESS, PORT, TOKEN
from test_studio_xmpuzzle import assembled, entries, opened

from excover import ExactCover
from excover.burr.check import check_solution
from excover.burr.xmpuzzle import parse_xmpuzzle
from excover.studio.app import create_app
from excover.studio.workshop import edited_puzzle

DATA = Path(__file__).resolve().parent / "data"
BURR = DATA / "studio" / "burr.xmpuzzle"
#: Notchable piece 55 (excover's catalog, from 1) as a 2x2x8 stick, layer by layer (z
#: from the bottom), each layer's rows y = 0 then y = 1, x from 0 to 7: the stick the
#: tests draw to stand in for one copy of piece 57.
STICK_55 = (
    ("########", "##____##"),
    ("###_####", "##____##"),
)


def burrtxt_binary() -> str | None:
    """BurrTools' command-line solver: ``EXCOVER_BURRTXT``, else ``burrTxt`` on the PATH."""
    return os.environ.get("EXCOVER_BURRTXT") or shutil.which("burrTxt")


def burrtxt_verdict(path: Path, problem: int) -> tuple[int, int, Counter[str]]:
    """``burrTxt -d -o PROBLEM FILE``: its assemblies, solutions and the level of each."""
    binary = burrtxt_binary()
    assert binary is not None
    out = subprocess.run(
        [binary, "-d", "-o", str(problem), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    ).stdout
    counts = re.search(r"(\d+) assemblies and (\d+) solutions", out)
    assert counts is not None, out[-2000:]
    return int(counts[1]), int(counts[2]), Counter(re.findall(r"level: (\S+)", out))


def stick_states(layers: tuple[tuple[str, str], ...] = STICK_55) -> str:
    """The states of a 8x2x2 shape (BurrTools' order: x fastest, then y, then z)."""
    return "".join(row for layer in layers for row in layer)


def stick_edits(puzzle: dict[str, Any]) -> dict[str, Any]:
    """The edits of the tests: the burr's shapes as they are, a new shape ``stick`` (piece
    55 drawn as a 2x2x8 stick) and a second problem, the first one's pieces with one copy
    of piece 57 (the shape used twice) and the stick."""
    shapes: list[dict[str, Any]] = [{"from": k} for k in range(len(puzzle["shapes"]))]
    shapes.append({"name": "stick", "size": [8, 2, 2], "states": stick_states()})
    first = puzzle["problems"][0]
    parts = [{"shape": p["shape"], "lo": 1, "hi": 1} for p in first["pieces"]]
    parts.append({"shape": len(shapes) - 1, "lo": 1, "hi": 1})
    return {
        "base": puzzle["id"],
        "shapes": shapes,
        "problems": [
            {"from": 0},
            {"name": "with the stick", "result": first["result"], "parts": parts},
        ],
    }


def solved_levels(found: list[dict[str, Any]]) -> Counter[str]:
    return Counter(e["level"] for e in entries(found) if e.get("status") == "solved")


def stored_levels(data: bytes, problem: int) -> Counter[str]:
    """The levels of the solutions a file stores, each separation checked move by move."""
    puzzle = parse_xmpuzzle(data, "saved.xmpuzzle")
    levels: Counter[str] = Counter()
    for number in range(len(puzzle.problems[problem].stored)):
        checked = check_solution(puzzle, problem, number)
        assert checked.tree is not None, checked.fault
        levels[checked.tree.level()] += 1
    return levels


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(TOKEN, PORT)
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as test_client:
        yield test_client


def saved(client: TestClient, puzzle: str, run: str | None = None) -> bytes:
    response = client.get(f"/api/puzzles/{puzzle}/save" + (f"?run={run}" if run else ""))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/gzip"
    assert ".xmpuzzle" in response.headers["content-disposition"]
    data = response.content
    assert data.startswith(b"\x1f\x8b")  # gzip, as BurrTools writes
    return data


@pytest.mark.parametrize("name", ["studio/burr.xmpuzzle", "burrtools/variable.xmpuzzle"])
def test_a_puzzle_opened_and_saved_reads_back_the_same(client: TestClient, name: str) -> None:
    data = (DATA / name).read_bytes()
    puzzle = opened(client, data, Path(name).name)
    again = saved(client, puzzle["id"])
    assert parse_xmpuzzle(again) == parse_xmpuzzle(data)
    # unchanged edits (every shape and problem "from" the base) keep everything too
    edits = {
        "base": puzzle["id"],
        "shapes": [{"from": k} for k in range(len(puzzle["shapes"]))],
        "problems": [{"from": k} for k in range(len(puzzle["problems"]))],
    }
    response = client.post("/api/puzzles", json=edits)
    assert response.status_code == 200, response.text
    made = response.json()["puzzle"]
    assert made["id"] != puzzle["id"]
    assert made["problems"] == puzzle["problems"]
    assert parse_xmpuzzle(saved(client, made["id"])) == parse_xmpuzzle(data)


def test_a_saved_burr_keeps_its_stored_solution_and_its_level(client: TestClient) -> None:
    puzzle = opened(client, BURR.read_bytes(), "burr.xmpuzzle")
    problem = puzzle["problems"][0]
    assert (problem["assemblies"], problem["solutions"]) == (36, 1)  # burrTxt -d's
    again = saved(client, puzzle["id"])
    assert stored_levels(again, 0) == Counter({"5.4": 1})
    found, run = assembled(client, puzzle["id"])
    assert (found[-1]["found"], found[-1]["solved"]) == (36, 1)
    solved = parse_xmpuzzle(saved(client, puzzle["id"], run))
    assert dataclasses.replace(solved, problems=()) == dataclasses.replace(
        parse_xmpuzzle(BURR.read_bytes()), problems=()
    )
    spec = solved.problems[0]
    assert (spec.state, spec.assemblies, spec.solutions) == (2, 36, 1)
    assert stored_levels(saved(client, puzzle["id"], run), 0) == Counter({"5.4": 1})


def test_a_new_stick_drawn_makes_a_problem_assembled_and_saved_solved(
    client: TestClient, tmp_path: Path
) -> None:
    puzzle = opened(client, BURR.read_bytes(), "burr.xmpuzzle")
    response = client.post("/api/puzzles", json=stick_edits(puzzle))
    assert response.status_code == 200, response.text
    made = response.json()["puzzle"]
    assert [p["label"] for p in made["problems"]] == ["problem 1", "with the stick"]
    stick = made["shapes"][-1]
    assert (stick["label"], stick["size"], stick["filled"]) == ("stick", [8, 2, 2], 23)
    assert made["problems"][0]["stored_count"] == 1  # the first problem kept as it was
    new = made["problems"][1]
    assert new["state"] == 0 and new["stored_count"] == 0
    found, run = assembled(client, made["id"], 1)
    result = found[-1]
    assert result["type"] == "result" and result["complete"]
    data = saved(client, made["id"], run)
    puzzle_read = parse_xmpuzzle(data)
    spec = puzzle_read.problems[1]
    assert (spec.state, spec.assemblies, spec.solutions) == (2, result["found"], result["solved"])
    assert result["solved"] > 0
    # the library reads the same problem: its count of assemblies as BurrTools counts them
    cover = ExactCover.from_burrtools(puzzle_read, 1)
    assert cover.count(up_to_symmetry=True) == result["found"]
    assert stored_levels(data, 1) == solved_levels(found)
    assert puzzle_read.problems[0] == parse_xmpuzzle(BURR.read_bytes()).problems[0]
    path = tmp_path / "saved.xmpuzzle"
    path.write_bytes(data)
    if burrtxt_binary() is None:
        pytest.skip("burrTxt not found (EXCOVER_BURRTXT, PATH): its reading is not compared")
    assemblies, solutions, levels = burrtxt_verdict(path, 1)
    assert (assemblies, solutions) == (result["found"], result["solved"])
    assert levels == solved_levels(found)
    assert burrtxt_verdict(path, 0)[:2] == (36, 1)


def test_edits_are_checked_field_by_field(client: TestClient) -> None:
    puzzle = opened(client, BURR.read_bytes(), "burr.xmpuzzle")
    good = stick_edits(puzzle)

    def refused(edits: dict[str, Any]) -> str:
        response = client.post("/api/puzzles", json=edits)
        assert response.status_code == 400, response.text
        message: str = response.json()["error"]["message"]
        return message

    bad_states = {**good, "shapes": [*good["shapes"][:-1], {"size": [8, 2, 2], "states": "#"}]}
    assert "shapes[6].states: 32 characters" in refused(bad_states)
    too_big = {**good, "shapes": [*good["shapes"][:-1], {"size": [65, 1, 1], "states": "#"}]}
    assert "shapes[6].size" in refused(too_big)
    parts = [{"shape": 5, "lo": 1, "hi": 1}]
    result_as_piece = {**good, "problems": [{"name": "x", "result": 5, "parts": parts}]}
    assert "problems[0].parts[0]: the result's shape" in refused(result_as_piece)
    counts = {**good, "problems": [{"result": 5, "parts": [{"shape": 0, "lo": 2, "hi": 1}]}]}
    assert "problems[0].parts[0]" in refused(counts)
    gone = client.post("/api/puzzles", json={**good, "base": "nope"})
    assert gone.status_code == 404


def test_a_new_puzzle_is_made_without_a_base() -> None:
    edits = {
        "grid": 0,
        "shapes": [
            {"name": "domino", "size": [2, 1, 1], "states": "##"},
            {"name": "box", "size": [2, 2, 1], "states": "##++"},
        ],
        "problems": [{"name": "p", "result": 1, "parts": [{"shape": 0, "lo": 1, "hi": 2}]}],
    }
    puzzle = edited_puzzle(None, edits)
    assert [s.name for s in puzzle.shapes] == ["domino", "box"]
    assert puzzle.shapes[1].cells("+") == [(0, 1, 0), (1, 1, 0)]
    # one domino on the filled row; or two: both lying, or both standing
    assert ExactCover.from_burrtools(puzzle, 0).count(up_to_symmetry=True) == 3


def test_a_run_keeps_the_hardest_solutions_as_burrtools_stores_them() -> None:
    """``Hardest`` keeps what :func:`excover.burr.stored.solved_puzzle` stores of every
    solution at once (its ``keep`` hardest), holding no more than those."""
    from excover.burr import disassemble_all
    from excover.burr.stored import solved_puzzle
    from excover.studio.saving import Hardest

    puzzle = parse_xmpuzzle((DATA / "burrtools" / "rotations.xmpuzzle").read_bytes())
    results = dict(enumerate(disassemble_all(puzzle, 0)))
    assert sum(r.status == "solved" for r in results.values()) == 15  # burrTxt -d's
    for keep in (1, 4, 100):
        hardest = Hardest(keep)
        for index, result in results.items():
            if result.status == "solved":
                hardest.add(index, result)
        every = solved_puzzle(puzzle, 0, results, len(results), keep=keep).problems[0]
        kept = [(i, n) for i, n, _ in hardest.solutions()]
        assert kept == [(s.assembly_number, s.solution_number) for s in every.stored]
        assert hardest.count == every.solutions == 15


def test_a_design_of_cubes_or_squares_is_exported_as_a_burrtools_puzzle(
    client: TestClient,
) -> None:
    """The Soma cube (pieces turned, not mirrored: 240 assemblies, Conway and Guy's
    count) and the pentominoes in a 6x10 box (flat pieces turned over: 2,339), as
    BurrTools puzzles; a design BurrTools would move otherwise is refused, saying why."""
    from excover.studio.catalog import families

    def family(name: str, symmetry: str) -> list[dict[str, Any]]:
        pieces = next(f for f in families() if f["name"] == name)["pieces"]
        return [{**p, "count": "1", "symmetry": symmetry} for p in pieces]

    soma = {
        "grid": "cube",
        "board": [["***"] * 3] * 3,
        "pieces": family("Soma pieces", "rotations"),
    }
    pentominoes = {
        "grid": "square",
        "board": ["*" * 10] * 6,
        "pieces": family("pentominoes", "all"),
    }
    for design, count in ((soma, 240), (pentominoes, 2339)):
        response = client.post("/api/export/xmpuzzle", json=design)
        assert response.status_code == 200, response.text
        assert response.content.startswith(b"\x1f\x8b")
        puzzle = parse_xmpuzzle(response.content)
        assert ExactCover.from_burrtools(puzzle, 0).count(up_to_symmetry=True) == count
    mirrored = {**soma, "pieces": family("Soma pieces", "all")}
    response = client.post("/api/export/xmpuzzle", json=mirrored)
    assert response.status_code == 400
    assert "never mirrors a piece" in response.json()["error"]["message"]
    hexes = {"grid": "hex", "board": ["***"] * 3, "pieces": []}
    response = client.post("/api/export/xmpuzzle", json=hexes)
    assert response.status_code == 400
