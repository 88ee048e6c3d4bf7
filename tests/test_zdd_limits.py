"""The ZDD method within its limits: a listing that needs no whole family (``solve
--limit N``, ``first()``), ``--timeout`` and Ctrl-C honoured by listings and counts, a
stopped count said as such (never ``None``), and the memory bound of every ZDD
construction (``max_bytes``, ``--max-memory``): a clean stop, never a traceback or the
kernel's kill.

The boards are domino tilings too large for any family to be built: a 40 x 40 board
(about 10^258 tilings; DXZ's memo would need a state for each row and each of the 2^40
profiles of a row) and the same board with a cell more, which has no tiling at all.
"""

from __future__ import annotations

import gc
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builders import dominoes, queens

from excover import ExactCover, MemoryBoundError, ResourceLimitError
from excover.main import main
from excover.names import METHOD_TRAITS, METHODS
from excover.zdd import Manager, configure, dxz, frontier, memory

ROOT = Path(__file__).resolve().parent.parent
PENTO = str(ROOT / "tests" / "data" / "knuth" / "pento6x10.dlx")
EMPTY_SUDOKU = "." * 81

#: Search nodes far beyond what 5 solutions of the big board take (one descent each, 800
#: cells) and far below what building its family would take.
FEW_NODES = 100_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def big_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A 40 x 40 board of dominoes, as a DLX file."""
    path = tmp_path_factory.mktemp("boards") / "dominoes40.dlx"
    dominoes(40, 40).write(path)
    return str(path)


@pytest.fixture(scope="module")
def odd_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A 41 x 40 board with one more cell, joined to the corner: an odd number of cells,
    so no tiling, but DXZ's search (leftmost cell first) only finds that out by walking
    states without end."""
    problem = dominoes(41, 40)
    path = tmp_path_factory.mktemp("boards") / "odd.dlx"
    text = problem.to_dlx().splitlines()
    text[0] += " extra"
    text.append("r40c39 extra")
    path.write_text("\n".join(text) + "\n")
    return str(path)


def _subprocess(*argv: str, stdout: int = subprocess.DEVNULL) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "excover", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
    )


# --------------------------------------------------------------------------- listings


def test_solve_limit_takes_only_what_its_solutions_need(
    capsys: pytest.CaptureFixture[str], big_board: str
) -> None:
    """Five tilings of a board whose family no machine could build: printed at once,
    after a few thousand search nodes."""
    argv = ["solve", big_board, "--method", "zdd", "--limit", "5", "--json"]
    status, out, _ = run(capsys, *argv)
    result = json.loads(out)
    assert status == 0 and (result["stopped_by"], result["complete"]) == ("limit", False)
    solutions = result["solutions"]
    assert len(solutions) == 5 and len({tuple(s["options"]) for s in solutions}) == 5
    problem = ExactCover.read(big_board)
    for solution in solutions:  # each a tiling: every cell covered once
        cells = [item for option in solution["options"] for item in problem.option_items(option)]
        assert sorted(cells) == sorted(problem.primary_items)
    assert 0 < result["stats"]["nodes"] < FEW_NODES


def test_first_and_a_limited_listing_of_the_api_need_no_family(big_board: str) -> None:
    problem = ExactCover.read(big_board)
    first = problem.first(method="zdd")
    assert first is not None and len(first) == 800
    listing = dxz.DxzListing(problem)
    taken = [solution for solution, _ in zip(listing, range(3), strict=False)]
    assert taken[0] == first and len({tuple(s) for s in taken}) == 3
    assert listing.run.nodes < FEW_NODES


def test_listing_follows_the_family_to_its_end() -> None:
    """Run to its end, the listing gives the whole family, each set once: the leaves
    found in the memo are listed as well as those solved at once."""
    problem = dominoes(6, 6)
    listing = dxz.DxzListing(problem)
    listed = list(listing)
    assert len(listed) == len({tuple(s) for s in listed}) == 6728 == problem.count("search")
    assert listing.run.hits > 0  # some solutions came from memoised sub-families
    assert {frozenset(s) for s in listed} == set(problem.zdd())


def test_listing_stops_at_the_timeout(odd_board: str) -> None:
    """No solution ever comes: the compiled search itself is stopped by --timeout."""
    started = time.monotonic()
    process = _subprocess("solve", odd_board, "--method", "zdd", "--timeout", "1")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    assert "stopped by --timeout (0 solutions so far); the result is partial" in err
    assert "Traceback" not in err
    assert time.monotonic() - started < 30  # generous: start-up, a loaded machine


def test_a_listing_printing_solutions_stops_at_the_timeout(big_board: str) -> None:
    process = _subprocess("solve", big_board, "--method", "zdd", "--timeout", "1")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and "stopped by --timeout (" in err and "Traceback" not in err


def test_ctrl_c_stops_a_listing(big_board: str) -> None:
    process = _subprocess("solve", big_board, "--method", "zdd", stdout=subprocess.PIPE)
    assert process.stdout is not None
    assert process.stdout.readline() == "solution 1:\n"  # the listing is under way
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in err
    assert "interrupted" in err


# --------------------------------------------------------------------------- counts


def test_a_stopped_sudoku_count_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """The empty grid's 6.67e21 solutions are no ZDD's to count in a moment: the count
    stops, prints 'unknown' (a ZDD count has no partial one), and says why."""
    argv = ["sudoku", EMPTY_SUDOKU, "--count", "--method", "zdd", "--timeout", "0.05"]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (1, "unknown\n")
    assert "stopped by --timeout (no partial count); the result is partial" in err
    status, out, _ = run(capsys, *argv, "--json")
    (result,) = json.loads(out)["results"]
    assert status == 1 and (result["count"], result["complete"]) == (None, False)
    assert json.loads(out)["stopped_by"] == "timeout"


def test_a_zdd_count_stops_at_its_memory_bound(capsys: pytest.CaptureFixture[str]) -> None:
    """Pentominoes in the 6 x 10 box go to DXZ, whose memo needs far more than 1 MiB."""
    status, out, err = run(capsys, "count", PENTO, "--method", "zdd", "--max-memory", "1M")
    assert (status, out) == (1, "")
    assert "stopped by --max-memory (a bound of 1.0 MiB; no partial count)" in err
    status, out, _ = run(capsys, "count", PENTO, "--method", "zdd", "--max-memory", "1M", "--json")
    document = json.loads(out)
    assert status == 1 and document["stopped_by"] == "max_memory" and document["count"] is None
    assert document["stats"]["memory_bound"] == 1 << 20


def test_a_listing_stops_at_its_memory_bound_with_what_it_listed(odd_board: str) -> None:
    """In a process of its own: the bound stops it before the machine would."""
    process = _subprocess("solve", odd_board, "--method", "zdd", "--max-memory", "64M")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert "stopped by --max-memory (a bound of 64.0 MiB; 0 solutions so far)" in err
    assert "Traceback" not in err


def test_max_memory_goes_with_the_zdd_method_only(capsys: pytest.CaptureFixture[str]) -> None:
    for method in (m for m in METHODS if not METHOD_TRAITS[m].family):
        status, out, err = run(capsys, "count", PENTO, "--method", method, "--max-memory", "1G")
        assert (status, out) == (2, "") and "--max-memory goes with --method zdd" in err
    status, _, err = run(capsys, "count", PENTO, "--max-memory", "lots")
    assert status == 2 and "not an amount of memory" in err


# --------------------------------------------------------------------------- the bound


def test_every_construction_stops_at_the_bound_and_gives_its_bytes_back() -> None:
    """The frontier count, the top-down family, DXZ: each stops with MemoryBoundError
    (a ResourceLimitError) past a small bound; the manager stays usable, every byte a
    construction borrowed is given back, and a larger bound lets it finish."""
    with pytest.raises(MemoryBoundError, match="the frontier count needs more memory"):
        frontier.count(dominoes(20, 20), max_bytes=4 << 20)
    manager = Manager(max_bytes=1 << 20)
    base = manager.memory_bytes
    for build in (dxz.topdown, dxz.by_dxz):
        with pytest.raises(ResourceLimitError):  # MemoryBoundError is one
            build(queens(12), manager)
        gc.collect()
        assert manager.memory_bytes == base
    manager.max_bytes = 0  # no bound
    assert dxz.by_dxz(queens(8), manager).count() == 92
    with pytest.raises(MemoryBoundError) as stopped:
        dxz.count(ExactCover.read(PENTO), max_bytes=1 << 20)
    assert stopped.value.bound == 1 << 20 and "1.0 MiB" in str(stopped.value)


def test_the_default_bound_is_a_share_of_the_machine() -> None:
    machine = memory.machine_memory()
    assert machine is not None and machine > 0
    assert memory.default_bound() == int(machine * memory.SHARE)
    assert Manager().max_bytes == memory.default_bound()
    try:
        configure(max_bytes=1 << 30)
        assert dxz.search_manager().max_bytes == 1 << 30 == memory.default_bound()
    finally:
        configure()
    assert dxz.search_manager().max_bytes == int(machine * memory.SHARE)
