"""Counting on a Dask cluster with things going wrong: workers killed and hung, the client
killed and resumed, a dominant subproblem cut for idle workers; and the ledger of a run
with cuts, written, read back and refused when damaged.

Real processes throughout (a ``LocalCluster`` of two one-thread workers, see
``faults.py``), and no process left when a cluster closes. A few seeded fault points
here; ``benchmarks/cluster_faults.py`` runs 20 of each."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Whether Dask is there, without importing it: every pytest-xdist worker collects this
# module, and the default run, which leaves its slow tests out, need not pay a second each.
if importlib.util.find_spec("distributed") is None:
    pytest.skip("could not import 'distributed'", allow_module_level=True)

from faults import ProcessCluster, drive, kill_worker, local_cluster, stop_worker
from runs import ended

from excover import ExactCover, UsageError
from excover.cli import cluster as parallel_cli
from excover.main import main
from excover.parallel import count, split
from excover.parallel.checkpoint import Checkpoint, fingerprint, within
from excover.parallel.cluster import BIG_SHARE, ClusterRun, even_out, open_ledger
from excover.parallel.subproblems import Subproblem, check_partition, resized, split_further

KNUTH = Path(__file__).parent / "data" / "knuth"

#: Real Dask clusters, started, faulted and restarted: seconds each, slow tests (-m slow).
#: The default run counts on a local cluster in test_parallel.py.
pytestmark = pytest.mark.slow

#: Dancing links proper (not the bit-parallel engine), so that each of a dozen
#: subproblems of 14 queens runs about a tenth of a second: long enough to be hit.
SLOW = {"engine": "dlx"}


def knuth(name: str) -> ExactCover:
    return ExactCover.from_dlx((KNUTH / f"{name}.dlx").read_text())


@pytest.fixture(scope="module")
def queens() -> ExactCover:
    """Knuth's 14 queens problem (365596 solutions)."""
    return knuth("queens14")


@pytest.fixture(scope="module")
def queens_count(queens: ExactCover) -> int:
    """Its plain count, by one search in this process."""
    return queens.count(method="search")


def ledger(problem: ExactCover, tasks: int, path: Path | None = None) -> Checkpoint:
    return Checkpoint(path, fingerprint(problem), "search", split(problem, tasks=tasks))


# --------------------------------------------------------------- cutting a subproblem further


@pytest.mark.parametrize("name", ["pento3x20", "queens10"])
def test_parts_of_subproblems_partition_them(name: str) -> None:
    """Cut random subproblems (rest ones too) again and again: each cut's parts lie in
    what they were cut from, the list stays a partition, and the counts add up."""
    problem = knuth(name)
    subs = split(problem, tasks=5)
    rng = random.Random(name)
    for _ in range(6):
        index = rng.randrange(len(subs))
        parts = split_further(problem, subs[index], 4)
        assert parts == [subs[index]] or all(within(part, subs[index]) for part in parts)
        subs[index : index + 1] = parts
        check_partition(problem, subs)
    assert any(sub.rest for sub in subs)
    assert sum(sub.reduce(problem)[0].count() for sub in subs) == problem.count()


def test_a_new_ledger_has_no_dominant_subproblem() -> None:
    """The split of pento6x10 into 12 leaves one subproblem estimated (afresh) at more
    than half the search, which one worker would count alone to the end; even_out cuts
    it (and any other above 1 / (BIG_SHARE x threads) of the search), the list stays a
    partition, and the counts still add up."""
    problem = knuth("pento6x10")
    subs = resized(problem, split(problem, tasks=12))
    evened = even_out(problem, subs, threads=2)
    check_partition(problem, evened)

    def biggest(found: list[Subproblem]) -> float:
        return max(sub.size for sub in found) / sum(sub.size for sub in found)

    assert biggest(subs) > 0.5 and len(evened) > len(subs)
    assert biggest(evened) <= 1 / (BIG_SHARE * 2)
    assert sum(sub.reduce(problem)[0].count() for sub in evened) == 9356


def test_a_subproblem_of_another_tree_is_not_cut() -> None:
    problem = knuth("queens8")
    alien = Subproblem((5,), (), (0,))
    with pytest.raises(UsageError, match="not a node of this search tree"):
        split_further(problem, alien, 4)


# --------------------------------------------------------------- the ledger with cuts


def test_a_subproblem_counted_whole_and_in_parts_counts_once() -> None:
    """A subproblem cut into parts whose own task finished too counts once: its own
    result stands, and the parts' results are not added."""
    problem = knuth("queens10")
    state = ledger(problem, 4)
    whole = [sub.reduce(problem)[0].count() for sub in state.subproblems]
    parts = state.cut(0, split_further(problem, state.subproblems[0], 3))
    for index in range(1, 4):
        state.done[index] = (whole[index], 0)
    state.done[parts[0]] = (state.subproblems[parts[0]].reduce(problem)[0].count(), 0)
    assert not state.complete and state.open_leaves() == parts[1:]
    state.done[0] = (whole[0], 0)
    assert state.complete and state.open_leaves() == []
    assert state.count == problem.count() == 724


def test_a_ledger_with_cuts_is_written_and_read_back(tmp_path: Path) -> None:
    problem = knuth("queens10")
    path = tmp_path / "ledger.json"
    state = ledger(problem, 4, path)
    parts = state.cut(1, split_further(problem, state.subproblems[1], 3))
    state.cut(parts[-1], split_further(problem, state.subproblems[parts[-1]], 3))
    for index in state.open_leaves():
        state.done[index] = (state.subproblems[index].reduce(problem)[0].count(), 0)
    state.save()
    again = Checkpoint.load(path, problem, "search")
    assert again is not None and again.split == state.split
    assert again.complete and again.count == problem.count()


def resealed(path: Path, change: dict[str, object]) -> None:
    """Change a saved ledger and give it a matching checksum (a damage the checksum
    alone would not catch)."""
    from excover.parallel.checkpoint import checksum

    data = json.loads(path.read_text())
    data.pop("checksum")
    data.update(change)
    path.write_text(json.dumps({**data, "checksum": checksum(data)}))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ({"split": {"0": [2, 5]}}, "no subproblem covers|outside it|below another"),
        ({"split": {"0": [5, 5]}}, "bad split"),
        ({"split": {"9": [1, 2]}}, "bad split|no subproblem covers|outside it|below another"),
        ({"split": []}, "bad split"),
        ({"version": 7}, "not an excover-checkpoint version 1 or 2"),
    ],
)
def test_a_damaged_ledger_is_refused(
    tmp_path: Path, damage: dict[str, object], message: str
) -> None:
    problem = knuth("queens10")
    path = tmp_path / "ledger.json"
    state = ledger(problem, 4, path)
    state.cut(0, split_further(problem, state.subproblems[0], 3))
    state.save()
    resealed(path, damage)
    with pytest.raises(UsageError, match=message):
        Checkpoint.load(path, problem, "search")


def test_a_torn_ledger_is_refused(tmp_path: Path) -> None:
    problem = knuth("queens10")
    path = tmp_path / "ledger.json"
    state = ledger(problem, 4, path)
    state.cut(0, split_further(problem, state.subproblems[0], 3))
    state.save()
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    with pytest.raises(UsageError, match="bad JSON"):
        Checkpoint.load(path, problem, "search")


# --------------------------------------------------------------- faults on a real cluster


def test_the_api_counts_on_a_client_and_resumes(tmp_path: Path) -> None:
    queens = knuth("queens11")
    path = tmp_path / "ledger.json"
    with local_cluster() as client:
        assert count(queens, executor=client, checkpoint=path, tasks=8) == queens.count()
        state = Checkpoint.load(path, queens, "search")
        assert state is not None and state.complete
        assert count(queens, executor=client, checkpoint=path) == queens.count()
    with pytest.raises(UsageError, match="checkpoint= goes with"):
        count(queens, workers=2, checkpoint=path)


def test_either_front_end_resumes_the_other_s_ledger(tmp_path: Path) -> None:
    """A count asked as ``auto`` through the API and again through ``excover count --dask``
    (whose default method is auto) is one count: the ledger names the method as asked, so
    the command resumes what the API saved, and the API what the command saved."""
    file = KNUTH / "queens12.dlx"
    queens = knuth("queens12")
    with local_cluster() as client:
        address = str(client.scheduler_info()["address"])
        for first in ("api", "cli"):
            path = tmp_path / f"{first}.json"
            command = [sys.executable, "-m", "excover", "count", str(file), "--dask", address]
            command += ["--checkpoint", str(path), "--tasks", "8", "--json"]
            if first == "api":
                assert count(queens, "auto", executor=client, checkpoint=path, tasks=8) == 14200
                again = subprocess.run(command, capture_output=True, text=True, timeout=120)
                assert again.returncode == 0, again.stderr
                assert "resuming from" in again.stderr
                assert int(json.loads(again.stdout)["count"]) == 14200
            else:
                started = subprocess.run(command, capture_output=True, text=True, timeout=120)
                assert started.returncode == 0, started.stderr
                assert count(queens, "auto", executor=client, checkpoint=path) == 14200
            state = Checkpoint.load(path, queens, "auto")
            assert state is not None and state.complete


@pytest.mark.parametrize("after", [3])
def test_a_worker_killed_mid_task(queens: ExactCover, queens_count: int, after: int) -> None:
    with local_cluster() as client:
        run = ClusterRun(queens, client, ledger(queens, 12), options=SLOW, split_after=None)
        killed = drive(run, after, lambda: kill_worker(client))
        assert killed is not None
        assert run.ledger.complete and run.ledger.count == queens_count


@pytest.mark.parametrize("after", [2])
def test_a_hung_worker(queens: ExactCover, queens_count: int, after: int) -> None:
    """A worker frozen mid-task: its task is taken for hung and counted elsewhere; its
    own result, when it thaws, is not counted again."""
    with local_cluster() as client:
        run = ClusterRun(
            queens, client, ledger(queens, 12), options=SLOW, task_timeout=2.0, split_after=None
        )
        frozen: list[int] = []

        def freeze() -> int | None:
            pid = stop_worker(client)
            frozen.extend([] if pid is None else [pid])
            return pid

        try:
            assert drive(run, after, freeze) is not None
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        assert run.stats.hung >= 1
        assert run.ledger.complete and run.ledger.count == queens_count


def test_a_dominant_subproblem_is_cut_for_the_idle_worker(tmp_path: Path) -> None:
    """One subproblem, the whole search: the second worker is idle, so the subproblem is
    cut and both workers count parts. The run is stopped after the cut, and a new run
    resumed from the saved ledger ends with the exact total. The 6x10 pentominoes by
    dancing links proper: seconds of search even on a fast machine, so the whole task is
    cut (at once: ``split_after=0``) and stopped long before it could end by itself."""
    pentominoes = knuth("pento6x10")
    path = tmp_path / "ledger.json"
    whole = Checkpoint(path, fingerprint(pentominoes), "search", [Subproblem(())])
    with local_cluster() as client:
        first = ClusterRun(pentominoes, client, whole, options=SLOW, split_after=0.0)
        steps = first.steps()
        for _ in steps:
            if whole.split and whole.done:
                break
        steps.close()
        whole.save()
        resumed = open_ledger(pentominoes, "search", client, path, None)
        assert resumed.split == whole.split and resumed.done == whole.done
        assert 0 not in resumed.done  # the whole task was stopped, not counted
        second = ClusterRun(pentominoes, client, resumed, options=SLOW, split_after=0.5)
        for _ in second.steps():
            pass
        assert resumed.complete and resumed.count == pentominoes.count()
        assert len(first.stats.workers | second.stats.workers) == 2


def test_the_bar_of_a_cluster_run_moves_on_through_a_cut() -> None:
    """The bar and the time left of a real run whose one subproblem is cut for the idle
    worker: the bar never goes back, stays below 1 until the count is complete (the
    share carried over from the cut task, then its parts), and ends at 1; the time left
    is known once a task has finished, and never 0 while the count goes on."""
    pentominoes = knuth("pento6x10")
    whole = Checkpoint(
        None, fingerprint(pentominoes), "search", resized(pentominoes, [Subproblem(())])
    )
    with local_cluster() as client:
        run = ClusterRun(pentominoes, client, whole, options=SLOW, split_after=0.5)
        bars: list[float] = []
        left: list[float | None] = []
        for _ in run.steps():
            bars.append(run.progress())
            left.append(None if whole.complete else run.remaining())
        assert whole.complete and whole.count == pentominoes.count()
    assert run.stats.splits >= 1
    assert bars == sorted(bars) and bars[-1] == 1.0
    assert all(bar < 1.0 for bar in bars[:-1])
    known = [time for time in left if time is not None]
    assert known and all(time > 0 for time in known)
    assert run.carried and all(0.0 <= share < 1.0 for share in run.carried.values())


def test_the_client_killed_and_resumed(queens_count: int, tmp_path: Path) -> None:
    """``excover count --dask`` killed (SIGKILL) once its ledger holds results; the same
    command resumes from the ledger to the exact total."""
    path = tmp_path / "ledger.json"
    with local_cluster() as client:
        address = str(client.scheduler_info()["address"])
        command = [
            sys.executable,
            "-m",
            "excover",
            "count",
            str(KNUTH / "queens14.dlx"),
            "--method",
            "search",
            "--engine",
            "dlx",
            "--dask",
            address,
            "--checkpoint",
            str(path),
            "--checkpoint-every",
            "0",
            "--json",
        ]
        first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        until = time.monotonic() + 60
        while time.monotonic() < until and first.poll() is None:
            state = Checkpoint.load(path, knuth("queens14"), "search") if path.exists() else None
            if state is not None and state.done:
                break
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        ended(first, 10)
        second = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        result = json.loads(second.stdout)
        assert int(result["count"]) == queens_count
        assert result["stats"]["resumed"] >= 1
        assert "resuming from" in second.stderr


def test_cli_refuses_cluster_flags_without_dask(capsys: pytest.CaptureFixture[str]) -> None:
    queens = str(KNUTH / "queens8.dlx")
    assert main(["count", queens, "--workers", "2", "--task-timeout", "5"]) == 2
    assert "--task-timeout goes with --dask" in capsys.readouterr().err
    assert main(["count", queens, "--dask", "tcp://127.0.0.1:9", "--workers", "2"]) == 2
    assert "--workers does not go with --dask" in capsys.readouterr().err


def test_cli_names_an_unreachable_scheduler(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel_cli, "CONNECT_SECONDS", 1)
    queens = str(KNUTH / "queens8.dlx")
    assert main(["count", queens, "--dask", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err


def test_the_scheduler_restarted(queens: ExactCover, queens_count: int) -> None:
    """``dask scheduler`` killed (SIGKILL) mid-run and started again on its port, and its
    workers with it (they end with their scheduler): the client reconnects, the tasks
    lost with the scheduler are counted again, and the total is exact."""
    from distributed import Client

    cluster = ProcessCluster()
    try:
        cluster.start_scheduler()
        cluster.start_workers()
        client = Client(cluster.address, timeout=30)  # type: ignore[no-untyped-call]
        try:
            client.wait_for_workers(2, timeout=60)
            run = ClusterRun(queens, client, ledger(queens, 12), options=SLOW, split_after=None)

            def restart() -> int:
                cluster.kill_scheduler()
                cluster.start_scheduler()
                cluster.start_workers()
                return cluster.port

            assert drive(run, 4, restart) == cluster.port
            assert run.ledger.complete and run.ledger.count == queens_count
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        cluster.close()


def test_the_command_line_default_of_split_after_is_the_library_s() -> None:
    from excover.cli.exact_cover.task_flags import SPLIT_AFTER
    from excover.parallel import cluster

    assert SPLIT_AFTER == cluster.SPLIT_AFTER


def test_timeout_on_a_cluster_keeps_the_ledger(
    queens_count: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--timeout`` stops a cluster count with exit status 1 and the partial count; the
    ledger is saved and the same command without the limit finishes the count."""
    path = tmp_path / "ledger.json"
    with local_cluster() as client:
        command = [
            "count",
            str(KNUTH / "queens14.dlx"),
            "--method",
            "search",
            "--engine",
            "dlx",
            "--dask",
            str(client.scheduler_info()["address"]),
            "--checkpoint",
            str(path),
            "--json",
        ]
        assert main([*command, "--timeout", "0.3"]) == 1
        stopped = json.loads(capsys.readouterr().out)
        assert stopped["complete"] is False and stopped["stopped_by"] == "timeout"
        assert main(command) == 0
        finished = json.loads(capsys.readouterr().out)
        assert int(finished["count"]) == queens_count
        assert Checkpoint.load(path, knuth("queens14"), "search") is not None
