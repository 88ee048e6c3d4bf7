"""BurrTools files in the studio (issue 81, item 1): ``POST /api/import`` tells an
``.xmpuzzle`` (gzip or plain XML) from a ``.cmb`` program by its bytes, whatever its name,
and describes it (grid, shapes with their variable voxels, problems, stored solutions);
bad files get a message naming the file and what is wrong; the run ``assemble`` lists a
problem's assemblies (and takes each apart), with its time limit and Cancel; an assembly
found or a stored solution is played move by move.

The counts are checked against independent figures: burrTxt's assembly counts stored in
``tests/data/burrtools`` (``README.md`` there: burrTxt ``-d`` found every assembly to
come apart), the 3,940 packings of the 12 pentominoes in a 3x4x5 box up to its
symmetries (Bouwkamp), and a design written by ``excover design burrs --write``, whose
stored separation is played as the file has it and checked voxel by voxel here, its
level against the disassembler run alone."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from test_studio_api import ADDRESS, PORT, TOKEN, events
from test_studio_disassembly import played

from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part, format_xmpuzzle
from excover.studio.app import MAX_BODY, create_app
from excover.studio.burrtools import MAX_PUZZLE_BYTES, file_name, is_puzzle

DATA = Path(__file__).resolve().parent / "data" / "burrtools"
#: The design of the brief: ``excover design burrs`` over five notchable pieces, the top
#: design by level (unique, level 5.4 in 12 moves, 36 assemblies).
DESIGN_COMMAND = [
    "design",
    "burrs",
    "--catalog",
    "notchable:35,39,51,54,57",
    "--top",
    "1",
    "--by",
    "level",
    "--write",
]


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(TOKEN, PORT)
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def design_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file ``excover design burrs ... --write DIR`` writes (run as a user runs it)."""
    folder = tmp_path_factory.mktemp("design")
    command = [sys.executable, "-m", "excover", *DESIGN_COMMAND, str(folder / "out")]
    subprocess.run(command, cwd=folder, check=True, capture_output=True, timeout=300)
    (written,) = (folder / "out").glob("*.xmpuzzle")
    return written


def opened(client: TestClient, data: bytes, name: str = "puzzle.xmpuzzle") -> dict[str, Any]:
    response = client.post(f"/api/import?name={name}", content=data)
    assert response.status_code == 200, response.text
    puzzle: dict[str, Any] = response.json()["puzzle"]
    return puzzle


def refused(client: TestClient, data: bytes, name: str, status: int = 400) -> str:
    response = client.post(f"/api/import?name={name}", content=data)
    assert response.status_code == status, response.text
    assert "Traceback" not in response.text
    message: str = response.json()["error"]["message"]
    return message


def assembled(
    client: TestClient, puzzle: str, problem: int = 0, **body: Any
) -> tuple[list[dict[str, Any]], str]:
    """Every event of an assemble run, and the run's id."""
    request = {"task": "assemble", "puzzle": puzzle, "problem": problem, **body}
    response = client.post("/api/jobs", json=request)
    assert response.status_code == 200, response.text
    key: str = response.json()["id"]
    return events(client, key), key


def entries(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The assemblies the events of a run list, in order."""
    batches = [event["batch"] for event in found if event["type"] == "assemblies"]
    return [entry for batch in batches for entry in batch]


def voxel_text(xml: str, name: str) -> str:
    """The voxel text of the shape called ``name``, read from the XML with a pattern (not
    by the reader under test)."""
    match = re.search(rf'<voxel [^>]*name="{re.escape(name)}"[^>]*>([^<]*)</voxel>', xml)
    assert match is not None
    return match.group(1)


# ----- opening -----


def test_a_gzip_file_and_its_plain_xml_open_alike_whatever_their_name(client: TestClient) -> None:
    packed = (DATA / "variable.xmpuzzle").read_bytes()
    assert packed.startswith(b"\x1f\x8b")
    plain = gzip.decompress(packed)
    assert is_puzzle(packed) and is_puzzle(plain) and is_puzzle(b"\xef\xbb\xbf\n <?xml")
    assert not is_puzzle(b"pattern a = {**}\n")
    first = opened(client, packed, "variable.xmpuzzle")
    second = opened(client, plain, "named-as-a-program.cmb")  # told by its content
    assert first["id"] != second["id"]
    for key in ("id", "name"):
        del first[key], second[key]
    assert first == second
    assert first["grid"] == 0 and first["playable"]
    (problem,) = first["problems"]
    assert problem["label"] == "floor" and problem["assemblies"] == 26  # burrTxt's
    text = voxel_text(plain.decode(), "floor")
    assert (problem["result_filled"], problem["result_variable"]) == (
        text.count("#"),
        text.count("+"),
    )
    assert (problem["result_filled"], problem["result_variable"]) == (6, 4)
    result = first["shapes"][problem["result"]]
    drawn = "".join("".join(layer) for layer in result["layers"])
    assert (drawn.count("*"), drawn.count("+")) == (6, 4)  # the variable voxels told apart
    assert [p["count"] for p in problem["pieces"]] == ["1", "0..4"]
    assert problem["piece_count"] == "1..5" and problem["piece_voxels"] == "4..8"
    assert problem["stored_count"] == 0


def test_a_file_with_several_problems_assembles_each_as_burrtxt(client: TestClient) -> None:
    puzzle = opened(client, (DATA / "two_problems.xmpuzzle").read_bytes())
    labels = [problem["label"] for problem in puzzle["problems"]]
    assert labels == ["screws", "screws and dominoes"]
    assert "mirror-image" in puzzle["comment"]
    for number, burrtxt in enumerate((15, 11)):  # burrTxt -d: every assembly comes apart
        found, _ = assembled(client, puzzle["id"], number)
        result = found[-1]
        assert result["type"] == "result" and result["complete"], result
        assert (result["found"], result["solved"], result["stuck"]) == (burrtxt, burrtxt, 0)
        assert len(entries(found)) == burrtxt
        assert puzzle["problems"][number]["assemblies"] == burrtxt
    response = client.post(
        "/api/jobs", json={"task": "assemble", "puzzle": puzzle["id"], "problem": 2}
    )
    assert response.status_code == 400
    assert "2 problems" in response.json()["error"]["message"]


def test_bad_files_are_refused_naming_the_file_and_the_fault(client: TestClient) -> None:
    packed = (DATA / "rotations.xmpuzzle").read_bytes()
    message = refused(client, packed[: len(packed) // 2], "cut.xmpuzzle")
    assert message.startswith("cut.xmpuzzle") and "cut short" in message
    message = refused(client, b"\x1f\x8b\x08\x00not gzip at all", "noise.xmpuzzle")
    assert message.startswith("noise.xmpuzzle") and "gzip" in message
    xml = gzip.decompress(packed).decode()
    message = refused(client, xml[:300].encode(), "short.xmpuzzle")
    assert message.startswith("short.xmpuzzle:") and "not well-formed XML" in message
    wrong = xml.replace('<result id="0"/>', '<result id="9"/>')
    line = 1 + wrong[: wrong.index('<result id="9"/>')].count("\n")
    message = refused(client, wrong.encode(), "wrong.xmpuzzle")
    assert message == f"wrong.xmpuzzle:{line}: the result is shape 9, of 4 shapes"
    message = refused(client, b"<html><body>no</body></html>", "page.html")
    assert message.startswith("page.html") and "<html>" in message
    message = refused(client, bytes(range(128, 256)), "blob.bin")
    assert message == "blob.bin is neither a .cmb program (UTF-8 text) nor a BurrTools file"
    message = refused(client, b"<" + b" " * MAX_PUZZLE_BYTES, "huge.xmpuzzle", 413)
    assert str(MAX_PUZZLE_BYTES) in message
    assert str(MAX_BODY) in refused(client, b"# " + b"x" * MAX_BODY, "long.cmb", 413)
    assert file_name("../../etc/<passwd>") == "_passwd_"
    assert opened(client, packed)["problems"][0]["assemblies"] == 15  # the server goes on
    program = b"pattern a = {**}\nproblem p = a [a ~one]\n"  # and a program is a program
    assert client.post("/api/import", content=program).json()["design"]["board"] == ["**"]


# ----- the design written by excover design burrs -----


def test_the_stored_solution_plays_with_its_level_and_moves(
    client: TestClient, design_file: Path
) -> None:
    from excover.burr import Assembly, disassemble
    from excover.burr.xmpuzzle import parse_xmpuzzle
    from excover.burr.xmpuzzle.placements import placed

    data = design_file.read_bytes()
    puzzle = opened(client, data, design_file.name)
    (problem,) = puzzle["problems"]
    assert (problem["assemblies"], problem["solutions"], problem["stored_count"]) == (36, 1, 1)
    (stored,) = problem["stored"]
    assert (stored["level"], stored["total"], stored["fault"]) == ("5.4", 12, None)
    assert [p["count"] for p in problem["pieces"]] == ["1", "1", "1", "1", "2"]
    assert problem["result_variable"] > 0  # the holey burr's voxels that may stay empty
    response = client.post(f"/api/puzzles/{puzzle['id']}/0/stored/0/play", json={})
    assert response.status_code == 200, response.text
    found = response.json()
    assert (found["status"], found["level"], found["total"]) == ("solved", "5.4", 12)
    assert len(found["moves"]) == 12 and len(found["states"]) == 13
    assert found["names"][4:] == ["piece 57 #1", "piece 57 #2"]
    assert len(found["solid"]["pieces"]) == 6 == len(found["colours"])
    # the pieces where the file places them, read here, and every state played on them
    file = parse_xmpuzzle(data)
    spec = file.problems[0]
    shapes = [part.shape for part in spec.parts for _ in range(part.hi)]
    pieces = [
        sorted(placed(file.shapes[shapes[n]], 0, where))
        for n, where in enumerate(file.problems[0].stored[0].placements)
        if where is not None
    ]
    played(
        found, cast("list[list[tuple[int, ...]]]", pieces)
    )  # each move slides its pieces only, and no two ever meet
    alone = disassemble(Assembly.of_voxels(pieces))  # the disassembler, from scratch
    assert (alone.level, alone.total) == ("5.4", 12)
    assert client.post(f"/api/puzzles/{puzzle['id']}/0/stored/1/play", json={}).status_code == 400
    assert client.post("/api/puzzles/nope/0/stored/0/play", json={}).status_code == 404


def test_assemble_finds_the_design_s_assemblies_and_plays_its_solution(
    client: TestClient, design_file: Path
) -> None:
    puzzle = opened(client, design_file.read_bytes(), design_file.name)
    found, key = assembled(client, puzzle["id"])
    result = found[-1]
    assert result["complete"] and (result["found"], result["solved"]) == (36, 1)  # the file's
    listed = entries(found)
    assert [entry["index"] for entry in listed] == list(range(36))
    assert all("options" not in entry for entry in listed)  # kept by the server
    (solution,) = [entry for entry in listed if entry["status"] == "solved"]
    assert (solution["level"], solution["total"]) == ("5.4", 12)
    assert solution["index"] == puzzle["problems"][0]["stored"][0]["assembly"]
    response = client.post(f"/api/assemblies/{key}/{solution['index']}/play", json={})
    assert response.status_code == 200, response.text
    again = response.json()
    assert (again["status"], again["level"], again["total"]) == ("solved", "5.4", 12)
    stuck = next(entry for entry in listed if entry["status"] == "stuck")
    response = client.post(f"/api/assemblies/{key}/{stuck['index']}/play", json={})
    assert response.json()["status"] == "stuck" and response.json()["states"] == [
        [[0.0, 0.0, 0.0]] * 6
    ]
    assert client.post(f"/api/assemblies/{key}/36/play", json={}).status_code == 404
    listing, _ = assembled(client, puzzle["id"], take_apart=False)
    assert listing[-1]["found"] == 36 and listing[-1]["solved"] == 0
    assert all("status" not in entry for entry in entries(listing))


# ----- long runs: the time limit and Cancel -----


def pentacubes_in_a_box() -> bytes:
    """The 12 pentominoes (as flat pentacubes) in a 3x4x5 box: 3,940 packings up to the
    box's symmetries (Bouwkamp), seconds of work when each is taken apart."""
    from excover.tiling import pentominoes

    shapes = [
        BurrShape.from_voxels({(int(x), int(y), 0) for x, y in piece.coords().tolist()}, name=name)
        for name, piece in pentominoes().items()
    ]
    box = BurrShape.from_voxels({(x, y, z) for x in range(5) for y in range(4) for z in range(3)})
    problem = BurrProblem(tuple(Part(k) for k in range(12)), 12, "3x4x5")
    return format_xmpuzzle(BurrPuzzle((*shapes, box), (problem,))).encode()


def test_an_assemble_run_stops_at_its_time_limit_and_is_cancelled_at_once(
    client: TestClient,
) -> None:
    puzzle = opened(client, pentacubes_in_a_box())
    result = assembled(client, puzzle["id"], settings={"seconds": 0.2})[0][-1]
    assert result["type"] == "result" and result["stopped_by"] == "timeout"
    assert not result["complete"] and result["found"] < 3940
    request = {"task": "assemble", "puzzle": puzzle["id"], "problem": 0}
    key = client.post("/api/jobs", json=request).json()["id"]
    studio = client.app.state.studio  # type: ignore[attr-defined]
    seen: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: seen.extend(events(client, key)))
    reader.start()
    deadline = time.monotonic() + 60
    while not studio.jobs[key].alive:
        assert time.monotonic() < deadline, "the run never started"
        time.sleep(0.02)
    process = studio.jobs[key]._child._process
    assert client.post(f"/api/jobs/{key}/cancel").status_code == 200
    assert not process.is_alive()
    reader.join(30)
    assert seen[-1]["type"] == "cancelled"


@pytest.mark.slow  # seconds of work: every packing taken apart
def test_the_pentacubes_fill_the_box_in_3940_ways(client: TestClient) -> None:
    puzzle = opened(client, pentacubes_in_a_box())
    result = assembled(client, puzzle["id"])[0][-1]
    assert result["complete"] and result["found"] == 3940


# ----- other grids, and the command line -----


def test_a_prism_puzzle_is_played_and_a_sphere_puzzle_listed(client: TestClient) -> None:
    import numpy as np

    from excover.burr.xmpuzzle.lattice import GRIDS

    prisms = opened(client, (DATA / "prisms.xmpuzzle").read_bytes())
    found, key = assembled(client, prisms["id"])
    assert (found[-1]["found"], found[-1]["solved"]) == (2, 2)  # burrTxt's
    answer = client.post(f"/api/assemblies/{key}/0/play", json={}).json()
    assert answer["status"] == "solved" and answer["moves"][-1]["distance"] is None
    spheres = GRIDS[2]
    spots = np.array([(x, y, 0) for x in range(4) for y in range(2)])
    balls = [(int(x), int(y), int(z)) for x, y, z in spots[spheres.is_cell(spots)]]
    ball = BurrShape.from_voxels({balls[0]}, name="ball")
    row = BurrShape.from_voxels(set(balls[:3]), name="row")
    file = BurrPuzzle((ball, row), (BurrProblem((Part(0, 3, 3),), 1, "three balls"),), grid=2)
    puzzle = opened(client, format_xmpuzzle(file).encode())
    assert not puzzle["playable"] and puzzle["grid_name"] == "spheres"
    result = assembled(client, puzzle["id"])[0][-1]
    assert result["found"] == 1 and not result["take_apart"] and "spheres" in result["note"]


def test_the_command_line_opens_a_puzzle(
    tmp_path: Path, design_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``excover studio FILE.xmpuzzle`` (run as a user runs it) serves the puzzle to the
    page; a broken file is refused with exit status 2, the file named."""
    import json
    import os
    import signal
    import urllib.request

    from excover.main import main

    broken = tmp_path / "broken.xmpuzzle"
    broken.write_bytes(design_file.read_bytes()[:200])
    assert main(["studio", str(broken), "--no-browser"]) == 2
    said = capsys.readouterr().err
    assert "broken.xmpuzzle" in said and "cut short" in said
    command = [sys.executable, "-m", "excover", "studio", str(design_file), "--no-browser"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        found = re.fullmatch(r"excover studio: (http://127\.0\.0\.1:\d+/)\?token=(\S+)\n", line)
        assert found is not None, line
        base, token = found.groups()
        with urllib.request.urlopen(f"{base}api/initial?token={token}", timeout=60) as answer:
            initial = json.loads(answer.read())
        assert initial["design"] is None
        puzzle = initial["puzzle"]
        assert (
            puzzle["name"] == design_file.name
            and puzzle["problems"][0]["stored"][0]["level"] == "5.4"
        )
        play = urllib.request.Request(
            f"{base}api/puzzles/{puzzle['id']}/0/stored/0/play?token={token}", data=b"{}"
        )
        with urllib.request.urlopen(play, timeout=120) as answer:
            assert json.loads(answer.read())["total"] == 12
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(60)
    assert child.returncode == 130
