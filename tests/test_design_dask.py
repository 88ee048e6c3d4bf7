"""A design search on a Dask cluster (``search(..., executor=client)``, ``excover design
--dask ADDRESS``): on a local cluster of two one-thread worker processes it gives the
report and the ledger outcomes of the same search in this process, resumes a ledger
(its own or another run's) searching nothing twice, stops at a timeout or Ctrl-C with
the ledger kept (the ranges cancelled then sent again at once as new tasks), and needs
nothing but the space's declaration, each worker building the space once; ``workers``
and an executor together, and ``--workers`` with ``--dask``, are refused with the
reason. One cluster serves the module (it starts in a second or two)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from excover.design import (
    Design,
    DesignError,
    Evaluation,
    Goal,
    Report,
    Score,
    SearchProgress,
    search,
    searching,
)
from excover.design import pool as design_pool
from excover.errors import ExcoverError, UsageError
from excover.main import main
from excover.tiling.designs import PackingSpace

if TYPE_CHECKING:
    from distributed import Client

BOX: dict[str, Any] = {"board": "5x2x2", "catalog": "pentacubes", "pieces": 4}
#: A range of the box's candidates with unique designs, quick to search.
STOP = 1500
#: The same search on the command line.
ARGV = ["packing", "--board", "5x2x2", "--catalog", "pentacubes", "--pieces", "4"]
ARGV += ["--range", f"0:{STOP}"]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """A client of a local cluster of two one-thread worker processes (every process it
    started checked gone when it closes: :func:`faults.local_cluster`)."""
    from faults import local_cluster

    with local_cluster(2) as started:
        yield started


@pytest.fixture(scope="module")
def address(client: Client) -> str:
    return str(client.scheduler_info()["address"])


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, dict[int, Any]]:
    """The search in this process, and the outcomes its ledger holds by index."""
    ledger = tmp_path_factory.mktemp("here") / "here.ledger"
    report = search(PackingSpace(**BOX), ledger=ledger, stop=STOP)
    return report, outcomes(ledger)


def figures(report: Report) -> dict[str, Any]:
    """What a report says of the designs (not of the run that made it)."""
    found = report.as_dict()
    for key in ("elapsed", "seconds", "resumed", "ledger", "workers"):
        del found[key]
    return found


def outcomes(ledger: Path) -> dict[int, Any]:
    """The entries of a ledger by index (its lines read as JSON; an index twice fails)."""
    lines = ledger.read_text().splitlines()
    assert "goal" in json.loads(lines[0])  # the header
    found: dict[int, Any] = {}
    for line in lines[1:]:
        done = json.loads(line)
        assert done["to"] - done["from"] == len(done["outcomes"])
        for index, value in enumerate(done["outcomes"], done["from"]):
            assert index not in found, f"index {index} recorded twice"
            found[index] = value
    return found


def test_the_cluster_reports_and_records_what_this_process_does(
    client: Client, reference: tuple[Report, dict[int, Any]], tmp_path: Path
) -> None:
    here, recorded = reference
    assert here.qualifying == 9 and here.designs > 500  # a search worth the test
    ledger = tmp_path / "cluster.ledger"
    seen: list[SearchProgress] = []
    report = search(
        PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client, progress=seen.append
    )
    assert figures(report) == figures(here) and report.complete
    assert report.workers == 2  # the cluster's worker threads
    assert outcomes(ledger) == recorded
    assert len(ledger.read_text().splitlines()) > 3  # several tasks, a line each
    assert (seen[-1].done, seen[-1].total, seen[-1].qualifying) == (STOP, STOP, 9)
    # a Client's executor goes as well as the Client, and a top K ranks as here
    goal = Goal(top=5, by="nodes")
    executor = client.get_executor()  # type: ignore[no-untyped-call]
    ranked = search(PackingSpace(**BOX), goal, stop=STOP, executor=executor)
    assert figures(ranked) == figures(search(PackingSpace(**BOX), goal, stop=STOP))


def test_a_resumed_run_on_the_cluster_searches_nothing_twice(
    client: Client, reference: tuple[Report, dict[int, Any]], tmp_path: Path
) -> None:
    here, recorded = reference
    ledger = tmp_path / "run.ledger"
    part = search(PackingSpace(**BOX), ledger=ledger, stop=600)  # in this process
    rest = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client)
    assert figures(rest) == figures(here) and rest.resumed == part.designs
    assert outcomes(ledger) == recorded
    whole = ledger.read_bytes()
    again = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client)
    assert figures(again) == figures(here)
    assert again.resumed == again.designs == here.designs  # no design searched anew
    assert ledger.read_bytes() == whole  # and nothing written


def test_a_timeout_or_ctrl_c_on_the_cluster_keeps_the_ledger(
    client: Client,
    reference: tuple[Report, dict[int, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here, recorded = reference
    # Every range that comes back is shown, so that Ctrl-C falls inside the run however
    # fast the cluster is (at the default pace, a quick run's first progress could be its
    # final one, after the last range: seen once, on Python 3.12).
    monkeypatch.setattr(searching, "PROGRESS_EVERY", 0.0)
    ledger = tmp_path / "run.ledger"
    stopped = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client, timeout=0)
    assert stopped.stopped_by == "timeout" and stopped.candidates == 0

    def ctrl_c(seen: SearchProgress) -> None:
        if seen.done > 0 and not pressed:
            pressed.append(seen.done)
            raise KeyboardInterrupt

    pressed: list[int] = []
    broken = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client, progress=ctrl_c)
    assert broken.stopped_by == "interrupt" and 0 < broken.candidates < STOP
    report = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, executor=client)
    assert figures(report) == figures(here) and report.resumed == broken.designs
    assert outcomes(ledger) == recorded


class Slow(PackingSpace):
    """A packing space whose designs take :data:`SLOW` seconds each at least (the
    workers import it from this module, the cluster's processes sharing its path)."""

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        time.sleep(SLOW)
        return super().evaluate(design, goal, beat, deadline)


#: Seconds a design of :class:`Slow` takes at least.
SLOW = 0.05


def test_a_range_cancelled_by_ctrl_c_is_searched_again_at_once(
    client: Client, reference: tuple[Report, dict[int, Any]]
) -> None:
    """Ctrl-C as the first task comes back cancels the others; the next run sends the
    same first ranges at once, and they are new tasks, not the ones cancelled (Dask
    names a task by its arguments, and a name cancelled a moment ago comes back
    cancelled)."""

    def ctrl_c(seen: SearchProgress) -> None:
        if not pressed:
            pressed.append(seen.done)
            raise KeyboardInterrupt

    pressed: list[int] = []
    space = Slow(**BOX)
    direct = search(PackingSpace(**BOX), stop=16)
    for _ in range(3):  # a name cancelled comes back so about every other time
        pressed.clear()
        broken = search(space, stop=16, executor=client, progress=ctrl_c)
        report = search(space, stop=16, executor=client)
        assert broken.stopped_by == "interrupt" and broken.candidates < 16
        assert figures(report) == figures(direct) and report.complete
    # a worker keeps this space apart from the packing space it declares itself as
    # (or the other tests' packings would take 50 ms a design there)
    declared = space.declaration()
    assert declared == PackingSpace(**BOX).declaration()
    assert design_pool._digest(Slow, declared) != design_pool._digest(PackingSpace, declared)


def test_the_tasks_carry_the_declaration_and_each_worker_builds_the_space_once(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A space that cannot be pickled is searched all the same (the tasks carry its
    declaration); each worker keeps the space it built, by the digest of its class and
    declaration."""

    def refused(self: object) -> object:
        raise TypeError("a design space is not sent to the workers")

    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    monkeypatch.setattr(PackingSpace, "__reduce__", refused)
    report = search(space, executor=client)
    assert (report.designs, report.qualifying) == (495, 9)
    digest = design_pool._digest(PackingSpace, space.declaration())
    kept = client.run(lambda: list(design_pool._SPACES))
    assert any(digest in digests for digests in kept.values())


def test_the_command_prints_on_the_cluster_what_it_prints_here(
    address: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    here = run(capsys, *ARGV)
    cluster = run(capsys, *ARGV, "--dask", address)
    assert cluster[:2] == here[:2] and here[0] == 0
    assert f"on the Dask cluster at {address} (2 worker threads)" in cluster[2]
    ledger = tmp_path / "run.ledger"
    first = run(capsys, *ARGV, "--dask", address, "--ledger", str(ledger), "--json")
    again = run(capsys, *ARGV, "--dask", address, "--ledger", str(ledger), "--json")
    document, resumed = json.loads(first[1]), json.loads(again[1])
    assert first[0] == again[0] == 0 and document["workers"] == 2
    assert resumed["resumed"] == resumed["designs"] == document["designs"]
    declaration = tmp_path / "box.toml"  # [run] workers gives way to --dask
    declaration.write_text(
        'kind = "packing"\nboard = "5x2x2"\ncatalog = "pentacubes"\npieces = 4\n'
        f"[run]\nworkers = 2\nstop = {STOP}\n"
    )
    status, out, _ = run(capsys, str(declaration), "--dask", address)
    assert (status, out) == here[:2]


def test_workers_and_an_executor_do_not_go_together(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    space = PackingSpace(**BOX)
    with ThreadPoolExecutor(2) as threads:
        for workers in (1, 2):
            with pytest.raises(DesignError, match="does not go with executor=") as refused:
                search(space, workers=workers, executor=threads)
            assert isinstance(refused.value, ExcoverError)
        report = search(space, stop=300, executor=threads)  # any executor goes
        assert report.complete and report.workers == 2
    with pytest.raises(UsageError, match="executor must be a concurrent"):
        search(space, executor="tcp://127.0.0.1:8786")
    status, out, err = run(capsys, *ARGV, "--dask", "tcp://127.0.0.1:1", "--workers", "2")
    assert (status, out) == (2, "") and "--workers does not go with --dask" in err
    from excover.cli import cluster as parallel_cli

    monkeypatch.setattr(parallel_cli, "CONNECT_SECONDS", 1)
    status, out, err = run(capsys, *ARGV, "--dask", "tcp://127.0.0.1:9")
    assert (status, out) == (2, "") and "cannot reach the Dask scheduler" in err


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["design", *argv])
    out, err = capsys.readouterr()
    return status, out, err
