"""Faults for the cluster tests and the fault benchmark: a local Dask cluster of two
worker processes whose processes must all be gone when it closes, and the faults done to
it while a :class:`~excover.parallel.cluster.ClusterRun` counts (importable as ``faults``
from every test module, and from ``benchmarks/cluster_faults.py``)."""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psutil
from distributed import Client, LocalCluster

from excover.parallel.cluster import ClusterRun

__all__ = ["busy_worker", "drive", "kill_worker", "local_cluster", "stop_worker"]

#: Seconds the processes of a closed cluster get to end before they count as orphans.
END_SECONDS = 15.0


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[Client]:
    """A client of a new local cluster of ``workers`` one-thread worker processes. On
    exit the cluster is closed and every process it started (nannies and workers, first
    or restarted) must end within :data:`END_SECONDS`: one still there is an
    AssertionError naming it."""
    me = psutil.Process()
    before = {child.pid for child in me.children(recursive=True)}
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    )
    started: set[int] = set()
    try:
        client = Client(cluster)  # type: ignore[no-untyped-call]
        try:
            yield client
            started = {child.pid for child in me.children(recursive=True)} - before
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        cluster.close()
    _check_ended(started)


def _check_ended(pids: set[int]) -> None:
    """Fail when any of ``pids`` is still running after :data:`END_SECONDS`."""
    until = time.monotonic() + END_SECONDS
    alive = set(pids)
    while alive and time.monotonic() < until:
        alive = {pid for pid in alive if _running(pid)}
        time.sleep(0.1)
    assert not alive, f"processes left after the cluster closed: {_named(alive)}"


def _running(pid: int) -> bool:
    """True when ``pid`` runs and is not multiprocessing's resource tracker (one per
    parent process, started with the first spawned child and ending with the parent: it
    belongs to this process, not to the cluster)."""
    try:
        process = psutil.Process(pid)
        command = " ".join(process.cmdline())
        return process.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in command
    except psutil.NoSuchProcess:
        return False


def _named(pids: set[int]) -> list[str]:
    """The process ids with their command lines."""
    named = []
    for pid in sorted(pids):
        try:
            named.append(f"{pid} {' '.join(psutil.Process(pid).cmdline())[:120]}")
        except psutil.NoSuchProcess:
            named.append(str(pid))
    return named


def busy_worker(client: Client) -> tuple[str, int] | None:
    """The address and process id of a worker running a task now, if any."""
    for address, keys in client.processing().items():  # type: ignore[no-untyped-call]
        if keys:
            pids = client.run(os.getpid, workers=[address], on_error="ignore")
            if address in pids:
                return address, int(pids[address])
    return None


def kill_worker(client: Client) -> int | None:
    """kill -9 a worker process in the middle of a task; its process id (None when no
    worker runs a task now)."""
    busy = busy_worker(client)
    if busy is not None:
        os.kill(busy[1], signal.SIGKILL)
    return None if busy is None else busy[1]


def stop_worker(client: Client) -> int | None:
    """Freeze (SIGSTOP) a worker process in the middle of a task, a worker that hangs:
    it neither returns nor dies. Its process id, for :func:`os.kill` with SIGCONT (None
    when no worker runs a task now)."""
    busy = busy_worker(client)
    if busy is not None:
        os.kill(busy[1], signal.SIGSTOP)
    return None if busy is None else busy[1]


def drive(run: ClusterRun, after: int, fault: Callable[[], int | None]) -> int | None:
    """Run ``run`` to its end, doing ``fault`` once, at the first tick when ``after``
    results are in its ledger and ``fault`` finds its target (it returns None while it
    does not). What ``fault`` returned, None if it never fired."""
    fired: int | None = None
    for _ in run.steps():
        if fired is None and len(run.ledger.done) >= after:
            fired = fault()
    return fired
