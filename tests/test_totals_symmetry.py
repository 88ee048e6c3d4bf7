"""Total counts use the symmetry they know (issue #60, point 6): a count of every
solution breaks the group known without a search (a tiling's board, a declared group) by
default, in the API, the command line, ``.cmb`` programs and the studio, and the switch
that turns it off (``symmetry=False``, ``--no-break-symmetry``, ``~no_break_symmetry``,
``"break_symmetry": false``) gives the same counts. Listings are left alone, and
``--timeout`` bounds the finding of a group too.

Small counts end in the plain search's scout (:data:`excover.solving.registry.SCOUT_NODES`)
before any symmetry: the tests that need the symmetric path on a small problem set the
scout to nothing (``no_scout``), so that every count of theirs goes through it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from excover import ExactCover
from excover.main import main
from excover.names import METHOD_TRAITS, METHODS
from excover.puzzles.queens import queens
from excover.solving import registry
from excover.tiling import (
    HexPattern,
    Pattern,
    Pattern3,
    Tile,
    Tiling,
    TrianglePattern,
    pentominoes,
    polyiamonds,
    polyominoes,
    soma_pieces,
    tetrominoes,
    tiles,
)
from excover.tiling.tile import Multiplicity

ROOT = Path(__file__).resolve().parents[1]
KNUTH = ROOT / "tests" / "data" / "knuth"

#: The methods that search: those whose default count may break a board's symmetry
#: (:func:`excover.solving.registry.breaks_by_default`).
SEARCHING = [m for m in METHODS if METHOD_TRAITS[m].searches]


@pytest.fixture
def no_scout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every count that may use a symmetry does, however small (no plain scout first)."""
    monkeypatch.setattr(registry, "SCOUT_NODES", 0)
    yield


def _box_with_hole() -> Pattern:
    return Pattern.from_ascii("********\n********\n***..***\n***..***\n********\n********")


#: Small tilings, each with a board that has symmetries: pieces that turn and flip, used
#: once, a number of times or any number of times, on four grids.
TILINGS: dict[str, Any] = {
    "pentominoes 3x20": lambda: Tiling(Pattern.constant(20, 3), tiles(pentominoes())),
    "tetrominoes 4x5": lambda: Tiling(Pattern.constant(5, 4), tiles(tetrominoes())),
    "tetrominoes twice, 8x5": lambda: Tiling(Pattern.constant(8, 5), tiles(tetrominoes(), 2)),
    "trominoes maybe, 6x6 with a hole": lambda: Tiling(
        _box_with_hole(),
        [Tile(shape, f"tromino{n}", "any") for n, shape in enumerate(polyominoes(3))]
        + [Tile(polyominoes(2)[0], "domino", "maybe")],
    ),
    "dominoes 6x6": lambda: Tiling(Pattern.constant(6, 6), [Tile("**", "d", "any")]),
    "lozenges in a hexagon": lambda: Tiling(
        TrianglePattern.from_ascii("..*****\n.*******\n.*******\n..*****"),
        [Tile(polyiamonds(2)[0], "lozenge", "any")],
    ),
    "dihexes on a ring": lambda: Tiling(
        HexPattern.from_ascii(" * *\n*   *\n * *"), [Tile(HexPattern([(0, 0), (1, 0)]), "d", "any")]
    ),
    "soma cube": lambda: Tiling(
        Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations")
    ),
}


@pytest.mark.parametrize("name", sorted(TILINGS))
@pytest.mark.parametrize("method", SEARCHING)
def test_a_tiling_counts_the_same_with_and_without_its_board_symmetry(
    no_scout: None, name: str, method: str
) -> None:
    tiling = TILINGS[name]()
    found = tiling.total_count(method, {})
    if found is None:  # auto pins a free tile, or counts the whole problem by its routes
        assert method == "auto" and tiling.symmetry.total() is None
        assert tiling.count(method) == tiling.count("search", symmetry=False)
        return
    number, total = found
    assert number == tiling.count(method) == tiling.count(method, symmetry=False)
    assert number == tiling.problem.count(method="search", symmetry=False)
    assert f"of order {tiling.symmetry.order}" in total.note
    if total.group is None:  # a free tile pinned: one tiling per class, each of |G|
        assert total.factor == tiling.symmetry.order > 1
        assert "pinned" in total.note
    else:  # the symmetry-broken search of the whole problem
        assert total.factor == 1 and total.problem is tiling.problem


def test_the_zdd_method_takes_the_pinned_problem_only(no_scout: None) -> None:
    """A method that does not search cannot run a symmetry-broken search: the default
    leaves it alone, and it counts the tiling problem itself."""
    dominoes = TILINGS["dominoes 6x6"]()
    assert dominoes.total("zdd") is None  # no free tile: a domino is symmetric
    assert dominoes.total("search") is not None
    assert dominoes.total_count("zdd", {}) is None
    assert dominoes.count("zdd") == dominoes.count("search", symmetry=False)


def test_a_board_without_symmetry_is_counted_as_it_is(no_scout: None) -> None:
    board = Pattern.from_ascii("****\n***.\n****\n**..")
    tiling = Tiling(board, [Tile("**", "d", "any"), Tile("***", "i", "any")])
    assert tiling.symmetry.order == 1
    assert tiling.total_count("auto", {}) is None
    assert tiling.count() == tiling.count(symmetry=False) == tiling.problem.count(symmetry=False)


def test_bounded_counts_and_listings_stay_as_they_are(no_scout: None) -> None:
    """A count bounded by nodes or solutions means the search as it is, and a listing
    lists every solution, not one per class."""
    tiling = TILINGS["pentominoes 3x20"]()
    assert tiling.total_count("search", {"max_nodes": 10**9}) is None
    assert tiling.total_count("search", {"max_solutions": 10**9}) is None
    listed = [sorted(solution.options) for solution in tiling.solutions()]
    assert len(listed) == len({tuple(s) for s in listed}) == tiling.count() == 8


@st.composite
def symmetric_tilings(draw: st.DrawFn) -> Tiling:
    """A board made symmetric by mirroring a random half (left to right, and top to
    bottom when asked), and a few small pieces of random multiplicities."""
    width, height = draw(st.integers(1, 3)), draw(st.integers(2, 5))
    half = [[draw(st.booleans()) or (r + c) % 3 == 0 for c in range(width)] for r in range(height)]
    rows = ["".join("*" if cell else "." for cell in row + row[::-1]) for row in half]
    if draw(st.booleans()):
        rows += rows[::-1]
    pieces = draw(
        st.lists(st.sampled_from(polyominoes(2) + polyominoes(3)), min_size=1, max_size=3)
    )
    kinds: st.SearchStrategy[Multiplicity] = st.sampled_from(["one", "maybe", "any", 2, "0..2"])
    chosen = [Tile(piece, f"p{n}", draw(kinds)) for n, piece in enumerate(pieces)]
    board = Pattern.from_ascii("\n".join(rows))
    assume(all(tile.size <= len(board.coords()) for tile in chosen))
    return Tiling(board, chosen)


@settings(max_examples=examples(120), deadline=None)
@given(symmetric_tilings(), st.sampled_from(SEARCHING))
def test_random_symmetric_tilings_count_the_same(tiling: Tiling, method: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "SCOUT_NODES", 0)
        assert tiling.count(method) == tiling.count(method, symmetry=False)
        found = tiling.total_count(method, {})
    if tiling.obstruction is None and tiling.symmetry.option_order > 1:
        if method == "auto" and tiling.symmetry.total() is None:
            assert found is None  # auto breaks a board group only by a pinned tile
        else:
            assert found is not None and found[0] == tiling.problem.count(symmetry=False)


# ----- exact cover problems: the declared group, and .dlx files left alone


@pytest.mark.parametrize("n", [5, 6, 8])
def test_a_declared_group_counts_the_same(no_scout: None, n: int) -> None:
    problem = queens(n)
    assert registry.declares_group(problem, "auto", {})
    group = registry.total_group(problem, "auto", {})
    assert group is not None and group.order == 8
    assert (
        problem.count() == problem.count(symmetry=False) == problem.count("search", symmetry=group)
    )


@pytest.mark.parametrize("name", ["queens8", "pento3x20", "scott-pfix", "domino6x6"])
def test_a_dlx_file_declares_nothing_and_counts_as_before(no_scout: None, name: str) -> None:
    """No group is known of a ``.dlx`` file without a search: the default leaves it
    alone (finding one costs more than it saves on counts of a few seconds), and the
    symmetry-broken count that ``symmetry=True`` asks for agrees."""
    problem = ExactCover.read(KNUTH / f"{name}.dlx")
    assert not registry.declares_group(problem, "auto", {})
    assert problem.count() == problem.count(symmetry=False) == problem.count(symmetry=True)


def test_the_scout_counts_a_small_problem_and_gives_up_on_a_large_one() -> None:
    assert registry.scout(queens(6), {}) == 4
    assert registry.scout(ExactCover.read(KNUTH / "pento6x10.dlx"), {}) is None


# ----- the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_cli_breaks_a_declared_group_unless_told_not_to(
    no_scout: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "queens", "8", "--count")
    assert (status, out) == (0, "92\n")
    assert "symmetry: declared group of order 8, broken by default" in err
    status, out, err = run(capsys, "queens", "8", "--count", "--no-break-symmetry")
    assert (status, out) == (0, "92\n")
    assert "symmetry" not in err
    status, out, _ = run(capsys, "queens", "8", "--count", "--json")
    document = json.loads(out)
    assert document["count"] == 92 and document["stats"]["symmetry"] == "declared group of order 8"
    status, out, _ = run(capsys, "queens", "8", "--count", "--json", "--no-break-symmetry")
    assert "symmetry" not in json.loads(out).get("stats", {})


def test_a_burrtools_puzzle_counts_the_same_either_way(capsys: pytest.CaptureFixture[str]) -> None:
    """The Soma cube's puzzle declares BurrTools' group of 48: the count, long enough to
    pass the scout, breaks it by default."""
    puzzle = str(ROOT / "examples" / "soma.xmpuzzle")
    status, out, err = run(capsys, "count", puzzle)
    assert (status, out) == (0, "11520\n") and "declared group of order 48" in err
    status, out, err = run(capsys, "count", puzzle, "--no-break-symmetry")
    assert (status, out) == (0, "11520\n") and "symmetry" not in err


def test_the_flag_means_the_same_in_every_subcommand(
    no_scout: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A listing lists every solution with or without the switch; an explicit
    --break-symmetry finds the automorphism group; a plain search's flags keep the
    count plain."""
    status, out, _ = run(capsys, "queens", "6", "--limit", "10", "--no-break-symmetry")
    assert status == 0 and out.count("Q") == 4 * 6  # the 4 placements, every one
    status, out, err = run(capsys, "count", str(KNUTH / "queens8.dlx"), "--break-symmetry")
    assert (status, out) == (0, "92\n") and "symmetries: a group of order 8" in err
    status, out, err = run(capsys, "queens", "8", "--count", "--stats")
    assert (status, out) == (0, "92\n") and "broken by default" in err
    status, out, err = run(capsys, "queens", "8", "--count", "--engine", "dlx")
    assert (status, out) == (0, "92\n") and "method search, dancing links" in err
    status, out, err = run(capsys, "queens", "8", "--count", "--max-nodes", "100000")
    assert (status, out) == (0, "92\n") and "symmetry" not in err


def test_the_timeout_covers_finding_the_group(tmp_path: Path) -> None:
    """The automorphism group of the 16 x 16 Latin square problem takes far longer to
    find than a few seconds; ``--timeout 3`` stops the command while it is being found, exit
    status 1 (generous bound: start-up and a loaded machine)."""
    n = 16
    problem = ExactCover(primary=[f"{k}{a}_{b}" for k in "xrc" for a in range(n) for b in range(n)])
    for r in range(n):
        for c in range(n):
            for v in range(n):
                problem.add_option([f"x{r}_{c}", f"r{r}_{v}", f"c{c}_{v}"])
    path = tmp_path / "latin16.dlx"
    problem.write(path)
    argv = [sys.executable, "-m", "excover", "count", str(path), "--break-symmetry"]
    started = time.monotonic()
    done = subprocess.run([*argv, "--timeout", "3"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "finding the symmetries" in done.stderr and "stopped by --timeout" in done.stderr
    assert time.monotonic() - started < 60


# ----- .cmb programs


def test_a_cmb_count_breaks_the_board_symmetry_unless_told_not_to(
    no_scout: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "box.cmb"
    program.write_text(
        'include "excover:pentominoes"\n'
        "problem box = constant 20x3 true pentominoes\n"
        "count dlx box\ncount auto box ~no_break_symmetry\ncount zdd box\n"
        "count dlx box ~up_to_symmetry ~no_break_symmetry\n"
    )
    status, out, err = run(capsys, "run", str(program))
    assert status == 0
    assert out.splitlines() == [
        "box : (DLX) 8 solutions",
        "box : (AUTO) 8 solutions",
        "box : (ZDD) 8 solutions",
        "box : (DLX) 2 solutions up to symmetry",
    ]
    lines = err.splitlines()
    assert "symmetry: board group of order 4, " in lines[0] and "~no_break_symmetry" in lines[0]
    assert all("symmetry:" not in line for line in lines[1:])
    status, out, _ = run(capsys, "run", str(program), "--json")
    records = json.loads(out)["results"]
    assert [r["count"] for r in records] == [8, 8, 8, 2]
    assert records[0]["symmetry"].startswith("board group of order 4")
    assert [r["symmetry"] for r in records[1:3]] == [None, None]


def test_a_listing_takes_no_break_symmetry_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "all.cmb"
    program.write_text("problem b = constant 2x2 true [{**} ~sym]\nall dlx b ~no_break_symmetry\n")
    status, _, err = run(capsys, "run", str(program))
    assert status == 2 and "unknown option '~no_break_symmetry' here" in err


# ----- the studio


@pytest.mark.slow  # studio counts in child processes, twice
def test_the_studio_counts_the_same_either_way() -> None:
    """The studio's count request (a child process): by default the 5 x 12 box is counted
    with a free tile pinned under the board's group, ``"break_symmetry": false`` counts
    the box itself; both give the 4 x 1,010 packings (1,010 up to symmetry, Haselgrove)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from excover.studio.app import create_app

    token, port = "test-token-0123456789", 8765
    pieces = [
        {"name": name, "cells": shape.ascii().splitlines(), "count": "1"}
        for name, shape in pentominoes().items()
    ]
    design = {"board": ["*" * 12] * 5, "pieces": pieces}
    app = create_app(token, port)
    results = []
    with TestClient(
        app, base_url=f"http://127.0.0.1:{port}", headers={"X-Studio-Token": token}
    ) as client:
        for settings_sent in ({}, {"break_symmetry": False}):
            body = {"design": design, "task": "count", "settings": settings_sent}
            response = client.post("/api/jobs", json=body)
            assert response.status_code == 200, response.text
            stream = client.get(f"/api/jobs/{response.json()['id']}/events").text
            blocks = [b.removeprefix("data: ") for b in stream.split("\n\n") if b.strip()]
            results.append(json.loads(blocks[-1]))
        refused = client.post(
            "/api/jobs", json={**body, "settings": {"break_symmetry": "no"}}
        ).json()
    default, plain = results
    assert default["count"] == plain["count"] == str(4 * 1010)
    assert default["symmetry"].startswith("board group of order 4")
    assert "symmetry" not in plain
    assert "break_symmetry must be true or false" in refused["error"]["message"]
