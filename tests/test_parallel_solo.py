"""A count given workers runs alone first and fans out only when it is long
(:func:`excover.parallel.run._count_by_shares`): a short count starts no process, and
a long one counts exactly the same whenever it fans out (at once, or after some shares
counted here), the shares not started taken by the workers or back by this process."""

from __future__ import annotations

import os

import pytest
from budget import examples
from builders import Instance, Kind, instances
from hypothesis import given, settings
from hypothesis import strategies as st

from excover.parallel import run, workers
from excover.puzzles.queens import queens

KINDS: list[Kind] = ["X", "XCC"]  # the problems the shares' bit-parallel engine runs


def test_a_short_count_on_workers_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started")

    monkeypatch.setattr(run, "SOLO_SECONDS", 60.0)
    monkeypatch.setattr(workers, "new_pool", no_pool)
    assert queens(8).count(workers=2, method="search", symmetry=False) == 92


@pytest.mark.parametrize("n", [2, 3])
def test_a_count_that_fans_out_at_once_is_exact(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(run, "SOLO_SECONDS", 0.0)
    monkeypatch.setattr(workers, "FULL_CORE", 0.0)
    assert queens(10).count(workers=n, method="search", symmetry=False) == 724


def test_a_count_that_gets_less_than_a_core_stays_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long count whose process gets less than ``FULL_CORE`` of a core (here: never
    enough) starts no workers, whose processes a busy machine would not run, and
    counts alone; so do the parts of a symmetry-broken count."""

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started")

    monkeypatch.setattr(run, "SOLO_SECONDS", 0.001)
    monkeypatch.setattr(workers, "SOLO_SECONDS", 0.0)
    monkeypatch.setattr(workers, "FULL_CORE", 2.0)
    monkeypatch.setattr(workers, "new_pool", no_pool)
    assert queens(11).count(workers=2, method="search", symmetry=False) == 2680
    assert queens(12).count(workers=2) == 14200


@settings(max_examples=examples(24), deadline=None)
@given(
    st.sampled_from(KINDS).flatmap(lambda kind: instances(kind, 10)),
    st.integers(2, 3),
    st.sampled_from([0.0, 60.0]),
)
def test_counts_on_workers_are_the_one_worker_counts(
    instance: Instance, n: int, solo: float
) -> None:
    """The count in shares, fanned out at once (0 s alone) or never (60 s), is the
    brute force's and the one-worker count."""
    problem = instance.build()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(run, "SOLO_SECONDS", solo)
        patch.setattr(workers, "FULL_CORE", 0.0)
        found = problem.count(workers=n, method="search", symmetry=False, engine="bits")
    assert found == len(instance.all_covers()) == problem.count(workers=1, method="search")


@pytest.mark.parametrize("checkpoint", [None, True])
def test_a_count_on_workers_says_the_cpu_time_it_got(checkpoint: bool | None) -> None:
    """The outcome of a count on workers carries the CPU time the run got (this
    process and its workers) and the cores that makes, beside the cores asked for, so
    that a front end can say when the machine gave the run less than it asked."""
    from excover.solving import orchestrate
    from excover.solving.request import api_request

    request = api_request("search", {}, "count", workers=2, symmetry=False, checkpoint=checkpoint)
    outcome = orchestrate.count(queens(10), request)
    assert outcome.count == 724
    stats = outcome.stats
    assert stats["cores_asked"] == 2
    assert stats["cpu_seconds"] >= 0 and stats["cores"] >= 0


def test_the_note_on_cores_got_says_what_the_run_got(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    short = {"cpu_seconds": 1.5, "cores": 0.75, "cores_asked": 2}
    note = workers.cpu_note(short)
    assert note is not None and "1.50 s of CPU time, 0.75 of the 2 cores" in note
    assert workers.cpu_note({**short, "cores": 1.9}) is None  # about what it asked
    assert workers.cpu_note({**short, "cores_asked": 1}) is None  # one worker
    assert workers.cpu_note({"solutions": 3}) is None  # no CPU time measured
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert workers.cpu_note({**short, "cores": 0.95}) is None  # what the machine has
