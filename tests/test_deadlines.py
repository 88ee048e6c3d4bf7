"""One deadline for all the work of a run: splitting a search into subproblems, probing
its tree and building a puzzle's problem stop at ``--timeout`` and on Ctrl-C, with the
partial result the command line promises; a count on one process records what it
finished before it stops; the split's choice of item stays cheap on problems of many
items; ``--workers`` and ``--tasks`` are bounded.

The problems of the command-line tests are "independent items": each primary item has
options of its own and no other, so the search tree is as deep as there are items and
the count is a power (the plain count is instant, while every probe of the split walks
the whole depth).
"""

from __future__ import annotations

import json
import math
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from builders import queens as queens_problem
from runs import ended, wait_until_busy

from excover import ExactCover, LimitReached, UsageError
from excover.cli import common
from excover.parallel import tree, workers
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.subproblems import MAX_TASKS, resized, split, split_further
from excover.puzzles.queens import queens

#: Seconds a command of these tests is given beyond its --timeout before it counts as
#: hung (generous: the machine may be busy; a run that ignores the limit takes minutes).
SLACK = 30

#: Knuth's 8-queens input, as DLX1 reads it.
QUEENS8 = Path(__file__).parent / "data" / "knuth" / "queens8.dlx"


def independent(items: int, options: int = 3) -> ExactCover:
    """``items`` primary items, each covered by ``options`` options of its own."""
    problem = ExactCover(primary=[f"i{k}" for k in range(items)])
    for k in range(items):
        for _ in range(options):
            problem.add_option([f"i{k}"])
    return problem


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """indep10000.dlx: 10,000 independent items of 3 options (3**10000 solutions)."""
    path = tmp_path_factory.mktemp("deadlines") / "indep10000.dlx"
    independent(10_000).write(path)
    return path


def excover(*argv: str) -> subprocess.Popen[str]:
    """``excover ARGV`` in a child process, its own process group (for its workers)."""
    return subprocess.Popen(
        [sys.executable, "-m", "excover", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


# --------------------------------------------------------------------------- the tree walk


def _random_problem(rng: random.Random) -> ExactCover:
    """A small random problem: primary and secondary items, colors, and multiplicities
    on half of them."""
    primary = [f"p{k}" for k in range(rng.randint(1, 7))]
    secondary = [f"s{k}" for k in range(rng.randint(0, 3))]
    problem = ExactCover(primary=primary, secondary=secondary)
    if rng.random() < 0.5:
        for item in primary:
            low = rng.randint(0, 2)
            problem.set_multiplicity(item, low, rng.randint(max(low, 1), 3))
    for _ in range(rng.randint(1, 14)):
        items = rng.sample(primary, rng.randint(1, min(3, len(primary))))
        if secondary and rng.random() < 0.5:
            items.append(rng.choice(secondary) + rng.choice(["", ":x", ":y"]))
        problem.add_option(items)
    return problem


def _walk(heap: tree.State, scan: tree.State) -> int:
    """Walk the whole tree below two states of one node, checking at every node that
    they choose the same item and offer the same branches; the number of leaves."""
    item = heap.choose()
    assert item == scan.choose()
    if item is None:
        return 1
    branches = heap.branches(item)
    assert branches == scan.branches(item)
    leaves = 0
    for branch in branches:
        below_heap, below_scan = heap.copy(), scan.copy()
        assert below_heap.follow(item, branch) == below_scan.follow(item, branch)
        leaves += _walk(below_heap, below_scan)
    return leaves


def test_the_heap_of_item_keys_walks_the_engines_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above SCAN_ITEMS primary items the choice of item comes from a heap of the items'
    ranking keys: on random problems (set to use it at any size) it picks the item the
    engine's rule picks by looking at every item, at every node of the tree, from the
    root and from nodes with forced and forbidden options."""
    rng = random.Random(61)
    for _ in range(400):
        problem = _random_problem(rng)
        layout = tree.Layout.of(problem)
        forced = tuple(rng.sample(range(problem.n_options), min(2, problem.n_options)))
        forbidden = (rng.randrange(problem.n_options),)
        monkeypatch.setattr(tree, "SCAN_ITEMS", 0)
        heaps = [tree.State(layout), tree.State.after(layout, forced, forbidden)]
        monkeypatch.setattr(tree, "SCAN_ITEMS", 10**9)
        scans = [tree.State(layout), tree.State.after(layout, forced, forbidden)]
        assert heaps[0].ranks is not None and scans[0].ranks is None
        for heap, scan in zip(heaps, scans, strict=True):
            _walk(heap, scan)


@pytest.mark.slow  # splits of large problems
def test_the_split_of_a_deep_tree_looks_at_every_item_at_no_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A probe of a tree as deep as its problem's items chose each item by a look at
    every item: n levels times n items. Now no node of the split of 2,000 independent
    items looks at every item, and with multiplicities (where DLX3's rule asks whether
    each item is still active) the items looked at grow with the size of the problem,
    not with its square."""
    scans = 0
    scan = tree.State._scan

    def counted_scan(state: tree.State) -> int | None:
        nonlocal scans
        scans += 1
        return scan(state)

    monkeypatch.setattr(tree.State, "_scan", counted_scan)
    assert len(split(independent(2_000), tasks=4)) == 4
    assert scans == 0

    looks = 0
    active = tree.State.active

    def counted_active(state: tree.State, item: int) -> bool:
        nonlocal looks
        looks += 1
        return active(state, item)

    monkeypatch.setattr(tree.State, "active", counted_active)
    seen = []
    for items in (1_000, 2_000):
        problem = independent(items)
        problem.set_multiplicity("i0", 0, 1)  # multiplicities: DLX3's rule
        looks = 0
        split(problem, tasks=4)
        seen.append(looks)
    assert seen[1] < 3 * seen[0]  # twice the items: about twice the looks, not four times


# --------------------------------------------------------------------------- the API


def test_split_probes_and_queens_stop_at_their_deadline() -> None:
    """split, resized and split_further stop at ``deadline`` with LimitReached
    ("timeout"), and so does building a queens board."""
    problem = independent(2_000)
    soon = time.monotonic() + 0.3
    started = time.monotonic()
    with pytest.raises(LimitReached) as stop:
        split(problem, tasks=MAX_TASKS, deadline=soon)
    assert stop.value.reason == "timeout"
    assert time.monotonic() - started < SLACK
    subproblems = split(problem, tasks=3)
    past = time.monotonic()
    with pytest.raises(LimitReached):
        resized(problem, subproblems, deadline=past)
    with pytest.raises(LimitReached):
        split_further(problem, subproblems[0], 10, deadline=past)
    with pytest.raises(LimitReached) as stop:
        queens(3_000, deadline=time.monotonic() + 0.3)
    # the options built before the deadline: a share of the 9,000,000 that the load decides
    assert stop.value.reason == "timeout" and 0 <= stop.value.stats.nodes < 3_000**2
    assert queens(8, deadline=time.monotonic() + 60).count() == 92
    with pytest.raises(UsageError, match="deadline"):
        split(problem, tasks=2, deadline=float("nan"))


def test_a_split_has_its_grace_in_cpu_time_whatever_the_deadline() -> None:
    """With ``grace``, a split past its deadline still runs that many seconds of its
    CPU time: one that needs less is made in full, the same as with no deadline; one
    that needs more stops at the deadline once it has spent them."""
    problem = queens_problem(8)
    past = time.monotonic() - 1
    with pytest.raises(LimitReached):
        split(problem, tasks=6, deadline=past)
    assert split(problem, tasks=6, deadline=past, grace=60) == split(problem, tasks=6)
    deep = independent(2_000)
    spent = time.thread_time()
    with pytest.raises(LimitReached) as stop:
        split(deep, tasks=MAX_TASKS, deadline=past, grace=0.2)
    assert time.thread_time() - spent >= 0.2 and stop.value.reason == "timeout"
    for wrong in (-1, math.inf, math.nan, True, "1"):
        with pytest.raises(UsageError, match="grace"):
            split(problem, tasks=6, grace=wrong)  # type: ignore[arg-type]


def test_a_checkpointed_count_stopped_at_once_keeps_its_split_on_a_busy_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--timeout 0`` with ``--checkpoint`` leaves the subproblems of a small split in
    the checkpoint even when the clock's grace is spent before the split starts (a busy
    machine: a CI run once stopped queens8's 6-millisecond split at half a second); its
    grace in CPU time carries it."""
    from excover.main import main
    from excover.solving import checkpointed

    monkeypatch.setattr(checkpointed, "_split_deadline", lambda deadline: deadline)
    state = tmp_path / "state.json"
    assert main(["count", str(QUEENS8), "--checkpoint", str(state), "--timeout", "0"]) == 1
    saved = json.loads(state.read_text())
    assert len(saved["subproblems"]) == 6 and not saved["done"]
    assert "0 of 6 subproblems counted" in capsys.readouterr().err


def test_workers_and_tasks_are_bounded() -> None:
    """At most WORKERS_PER_CPU processes per CPU (the API's check, every process pool's
    and the command line's help agree) and at most MAX_TASKS subproblems."""
    most = workers.most_workers()
    assert workers.check_workers(most) == most
    with pytest.raises(UsageError, match="at most"):
        workers.check_workers(most + 1)
    with pytest.raises(UsageError, match="at most"):
        queens_problem(4).count(workers=most + 1)
    with pytest.raises(UsageError, match="at most"):
        split(queens_problem(4), tasks=MAX_TASKS + 1)
    assert f"at most {workers.WORKERS_PER_CPU} per CPU" in common.SEARCH_FLAGS["workers"].meaning


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "DEEP", "--tasks", "4"],
        ["count", "DEEP", "--tasks", "1000000"],
        ["count", "DEEP", "--workers", "2"],
        ["queens", "5000"],
        ["queens", "5000", "--count", "--json"],
    ],
    ids=["tasks-4", "tasks-1e6", "workers-2", "queens", "queens-count-json"],
)
def test_timeout_covers_the_split_and_the_build(deep: Path, argv: list[str]) -> None:
    """Each command of issue 61's item 6 ends at --timeout with exit status 1, a partial
    result (a count of 0, or no placement) and the mark of a partial result."""
    limit = 1.0
    argv = [str(deep) if arg == "DEEP" else arg for arg in argv]
    out, err = ended(excover(*argv, "--timeout", str(limit)), limit + SLACK)
    assert "stopped by --timeout" in err and "the result is partial" in err, err
    if "--json" in argv:
        document = json.loads(out)
        assert document["complete"] is False and document["stopped_by"] == "timeout"
        assert document["count"] == 0
    elif argv[0] == "count":
        assert out == "0\n"
    else:
        assert out == ""


def test_workers_and_tasks_beyond_their_bounds_are_usage_errors(deep: Path) -> None:
    for flag, value in (("--workers", "100000"), ("--tasks", "10000000")):
        process = excover("count", str(deep), flag, value)
        out, err = ended(process, SLACK)
        assert process.returncode == 2
        assert f"argument {flag}: must be at most" in err and out == ""


def test_ctrl_c_while_the_problem_is_split(deep: Path) -> None:
    """Ctrl-C while a count is being cut into subproblems: exit 130 at once, a count of
    0 printed as partial."""
    process = excover("count", str(deep), "--tasks", "1000000")
    wait_until_busy(process, cpu=2.0)  # reading 30,000 options, then the split
    process.send_signal(signal.SIGINT)
    out, err = ended(process, SLACK)
    assert process.returncode == 130
    assert out == "0\n" and "interrupted while cutting the problem" in err


def test_ctrl_c_on_one_process_keeps_the_subproblem_it_finished(tmp_path: Path) -> None:
    """A checkpointed count on one process: Ctrl-C while a long subproblem runs stops it
    at once (exit 130), and the subproblem finished before it is in the checkpoint.

    The problem is the 16 queens beside an item ``x`` whose first option covers every
    row and column at once: its first branch has one solution, its second is the long
    count of the 16 queens. The checkpoint is prepared with the first branch the bigger
    by its (estimated) size, so that the run counts it first."""
    board = queens_problem(16)
    problem = ExactCover(primary=["x", *board.primary_items], secondary=board.secondary_items)
    problem.add_option(["x", *board.primary_items])
    problem.add_option(["x"])
    for option in range(board.n_options):
        problem.add_option(board.option_items(option))
    path = tmp_path / "x16.dlx"
    problem.write(path)
    problem = ExactCover.read(path)
    quick, long = split(problem, depth=1)
    assert quick.path == (0,) and long.path == (1,)
    state = tmp_path / "state.json"
    subproblems = [replace(quick, size=1e12), replace(long, size=1.0)]
    Checkpoint(state, fingerprint(problem), "search", subproblems).save()

    process = excover(
        "count", str(path), "--method", "search", "--engine", "dlx", "--checkpoint", str(state),
        "--checkpoint-every", "0",
    )  # fmt: skip
    deadline = time.monotonic() + SLACK
    while True:  # until the checkpoint records the first subproblem
        loaded = Checkpoint.load(state, problem, "search")
        if loaded is not None and loaded.done:
            break
        assert process.poll() is None and time.monotonic() < deadline, "no subproblem done"
        time.sleep(0.05)
    time.sleep(0.3)  # the 16 queens now run
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = ended(process, SLACK)
    assert process.returncode == 130, err
    assert time.monotonic() - sent < SLACK / 3  # the 16 queens take far longer by dlx
    assert out == "1\n"
    # the long subproblem may have been cut into parts as it ran (excover.parallel.local)
    assert re.search(r"interrupted with 1 of \d+ subproblems counted", err), err
    kept = Checkpoint.load(state, problem, "search")
    assert kept is not None and kept.done == {0: (1, kept.done[0][1])} and kept.count == 1
