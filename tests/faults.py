"""Faults for the cluster tests and the fault benchmark: a local Dask cluster of two
worker processes whose processes must all be gone when it closes, and the faults done to
it while a :class:`~excover.parallel.cluster.ClusterRun` counts (importable as ``faults``
from every test module, and from ``benchmarks/cluster_faults.py``)."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import psutil

from excover.parallel.cluster import ClusterRun

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "ProcessCluster",
    "busy_worker",
    "drive",
    "free_port",
    "kill_worker",
    "local_cluster",
    "stop_worker",
]

#: Seconds the processes of a closed cluster get to end before they count as orphans.
END_SECONDS = 15.0

#: Seconds a fault looks for a worker running a task (the run waits meanwhile: the tasks
#: handed out just before are starting).
BUSY_SECONDS = 2.0

#: Seconds a scheduler process gets to listen on its port.
START_SECONDS = 30.0


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[Client]:
    """A client of a new local cluster of ``workers`` one-thread worker processes. On
    exit the cluster is closed and every process it started (nannies and workers, first
    or restarted) must end within :data:`END_SECONDS`: one still there is an
    AssertionError naming it. Dask is imported here, not with the module: it takes a
    second, which every pytest-xdist worker collecting the (slow) cluster tests would
    spend for nothing."""
    from distributed import Client, LocalCluster

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


def busy_worker(client: Client, seconds: float = BUSY_SECONDS) -> tuple[str, int] | None:
    """The address and process id of a worker running a task (as the workers
    themselves say), looked for during ``seconds``; None if none was seen."""
    until = time.monotonic() + seconds
    while True:
        tasks = client.run(_RUNNING_TASKS, on_error="ignore")
        for address, (pid, running) in tasks.items():
            if running:
                return str(address), int(pid)
        if time.monotonic() >= until:
            return None
        time.sleep(0.002)


#: In a worker: its process id and the number of tasks it is running. A lambda, which Dask
#: sends by value: workers started by ``dask worker`` cannot import this module.
_RUNNING_TASKS: Callable[[Any], tuple[int, int]] = lambda dask_worker: (  # noqa: E731
    os.getpid(),
    len(dask_worker.state.executing),
)


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


def free_port() -> int:
    """A TCP port of the loopback interface that no one listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ProcessCluster:
    """A cluster as users run it: ``dask scheduler`` and ``dask worker`` processes (run
    as ``python -m distributed.cli.dask_scheduler``, the same program) on
    the loopback interface, each in its own process group, so that the scheduler can be
    killed and started again on the same port. :meth:`close` ends every process it
    started, and fails when one of them (or a child) outlives it."""

    def __init__(self, workers: int = 2) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.workers = workers
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.started: list[subprocess.Popen[bytes]] = []
        self.pids: set[int] = set()

    def _start(self, *argv: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", f"distributed.cli.dask_{argv[0]}", *argv[1:]],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.started.append(process)
        return process

    def start_scheduler(self) -> None:
        """Start ``dask scheduler`` on this cluster's port (and wait until it listens)."""
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"
        )
        until = time.monotonic() + START_SECONDS
        while time.monotonic() < until:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise AssertionError(f"dask scheduler did not listen on {self.port}")

    def start_workers(self) -> None:
        """Start ``dask worker`` with this cluster's worker processes, one thread each."""
        self._start(
            "worker",
            self.address,
            "--nworkers",
            str(self.workers),
            "--nthreads",
            "1",
            "--no-dashboard",
        )

    def kill_scheduler(self) -> None:
        """kill -9 the scheduler (its workers then end by themselves)."""
        assert self.scheduler is not None
        self._note_children()
        os.kill(self.scheduler.pid, signal.SIGKILL)
        self.scheduler.wait()

    def _note_children(self) -> None:
        for process in self.started:
            with contextlib.suppress(psutil.NoSuchProcess):
                found = psutil.Process(process.pid).children(recursive=True)
                self.pids.update(child.pid for child in found)

    def close(self) -> None:
        """End every process started here (their process groups), then check that none
        is left."""
        self._note_children()
        for process in self.started:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=END_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        _check_ended(self.pids | {process.pid for process in self.started})
