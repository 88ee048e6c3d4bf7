"""Tests of the ``excover`` command and of the shipped pentomino example.

Most tests call :func:`excover.main.main` in-process; a few run ``python -m excover`` in a
subprocess, for what only a real process shows: the exit status, Ctrl-C, a closed pipe.
Every printed solution is checked against the definition with ``ExactCover.is_solution``;
the counts are compared with figures from the literature (92 queens solutions on 8x8,
Knuth's DLX1 statistics, the pentomino packings) and with each other.
"""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from builders import dominoes, queens
from runs import wait_until_busy

import excover
from excover import ExactCover
from excover.engines import pick_engine
from excover.engines._bits import MAX_BITS
from excover.main import main
from excover.names import ENGINES

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "tests" / "data" / "knuth"
QUEENS8 = str(KNUTH / "queens8.dlx")
EXAMPLES = ROOT / "examples"
PENTO6X10 = str(EXAMPLES / "pento6x10.dlx")

# Knuth's DLX1 on queens8.dlx (tests/data/knuth/MANIFEST.md).
QUEENS8_SOLUTIONS, QUEENS8_NODES, QUEENS8_UPDATES = 92, 1049, 16680

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    """``excover ARGV`` in-process: exit status, stdout, stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    status, out, _ = run(capsys, *argv, "--json")
    result: dict[str, Any] = json.loads(out)
    return status, result


def subprocess_excover(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "excover", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def option_index(problem: ExactCover) -> dict[tuple[str, ...], int]:
    """Each option's items, as printed, to its index (the options of the tests are distinct)."""
    index = {tuple(problem.option_items(i)): i for i in range(problem.n_options)}
    assert len(index) == problem.n_options
    return index


def parse_text_solutions(out: str, problem: ExactCover) -> list[list[int]]:
    """The solutions printed by ``excover solve``, back as option indices."""
    if not out:
        return []
    index = option_index(problem)
    solutions = []
    for number, block in enumerate(out.rstrip("\n").split("\n\n"), start=1):
        header, *lines = block.split("\n")
        assert header == f"solution {number}:"
        solutions.append([index[tuple(line.split())] for line in lines])
    return solutions


def stderr_stats(err: str) -> dict[str, str]:
    """The ``name: value`` lines printed by ``--stats``."""
    pairs = (line.split(": ", 1) for line in err.splitlines() if ": " in line)
    return {name: value for name, value in pairs}


@pytest.fixture(scope="module")
def endless(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Problems no count or listing finishes within a test, however fast the machine:
    20 queens (39,029,188,884 solutions) and the 10x10 domino board (258,584,046,368)."""
    folder = tmp_path_factory.mktemp("endless")
    paths = {"queens20": folder / "q20.dlx", "domino10x10": folder / "d10.dlx"}
    paths["queens20"].write_text(queens(20).to_dlx(), encoding="utf-8")
    paths["domino10x10"].write_text(dominoes(10, 10).to_dlx(), encoding="utf-8")
    return {name: str(path) for name, path in paths.items()}


@pytest.fixture(scope="module")
def queens8() -> ExactCover:
    return ExactCover.read(QUEENS8)


@pytest.fixture(scope="module")
def queens8_all(queens8: ExactCover) -> list[list[int]]:
    """All solutions of queens8, in the order of the library's default search."""
    return list(queens8.solutions())


# --------------------------------------------------------------------------- count, solve


#: What stderr says about a run of the default method on queens8: the method and the
#: engine that ran (``auto`` picks the bit-parallel engine for a problem this small).
SEARCH_NOTE = "excover: method search, bit-parallel engine, Algorithm X (mrv)\n"

#: What stderr says about a count by the default method on queens8: the method, then the
#: route that counted and why: the search's scout, a fixed number of nodes, finishes it
#: before any race, however loaded the machine (see :mod:`excover.counting.choice`).
COUNT_NOTE = re.compile(
    r"excover: method search, bit-parallel engine, Algorithm X \(mrv\)\n"
    r"excover: route bits: the search finished within its scout of \d+ nodes, before any "
    r"race; bits \d+\.\d{3} s\n"
)


def test_count_prints_the_number_of_solutions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8)
    assert (status, out) == (0, f"{QUEENS8_SOLUTIONS}\n") and COUNT_NOTE.fullmatch(err)


def test_count_equals_the_solutions_listed_by_solve(
    capsys: pytest.CaptureFixture[str], queens8: ExactCover
) -> None:
    status, counted = run_json(capsys, "count", QUEENS8)
    assert status == 0
    status, solved = run_json(capsys, "solve", QUEENS8)
    assert status == 0
    solutions = [entry["options"] for entry in solved["solutions"]]
    assert counted["count"] == len(solutions) == QUEENS8_SOLUTIONS
    assert len({tuple(sorted(s)) for s in solutions}) == len(solutions)
    assert all(queens8.is_solution(s) for s in solutions)


def test_solve_text_lists_every_solution_validly(
    capsys: pytest.CaptureFixture[str], queens8: ExactCover, queens8_all: list[list[int]]
) -> None:
    status, out, err = run(capsys, "solve", QUEENS8)
    assert (status, err) == (0, SEARCH_NOTE)
    printed = parse_text_solutions(out, queens8)
    assert len(printed) == QUEENS8_SOLUTIONS
    assert all(queens8.is_solution(s) for s in printed)
    assert printed == queens8_all


def test_solve_json_shape(capsys: pytest.CaptureFixture[str], queens8: ExactCover) -> None:
    status, result = run_json(capsys, "solve", QUEENS8, "--limit", "2")
    assert status == 0
    assert set(result) == {"schema", "command", "method", "engine", "complete", "stopped_by"} | {
        "solutions",
        "count",
        "stats",
    }
    assert (result["method"], result["engine"]) == (
        "search",
        "bit-parallel engine, Algorithm X (mrv)",
    )
    assert (result["stats"]["heuristic"], result["stats"]["seed"]) == ("mrv", None)
    assert len(result["solutions"]) == 2
    for entry in result["solutions"]:
        assert set(entry) == {"options", "items"}
        assert entry["items"] == [queens8.option_items(i) for i in entry["options"]]
    stats = result["stats"]
    assert {"solutions", "nodes", "updates", "seconds", "complete", "algorithm"} <= set(stats)
    assert stats["solutions"] == 2
    assert result["complete"] is stats["complete"] is False
    assert stats["stopped_by"] == result["stopped_by"] == "limit"


def test_count_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = run_json(capsys, "count", QUEENS8, "--engine", "dlx")
    assert status == 0
    assert set(result) == {"schema", "command", "method", "engine", "complete", "stopped_by"} | {
        "count",
        "stats",
        "route",
    }
    assert result["route"]["name"] == "dlx"  # the search's scout finished it
    assert (result["schema"], result["command"], result["method"]) == (1, "count", "search")
    assert result["complete"] is True
    assert result["stats"]["solutions"] == result["count"]
    assert (result["stats"]["nodes"], result["stats"]["updates"]) == (
        QUEENS8_NODES,
        QUEENS8_UPDATES,
    )
    assert result["engine"] == "dancing links, Algorithm X (mrv)"
    assert result["stats"]["engine"] == "dlx"


def test_engine_flag_picks_the_engine_and_all_agree(capsys: pytest.CaptureFixture[str]) -> None:
    """Every engine of ``--engine`` (``auto`` runs the one :func:`pick_engine` picks)
    lists the same solutions in the same order, in DLX1's number of nodes."""
    found = {}
    for engine in ENGINES:
        status, result = run_json(capsys, "solve", QUEENS8, "--engine", engine)
        assert status == 0
        found[engine] = [e["options"] for e in result["solutions"]]
        assert result["stats"]["engine"] == pick_engine(ExactCover.read(QUEENS8), engine)
        assert result["stats"]["nodes"] == QUEENS8_NODES
    assert all(solutions == found["dlx"] for solutions in found.values())
    assert len(found["dlx"]) == QUEENS8_SOLUTIONS


def test_engine_cells_is_dancing_cells(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--engine", "cells")
    assert (status, out) == (0, "92\n")
    method, route = err.splitlines()
    assert method == "excover: method search, dancing cells, Algorithm X (mrv)"
    assert route.startswith("excover: route cells: the search finished within its scout")


def test_engine_bits_runs_multiplicities_and_refuses_what_does_not_fit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.dlx"
    path.write_text("2:2|a b\na b\na\nb\n")
    status, result = run_json(capsys, "count", str(path), "--engine", "bits")
    assert (status, result["count"]) == (0, 1)
    assert result["stats"]["engine"] == "bits" and result["stats"]["algorithm"] == "M"
    wide = tmp_path / "wide.dlx"
    names = [f"i{k}" for k in range(MAX_BITS + 1)]
    wide.write_text(" ".join(names) + "\n" + " ".join(names) + "\n")
    status, out, err = run(capsys, "count", str(wide), "--engine", "bits")
    assert (status, out) == (2, "")
    assert f"more than {MAX_BITS}" in err and err.count("\n") == 1
    assert run(capsys, "count", str(wide))[:2] == (0, "1\n")


def test_engine_flag_goes_with_dlx_only(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--method", "zdd", "--engine", "bits")
    assert (status, out) == (2, "")
    assert "--engine" in err


@pytest.mark.parametrize("limit", [1, 3, 91, 92, 200])
def test_solve_limit_gives_the_first_solutions(
    capsys: pytest.CaptureFixture[str], queens8_all: list[list[int]], limit: int
) -> None:
    status, result = run_json(capsys, "solve", QUEENS8, "--limit", str(limit))
    assert status == 0
    assert [e["options"] for e in result["solutions"]] == queens8_all[:limit]


class FlushRecorder(io.StringIO):
    """A stdout that remembers what had been written at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.snapshots: list[str] = []

    def flush(self) -> None:
        self.snapshots.append(self.getvalue())
        super().flush()


def test_each_solution_is_flushed_as_soon_as_found(monkeypatch: pytest.MonkeyPatch) -> None:
    stdout = FlushRecorder()
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["solve", QUEENS8, "--limit", "5"]) == 0
    shown = {snapshot.count("solution ") for snapshot in stdout.snapshots}
    assert {1, 2, 3, 4, 5} <= shown


def test_stats_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--stats", "--engine", "dlx")
    assert (status, out) == (0, f"{QUEENS8_SOLUTIONS}\n")
    stats = stderr_stats(err)
    assert stats["solutions"] == str(QUEENS8_SOLUTIONS)
    assert stats["nodes"] == str(QUEENS8_NODES)
    assert stats["updates"] == str(QUEENS8_UPDATES)
    assert stats["algorithm"] == "X"
    assert stats["time"].split()[1] == "s"
    assert stats["search"] == "complete"


def test_stats_of_solve_count_what_was_printed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", QUEENS8, "--limit", "5", "--stats")
    assert status == 0
    assert out.count("solution ") == 5
    assert stderr_stats(err)["solutions"] == "5"
    assert stderr_stats(err)["search"] == "stopped by --limit"
    assert "partial" not in err  # --limit asked for 5 solutions: no warning


def test_random_heuristic_is_reproducible_with_a_seed(
    capsys: pytest.CaptureFixture[str], queens8: ExactCover
) -> None:
    argv = ("solve", QUEENS8, "--heuristic", "random", "--seed", "12345")
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    assert first[1]["solutions"] == second[1]["solutions"]
    assert first[1]["stats"]["seed"] == 12345
    solutions = [e["options"] for e in first[1]["solutions"]]
    assert len(solutions) == QUEENS8_SOLUTIONS
    assert all(queens8.is_solution(s) for s in solutions)


def test_random_heuristic_without_seed_reports_the_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--heuristic", "random", "--stats")
    assert (status, out) == (0, f"{QUEENS8_SOLUTIONS}\n")
    seed = int(stderr_stats(err)["heuristic"].removeprefix("random (seed ").rstrip(")"))
    _, replay = run_json(capsys, "count", QUEENS8, "--heuristic", "random", "--seed", str(seed))
    assert replay["stats"]["seed"] == seed


@pytest.mark.parametrize("heuristic", ["mrv", "leftmost", "random"])
def test_every_heuristic_counts_the_same(
    capsys: pytest.CaptureFixture[str], heuristic: str
) -> None:
    status, result = run_json(capsys, "count", QUEENS8, "--heuristic", heuristic)
    assert (status, result["count"]) == (0, QUEENS8_SOLUTIONS)


def test_no_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "none.dlx"
    path.write_text("a b\na\n")
    status, out, err = run(capsys, "count", str(path))  # the frontier count takes it
    assert (status, out) == (0, "0\n") and err.startswith("excover: method zdd, frontier count\n")
    assert run(capsys, "solve", str(path)) == (0, "", "excover: no solution\n" + SEARCH_NOTE)
    status, result = run_json(capsys, "solve", str(path))
    assert (status, result["solutions"], result["complete"]) == (0, [], True)


def test_colors_and_multiplicities_reach_the_engine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Brute force over the 2^5 subsets of the options is the reference.
    text = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n"
    path = tmp_path / "dlx3.dlx"
    path.write_text(text)
    problem = ExactCover.from_dlx(text)
    subsets = [[i for i in range(5) if mask >> i & 1] for mask in range(32)]
    expected = sorted(s for s in subsets if problem.is_solution(s))
    status, result = run_json(capsys, "solve", str(path))
    assert status == 0
    assert sorted(sorted(e["options"]) for e in result["solutions"]) == expected
    assert result["stats"]["algorithm"] == "M"


# --------------------------------------------------------------------------- stdin


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, Path(QUEENS8).read_bytes())
    status, out, err = run(capsys, "count", "-")
    assert (status, out) == (0, f"{QUEENS8_SOLUTIONS}\n") and COUNT_NOTE.fullmatch(err)


def test_stdin_errors_name_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed_stdin(monkeypatch, b"a b\na b\na zz\n")
    status, out, err = run(capsys, "solve", "-")
    assert (status, out) == (2, "")
    assert err.startswith("<stdin>:3: ") and "zz" in err
    assert err.count("\n") == 1


def test_stdin_end_to_end() -> None:
    done = subprocess_excover("solve", "-", "--limit", "1", stdin=Path(QUEENS8).read_text())
    assert done.returncode == 0
    assert done.stdout.startswith("solution 1:\n") and done.stderr == SEARCH_NOTE


# --------------------------------------------------------------------------- limits


def test_max_nodes_stops_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--max-nodes", "100")
    assert status == 1
    assert int(out) < QUEENS8_SOLUTIONS
    assert "--max-nodes" in err and "partial" in err
    status, result = run_json(capsys, "count", QUEENS8, "--max-nodes", "100")
    assert status == 1
    assert result["complete"] is False
    assert result["stats"]["stopped_by"] == "max_nodes"
    assert result["stats"]["nodes"] <= 100
    assert result["count"] == result["stats"]["solutions"]


def test_max_nodes_bounds_the_whole_solve(
    capsys: pytest.CaptureFixture[str], queens8: ExactCover, queens8_all: list[list[int]]
) -> None:
    # About 11 nodes per solution: a per-solution bound of 300 would never stop queens8.
    status, result = run_json(capsys, "solve", QUEENS8, "--max-nodes", "300")
    assert status == 1
    assert result["stats"]["nodes"] <= 300
    solutions = [e["options"] for e in result["solutions"]]
    assert 0 < len(solutions) < QUEENS8_SOLUTIONS
    assert solutions == queens8_all[: len(solutions)]
    assert all(queens8.is_solution(s) for s in solutions)


def test_max_nodes_large_enough_is_no_limit(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = run_json(capsys, "count", QUEENS8, "--max-nodes", str(10 * QUEENS8_NODES))
    assert (status, result["count"], result["complete"]) == (0, QUEENS8_SOLUTIONS, True)


def test_timeout_stops_count(capsys: pytest.CaptureFixture[str], endless: dict[str, str]) -> None:
    status, out, err = run(capsys, "count", endless["queens20"], "--timeout", "0.2", "--stats")
    assert status == 1
    assert "--timeout" in err
    assert stderr_stats(err)["search"] == "stopped by --timeout"
    assert int(out) == int(stderr_stats(err)["solutions"])


def test_timeout_stops_solve_with_valid_partial_output(
    capsys: pytest.CaptureFixture[str], endless: dict[str, str]
) -> None:
    path = endless["queens20"]
    status, out, err = run(capsys, "solve", path, "--timeout", "0.3", "--engine", "dlx")
    assert status == 1
    assert "--timeout" in err
    problem = ExactCover.read(path)
    assert all(problem.is_solution(s) for s in parse_text_solutions(out, problem))


def test_timeout_stops_the_bit_parallel_engine(
    capsys: pytest.CaptureFixture[str], endless: dict[str, str]
) -> None:
    domino = endless["domino10x10"]
    status, out, err = run(
        capsys, "count", domino, "--timeout", "0.2", "--method", "search", "--engine", "bits"
    )
    assert status == 1
    assert "--timeout" in err and "bit-parallel engine" in err
    # the solutions found in the time depend on the machine and its load
    assert f"({int(out)} solutions so far)" in err


def test_limit_exit_status_end_to_end() -> None:
    done = subprocess_excover("count", QUEENS8, "--max-nodes", "10", "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["complete"] is False
    assert "partial" in done.stderr


# --------------------------------------------------------------------------- bad input


def test_bad_file_gives_one_line_with_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.dlx"
    path.write_text("| a comment\na b c\na nowhere\nb c\n")
    for command in ("count", "solve"):
        status, out, err = run(capsys, command, str(path))
        assert (status, out) == (2, "")
        assert err.startswith(f"{path}:3: ")
        assert "nowhere" in err
        assert err.count("\n") == 1


def test_bad_file_end_to_end(tmp_path: Path) -> None:
    path = tmp_path / "bad.dlx"
    path.write_text("a b\na b\na a\n")
    done = subprocess_excover("count", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"{path}:3: ")
    assert done.stderr.count("\n") == 1


def test_nonexistent_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "missing.dlx"
    status, out, err = run(capsys, "count", str(path))
    assert (status, out) == (2, "")
    assert err == f"excover: cannot read {path}: No such file or directory\n"


def test_a_directory_is_unreadable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "solve", str(tmp_path))
    assert (status, out) == (2, "")
    assert err.startswith(f"excover: cannot read {tmp_path}: ")
    assert err.count("\n") == 1


def test_text_that_is_not_utf8(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = b"a b\na b\n\xff\xfe\n"
    binary = tmp_path / "binary.dlx"
    binary.write_bytes(data)
    feed_stdin(monkeypatch, data)
    for path, source in ((str(binary), str(binary)), ("-", "<stdin>")):
        status, out, err = run(capsys, "count", path)
        assert (status, out) == (2, "")
        assert err.startswith(f"{source}:3: ") and "UTF-8" in err
        assert err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["count"],
        ["frobnicate", QUEENS8],
        ["solve", QUEENS8, "--limit", "0"],
        ["solve", QUEENS8, "--limit", "many"],
        ["count", QUEENS8, "--limit", "-3"],
        ["count", QUEENS8, "--heuristic", "best"],
        ["count", QUEENS8, "--seed", "x"],
        ["count", QUEENS8, "--timeout", "-1"],
        ["count", QUEENS8, "--timeout", "nan"],
        ["count", QUEENS8, "--timeout", "soon"],
        ["count", QUEENS8, "--max-nodes", "-5"],
        ["count", QUEENS8, "--max-nodes", "1.5"],
    ],
)
def test_bad_usage(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert "usage: excover" in err


@pytest.mark.parametrize("argv", [["--help"], ["count", "--help"], ["solve", "--help"]])
def test_help(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    assert out.startswith("usage: excover")
    assert "exit status" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    expected = f"excover {excover.__version__} (simd: {excover.simd_kernel()})\n"
    assert run(capsys, "--version") == (0, expected, "")


# --------------------------------------------------------------------------- processes


def test_end_to_end_count_with_stats() -> None:
    done = subprocess_excover("count", QUEENS8, "--stats")
    assert done.returncode == 0
    assert done.stdout == f"{QUEENS8_SOLUTIONS}\n"
    assert stderr_stats(done.stderr)["nodes"] == str(QUEENS8_NODES)


def interrupted(*argv: str) -> Run:
    """Run ``excover ARGV``, press Ctrl-C once it searches, and wait for the exit (at most
    60 s, a bound for a busy machine only: the run then ends in well under a second)."""
    # Output goes to files, so that a full pipe cannot stall the child. The child gets the
    # default SIGINT disposition even when this test runs in a background job (where the
    # shell makes children ignore SIGINT).
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "excover", *argv],
            stdout=out,
            stderr=err,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            wait_until_busy(proc)
            assert proc.poll() is None, "the search finished before it could be interrupted"
            proc.send_signal(signal.SIGINT)
            status = proc.wait(timeout=60)
        finally:
            proc.kill()
            proc.wait()
        out.seek(0)
        err.seek(0)
        printed, complained = out.read(), err.read()
    assert "Traceback" not in complained
    return status, printed, complained


def test_ctrl_c_prints_partial_stats_and_exits_130() -> None:
    # dancing links: several seconds, so the search is surely still running at the signal
    status, out, err = interrupted("count", PENTO6X10, "--engine", "dlx")
    assert status == 130
    assert "interrupted" in err
    stats = stderr_stats(err)
    assert int(stats["nodes"]) > 0
    assert stats["search"] == "interrupted"
    assert int(out) == int(stats["solutions"])


def test_a_ctrl_c_as_the_run_ends_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C handled only after main() put the default handler back (it landed as the
    run ended) is reported like one during the run: a line on stderr and status 130."""
    import excover.main as entry

    def late_ctrl_c(argv: object = None) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(entry, "main", late_ctrl_c)
    previous = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as stopped:
            entry.command()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "excover: interrupted\n"


def test_ctrl_c_during_solve_still_ends_the_json_document() -> None:
    # dancing links: some 8 s of CPU to list every solution, so the search is surely
    # still running at the signal (the bit-parallel engine takes under 2 s)
    status, out, _ = interrupted("solve", PENTO6X10, "--json", "--engine", "dlx")
    assert status == 130
    result = json.loads(out)
    assert (result["complete"], result["stats"]["stopped_by"]) == (False, "interrupt")
    problem = ExactCover.read(PENTO6X10)
    solutions = [entry["options"] for entry in result["solutions"]]
    assert len(solutions) == result["stats"]["solutions"]
    assert all(problem.is_solution(s) for s in solutions)


def test_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "excover", "solve", PENTO6X10],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline() == "solution 1:\n"
        proc.stdout.close()
        status = proc.wait(timeout=60)
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
    assert status == 141
    assert err == ""


# --------------------------------------------------------------------------- the example


def generated(rows: int, cols: int) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "make_pentominoes.py"), str(rows), str(cols)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def cell(name: str) -> tuple[int, int]:
    return int(name[0], 36), int(name[1], 36)


@pytest.mark.parametrize(("rows", "cols"), [(6, 10), (3, 20)])
def test_shipped_examples_are_the_generators_output(rows: int, cols: int) -> None:
    assert (EXAMPLES / f"pento{rows}x{cols}.dlx").read_text() == generated(rows, cols)


def test_generator_places_the_same_pieces_as_knuths_polyomino_dlx() -> None:
    ours = ExactCover.read(EXAMPLES / "pento3x20.dlx")
    knuths = ExactCover.read(KNUTH / "pento3x20.dlx")
    assert set(ours.items) == set(knuths.items)

    def placements(p: ExactCover) -> set[frozenset[str]]:
        return {frozenset(p.option_items(i)) for i in range(p.n_options)}

    assert ours.n_options == knuths.n_options
    assert placements(ours) == placements(knuths)


def test_generator_uses_the_63_fixed_pentominoes() -> None:
    # A001168: there are 63 fixed pentominoes (distinct up to translation only).
    problem = ExactCover.read(PENTO6X10)
    shapes = set()
    for i in range(problem.n_options):
        piece, *names = problem.option_items(i)
        cells = [cell(name) for name in names]
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        shapes.add((piece, frozenset((r - top, c - left) for r, c in cells)))
    assert len(shapes) == 63
    assert len({piece for piece, _ in shapes}) == 12


def test_generator_rejects_a_box_of_the_wrong_area() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "make_pentominoes.py"), "7", "9"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "63" in done.stderr


# Packings of the 12 pentominoes, every symmetric copy counted: 3x20 has 2 essentially
# different ones, 6x10 has 2339 (Haselgrove 1960; Knuth, TAOCP 7.2.2.1), times 4.
@pytest.mark.parametrize(("name", "packings"), [("pento3x20", 8), ("pento6x10", 9356)])
def test_pentomino_packings(capsys: pytest.CaptureFixture[str], name: str, packings: int) -> None:
    status, result = run_json(capsys, "count", str(EXAMPLES / f"{name}.dlx"))
    assert (status, result["count"], result["complete"]) == (0, packings, True)


def test_the_generator_makes_other_boxes(tmp_path: Path) -> None:
    path = tmp_path / "pento4x15.dlx"
    path.write_text(generated(4, 15))
    done = subprocess_excover("count", str(path))
    assert (done.returncode, done.stdout) == (0, "1472\n")  # 368 packings, times 4


def test_a_pentomino_solution_tiles_the_box(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = run_json(capsys, "solve", PENTO6X10, "--limit", "1")
    assert status == 0
    [entry] = result["solutions"]
    pieces = [items[0] for items in entry["items"]]
    covered = [cell(name) for items in entry["items"] for name in items[1:]]
    assert sorted(pieces) == sorted("FILNPTUVWXYZ")
    assert sorted(covered) == [(r, c) for r in range(6) for c in range(10)]
