"""The local run of a checkpoint's subproblems cuts a long task where it runs
(:mod:`excover.parallel.local`): the count stays exact whatever is cut, the checkpoint
with its cuts proves itself when read back, and a run stopped halfway keeps about half
of the search in its checkpoint, where a fixed split kept nothing of a subproblem that
held most of the work.

The cuts are made by the nodes a task walks, not by time: the tests set the engine's
first step to a few nodes and the rule's seconds to 0, so that every task that does not
end within its first step is cut (until its parts cannot be cut), the same way every
run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from budget import examples
from builders import Instance, Kind, instances
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, Search
from excover.parallel import local
from excover.parallel import workers as processes
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.local import LocalRun
from excover.parallel.subproblems import split
from excover.puzzles.queens import queens

KINDS: list[Kind] = ["X", "XCC", "MCC"]


@contextmanager
def cutting_eagerly() -> Iterator[None]:
    """Within the block, every task that has not ended after its first step of 16 nodes
    is cut (and a task is cut for idle workers at once)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local, "FIRST_STEP", 16)
        patch.setattr(local, "LOOK", 0.0)
        patch.setattr(local, "CUT_SHARE", 0.0)
        patch.setattr(local, "LONG", 0.0)
        patch.setattr(local, "SPLIT_AFTER", 1e-9)
        yield


@pytest.fixture
def eager() -> Iterator[None]:
    """:func:`cutting_eagerly` for the whole test."""
    with cutting_eagerly():
        yield


def run(run_: LocalRun, stop_at: int | None = None) -> int:
    """Drive ``run_`` as a count does (each complete result into its ledger, unless a
    cut settled it); with ``stop_at``, stop it (as Ctrl-C does) once the nodes walked
    (finished, stopped, and posted by the task running) reach that many. The nodes
    walked."""
    ledger = run_.ledger
    walked = 0
    steps = run_.steps()
    try:
        for step in steps:
            if step is not None:
                index, result = step
                walked += result.nodes
                if result.complete and not ledger.settled(index):
                    ledger.done[index] = (result.total, result.nodes)
            running = sum(run_.board.read(i).nodes for i in ledger.open_leaves())
            if stop_at is not None and walked + running >= stop_at:
                break
    finally:
        steps.close()
    return walked


def one_sided(n: int) -> ExactCover:
    """The ``n`` queens beside an item ``x`` whose first option covers every row and
    column at once: its first branch has one solution, its second is the whole count
    of the ``n`` queens (a subproblem holding all but a node of the work)."""
    board = queens(n)
    problem = ExactCover(primary=["x", *board.primary_items], secondary=board.secondary_items)
    problem.add_option(["x", *board.primary_items])
    problem.add_option(["x"])
    for option in range(board.n_options):
        problem.add_option(board.option_items(option))
    return problem


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 10)), st.integers(1, 6))
def test_cuts_keep_the_count_exact(instance: Instance, tasks: int) -> None:
    """Whatever is cut, the count is the brute force's."""
    problem = instance.build()
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, tasks=tasks))
    with cutting_eagerly():
        run(LocalRun(problem, ledger, "search", {"engine": "dlx"}))
    assert ledger.complete
    assert ledger.count == len(instance.all_covers())


def test_a_checkpoint_with_cuts_reads_back(eager: None, tmp_path: Path) -> None:
    """A checkpoint with cuts (each part a node of the search tree inside the
    subproblem it was cut from) proves itself when read back."""
    problem = queens(8)
    path = tmp_path / "cuts.json"
    ledger = Checkpoint(path, fingerprint(problem), "search", split(problem, tasks=2))
    stepped = LocalRun(problem, ledger, "search")
    run(stepped)
    assert stepped.cuts > 0 and ledger.split
    ledger.save()
    again = Checkpoint.load(path, problem, "search")
    assert again is not None and again.complete and again.count == 92 == ledger.count


def test_a_stop_halfway_keeps_about_half_of_the_work(
    eager: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A count of a subproblem holding all the work, stopped once half the search's
    nodes are walked: the checkpoint keeps a good part of them (parts finished), and a run
    resumed from it gives the exact count. Without cuts it kept one node: the quick
    branch."""
    monkeypatch.setattr(local, "FIRST_STEP", 512)  # the parts are cut down to about this
    problem = one_sided(11)
    whole = Search(problem, engine="dlx")
    total = whole.count()
    nodes = whole.stats.nodes
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, depth=1))
    assert len(ledger.subproblems) == 2
    run(LocalRun(problem, ledger, "search", {"engine": "dlx"}), stop_at=nodes // 2)
    assert not ledger.complete and ledger.split
    # cut as eagerly as here, each part of more than 512 nodes costs its first 512
    assert ledger.nodes >= 0.25 * nodes
    run(LocalRun(problem, ledger, "search", {"engine": "dlx"}))
    assert ledger.complete and ledger.count == total == 2680 + 1


@pytest.mark.parametrize("workers", [1, 2])
def test_a_long_task_is_cut_for_the_workers(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """On a pool too, a long task is cut (by the share its worker posts) and the count
    stays exact. The rule as it runs, with shorter times."""
    monkeypatch.setattr(local, "LOOK", 0.0)
    monkeypatch.setattr(local, "CUT_SHARE", 0.0)
    monkeypatch.setattr(local, "LONG", 0.1)
    monkeypatch.setattr(processes, "FULL_CORE", 0.0)  # the pool, however busy the machine
    problem = one_sided(14)  # about half a second of dancing links
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, depth=1))
    stepped = LocalRun(problem, ledger, "search", {"engine": "dlx"}, workers=workers)
    run(stepped)
    assert ledger.complete and ledger.count == 365596 + 1
    assert stepped.cuts > 0


def test_a_short_run_on_workers_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several workers asked for, a run that ends within its time alone in this
    process (:data:`~excover.parallel.workers.SOLO_SECONDS`) starts no pool; one that
    does not goes on on the pool, the task it paused counted there, exactly."""
    problem = queens(8)

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started")

    with monkeypatch.context() as patch:
        patch.setattr(processes, "SOLO_SECONDS", 60.0)
        patch.setattr(processes, "new_pool", no_pool)
        ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, tasks=12))
        run(LocalRun(problem, ledger, "search", workers=2))
        assert ledger.complete and ledger.count == 92
    monkeypatch.setattr(processes, "SOLO_SECONDS", 1e-9)
    monkeypatch.setattr(processes, "FULL_CORE", 0.0)  # however busy the machine
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, tasks=12))
    run(LocalRun(problem, ledger, "search", workers=2))
    assert ledger.complete and ledger.count == 92


def test_a_subproblem_holding_most_of_the_search_is_cut_before_it_runs() -> None:
    """One worker: a subproblem of the split estimated to hold more than
    :data:`~excover.parallel.local.PRECUT_SHARE` of the search is cut before it runs,
    so that no step of it is lost to the cut (no task stopped, no node walked twice),
    and the parts land in the ledger one by one; the count is exact."""
    problem = one_sided(11)
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, depth=1))
    big = max(range(len(ledger.subproblems)), key=lambda i: ledger.subproblems[i].size)
    assert ledger.subproblems[big].size > local.PRECUT_SHARE * ledger.total_size()
    stepped = LocalRun(problem, ledger, "search", {"engine": "dlx"})
    walked = run(stepped)
    assert big in ledger.split and big not in ledger.done and stepped.cuts >= 1
    assert all(part in ledger.done or part in ledger.split for part in ledger.split[big])
    assert ledger.complete and ledger.count == 2680 + 1
    assert walked == ledger.nodes  # every task ran to its end: nothing counted twice


def test_nothing_is_cut_before_a_run_past_its_deadline() -> None:
    """A run whose deadline has passed (``--timeout 0``) cuts nothing before it runs:
    its searches stop at once, and the ledger keeps its subproblems whole."""
    problem = one_sided(11)
    ledger = Checkpoint(None, fingerprint(problem), "search", split(problem, depth=1))
    late = time.monotonic() - 1.0
    stepped = LocalRun(problem, ledger, "search", {"engine": "dlx"}, deadline=late)
    run(stepped)
    assert stepped.cuts == 0 and not ledger.split and not ledger.done
