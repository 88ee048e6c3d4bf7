"""Shared pytest configuration.

Hypothesis runs under one of two profiles, both without per-example deadlines and without
the "too slow" health check (the suite shares a small machine with other work, and a slow
example is not a wrong one):

- ``ci``, chosen when the ``CI`` environment variable is set (``.ci/run`` exports
  ``CI=true``): derandomized, so every run tries the same examples and a submission never
  fails by the luck of the draw; no example database, so nothing from an earlier run
  changes what is tried.
- ``dev`` otherwise: random exploration, a new seed each session, and a quarter of the
  examples (``budget.examples``: successive runs add up). The session's seed is
  printed in the header and beside each failing Hypothesis test (rerun with
  ``--hypothesis-seed=N``), with Hypothesis's own ``@reproduce_failure`` blob; the
  example database in ``.hypothesis/`` also replays a failure first on the next run.

Helpers for building problems live in ``builders.py`` next to this file (importable as
``builders`` from every test module), and the one for ending child runs in ``runs.py``.
"""

import os
import random
import signal
from collections.abc import Generator, Iterator

import pytest
from budget import examples, in_ci
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=examples(settings().max_examples),
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)

settings.load_profile("ci" if in_ci() else "dev")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Outside CI, draw the session's Hypothesis seed here (unless ``--hypothesis-seed``
    gave one), so that it can be printed: Hypothesis's plugin, which runs after this
    hook, then seeds every test with it. Under the ``ci`` profile derandomizing wins and
    no seed is drawn."""
    if not in_ci() and config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = str(random.SystemRandom().randrange(2**32))


#: The most workers ``-n auto`` starts, whatever the machine (each imports the suite).
MOST_WORKERS = 32


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the default of ``pyproject.toml``): one pytest-xdist worker per CPU
    this process may use (its affinity, which a container or ``taskset`` narrows, where
    pytest-xdist alone would count the machine's physical cores), at most
    :data:`MOST_WORKERS`. Every worker collects the whole suite first (about 17 s of
    CPU), and the tests of the default run keep their core busy (their child processes,
    a search running out its time limit): a second worker per CPU would add its
    collection and win back little. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` set in the
    environment still decides."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(cpus or 1, MOST_WORKERS)


def pytest_report_header(config: pytest.Config) -> str:
    """The profile, and the seed that reproduces this session's random examples."""
    if in_ci():
        return "hypothesis: profile 'ci', derandomized (the same examples every run)"
    seed = config.getoption("hypothesis_seed")
    return f"hypothesis: profile 'dev', seed {seed} (rerun with --hypothesis-seed={seed})"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing Hypothesis test says how to run its examples again."""
    report: pytest.TestReport = yield
    if report.failed and report.when == "call" and _is_hypothesis_test(item):
        report.sections.append(("how to reproduce", _reproduce_hint(item)))
    return report


def _is_hypothesis_test(item: pytest.Item) -> bool:
    """Whether ``item`` is a test decorated with Hypothesis's ``@given``."""
    return getattr(getattr(item, "obj", None), "is_hypothesis_test", False) is True


def _reproduce_hint(item: pytest.Item) -> str:
    """The command that runs ``item``'s examples again (the ``@reproduce_failure`` line
    in the error above replays the shrunk example alone)."""
    if in_ci():
        return f"CI=true python -m pytest '{item.nodeid}'  (derandomized: the same examples)"
    seed = item.config.getoption("hypothesis_seed")
    return f"python -m pytest '{item.nodeid}' --hypothesis-seed={seed}"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Automatic checkpoints of interrupted parallel counts go to a folder of the test
    session, not to the user's ~/.cache (child processes inherit the setting)."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_reaches_children() -> Iterator[None]:
    """The Ctrl-C tests send SIGINT to child runs. A suite started in the background by a
    shell (``cmd &`` without job control, ``nohup``) inherits SIGINT ignored, and children
    keep an ignored signal across exec, so they would never see the test's Ctrl-C. A
    handler of our own is reset to the default at exec: the children then start as they
    would from a terminal."""
    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(autouse=True)
def _no_alarm_left_behind() -> Iterator[None]:
    """A test that leaves the interval timer running would stop whatever runs after it
    (``--timeout``'s alarm once cut short pytest's own cleanup): fail the test that did."""
    yield
    if not hasattr(signal, "setitimer"):
        return
    left = signal.getitimer(signal.ITIMER_REAL)
    if left != (0.0, 0.0):
        signal.setitimer(signal.ITIMER_REAL, 0)
        pytest.fail(f"the test left the alarm running: {left}")
