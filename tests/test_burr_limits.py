"""The disassembler's limits hold inside one step of its search, and ``--write`` is bounded.

Reproductions of an audit (issue 80): twenty unit cubes loose in a closed box, whose first
configuration alone has millions of neighbours (every union of the sets that slide alike
is a move), ignored ``--timeout``, ``--max-states`` and Ctrl-C for minutes; a sliding
puzzle in a closed flat box grew to gigabytes, and so did the listing of a flat box's
millions of assemblies; ``--write`` spent 3 ms and 25 KB a solution and ignored the
deadline. Each test stops a run that would take far longer, by a count of states, a
deadline already past, a bound on memory, or a signal, and checks how it stopped,
never how long it took.
"""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest

from excover.burr import Assembly, assemblies, disassemble
from excover.burr import cli as burr_cli
from excover.burr._moves import Geometry, Part, Search, held
from excover.burr.disassembly import PackedSeparationTree, held_tree
from excover.burr.pool import disassemble_many
from excover.burr.search import DisassemblyBudget, OutOfBudget
from excover.burr.xmpuzzle import (
    BurrProblem,
    BurrPuzzle,
    BurrShape,
    format_xmpuzzle,
    read_xmpuzzle,
    write_xmpuzzle,
)
from excover.burr.xmpuzzle import (
    Part as BurrPart,
)
from excover.burr.xmpuzzle import files as burr_files
from excover.burr.xmpuzzle.model import Deferred
from excover.errors import LimitReached
from excover.main import main

Voxel = tuple[int, int, int]


def _box(inner: set[Voxel], extent: Voxel) -> set[Voxel]:
    """The closed box of ``extent`` around the cells ``inner``."""
    ex, ey, ez = extent
    return {v for v in product(range(ex), range(ey), range(ez)) if v not in inner}


def _room() -> set[Voxel]:
    """The cells of a 5x5x5 room, from 1 to 5 on each axis."""
    return set(product(range(1, 6), range(1, 6), range(1, 6)))


def _loose_cubes_file(tmp_path: Path, cubes: int = 20) -> Path:
    """A closed box around a 5x5x5 room with ``cubes`` unit cubes loose in it."""
    inner = _room()
    box = _box(inner, (7, 7, 7))
    shapes = (
        BurrShape.from_voxels(frozenset(box), frozenset(inner), name="result"),
        BurrShape.from_voxels(frozenset(box), name="box"),
        BurrShape.from_voxels(frozenset({(0, 0, 0)}), name="cube"),
    )
    path = tmp_path / "loose.xmpuzzle"
    write_xmpuzzle(
        BurrPuzzle(shapes, (BurrProblem((BurrPart(1), BurrPart(2, cubes, cubes)), 0),)), path
    )
    return path


def _loose_cubes() -> Assembly:
    """Twenty cubes filling four of the five rows of the room's wall at x = 1, the box
    around: each cube slides away, and every union of the sets that slide alike."""
    inner = _room()
    cubes: list[list[Voxel]] = [[c] for c in sorted(inner)[:20]]
    return Assembly.of_voxels([sorted(_box(inner, (7, 7, 7))), *cubes])


def test_the_state_cap_stops_the_search_inside_its_first_step() -> None:
    """The first configuration's moves alone are more than 50,000 configurations: the
    search stops at the cap, the first configuration still the only one expanded."""
    pieces = [piece.voxels for piece in _loose_cubes().pieces]
    search = Search(Part(Geometry(0), pieces), [(0, 0, 0)] * len(pieces))
    budget = DisassemblyBudget(None, 50_000)
    with pytest.raises(OutOfBudget, match="more than 50,000 states"):
        search.next(budget)
    assert search.expanded == 1 and budget.states == 50_001
    result = disassemble(_loose_cubes(), max_states=50_000)
    assert (result.status, result.states_explored) == ("unknown", 50_001)


def test_a_deadline_passed_stops_the_search_inside_its_first_step() -> None:
    """A deadline already past is seen at the first look at the clock (1,024 steps of a
    loop), long before the first step's 50,000 configurations and more."""
    result = disassemble(_loose_cubes(), timeout=0)
    assert (result.status, result.reason) == ("unknown", "out of time")
    assert result.states_explored < 5_000


def test_the_bound_on_memory_stops_a_search_and_its_tables_are_given_back() -> None:
    before = held()
    result = disassemble(_loose_cubes(), max_memory=8 * 2**20)
    assert (result.status, result.reason) == ("unknown", "more than 8.0 MiB of memory")
    assert result.states_explored > 10_000  # it did grow to the bound
    assert held() - before < 2**20  # the large tables are freed when the search ends
    unbounded = disassemble(_loose_cubes(), max_memory=0, max_states=20_000)
    assert "states" in unbounded.reason


def test_ctrl_c_stops_a_search_inside_its_first_step(tmp_path: Path) -> None:
    """A child process takes the cubes apart (no limit it could reach within minutes) and
    says when it starts; Ctrl-C stops it inside its first step, with KeyboardInterrupt."""
    child = textwrap.dedent(
        """
        import sys
        from itertools import product
        from excover.burr import Assembly
        from excover.burr.search import Disassembler, DisassemblyBudget
        inner = set(product(range(1, 6), repeat=3))
        box = [v for v in product(range(7), repeat=3) if v not in inner]
        cubes = [[c] for c in sorted(inner)[:20]]
        budget = DisassemblyBudget(None, 10**9)
        print("go", flush=True)
        try:
            Disassembler(Assembly.of_voxels([box, *cubes]), budget).run()
        except KeyboardInterrupt:
            print("interrupted", budget.states, flush=True)
        """
    )
    run = subprocess.Popen(
        [sys.executable, "-c", child], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert run.stdout is not None
    assert run.stdout.readline() == "go\n"
    time.sleep(0.5)  # into the search (a signal landing sooner stops it just the same)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    words = out.split()
    assert words[0] == "interrupted", err
    assert int(words[1]) < 10**9


def test_the_command_stops_at_ctrl_c_with_what_it_found(tmp_path: Path) -> None:
    path = _loose_cubes_file(tmp_path)
    command = [sys.executable, "-m", "excover", "disassemble", str(path), "--json"]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # the first assembly found and in its search by then, or soon after
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "excover: interrupted; the result is partial" in err
    document = json.loads(out)
    assert (document["complete"], document["stopped_by"]) == (False, "interrupt")


def test_the_command_stops_at_its_timeout_and_state_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_loose_cubes_file(tmp_path))
    assert main(["disassemble", path, "--timeout", "0.5"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("assemblies: 1 (so far)\n") and "unknown: 1" in out
    assert "(out of time)" in out and "excover: stopped by --timeout" in err
    assert main(["disassemble", path, "--max-states", "20000", "--timeout", "1", "--json"]) == 1
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert document["unknown"] == document["assemblies"] >= 1
    assert document["complete"] is False and document["stopped_by"] == "timeout"
    assert "assemblies stopped by --max-states (unknown); the result is partial" in err
    assert main(["disassemble", path, "--max-memory", "8M", "--timeout", "1"]) == 1
    out, err = capsys.readouterr()
    assert "assembly 1: unknown (more than 8.0 MiB of memory)" in out
    assert "assemblies stopped by --max-memory (unknown); the result is partial" in err


def test_the_assemblies_stream_through_the_disassembly(tmp_path: Path) -> None:
    """A run holds no assembly it has finished: the assemblies are read as the work
    goes, one (or two, to see whether there is more than one) ahead of the first result
    in one process, a few tasks ahead of the workers on several."""
    found = list(assemblies(read_xmpuzzle(_tray_file(tmp_path, 4, 4)), 0))
    pulled = 0

    def listed() -> Iterator[Assembly]:
        nonlocal pulled
        for assembly in found:
            pulled += 1
            yield assembly

    runs = disassemble_many(listed())
    next(runs)
    assert pulled == 2
    runs.close()
    from concurrent.futures import ThreadPoolExecutor

    pulled = 0
    with ThreadPoolExecutor(2) as threads:
        results = dict(disassemble_many(listed(), executor=threads))
    assert len(results) == len(found) == pulled
    alone = dict(disassemble_many(found))
    assert {k: (r.status, r.level) for k, r in results.items()} == {
        k: (r.status, r.level) for k, r in alone.items()
    }


# --------------------------------------------------------------------------- writing


def _tray_file(tmp_path: Path, width: int, height: int) -> Path:
    """An open tray (floor and walls, no lid) full of dominoes: every assembly comes
    apart, each domino lifted out in turn."""
    inner = {(x, y, 1) for x in range(1, width + 1) for y in range(1, height + 1)}
    tray = _box(inner, (width + 2, height + 2, 2))
    shapes = (
        BurrShape.from_voxels(frozenset(tray | inner), name="result"),
        BurrShape.from_voxels(frozenset(tray), name="tray"),
        BurrShape.from_voxels(frozenset({(0, 0, 0), (1, 0, 0)}), name="domino"),
    )
    dominoes = width * height // 2
    problem = BurrProblem((BurrPart(1), BurrPart(2, dominoes, dominoes)), 0)
    path = tmp_path / f"tray{width}x{height}.xmpuzzle"
    write_xmpuzzle(BurrPuzzle(shapes, (problem,)), path)
    return path


def test_write_stores_the_hardest_solutions_as_burrtools_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """930 solutions: the 100 hardest stored by default (BurrTools' limit), every one
    with --keep 0, the problem counting them all either way."""
    path = str(_tray_file(tmp_path, 6, 6))
    out = tmp_path / "solved.xmpuzzle"
    assert main(["disassemble", path, "--write", str(out), "--json"]) == 0
    levels = json.loads(capsys.readouterr().out)["levels"]
    assert len(levels) == 930
    problem = read_xmpuzzle(out).problems[0]
    assert (problem.assemblies, problem.solutions, len(problem.stored)) == (930, 930, 100)
    numbers = [solution.solution_number for solution in problem.stored]
    assert len(set(numbers)) == 100
    assert main(["disassemble", path, "--write", str(out), "--keep", "0", "--quiet"]) == 0
    capsys.readouterr()
    assert len(read_xmpuzzle(out).problems[0].stored) == 930
    assert main(["disassemble", path, "--keep", "3"]) == 2
    assert "give --write OUT" in capsys.readouterr().err


def test_write_is_compressed_a_solution_at_a_time_and_keeps_no_tree(tmp_path: Path) -> None:
    """The file is gzip's compression of the whole text, made a solution at a time: each
    separation made from the disassembly's compact tree when written, then let go."""
    from excover.burr.stored import solved_puzzle

    puzzle = read_xmpuzzle(_tray_file(tmp_path, 4, 4))
    results = dict(disassemble_many(list(assemblies(puzzle, 0))))
    solved = solved_puzzle(puzzle, 0, results, len(results))
    out = tmp_path / "solved.xmpuzzle"
    write_xmpuzzle(solved, out)
    assert out.read_bytes() == gzip.compress(format_xmpuzzle(solved).encode(), mtime=0)
    stored = solved.problems[0].stored
    assert stored and all(isinstance(s.__dict__["_separation"], Deferred) for s in stored)
    assert all(isinstance(held_tree(r), PackedSeparationTree) for r in results.values())
    again = read_xmpuzzle(out).problems[0].stored
    assert [s.separation for s in again] == [s.separation for s in stored]
    for result in results.values():  # the trees as objects: the same file
        assert result.tree is not None
    assert format_xmpuzzle(solved_puzzle(puzzle, 0, results, len(results))) == (
        format_xmpuzzle(solved)
    )


def test_write_past_the_deadline_or_at_ctrl_c_leaves_the_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from excover.burr.stored import solved_puzzle

    puzzle = read_xmpuzzle(_tray_file(tmp_path, 4, 4))
    found = dict(disassemble_many(list(assemblies(puzzle, 0))))
    solved = solved_puzzle(puzzle, 0, found, len(found))
    out = tmp_path / "solved.xmpuzzle"
    out.write_bytes(b"the designer's file")
    with pytest.raises(LimitReached):
        write_xmpuzzle(solved, out, deadline=time.monotonic() - 1)
    assert out.read_bytes() == b"the designer's file"
    path = str(tmp_path / "tray4x4.xmpuzzle")
    monkeypatch.setattr(burr_cli, "WRITE_GRACE", -3600.0)  # its deadline long past
    assert main(["disassemble", path, "--write", str(out), "--timeout", "600"]) == 1
    out_text, err = capsys.readouterr()
    assert "stuck: 0" in out_text
    assert f"{out} not written (stopped by --timeout while writing)" in err
    assert out.read_bytes() == b"the designer's file"
    monkeypatch.undo()
    calls = 0
    solution_xml = burr_files._solution_xml

    def interrupted(solution: object) -> str:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return solution_xml(solution)  # type: ignore[arg-type]

    monkeypatch.setattr(burr_files, "_solution_xml", interrupted)
    assert main(["disassemble", path, "--write", str(out)]) == 130
    assert f"{out} not written (interrupted while writing)" in capsys.readouterr().err
    assert out.read_bytes() == b"the designer's file"


#: A 3x4x3 box of 36 cubes and pieces with ranges (the differential's box seed 1000220):
#: its search for assemblies runs for minutes before it finds the first, if any.
SLOW_LISTING = """<?xml version="1.0"?>
<puzzle version="2">
 <gridType type="0"/>
 <colors/>
 <shapes>
  <voxel x="1" y="2" z="1" name="piece 1" type="0">##</voxel>
  <voxel x="2" y="2" z="2" name="piece 2" type="0">##_##__#</voxel>
  <voxel x="2" y="2" z="2" name="piece 3" type="0">##_###__</voxel>
  <voxel x="3" y="2" z="1" name="piece 4" type="0">_#_###</voxel>
  <voxel x="1" y="2" z="2" name="piece 5" type="0">#_##</voxel>
  <voxel x="2" y="2" z="2" name="piece 6" type="0">#_###___</voxel>
  <voxel x="1" y="1" z="1" name="piece 7" type="0">#</voxel>
  <voxel x="3" y="4" z="3" name="box" type="0">####################################</voxel>
 </shapes>
 <problems>
  <problem state="0">
   <shapes>
    <shape id="0" count="6"/>
    <shape id="1" count="1"/>
    <shape id="2" min="0" max="2"/>
    <shape id="3" count="1"/>
    <shape id="4" count="1"/>
    <shape id="5" min="1" max="3"/>
    <shape id="6" min="3" max="5"/>
   </shapes>
   <result id="7"/>
   <bitmap/>
  </problem>
 </problems>
 <comment/>
</puzzle>
"""


def test_a_deadline_stops_the_search_for_the_next_assembly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deadline bounds the listing of the assemblies too, not only their
    disassemblies: a puzzle whose first assembly takes minutes to find stops at
    ``--timeout`` (it ran on for minutes), and ``disassemble_all`` raises LimitReached."""
    from excover.burr import disassemble_all

    path = tmp_path / "slow.xmpuzzle"
    path.write_text(SLOW_LISTING, encoding="utf-8")
    status = main(["disassemble", str(path), "--timeout", "0.5", "--greedy"])
    assert status == 1
    assert "stopped by --timeout" in capsys.readouterr().err
    with pytest.raises(LimitReached):
        list(disassemble_all(read_xmpuzzle(path), deadline=time.monotonic() + 0.5))
