"""The studio's design search (the panel *Which pieces?*, issue 76): the sets of k of the
pieces on the page that fill its board, searched in a child process by the task
``design_search`` of ``POST /api/jobs``.

Its designs are checked three ways: against :func:`excover.design.search` run directly on
the same space (:class:`excover.studio.design_search.PieceSets`), against the packing
design space of the tiling library (:class:`excover.tiling.designs.PackingSpace`: the
same question asked of the pentomino catalog), and, design by design on the triangle,
hexagon and cube grids with pieces of mixed symmetries, against the tiling library's own
counts. The run is cancelled, stopped by its time limit and by the studio's longest run
time, abandoned by its page; bad requests are refused naming the field."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from test_studio_abandoned_work import Clock, client_of, followed, studio_of, until
from test_studio_api import ADDRESS, PORT, TOKEN, events, pentomino_design

from excover.design import Goal, search
from excover.studio.app import create_app
from excover.studio.catalog import families
from excover.studio.cells import shape
from excover.studio.design import StudioDesign
from excover.studio.design_search import MAX_CANDIDATES, PieceSets, SearchRequest
from excover.studio.limits import Limits
from excover.tiling import Tile, Tiling
from excover.tiling.designs import PackingSpace


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(TOKEN, PORT)
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as test_client:
        yield test_client


def family(grid: str, name: str, symmetry: str = "all") -> list[dict[str, Any]]:
    """The pieces of a family of the studio's catalog, as the page sends them."""
    (found,) = [f for f in families() if f["grid"] == grid and f["name"] == name]
    return [
        {"name": p["name"], "cells": p["cells"], "count": "1", "symmetry": symmetry}
        for p in found["pieces"]
    ]


def hexomino_design() -> dict[str, Any]:
    """The 35 hexominoes and a 6x5 board: 324,632 sets of 5, minutes of search."""
    return {"grid": "square", "board": ["******"] * 5, "pieces": family("square", "hexominoes")}


def start(client: TestClient, design: dict[str, Any], search: Any, **settings: Any) -> str:
    body = {"design": design, "task": "design_search", "search": search, "settings": settings}
    response = client.post("/api/jobs", json=body)
    assert response.status_code == 200, response.text
    key: str = response.json()["id"]
    return key


def searched(client: TestClient, design: dict[str, Any], search: dict[str, Any]) -> Any:
    """The result event of a search, after checking the events that lead to it."""
    found = events(client, start(client, design, search))
    kinds = [event["type"] for event in found]
    assert kinds[-1] == "result", found[-1]
    assert "searching" in kinds
    progress = [event for event in found if event["type"] == "searched"]
    assert progress and progress[-1]["done"] == progress[-1]["total"]
    assert all(a["done"] <= b["done"] for a, b in itertools.pairwise(progress))
    return found[-1]


# ----- the designs -----


def test_the_unique_designs_are_the_engines_and_the_packing_spaces(client: TestClient) -> None:
    """4 of the 12 pentominoes in the 5x4 rectangle: the 9 sets that fill it in exactly
    one way (docs/design.md), the report of the search run directly on the same space,
    and the same sets as the packing design space of the pentomino catalog gives."""
    design = pentomino_design(5, 4)
    result = searched(client, design, {"pieces": 4})
    report = result["report"]
    assert result["complete"] and result["stopped_by"] is None
    assert (report["size"], report["designs"], report["qualifying"]) == (495, 495, 9)
    assert report["distribution"] == {"0": 469, "1": 9, "2+": 17}
    assert report["goal_text"] == "exactly one solution up to symmetry"

    direct = search(PieceSets(StudioDesign.from_json(design), 4), Goal())
    assert report["found"] == [
        {**found.as_dict(), "pieces": found.key.split()} for found in direct.found
    ]
    assert report["distribution"] == direct.distribution
    assert report["rejected"] == direct.rejected == {}

    packing = search(PackingSpace(board="5x4", catalog="pentominoes", pieces=4), Goal())
    assert packing.distribution == direct.distribution
    assert {frozenset(f["pieces"]) for f in report["found"]} == {
        frozenset(f.key.split()) for f in packing.found
    }
    for found in report["found"]:  # each loads as a design the library solves in one way
        chosen = set(found["pieces"])
        pieces = [p for p in design["pieces"] if p["name"] in chosen]
        tiling = StudioDesign.from_json({**design, "pieces": pieces}).tiling()
        assert tiling.count(up_to_symmetry=True) == 1


@pytest.mark.parametrize(
    "request_, goal",
    [
        ({"pieces": 3, "solutions": 2}, Goal(solutions=2)),
        ({"pieces": 3, "solutions": "any", "top": 3, "by": "nodes"}, Goal(None, top=3, by="nodes")),
        (
            {"pieces": 3, "solutions": 4, "up_to_symmetry": False, "order": "high"},
            Goal(4, up_to_symmetry=False, order="high"),  # every tiling, the most first
        ),
    ],
)
def test_each_goal_is_the_engines(client: TestClient, request_: Any, goal: Goal) -> None:
    """3 of the 12 pentominoes in the 5x3 rectangle, under other goals."""
    design = pentomino_design(5, 3)
    report = searched(client, design, request_)["report"]
    direct = search(PieceSets(StudioDesign.from_json(design), 3), goal)
    assert report["goal"] == goal.as_dict()
    assert report["found"] == [
        {**found.as_dict(), "pieces": found.key.split()} for found in direct.found
    ]
    assert report["qualifying"] == direct.qualifying > 0
    assert report["distribution"] == direct.distribution


@pytest.mark.parametrize(
    ("grid", "board", "pieces", "k"),
    [
        # hexiamonds turned only (the mirror images of the chiral ones are not here), and
        # tetriamonds turned and flipped, in a strip of 12 triangles
        (
            "triangle",
            ["******", "******"],
            [("hexiamonds", 8, "rotations"), ("tetriamonds", 3, "all")],
            2,
        ),
        # polyhexes of 1 to 4 hexagons, some turned only, some not even that
        (
            "hex",
            ["***", "***", "***"],
            [("monohex to trihexes", 5, "none"), ("tetrahexes", 7, "rotations")],
            3,
        ),
        # polycubes turned in space only, in a 2 x 2 x 3 box
        (
            "cube",
            [["**", "**"]] * 3,
            [("monocube to tricubes", 4, "rotations"), ("tetracubes", 7, "rotations")],
            3,
        ),
        # polyominoes that only slide or turn, in a 3 x 3 square
        (
            "square",
            ["***"] * 3,
            [
                ("monomino and domino", 2, "none"),
                ("trominoes", 2, "rotations"),
                ("tetrominoes", 5, "none"),
            ],
            3,
        ),
    ],
)
def test_every_design_counts_as_the_tiling_library_counts_it(
    grid: str, board: list[Any], pieces: list[tuple[str, int, str]], k: int
) -> None:
    """Design by design (any number of solutions, every one counted), up to symmetry and
    not: the outcome is the count of the design's tiling, zero for a design rejected
    before any search."""
    chosen = []
    for name, count, symmetry in pieces:
        chosen += family(grid, name, symmetry)[:count]
    design = StudioDesign.from_json({"grid": grid, "board": board, "pieces": chosen})
    space = PieceSets(design, k)
    assert space.size == len(list(itertools.combinations(chosen, k)))
    board_shape = design.board_shape()
    seen = {"area": 0, "solved": 0}
    for symmetric in (True, False):
        goal = Goal(solutions=None, up_to_symmetry=symmetric)
        for index, candidate in space.designs(0, space.size):
            assert candidate is not None and candidate.weight == 1
            parts = [design.pieces[i] for i in candidate.parts]
            assert candidate.key == " ".join(p.name for p in parts)
            outcome = space.evaluate(candidate, goal, None, None)
            tiles = [Tile(shape(grid, p.cells), p.name, 1, p.symmetry) for p in parts]
            expected = Tiling(board_shape, tiles).count(up_to_symmetry=symmetric)
            assert outcome.exact and outcome.solutions == expected, (candidate.key, symmetric)
            if outcome.rejected is not None:
                assert expected == 0
                seen["area"] += outcome.rejected == "area"
            seen["solved"] += expected > 0
            assert space.design(index) == candidate
    assert seen["area"] and seen["solved"]  # each case has both


# ----- cancel and limits -----


def streamed(client: TestClient, key: str) -> tuple[list[dict[str, Any]], threading.Thread]:
    """The events of run ``key``, each added to a list as it comes, read in a thread."""
    found: list[dict[str, Any]] = []

    def read() -> None:
        with client.stream("GET", f"/api/jobs/{key}/events") as response:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    found.append(json.loads(line.removeprefix("data: ")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return found, reader


def test_cancel_stops_a_search(client: TestClient) -> None:
    key = start(client, hexomino_design(), {"pieces": 5})
    found, reader = streamed(client, key)
    studio = studio_of(client)
    until(lambda: any(e["type"] == "searched" for e in found), "the search never began")
    progress = [event for event in found if event["type"] == "searched"]
    assert progress[-1]["done"] < progress[-1]["total"] == 324_632
    process = studio.jobs[key]._child._process
    response = client.post(f"/api/jobs/{key}/cancel")
    assert response.status_code == 200 and response.json()["cancelled"]
    assert response.json()["stop_seconds"] < 30.0  # a kill: milliseconds on a quiet machine
    assert process is not None and not process.is_alive()
    reader.join(30)
    assert not reader.is_alive()
    assert found[-1]["type"] == "cancelled"
    assert key not in studio.jobs


def test_a_time_limit_stops_a_search_with_what_it_did(client: TestClient) -> None:
    result = events(client, start(client, hexomino_design(), {"pieces": 5}, seconds=0.5))[-1]
    assert (result["type"], result["stopped_by"], result["complete"]) == (
        "result",
        "timeout",
        False,
    )
    report = result["report"]
    assert 0 < report["candidates"] < report["size"] == 324_632
    assert "maximum" not in result


def test_the_longest_run_time_stops_a_search_and_says_so() -> None:
    with client_of(Limits(run_seconds=0.5, abandon_seconds=10**9)) as client:
        result = events(client, start(client, hexomino_design(), {"pieces": 5}))[-1]
        assert (result["type"], result["stopped_by"]) == ("result", "timeout")
        assert result["maximum"] == 0.5


def test_a_search_its_page_stops_following_is_cancelled(clock: Clock) -> None:
    with client_of(Limits(abandon_seconds=60), clock) as client:
        studio = studio_of(client)
        key = start(client, hexomino_design(), {"pieces": 5})
        found, reader = followed(client, key)
        process = studio.jobs[key]._child._process
        clock.now += 59
        assert client.post(f"/api/jobs/{key}/alive").json() == {"alive": True}
        clock.now += 59
        assert studio.jobs[key].alive
        clock.now += 2  # 61 s without a word from its page
        until(lambda: key not in studio.jobs, "the search was not forgotten")
        assert process is not None
        until(lambda: not process.is_alive(), "the search's child goes on")
        reader.join(60)
        assert found[-1]["type"] == "cancelled"
        assert "no page followed the run for 60 s" in found[-1]["message"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


# ----- bad requests -----


@pytest.mark.parametrize(
    ("search_", "where", "words"),
    [
        (None, "search", "expected an object"),
        ([4], "search", "expected an object"),
        ({}, "search.pieces", "1 to 400"),
        ({"pieces": "4"}, "search.pieces", "1 to 400"),
        ({"pieces": True}, "search.pieces", "1 to 400"),
        ({"pieces": 13}, "search.pieces", "13 pieces cannot be chosen from the 12"),
        ({"pieces": 4, "solutions": 0}, "search.solutions", "'unique', 'any'"),
        ({"pieces": 4, "solutions": "two"}, "search.solutions", "'unique', 'any'"),
        ({"pieces": 4, "solutions": 10**9}, "search.solutions", "1 to 1,000,000"),
        ({"pieces": 4, "up_to_symmetry": "yes"}, "search.up_to_symmetry", "true or false"),
        ({"pieces": 4, "top": 0}, "search.top", "1 to 1000"),
        ({"pieces": 4, "top": 10**6}, "search.top", "1 to 1000"),
        ({"pieces": 4, "by": "level"}, "search.by", "solutions, nodes"),
        ({"pieces": 4, "order": "up"}, "search.order", "low, high"),
        ({"pieces": 4, "copies": 2}, "search", "no field 'copies'"),
    ],
)
def test_a_bad_request_names_the_field(
    client: TestClient, search_: Any, where: str, words: str
) -> None:
    body = {"design": pentomino_design(5, 4), "task": "design_search", "search": search_}
    response = client.post("/api/jobs", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["where"] == where and words in error["message"], error
    assert not studio_of(client).jobs


def test_impossible_designs_are_refused_saying_why(client: TestClient) -> None:
    def refusal(design: dict[str, Any], pieces: int) -> dict[str, Any]:
        body = {"design": design, "task": "design_search", "search": {"pieces": pieces}}
        response = client.post("/api/jobs", json=body)
        assert response.status_code == 400, response.text
        error: dict[str, Any] = response.json()["error"]
        return error

    empty = {**pentomino_design(5, 4), "board": [".....", "....."]}
    assert refusal(empty, 4) == {"message": "it has no cells", "where": "board"}
    none = {**pentomino_design(5, 4), "pieces": []}
    assert refusal(none, 1)["where"] == "pieces"
    unused = pentomino_design(5, 4, count="0")  # on the page, but not chosen
    assert "no piece is chosen" in refusal(unused, 1)["message"]
    too_many = refusal(hexomino_design(), 12)  # C(35, 12) = 834,451,800 sets
    assert too_many["where"] == "search.pieces"
    assert f"{MAX_CANDIDATES:,}" in too_many["message"] and "834,451,800" in too_many["message"]
    body = {"design": pentomino_design(5, 4), "task": "designs", "search": {"pieces": 4}}
    assert "design_search" in client.post("/api/jobs", json=body).json()["error"]["message"]


def test_the_request_reads_back_what_it_writes() -> None:
    for data in ({"pieces": 2}, {"pieces": 3, "solutions": 5, "top": 2, "by": "nodes"}):
        request = SearchRequest.from_json(data)
        assert SearchRequest.from_json(request.as_json()) == request
    assert SearchRequest.from_json({"pieces": 1, "solutions": "any"}).goal == Goal(None)
    space = PieceSets(StudioDesign.from_json(pentomino_design(5, 3)), 3)
    again = PieceSets.from_declaration(space.declaration())
    assert again.declaration() == space.declaration() and again.size == space.size == 220


def test_the_page_has_the_panel(client: TestClient) -> None:
    page = client.get("/").text
    assert "Which pieces?" in page and f"static/search.js?token={TOKEN}" in page
    script = client.get("/static/search.js")
    assert script.status_code == 200 and "design_search" in script.text
    assert script.headers["content-type"].startswith("text/javascript")


def test_a_small_search_says_its_time(client: TestClient) -> None:
    started = time.monotonic()
    result = searched(client, pentomino_design(5, 3), {"pieces": 3})
    assert 0 <= result["seconds"] <= time.monotonic() - started
    assert result["report"]["qualifying"] == 7  # docs/design.md: n = 3
