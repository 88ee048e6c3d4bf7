"""The hard-puzzle routes of the nonogram solver: restarts, CDCL, depth-2 probing, rating.

Each route is checked against brute force or against the plain depth-first search on
small random puzzles, and the levels of :func:`nonogram.rate` against what the solver's
stages decide.
"""

from __future__ import annotations

import itertools
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from runs import cpu_seconds, ended, wait_until_busy

from excover import nonogram
from excover.errors import LimitReached, UsageError
from excover.nonogram import _core as _nonogram
from excover.nonogram import search as nonogram_search
from excover.nonogram.model import Puzzle


def brute_force_line(clue: list[int], cells: bytes) -> bytes | None:
    """The union of every placement of ``clue`` that agrees with ``cells``."""
    n = len(cells)
    union = [0] * n
    found = False
    for bits in itertools.product((1, 2), repeat=n):
        runs = [len(list(g)) for value, g in itertools.groupby(bits) if value == 2]
        if runs == clue and all(cells[i] & bits[i] for i in range(n)):
            found = True
            for i in range(n):
                union[i] |= bits[i]
    return bytes(union) if found else None


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(1, 10).flatmap(lambda n: st.tuples(st.just(n), st.data())))
def test_line_solver_matches_brute_force(case: tuple[int, st.DataObject]) -> None:
    n, data = case
    clue = data.draw(st.lists(st.integers(1, n), max_size=(n + 1) // 2))
    cells = bytes(data.draw(st.lists(st.sampled_from([1, 2, 3, 3, 3]), min_size=n, max_size=n)))
    if sum(clue) + len(clue) - 1 > n:
        clue = []
    expected = brute_force_line(clue, cells)
    assert _nonogram.line_solve(clue, cells) == expected
    assert _nonogram.line_solve(clue, cells, bit_parallel=False) == expected


@st.composite
def long_lines(draw: st.DrawFn) -> tuple[list[int], bytes]:
    """A line of 1-200 cells (either side of 63, the one-word solver's limit, and of 127
    and 191, where the multi-word solver needs a third and a fourth word), the clue of a
    random picture or an arbitrary one, and cells partly known, some against the picture."""
    edges = [1, 2, 31, 32, 33, 62, 63, 64, 65, 80, 126, 127, 128, 129, 190, 191, 192, 200]
    n = draw(st.sampled_from(edges) | st.integers(1, 200))
    picture = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if draw(st.booleans()):
        clue = [len(list(run)) for black, run in itertools.groupby(picture) if black]
    else:
        clue = draw(st.lists(st.integers(1, n), max_size=n // 2 + 1))
    known = draw(st.floats(0.0, 0.8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cells = bytes(
        (2 if black else 1) if rng.random() < known else rng.choice([3, 3, 3, 3, 1, 2])
        for black in picture
    )
    return clue, cells


@settings(max_examples=examples(600), deadline=None)
@given(long_lines())
def test_bit_parallel_line_solver_matches_the_table_solver(line: tuple[list[int], bytes]) -> None:
    # The table solver is checked against brute force above on short lines; on long
    # ones the two independent solvers must agree, contradictions included.
    clue, cells = line
    assert _nonogram.line_solve(clue, cells) == _nonogram.line_solve(
        clue, cells, bit_parallel=False
    )


def brute_force_count(puzzle: Puzzle, limit: int = 3) -> int:
    """Solutions of a tiny puzzle, counted over every picture (at most ``limit``)."""
    found = 0
    for bits in itertools.product(".#", repeat=puzzle.height * puzzle.width):
        rows = [
            "".join(bits[r * puzzle.width : (r + 1) * puzzle.width]) for r in range(puzzle.height)
        ]
        if puzzle.is_solution(rows):
            found += 1
            if found == limit:
                break
    return found


def random_puzzle(seed: int, height: int, width: int) -> Puzzle:
    rng = random.Random(seed)
    return nonogram.generate(height, width, rng.uniform(0.3, 0.7), rng)


def test_a_solution_reached_without_a_guess_is_the_only_one() -> None:
    # The hybrid route skips the rectangle swap of such a solution (nonogram_search);
    # the count comes from the exact-cover route.
    forced = 0
    for seed in range(200):
        puzzle = random_puzzle(seed, 6, 6)
        solver = nonogram_search.core(puzzle)
        assert solver.next_solution() == _nonogram.SOLUTION
        if solver.depth == 0:
            forced += 1
            assert nonogram.count(puzzle, limit=2, method="xcc") == 1
    assert 0 < forced < 200


@pytest.mark.parametrize("seed", range(25))
def test_hunt_and_auto_agree_with_brute_force(seed: int) -> None:
    puzzle = random_puzzle(seed, 3, 4)
    expected = brute_force_count(puzzle)
    assert nonogram.count(puzzle, limit=3) == expected
    # Restarts alone: forbid each solution found until a run exhausts its tree.
    solver = nonogram_search.core(puzzle)
    found: list[bytes] = []
    while len(found) < 3:
        status = solver.hunt(-1, -1.0, seed + 1, 1, b"".join(found))
        if status == _nonogram.EXHAUSTED:
            break
        assert status == _nonogram.SOLUTION
        grid = solver.grid_bytes()
        assert grid not in found
        assert puzzle.is_solution(nonogram_search.picture(grid, puzzle.width))
        found.append(grid)
    assert len(found) == expected


@pytest.mark.parametrize(
    ("seed", "height", "width"), [(0, 7, 70), (2, 7, 100), (0, 7, 127), (0, 6, 128), (2, 6, 200)]
)
def test_search_on_long_lines_agrees_with_sat(seed: int, height: int, width: int) -> None:
    """Lines longer than 63 cells go through the multi-word line solver (through the
    line cache up to 127 cells): propagation, probing and search on them count the
    same as CDCL, and the pictures they find fit the clues. (Seeds whose CDCL count
    takes under a second: on some of these shapes it takes far longer.)"""
    puzzle = random_puzzle(seed, height, width)
    for transposed in (puzzle, nonogram.Puzzle(puzzle.cols, puzzle.rows)):
        expected = nonogram.count(transposed, limit=3, method="sat")
        assert nonogram.count(transposed, limit=3, method="propagate") == expected
        for picture in nonogram.solutions(transposed, method="propagate", limit=3):
            assert transposed.is_solution(picture)


@pytest.mark.parametrize("seed", range(12))
def test_restarts_and_cdcl_agree_with_plain_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no depth-first budget at all, the hybrid route is restarts and CDCL alone."""
    puzzle = random_puzzle(seed, 12, 12)
    plain = nonogram.count(puzzle, limit=3, method="propagate")
    monkeypatch.setattr(nonogram_search, "DFS_NODES", 0)
    monkeypatch.setattr(nonogram_search, "FIRST_SLICE", 0.001)
    assert nonogram.count(puzzle, limit=3) == plain
    assert nonogram.count(puzzle, limit=3, max_nodes=10**6) == plain  # restarts alone


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("failures", [1, 200])
def test_two_decimations_taking_turns_agree_with_plain_search(
    seed: int, failures: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second decimation of large puzzles, brought to small ones: with both taking
    turns (and, at one dead end each, both dropped in turn), the hybrid route finds the
    same pictures as the plain search, as does the route with one decimation."""
    puzzle = random_puzzle(seed, 12, 12)
    plain = nonogram.count(puzzle, limit=3, method="propagate")
    monkeypatch.setattr(nonogram_search, "DFS_NODES", 0)
    monkeypatch.setattr(nonogram_search, "FIRST_SLICE", 0.001)
    monkeypatch.setattr(nonogram_search, "GUESS_FAILURES", failures)
    monkeypatch.setattr(nonogram_search, "GUESS_FIRST_FAILURES", failures)
    alone = nonogram.count(puzzle, limit=3)
    monkeypatch.setattr(nonogram_search, "LARGE_GUESS_CELLS", 0)
    pictures = list(nonogram.solutions(puzzle, limit=3))
    assert alone == len(pictures) == len({tuple(picture) for picture in pictures}) == plain
    assert all(puzzle.is_solution(picture) for picture in pictures)


@pytest.mark.parametrize("seed", range(6))
def test_kissat_takes_over_and_counts(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no depth-first budget and no patience, Kissat finds every next solution (in
    a child process) and proves there is no other."""
    puzzle = random_puzzle(seed, 10, 10)
    plain = nonogram.count(puzzle, limit=4, method="propagate")
    monkeypatch.setattr(nonogram_search, "DFS_NODES", 0)
    monkeypatch.setattr(nonogram_search, "KISSAT_AFTER", 0.0)
    pictures = list(nonogram.solutions(puzzle, limit=4))
    assert len(pictures) == len({tuple(picture) for picture in pictures}) == plain
    assert all(puzzle.is_solution(picture) for picture in pictures)


@pytest.mark.parametrize("seed", range(40))
def test_probing_near_decided_cells_first_reaches_the_same_fixpoint(seed: int) -> None:
    """Probing at the root reaches one fixpoint whatever the order of its probes: trying
    the cells next to decided ones first leaves the grid probing every cell in turn
    leaves, and the search then finds the same solutions."""
    size = 8 + seed % 10
    puzzle = random_puzzle(seed, size, size + seed % 3)
    grids, counts = [], []
    for near_first in (True, False):
        solver = nonogram_search.core(puzzle)
        solver.near_first = near_first
        solver.skip_unchanged = False
        solver.probe_only()
        grids.append(solver.grid_bytes())
        solver = nonogram_search.core(puzzle)
        solver.near_first = near_first
        found: list[bytes] = []
        while len(found) < 5 and solver.next_solution() == _nonogram.SOLUTION:
            found.append(solver.grid_bytes())
        counts.append(sorted(found))
    assert grids[0] == grids[1]
    assert counts[0] == counts[1] or (len(counts[0]) == len(counts[1]) == 5)


def test_skipping_probes_that_still_hold_changes_nothing_but_the_work() -> None:
    """A probe is skipped while no line it solved has changed (the records go back with
    the trail on backtracking): the search finds the same solutions as one that probes
    every cell again at every node, with fewer probes in all."""
    probes = {True: 0, False: 0}
    for seed in range(60):
        size = 8 + seed % 12
        puzzle = random_puzzle(seed, size, size + seed % 3)
        found: dict[bool, list[bytes]] = {}
        for skip in (True, False):
            solver = nonogram_search.core(puzzle)
            solver.skip_unchanged = skip
            grids: list[bytes] = []
            while len(grids) < 5 and solver.next_solution() == _nonogram.SOLUTION:
                grids.append(solver.grid_bytes())
            found[skip] = sorted(grids)
            probes[skip] += solver.probes
        assert found[True] == found[False] or len(found[True]) == len(found[False]) == 5
        assert len(set(found[True])) == len(found[True])
    assert probes[True] < 0.8 * probes[False]


@pytest.mark.parametrize("seed", range(30))
def test_every_branching_rule_and_probing_depth_finds_the_same_solutions(seed: int) -> None:
    """The score that picks the branching cell and whether probing below the root runs
    to its fixpoint change the tree, never the solutions (counted by the exact-cover
    route)."""
    puzzle = random_puzzle(seed, 7, 6 + seed % 3)
    expected = nonogram.count(puzzle, limit=6, method="xcc")
    for score_rule in (0, 1):
        for fixpoint in (False, True):
            solver = nonogram_search.core(puzzle)
            solver.score_rule = score_rule
            solver.fixpoint_below_root = fixpoint
            found: set[bytes] = set()
            while len(found) < 6 and solver.next_solution() == _nonogram.SOLUTION:
                found.add(solver.grid_bytes())
            assert len(found) == expected
            assert all(
                puzzle.is_solution(nonogram_search.picture(grid, puzzle.width)) for grid in found
            )


def test_cdcl_alone_counts() -> None:
    """The CDCL route by itself, blocking each solution it finds (and, on odd seeds,
    trying its values first for the next), ends with the count."""
    for seed in range(8):
        puzzle = random_puzzle(seed, 10, 10)
        cdcl = nonogram_search._Cdcl(puzzle, [])
        found = 0
        while found < 3 and (grid := cdcl.next(float("inf"))) is not None:
            assert grid and puzzle.is_solution(nonogram_search.picture(grid, puzzle.width))
            cdcl.block(grid)
            if seed % 2:
                cdcl.guide(grid)
            found += 1
        cdcl.close()
        assert found == nonogram.count(puzzle, limit=3, method="propagate")


def test_limits_are_honoured() -> None:
    hard = Puzzle.from_picture(nonogram.random_picture(40, 40, 0.5, random.Random(3)))
    with pytest.raises(LimitReached) as stopped:
        nonogram.count(hard, max_nodes=1)
    assert stopped.value.reason == "max_nodes"
    with pytest.raises(LimitReached):
        nonogram.count(hard, timeout=0.0)
    with pytest.raises(UsageError):
        nonogram.count(hard, limit=2, method="sat", max_nodes=5)


@pytest.mark.parametrize("seed", range(30))
def test_rating_levels_are_consistent(seed: int) -> None:
    puzzle = random_puzzle(seed, 10, 10)
    rating = nonogram.rate(puzzle)
    assert rating.status == nonogram.classify(puzzle)
    assert (rating.level == "line") == (rating.status != "none" and nonogram.line_solvable(puzzle))
    if rating.level == "line":
        assert rating.depth == 0
    elif rating.level == "probe":
        assert rating.depth in (1, 2)
        assert rating.status in ("unique", "none")
        solver = nonogram_search.core(puzzle)
        if rating.depth == 1:
            solver.probe_only()
        else:
            solver.probe_deep()
        assert rating.status == "none" or 3 not in solver.grid_bytes()
    else:
        assert rating.depth is None
    if rating.status == "multiple":
        assert rating.level == "search"


def test_generate_guarantees_uniqueness_and_difficulty() -> None:
    rng = random.Random(5)
    for difficulty in ("line", "probe"):
        puzzle = nonogram.generate(12, 12, 0.5, rng, difficulty=difficulty)
        rating = nonogram.rate(puzzle)
        assert (rating.status, rating.level) == ("unique", difficulty)
    assert nonogram.classify(nonogram.generate(15, 15, 0.5, rng, unique=True)) == "unique"
    with pytest.raises(UsageError):
        nonogram.generate(3, 3, 0.5, rng, difficulty="search", attempts=5)
    with pytest.raises(UsageError):
        nonogram.generate(3, 3, 0.5, rng, difficulty="easy")


def test_rate_names_its_level() -> None:
    assert str(nonogram.rate([[1], [3], [1]], [[1], [3], [1]])) == "unique, line solving"
    assert nonogram.rate([[1], [1]], [[1], [1]]).level == "search"
    assert nonogram.rate([[1], [1]], [[1], [1]]).status == "multiple"


#: A child process that classifies a random 60x60 puzzle with Kissat from the start,
#: saying when Kissat first starts, then reports any process left behind. No time goes to
#: decimation, which finds this puzzle's picture within its first two slices, and Kissat's
#: first slice lasts until it answers (some 15-20 s of CPU time on this puzzle): a Ctrl-C
#: sent once Kissat has run a little lands while the run waits for it.
KISSAT_RUN = """
import random, sys
from excover import nonogram
from excover.nonogram import search as nonogram_search
from excover.sat.child import ChildRun
nonogram_search.DFS_NODES = 0
nonogram_search.KISSAT_AFTER = 0.0
nonogram_search.GUESS_SHARE = 0
nonogram_search.KISSAT_SHARE = 10_000
advance = ChildRun.advance
said = []
def announced(self, until):
    if not said:
        said.append(True)
        print("kissat", flush=True)
    return advance(self, until)
ChildRun.advance = announced
puzzle = nonogram.generate(60, 60, 0.5, random.Random(1))
try:
    nonogram.classify(puzzle)
except KeyboardInterrupt:
    import multiprocessing
    print("interrupted", multiprocessing.active_children(), flush=True)
"""


def test_ctrl_c_stops_kissat_and_its_child() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", KISSAT_RUN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "kissat\n"
        # into Kissat's child process: 0.3 s of CPU time past the word that it starts (the
        # run itself only waits for it meanwhile)
        wait_until_busy(child, (cpu_seconds(child.pid) or 0.0) + 0.3)
        child.send_signal(signal.SIGINT)
        out, err = ended(child, 60)
    finally:
        child.kill()
        child.wait()
    assert out == "interrupted []\n", err


def _children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_kissats_child_dies_with_a_killed_parent() -> None:
    """A run killed by SIGTERM (no finalizer runs) leaves no Kissat process behind, even
    one stopped between two slices."""
    run = subprocess.Popen(
        [sys.executable, "-c", KISSAT_RUN], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert run.stdout is not None
        assert run.stdout.readline() == b"kissat\n"
        children = _children_of(run.pid)
        assert children
        run.terminate()
        run.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in children):
            assert time.monotonic() < deadline, f"left behind: {children}"
            time.sleep(0.05)
    finally:
        run.kill()
        run.wait()


def test_timeout_stops_kissat() -> None:
    """A time limit inside Kissat's run kills the child and raises LimitReached."""
    import multiprocessing

    puzzle = nonogram.generate(60, 60, 0.5, random.Random(0))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nonogram_search, "DFS_NODES", 0)
        patch.setattr(nonogram_search, "KISSAT_AFTER", 0.0)
        patch.setattr(nonogram_search, "GUESS_SHARE", 0)  # its picture comes in about 1 s
        with pytest.raises(LimitReached) as stopped:
            nonogram.classify(puzzle, timeout=1.0)
    assert stopped.value.reason == "timeout"
    assert multiprocessing.active_children() == []


def test_decimation_finds_only_solutions_and_proves_none_left() -> None:
    """``guess`` (decimation by belief propagation) stops only at pictures that fit the
    clues and are not forbidden; forbidding each one found, it ends with EXHAUSTED
    exactly when it has found every picture the exact-cover route enumerates (its
    backtracking is complete, whole steps taken back included: fraction 0.3)."""
    for seed in range(40):
        puzzle = random_puzzle(seed, 5, 6)
        every = {tuple(rows) for rows in nonogram.solutions(puzzle, method="xcc")}
        solver = nonogram_search.core(puzzle)
        found: list[bytes] = []
        while (status := solver.guess(-1.0, 10, 0.3, -1, b"".join(found))) != _nonogram.EXHAUSTED:
            assert status == _nonogram.SOLUTION and len(found) <= len(every)
            grid = solver.grid_bytes()
            assert grid not in found
            assert puzzle.is_solution(nonogram_search.picture(grid, puzzle.width))
            found.append(grid)
        assert {nonogram_search.picture(g, puzzle.width) for g in found} == every


def test_decimation_finds_a_large_random_picture_at_once() -> None:
    """On a random 40x40 puzzle the beliefs are right nearly everywhere: a picture
    comes with at most a few dead ends."""
    puzzle = nonogram.generate(40, 40, 0.5, random.Random(3))
    solver = nonogram_search.core(puzzle)
    assert solver.guess(-1.0, 20, 0.05, 20) == _nonogram.SOLUTION
    assert puzzle.is_solution(nonogram_search.picture(solver.grid_bytes(), puzzle.width))


def test_decimation_stops_at_its_limits() -> None:
    """Random 30x30 seed 91 is one where the beliefs mislead: decimation meets dead
    ends at once, and stops at the first; a deadline already past stops it too."""
    puzzle = nonogram.generate(30, 30, 0.5, random.Random(91))
    solver = nonogram_search.core(puzzle)
    assert solver.guess(-1.0, 20, 0.05, 1) == _nonogram.NODE_LIMIT
    assert solver.guess(0.0) == _nonogram.TIME_LIMIT


def _guess_in_slices(solver: _nonogram.Core, max_failures: int) -> tuple[int, int]:
    """Run ``guess`` in slices of a millisecond, each call resuming the last (a whole
    run takes tens of them, so a guess that started afresh would never finish): its
    last status and the number of calls it took."""
    for calls in range(1, 10_000):
        deadline = time.monotonic() + 0.001
        status = solver.guess(deadline, 20, 0.05, max_failures, resume=calls > 1)
        if status != _nonogram.TIME_LIMIT:
            return status, calls
    raise AssertionError("the sliced guess made no headway")


@pytest.mark.parametrize(("size", "seed", "max_failures"), [(40, 3, 20), (30, 91, 30)])
def test_a_resumed_guess_goes_on_where_it_stopped(size: int, seed: int, max_failures: int) -> None:
    """Decimation cut into time slices, each call resuming the last, ends as one
    uninterrupted run does: the same status, picture and number of nodes (no step done
    twice; dead ends counted over all the calls)."""
    puzzle = nonogram.generate(size, size, 0.5, random.Random(seed))
    whole = nonogram_search.core(puzzle)
    expected = whole.guess(-1.0, 20, 0.05, max_failures)
    sliced = nonogram_search.core(puzzle)
    status, calls = _guess_in_slices(sliced, max_failures)
    assert calls > 1  # it was paused at least once
    assert (status, sliced.nodes) == (expected, whole.nodes)
    assert sliced.grid_bytes() == whole.grid_bytes()


def test_a_guess_paused_at_its_dead_ends_goes_on_with_more() -> None:
    """Decimation stopped at a dead-end limit and resumed with a larger one ends as one
    run with the larger limit: the hybrid route's first round pauses it early."""
    puzzle = nonogram.generate(30, 30, 0.5, random.Random(91))
    whole = nonogram_search.core(puzzle)
    expected = whole.guess(-1.0, 20, 0.05, 100)
    paused = nonogram_search.core(puzzle)
    assert paused.guess(-1.0, 20, 0.05, 10) == _nonogram.NODE_LIMIT
    assert paused.nodes < whole.nodes
    with pytest.raises(RuntimeError, match="paused guess"):  # paused, not finished
        paused.next_solution()
    assert paused.guess(-1.0, 20, 0.05, 100, resume=True) == expected
    assert (paused.nodes, paused.grid_bytes()) == (whole.nodes, whole.grid_bytes())


def test_short_restarts_find_a_new_picture_or_say_there_is_none() -> None:
    """The first round's short restarts (random 30x30 seed 2413, where decimation is
    lost): a picture of the puzzle not among those found, or a proof that there is none
    beyond them, within FIRST_RESTARTS seeds."""
    puzzle = nonogram.generate(30, 30, 0.5, random.Random(2413))
    end = time.monotonic() + 60
    first, seed = nonogram_search._short_restarts(nonogram_search.core(puzzle), 0, end, [])
    assert first and 1 <= seed <= nonogram_search.FIRST_RESTARTS
    assert puzzle.is_solution(nonogram_search.picture(first, puzzle.width))
    more, _ = nonogram_search._short_restarts(nonogram_search.core(puzzle), 0, end, [first])
    assert more is None or (
        more != first and puzzle.is_solution(nonogram_search.picture(more, puzzle.width))
    )


def test_a_guess_without_resume_starts_afresh() -> None:
    """A paused guess is resumed only when asked: a call without ``resume`` starts
    again from the root (the same nodes as a fresh solver), and the plain search
    refuses to go on from a paused guess. The pauses are a dead-end limit and a deadline
    already past, not a short time slice: how far a slice gets depends on the machine."""
    puzzle = nonogram.generate(30, 30, 0.5, random.Random(91))
    fresh = nonogram_search.core(puzzle)
    expected = fresh.guess(-1.0, 20, 0.05, 100)
    solver = nonogram_search.core(puzzle)
    assert solver.guess(-1.0, 20, 0.05, 10) == _nonogram.NODE_LIMIT
    assert 0 < solver.nodes < fresh.nodes
    assert solver.guess(0.0, 20, 0.05, 100, resume=True) == _nonogram.TIME_LIMIT
    with pytest.raises(RuntimeError, match="paused guess"):
        solver.next_solution()
    assert solver.guess(-1.0, 20, 0.05, 100) == expected
    assert (solver.nodes, solver.grid_bytes()) == (fresh.nodes, fresh.grid_bytes())


def test_the_search_stops_at_its_probe_budget_and_carries_on() -> None:
    """``next_solution`` with ``max_probes`` stops once its probes reach the budget
    (the hybrid route's work budget) and a later call goes on in the same tree: the same
    first solution as a search never stopped."""
    puzzle = nonogram.generate(25, 25, 0.5, random.Random(45))
    whole = nonogram_search.core(puzzle)
    assert whole.next_solution() == _nonogram.SOLUTION
    stopped = nonogram_search.core(puzzle)
    assert stopped.next_solution(max_probes=1_000) == _nonogram.NODE_LIMIT
    assert 1_000 <= stopped.probes < whole.probes
    assert stopped.next_solution() == _nonogram.SOLUTION
    assert (stopped.grid_bytes(), stopped.nodes) == (whole.grid_bytes(), whole.nodes)


def test_a_first_pictures_swap_is_sought_only_when_the_search_lingers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The swap of the search's first picture costs milliseconds of Python: it is sought
    only when the search has gone SWAP_AFTER nodes past it without a second picture
    (random 25x25 seed 405), not when the search finds the second soon (random 30x30
    seeds 0-4), unless SWAP_AFTER is 0; the answers are the same either way."""
    from excover.nonogram import swap as nonogram_swap

    swaps: list[bool] = []
    original = nonogram_swap.swapped

    def counted(grid: bytes, height: int, width: int) -> bytes | None:
        neighbour = original(grid, height, width)
        swaps.append(neighbour is not None)
        return neighbour

    monkeypatch.setattr(nonogram_swap, "swapped", counted)
    default = nonogram_search.SWAP_AFTER
    for seed in range(5):
        puzzle = nonogram.generate(30, 30, 0.5, random.Random(seed))
        answers = []
        for swap_after, sought in ((default, 0), (0, 1)):
            monkeypatch.setattr(nonogram_search, "SWAP_AFTER", swap_after)
            swaps.clear()
            answers.append(nonogram.classify(puzzle))
            assert len(swaps) == sought
        assert answers == ["multiple", "multiple"]
    monkeypatch.undo()
    monkeypatch.setattr(nonogram_swap, "swapped", counted)
    swaps.clear()
    assert nonogram.classify(nonogram.generate(25, 25, 0.5, random.Random(405))) == "multiple"
    assert swaps == [True]


def _lines_fit(puzzle: Puzzle, grid: bytes) -> bool:
    """Whether every line of the partial ``grid`` (cell bytes) has a placement of its
    clue that agrees with it, by the reference line solver."""
    width = puzzle.width
    rows = [grid[r * width : (r + 1) * width] for r in range(puzzle.height)]
    cols = [grid[c::width] for c in range(width)]
    return all(
        _nonogram.line_solve(list(clue), line, False) is not None
        for clue, line in zip(puzzle.rows + puzzle.cols, rows + cols, strict=True)
    )


@pytest.mark.parametrize(("size", "seed"), [(30, 91), (30, 2413), (40, 3)])
def test_the_deepest_guess_is_a_settled_state_below_the_root(size: int, seed: int) -> None:
    """``deepest_guess``: None before any decimation; after one, a state whose every
    line still fits its clue, that keeps what probing decides at the root, and leaves
    no more cells open than any state the decimation was paused in; after a picture,
    the picture itself; with a floor, a state that leaves at least that many open."""
    puzzle = nonogram.generate(size, size, 0.5, random.Random(seed))
    solver = nonogram_search.core(puzzle)
    assert solver.deepest_guess() is None
    root = nonogram_search.core(puzzle)
    root.probe_only()
    rooted = root.grid_bytes()
    least_open = rooted.count(3)
    status = _nonogram.TIME_LIMIT
    calls = 0
    while status == _nonogram.TIME_LIMIT:
        status = solver.guess(time.monotonic() + 0.002, 20, 0.05, 5, resume=calls > 0)
        calls += 1
        least_open = min(least_open, solver.grid_bytes().count(3))
    deepest = solver.deepest_guess()
    assert deepest is not None and deepest.count(3) <= least_open
    assert all(rooted[v] in (3, deepest[v]) for v in range(len(rooted)))
    assert _lines_fit(puzzle, deepest)
    if status == _nonogram.SOLUTION:
        assert deepest == solver.grid_bytes()
    floored = nonogram_search.core(puzzle)  # the large puzzles' floor: some cells kept open
    floored.deepest_floor = (deepest.count(3) + rooted.count(3)) // 2
    floored.guess(-1.0, 20, 0.05, 5)
    shallower = floored.deepest_guess()
    assert shallower is not None and shallower.count(3) >= floored.deepest_floor
    assert _lines_fit(puzzle, shallower)
