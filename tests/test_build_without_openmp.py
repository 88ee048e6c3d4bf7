"""The frontier count built without OpenMP: a compiler with no OpenMP (MSVC without it,
Apple clang without libomp) still builds excover, and its frontier count runs the
``threads`` of each layer one after the other with the same results.

The test compiles ``zdd/_frontier.pyx`` from the source tree with ``EXCOVER_NO_OPENMP=1``
through the project's own ``setup.py`` logic (``BuildExtensions``), loads the module it
made, and checks its counts against the installed build on domino tilings."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from builders import dominoes

from excover.zdd import _frontier, frontier

ROOT = Path(__file__).resolve().parents[1]

#: Builds only the frontier extension with the BuildExtensions command of setup.py.
BUILD = textwrap.dedent(
    """
    import runpy, sys
    from unittest import mock
    import setuptools
    captured = {}
    with mock.patch.object(setuptools, "setup", lambda **kw: captured.update(kw)):
        runpy.run_path("setup.py")
    ext = [e for e in captured["ext_modules"] if e.name == "excover.zdd._frontier"]
    setuptools.setup(
        name="frontier-no-openmp",
        cmdclass=captured["cmdclass"],
        ext_modules=ext,
        script_args=["build_ext", "--build-lib", sys.argv[1], "--build-temp", sys.argv[2]],
    )
    """
)


@pytest.fixture(scope="module")
def serial_frontier(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The frontier extension compiled without OpenMP, loaded from a scratch folder."""
    out = tmp_path_factory.mktemp("lib")
    temp = tmp_path_factory.mktemp("temp")
    env = {"EXCOVER_NO_OPENMP": "1", "PATH": "/usr/bin:/bin", "HOME": str(temp)}
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(out), str(temp)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "building without OpenMP" in done.stdout
    (built,) = (out / "excover" / "zdd").glob("_frontier*")
    spec = importlib.util.spec_from_file_location("_frontier", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    got = serial_frontier.count(n_items, memoryview(starts), memoryview(masks), threads)
    assert (
        got == expected == _frontier.count(n_items, memoryview(starts), memoryview(masks), threads)
    )
