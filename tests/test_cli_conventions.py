"""The conventions every ``excover`` subcommand shares (docs/cli.md), checked through the
command itself: one JSON schema, the same flags with the same meaning, flags that do not
apply refused with a reason, the method that ran named, limits and Ctrl-C that keep the
partial result, streaming that stops on a closed pipe, fast and lazy start-up.

Counts are checked against the library's own API (a different route to the same number)
or against the literature (OEIS A000170 for queens, the 288 Shidoku grids).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from builders import dominoes, queens, walks
from runs import ended, wait_until_busy

from excover import ExactCover, nonogram
from excover.cli import common
from excover.main import _LIGHT, _PROBLEM_COMMANDS, build_parser, main
from excover.names import METHODS as SOLVING_METHODS
from excover.nonogram.cli import FORMATS, METHODS
from excover.puzzles import sudoku
from excover.sat.amo import AMO_ENCODINGS

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "tests" / "data" / "knuth"
QUEENS8 = str(KNUTH / "queens8.dlx")
PENTO = str(ROOT / "examples" / "pento6x10.dlx")
HEART = str(ROOT / "examples" / "nonograms" / "heart.non")
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EMPTY9 = "." * 81
VALIDATOR = jsonschema.Draft202012Validator(common.schema())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def document(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """``excover ARGV --json``: the exit status and the document, checked on the schema."""
    status, out, _ = run(capsys, *argv, "--json")
    result: dict[str, Any] = json.loads(out)
    VALIDATOR.validate(result)
    return status, result


def spawn(*argv: str, **options: Any) -> subprocess.Popen[str]:
    """``excover ARGV`` in a child process, its output to pipes unless ``options`` say
    otherwise."""
    return subprocess.Popen(
        [sys.executable, "-m", "excover", *argv],
        **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, **options},
    )


# --------------------------------------------------------------------------- one schema


def test_the_schema_ships_in_the_package_and_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema.Draft202012Validator.check_schema(common.schema())
    status, out, _ = run(capsys, "schema")
    assert status == 0 and json.loads(out) == common.schema()
    assert common.schema()["properties"]["schema"]["const"] == common.SCHEMA_VERSION


@pytest.mark.parametrize("method", SOLVING_METHODS)
def test_count_documents_name_the_method_that_ran(
    capsys: pytest.CaptureFixture[str], method: str
) -> None:
    status, result = document(capsys, "count", QUEENS8, "--method", method)
    assert (status, result["count"], result["complete"]) == (0, 92, True)
    assert result["method"] in (("search", "zdd") if method == "auto" else (method,))
    assert result["engine"]


@pytest.mark.parametrize("method", SOLVING_METHODS)
def test_solve_documents_stream_valid_solutions(
    capsys: pytest.CaptureFixture[str], method: str
) -> None:
    status, result = document(capsys, "solve", QUEENS8, "--method", method)
    problem = ExactCover.read(QUEENS8)
    found = {tuple(sorted(entry["options"])) for entry in result["solutions"]}
    assert status == 0 and len(found) == result["count"] == 92
    assert all(problem.is_solution(s) for s in found)
    assert result["method"] == ("search" if method == "auto" else method)


@pytest.mark.parametrize(
    ("extra", "method"),
    [
        # specific methods: those a race of auto's routes on the whole problem may end as
        (["--workers", "2"], ("search", "zdd")),
        (["--workers", "2", "--method", "search", "--tasks", "5"], "search"),
        (["--workers", "2", "--method", "zdd"], "zdd"),  # the frontier count
        (["--method", "zdd", "--tasks", "3"], "zdd"),  # DXZ subproblems
    ],
)
def test_parallel_counts_follow_the_schema(
    capsys: pytest.CaptureFixture[str], extra: list[str], method: str | tuple[str, ...]
) -> None:
    status, result = document(capsys, "count", str(KNUTH / "queens10.dlx"), *extra)
    assert status == 0 and result["count"] == 724 and result["complete"]
    assert result["method"] in ((method,) if isinstance(method, str) else method)
    assert result["engine"]


def test_a_split_into_fewer_tasks_than_asked_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "count", QUEENS8, "--method", "search", "--tasks", "500")
    assert status == 0 and out == "92\n"
    assert "split into 92 subproblems, not 500: the rest of the search tree is solutions" in err
    status, out, err = run(capsys, "count", QUEENS8, "--method", "search", "--tasks", "64")
    assert status == 0 and out == "92\n" and "split into" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["queens", "6"],
        ["queens", "6", "--count"],
        ["queens", "6", "--limit", "3", "--method", "sat"],
        ["sudoku", PUZZLE],
        ["sudoku", PUZZLE, "--classify"],
        ["sudoku", "." * 16, "--count", "--method", "zdd"],
        ["sudoku", "12..34.." + "." * 8, "--all"],
        ["nonogram", HEART],
        ["nonogram", HEART, "--count"],
        ["nonogram", HEART, "--classify", "--method", "xcc"],
        ["run", str(ROOT / "examples" / "caml_small.cmb")],
        ["estimate", QUEENS8],
    ],
)
def test_every_command_follows_the_schema(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, result = document(capsys, *argv)
    assert status == 0 and result["command"] == argv[0]
    if argv[0] != "run":  # each command of a .cmb program names its own method
        assert result["method"] and result["engine"]


# ------------------------------------------------------- the document says what happened


@pytest.mark.parametrize(
    "argv",
    [
        ["nonogram", HEART],
        ["queens", "8"],
        ["sudoku", PUZZLE, "--method", "search"],
        ["sudoku", PUZZLE, "--method", "sat"],
        ["sudoku", EMPTY9, "--classify", "--method", "search"],
    ],
)
def test_a_plain_solve_is_complete(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """The first solution (or the two that settle a classification), asked for by
    default, is the whole answer: complete, stopped by nothing, and no count that would
    read as the number of all the solutions."""
    status, result = document(capsys, *argv)
    assert (status, result["complete"], result["stopped_by"]) == (0, True, None)
    assert "count" not in result


@pytest.mark.parametrize(
    "argv",
    [["nonogram", HEART, "--limit", "1"], ["queens", "8", "--limit", "1"]],
)
def test_a_limit_of_the_users_makes_a_partial_listing(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, result = document(capsys, *argv)
    assert (status, result["complete"], result["stopped_by"]) == (0, False, "limit")


def test_a_file_of_puzzles_is_partial_when_any_puzzle_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The empty grid's count stops at --limit 2, the next puzzle's count finishes: the
    document is still partial (it took the last puzzle's word for the whole run)."""
    path = tmp_path / "two.txt"
    path.write_text(f"{EMPTY9}\n{sudoku.solve(PUZZLE)}\n")
    status, result = document(capsys, "sudoku", str(path), "--count", "--limit", "2")
    counts = [(r["count"], r["complete"]) for r in result["results"]]
    assert status == 1 and counts == [(2, False), (1, True)]  # a count cut short: status 1
    assert (result["complete"], result["stopped_by"]) == (False, "limit")


def test_statistics_name_the_engine_that_ran(capsys: pytest.CaptureFixture[str]) -> None:
    """A SAT count's statistics say SAT, not the dancing-links default."""
    status, result = document(capsys, "count", QUEENS8, "--method", "sat")
    assert status == 0 and result["count"] == 92
    assert result["stats"]["engine"] == "sat" and "SAT" in result["stats"]["algorithm"]


def test_a_count_made_while_choosing_reports_the_one_process_that_made_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, result = document(capsys, "count", QUEENS8, "--workers", "2")
    assert status == 0 and result["count"] == 92
    assert "counted while choosing" in result["engine"] and result["stats"]["workers"] == 1


def test_counts_beyond_doubles_are_exact_strings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # the domino tilings of 12x12: 53,060,477,521,960,000 (Knuth's figure), above 2**53
    problem = dominoes(12, 12)
    path = tmp_path / "dominoes.dlx"
    problem.write(path)
    status, result = document(capsys, "count", str(path), "--method", "zdd")
    assert result["count"] == "53060477521960000" == str(problem.count(method="zdd"))
    assert status == 0 and 53060477521960000 > 2**53


# --------------------------------------------------------------------------- the same flags


@pytest.mark.parametrize("command", ["count", "solve", "queens", "sudoku", "nonogram"])
def test_every_search_has_the_shared_flags(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--method", "--limit", "--timeout", "--max-nodes", "--json"):
        assert flag in out
    assert "exit status" in out


def test_names_spelled_out_for_a_fast_parser_match_the_library() -> None:
    from excover.cli.exact_cover.parsers import AMO_NAMES

    assert set(AMO_NAMES) == set(AMO_ENCODINGS)
    assert METHODS == nonogram.METHODS and set(FORMATS) == set(nonogram.FORMATS)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["queens", "8", "--count", "--svg", "q.svg"], "--svg draws a placement"),
        (["count", QUEENS8, "--seed", "3"], "--seed goes with --heuristic random"),
        (["count", QUEENS8, "--method", "zdd", "--max-nodes", "9"], "--method zdd has none"),
        (["count", QUEENS8, "--method", "zdd", "--limit", "9"], "counts without enumerating"),
        (["solve", QUEENS8, "--method", "sat", "--max-nodes", "9"], "a SAT solver has none"),
        (["solve", QUEENS8, "--method", "zdd", "--heuristic", "random"], "not zdd"),
        (["count", QUEENS8, "--amo", "pairwise"], "--amo goes with --method sat"),
        (["count", QUEENS8, "--workers", "2", "--limit", "5"], "--limit does not go with"),
        (["sudoku", PUZZLE, "--classify", "--limit", "2"], "two solutions settle it"),
        (["sudoku", PUZZLE, "--max-nodes", "9"], "compiled grid solver"),
        (["nonogram", HEART, "--method", "sat", "--max-nodes", "9"], "not of sat"),
        (["nonogram", HEART, "--classify", "--limit", "2"], "two solutions settle it"),
        (["nonogram", HEART, "--count", "--svg", "x.svg"], "--svg draws a solution"),
    ],
)
def test_a_flag_that_does_not_apply_is_refused_with_its_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], reason: str
) -> None:
    os.chdir(tmp_path)  # nothing may be written
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "") and reason in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_queens_honours_its_method_without_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = document(capsys, "queens", "30", "--method", "sat")
    (placement,) = result["solutions"]
    rows = sorted(r for r, _ in placement["queens"])
    columns = sorted(c for _, c in placement["queens"])
    assert status == 0 and result["method"] == "sat" and rows == columns == list(range(30))
    assert len({r + c for r, c in placement["queens"]}) == 30
    assert len({r - c for r, c in placement["queens"]}) == 30


def test_solve_by_zdd_lists_what_the_api_lists(capsys: pytest.CaptureFixture[str]) -> None:
    status, result = document(capsys, "solve", QUEENS8, "--method", "zdd", "--limit", "5")
    expected = list(ExactCover.read(QUEENS8).solutions(method="zdd", limit=5))
    assert status == 0 and [e["options"] for e in result["solutions"]] == expected
    assert (result["complete"], result["stopped_by"]) == (False, "limit")


def test_limit_means_stop_after_n_solutions_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    """One rule: a count cut short by --limit is partial (exit status 1, said on stderr);
    a listing that printed the N solutions asked for is done (0), its document saying
    that more may exist."""
    partial = "stopped by --limit (10 solutions so far); the result is partial"
    status, counted = document(capsys, "count", QUEENS8, "--method", "search", "--limit", "10")
    assert (status, counted["count"], counted["complete"]) == (1, 10, False)
    status, out, err = run(capsys, "count", QUEENS8, "--method", "search", "--limit", "10")
    assert (status, out) == (1, "10\n") and partial in err
    status, solved = document(capsys, "solve", QUEENS8, "--limit", "10")
    assert (status, len(solved["solutions"]), solved["complete"]) == (0, 10, False)
    status, placed = document(capsys, "queens", "8", "--limit", "10")
    assert (status, len(placed["solutions"]), placed["complete"]) == (0, 10, False)
    status, out, err = run(capsys, "queens", "8", "--count", "--limit", "10", "--method", "sat")
    assert (status, out) == (1, "10\n") and partial in err
    status, out, err = run(capsys, "nonogram", HEART, "--count", "--limit", "1")
    assert (status, out) == (1, "1\n") and "stopped by --limit" in err
    status, out, err = run(capsys, "sudoku", "." * 16, "--count", "--limit", "50")
    assert (status, out) == (1, "50\n") and "stopped by --limit" in err


def test_the_cli_counts_by_the_route_the_api_takes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from excover.zdd import frontier

    calls: list[int] = []
    real = frontier.count

    def spy(
        problem: ExactCover, workers: int = 1, tick: Any = None, max_bytes: int | None = None
    ) -> int | None:
        calls.append(problem.n_options)
        return real(problem, workers, tick, max_bytes)

    monkeypatch.setattr(frontier, "count", spy)
    problem = dominoes(6, 6)
    path = tmp_path / "d.dlx"
    problem.write(path)
    expected = problem.count(method="zdd")
    assert calls == [problem.n_options]  # the API counted by the frontier
    status, result = document(capsys, "count", str(path), "--method", "zdd")
    assert (status, result["count"], result["engine"]) == (0, expected, "frontier count")
    assert calls == [problem.n_options] * 2  # and so did the command


# --------------------------------------------------------------------------- sudoku


def test_sudoku_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "excover", "sudoku", "-"],
        input=f"# one puzzle\n{PUZZLE}\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"{sudoku.solve(PUZZLE)}\n")


def test_sudoku_names_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "sudoku", "nosuchfile.txt")
    assert (status, out) == (2, "") and "nosuchfile.txt: no such file" in err


def test_sudoku_count_stops_at_its_timeout_with_a_partial_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """How many grids fit in the time depends on the machine's load: the count is the
    grids counted so far (maybe none); a node limit shows that they are counted."""
    status, result = document(capsys, "sudoku", EMPTY9, "--count", "--timeout", "0.3")
    (entry,) = result["results"]
    assert status == 1 and (result["stopped_by"], entry["complete"]) == ("timeout", False)
    assert isinstance(entry["count"], int) and entry["count"] >= 0
    status, result = document(capsys, "sudoku", EMPTY9, "--count", "--max-nodes", "100000")
    (entry,) = result["results"]
    assert status == 1 and (result["stopped_by"], entry["complete"]) == ("max_nodes", False)
    assert entry["count"] > 0  # the grids counted within the nodes, a lower bound


def test_sudoku_all_streams_and_stops_on_a_closed_pipe() -> None:
    process = spawn("sudoku", EMPTY9, "--all")
    assert process.stdout is not None and process.stderr is not None
    lines = [process.stdout.readline() for _ in range(3)]
    process.stdout.close()  # as `| head -3` does
    status = process.wait(timeout=30)
    assert all(sudoku.classify(line.strip()) == "unique" for line in lines)
    assert status in (0, 141) and "Traceback" not in process.stderr.read()


def test_ctrl_c_prints_the_partial_sudoku_count() -> None:
    process = spawn("sudoku", EMPTY9, "--count", start_new_session=True)
    wait_until_busy(process)
    os.killpg(process.pid, signal.SIGINT)
    out, err = ended(process, 30)
    assert process.returncode == 130
    assert int(out) > 0 and "interrupted" in err
    assert "search: interrupted" in err and "search: complete" not in err


def test_ctrl_c_stops_a_hard_nonogram_and_says_it_is_unsettled(tmp_path: Path) -> None:
    """A random 100x100 puzzle that no route settles in minutes: Ctrl-C ends the run
    (Kissat's child too) with status 130, the answer "unknown" and statistics that say
    it was interrupted, not complete."""
    puzzle = nonogram.generate(100, 100, 0.5, random.Random(0))
    path = tmp_path / "hard.non"
    path.write_text(nonogram.dumps(puzzle, "non"))
    process = spawn("nonogram", str(path), "--classify", start_new_session=True)
    wait_until_busy(process, 1.0)
    os.killpg(process.pid, signal.SIGINT)
    out, err = ended(process, 30)
    assert process.returncode == 130
    assert out.strip() == "unknown"
    assert "search: interrupted" in err and "search: complete" not in err


# --------------------------------------------------------------------------- exit status


def test_a_resource_limit_exits_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from excover.zdd import dxz
    from excover.zdd.manager import Manager

    def small(max_bytes: int | None = None) -> Manager:
        return Manager(nodes=64, cache=64, max_nodes=10, max_bytes=max_bytes)

    monkeypatch.setattr(dxz, "search_manager", small)
    path = tmp_path / "walks.dlx"
    walks(12, [("a", "b"), ("b", "a"), ("a", "a"), ("b", "c"), ("c", "a")]).write(path)
    status, out, err = run(capsys, "count", str(path), "--method", "zdd")
    assert (status, out) == (3, "") and "resource limit" in err


def test_a_timeout_of_zdd_stops_it_with_no_partial_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "walks.dlx"
    walks(2000, [(a, b) for a in "abcdef" for b in "abcdef"]).write(path)
    status, result = document(capsys, "count", str(path), "--method", "zdd", "--timeout", "0.05")
    assert (status, result["count"], result["stopped_by"]) == (1, None, "timeout")


def test_off_the_main_thread_runs_go_without_signals(capsys: pytest.CaptureFixture[str]) -> None:
    """Python sets signal handlers in the main thread only: elsewhere a count runs without
    its Ctrl-C handler, and --timeout by an alarm is refused with the reason."""
    import threading

    statuses: list[int] = []

    def run(*argv: str) -> None:
        statuses.append(main(list(argv)))

    for argv in (("count", QUEENS8), ("count", QUEENS8, "--method", "zdd", "--timeout", "5")):
        worker = threading.Thread(target=run, args=argv)
        worker.start()
        worker.join()
    captured = capsys.readouterr()
    assert statuses == [0, 2] and captured.out == "92\n"
    assert "--timeout needs a Unix system and the main thread" in captured.err
    # in the main thread the same run is not refused
    assert main(["count", QUEENS8, "--method", "zdd", "--timeout", "5"]) == 0


# --------------------------------------------------------------------------- progress


def test_progress_is_drawn_on_stderr_only_when_asked(tmp_path: Path) -> None:
    """A count of 20 queens by dancing links (39,029,188,884 solutions: it never ends
    here, however fast the machine) draws its bar when asked, and is stopped by Ctrl-C
    once the bar is there, however slow the machine; without the flag, on a pipe, no bar
    in the same time."""
    path = tmp_path / "q20.dlx"
    path.write_text(queens(20).to_dlx(), encoding="utf-8")
    argv = ("count", str(path), "--method", "search", "--engine", "dlx")
    log = tmp_path / "stderr"
    with log.open("w", encoding="utf-8") as stderr:
        shown = spawn(*argv, "--progress", stderr=stderr)
        deadline = time.monotonic() + 60
        while "%" not in log.read_text(encoding="utf-8"):  # tqdm's bar, after its delay
            assert shown.poll() is None and time.monotonic() < deadline, "no bar drawn"
            time.sleep(0.05)
        shown.send_signal(signal.SIGINT)
        out, _ = ended(shown, 60)
    assert shown.returncode == 130 and int(out) >= 0
    assert "node" in log.read_text(encoding="utf-8")  # nodes against the estimated tree
    quiet = spawn(*argv, "--timeout", "2.5")  # stderr is a pipe, not a terminal: no bar
    out, err = ended(quiet, 60)
    assert quiet.returncode == 1 and "%" not in err


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        # the frontier count: layers (primary items) against their number
        (["count", str(KNUTH / "domino8x8.dlx"), "--method", "zdd"], "frontier count"),
        # top-down (queens have secondary items, which the frontier count does not take):
        # levels (options) against their number
        (["count", str(KNUTH / "queens10.dlx"), "--method", "zdd"], "top-down"),
        # a tiling's placements, built by a .cmb program
        (["run", str(ROOT / "examples" / "caml_small.cmb")], "placing caml_small"),
    ],
)
def test_progress_of_zdd_counts_and_tiling_builds(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    shown: str,
) -> None:
    from excover.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)  # show the bars of these short runs at once
    status, out, err = run(capsys, *argv, "--progress")
    assert status == 0 and out
    assert f"{shown}: " in err  # tqdm's bar, with its description
    status, quiet_out, err = run(capsys, *argv, "--no-progress")
    assert status == 0 and quiet_out == out and f"{shown}: " not in err


@pytest.mark.slow  # estimates of seconds
def test_estimate_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """pento6x10 (9,356 solutions, 3,620,988 nodes) is estimated within a factor 2, in a
    range that holds the truth, when the probes are asked for (by default its count, which
    costs less than 1,000 probes, is given instead); a small tree is counted exactly."""
    status, result = document(capsys, "estimate", PENTO, "--samples", "1000")
    guess = result["estimate"]
    assert status == 0 and not guess["exact"] and guess["samples"] == 1000
    low, high = guess["solutions_interval"]
    assert low <= 9356 <= high and 0.5 < guess["solutions"] / 9356 < 2
    low, high = guess["nodes_interval"]
    assert low <= 3_620_988 <= high
    status, out, _ = run(capsys, "estimate", QUEENS8)
    lines = out.splitlines()
    assert status == 0 and lines[:2] == ["solutions: 92", "nodes: 1,049"]
    assert "exact: the tree was small enough" in out and "estimate" not in out
    # the updates figure is exact in the definition of the engine that ran, and says so
    assert lines[2] == "updates: 5,067  (exact: options taken out of play by the " + (
        "bit-parallel engine, not DLX1's link updates)"
    )
    status, out, _ = run(capsys, "estimate", PENTO, "--samples", "1000")
    assert status == 0 and "exact" not in out  # figures of probes are estimates, said so
    assert all("(estimate" in line for line in out.splitlines()[:3])
    status, _, err = run(capsys, "estimate", QUEENS8, "--samples", "0")
    assert status == 2 and "--samples" in err


def test_progress_helper_is_a_null_object_when_not_wanted() -> None:
    import argparse

    from excover.cli.progress import progress

    bar = progress(argparse.Namespace(progress=False), total=10)
    bar.update(3)
    bar.close()
    assert not bar.shown


# --------------------------------------------------------------------------- start-up


def test_import_excover_loads_no_heavy_library() -> None:
    code = (
        "import sys, excover, excover.main\n"
        "excover.main.build_parser()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'numpy', 'lark', 'pysat', 'tqdm', 'dataclasses'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_the_lazy_names_of_excover_are_the_real_ones() -> None:
    import excover
    from excover import ExactCover as Model
    from excover.engines import Search, Stats
    from excover.zdd.family import Family

    assert (excover.ExactCover, excover.Search, excover.Stats, excover.Family) == (
        Model,
        Search,
        Stats,
        Family,
    )
    with pytest.raises(AttributeError):
        _ = excover.NoSuchName
    listed = dir(excover)  # the public names, loaded or not, each once
    assert set(excover.__all__) <= set(listed)
    assert len(listed) == len(set(listed))


def _command_order(parser: argparse.ArgumentParser) -> list[str]:
    """The commands a parser knows (its subparsers' names), in the order it lists them."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    """The commands a parser knows (its subparsers' names)."""
    return set(_command_order(parser))


def test_each_command_has_a_light_parser_or_is_the_run_command() -> None:
    """A run of any command but ``run`` builds only its own group's parser (start-up),
    a problem command its own alone; the groups cover every command of the whole parser,
    the problem group exactly, in the whole parser's order."""
    whole = _command_names(build_parser())
    assert whole - set(_LIGHT) == {"run"}
    listed = [name for name in _command_order(build_parser()) if name in _PROBLEM_COMMANDS]
    assert listed == list(_PROBLEM_COMMANDS)
    for name in _PROBLEM_COMMANDS:
        assert _command_names(build_parser(name)) == {name}


@pytest.mark.parametrize(
    "argv",
    [
        *([name, "--help"] for name in _PROBLEM_COMMANDS),
        ["count"],
        ["count", "--no-such-flag", "x"],
        ["solve", "x", "--method", "y"],
        ["estimate", "x", "--samples", "many"],
    ],
)
def test_a_run_of_a_problem_command_reads_its_flags_as_the_whole_parser_does(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    printed = []
    for only in (None, argv[0]):
        with pytest.raises(SystemExit) as stop:
            build_parser(only).parse_args(argv)
        printed.append((stop.value.code, *capsys.readouterr()))
    assert printed[0] == printed[1]
    assert printed[0][1] or printed[0][2]  # something was said
