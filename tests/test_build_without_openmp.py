"""The frontier count built without OpenMP: a compiler with no OpenMP (MSVC without it,
Apple clang without libomp) still builds excover, and its frontier count runs the
``threads`` of each layer one after the other with the same results.

The test compiles ``zdd/_frontier.pyx`` from the source tree with ``EXCOVER_NO_OPENMP=1``
through the project's own ``setup.py`` logic (``BuildExtensions``), loads the module it
made, and checks its counts against the installed build on domino tilings."""

from __future__ import annotations

from types import ModuleType

import pytest
from builders import dominoes
from lone_build import ONE_AT_A_TIME, lone_build

from excover.zdd import _frontier, frontier

#: Compiling the extension takes most of a minute of CPU: a slow test (-m slow).
pytestmark = [pytest.mark.slow, ONE_AT_A_TIME]


@pytest.fixture(scope="module")
def serial_frontier(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The frontier extension compiled without OpenMP, loaded from a scratch folder."""
    return lone_build(
        tmp_path_factory, "excover.zdd._frontier", "EXCOVER_NO_OPENMP", "building without OpenMP"
    )


def test_the_serial_build_has_no_openmp(serial_frontier: ModuleType) -> None:
    assert serial_frontier.OPENMP is False


@pytest.mark.parametrize("shape", [(4, 4), (6, 6), (5, 8), (8, 8)])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_serial_counts_equal_the_installed_build(
    serial_frontier: ModuleType, shape: tuple[int, int], threads: int
) -> None:
    problem = dominoes(*shape)
    expected = frontier.count(problem, workers=1)
    assert expected is not None and expected > 0
    layout = frontier.layout(problem)
    assert layout is not None
    starts, masks = layout
    n_items = problem.engine_input().n_primary
    arrays = (n_items, memoryview(starts), memoryview(masks), threads)
    got = serial_frontier.Counting(*arrays).advance()
    assert got == expected == _frontier.Counting(*arrays).advance()
