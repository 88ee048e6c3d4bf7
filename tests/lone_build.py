"""Compile one extension of the source tree alone, as a build with a switch set would,
through the project's own ``setup.py`` logic (its ``BuildExtensions`` command), and load
the module it made from a scratch folder: the tests of the builds without OpenMP and
without the Sudoku core's vector kernels share it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The mark of the modules that build this way. A build runs setup.py in the source tree,
#: which translates every ``.pyx`` whose C file is missing or stale into ``src/``: two
#: builds at once (pytest-xdist's workers) would write the same C files, so the modules
#: that build share one worker.
ONE_AT_A_TIME = pytest.mark.xdist_group("builds in the source tree")

#: Builds the extension named by its first argument with the BuildExtensions command of
#: setup.py, into the build and temp folders of its other two.
BUILD = textwrap.dedent(
    """
    import runpy, sys
    from unittest import mock
    import setuptools
    captured = {}
    with mock.patch.object(setuptools, "setup", lambda **kw: captured.update(kw)):
        runpy.run_path("setup.py")
    ext = [e for e in captured["ext_modules"] if e.name == sys.argv[1]]
    setuptools.setup(
        name="excover-lone-build",
        cmdclass=captured["cmdclass"],
        ext_modules=ext,
        script_args=["build_ext", "--build-lib", sys.argv[2], "--build-temp", sys.argv[3]],
    )
    """
)


def lone_build(
    tmp_path_factory: pytest.TempPathFactory, name: str, switch: str, said: str
) -> ModuleType:
    """Extension ``name`` (such as ``excover.zdd._frontier``) compiled with the
    environment variable ``switch`` set to 1; the build must print ``said``."""
    out = tmp_path_factory.mktemp("lib")
    temp = tmp_path_factory.mktemp("temp")
    env = {switch: "1", "PATH": "/usr/bin:/bin", "HOME": str(temp)}
    done = subprocess.run(
        [sys.executable, "-c", BUILD, name, str(out), str(temp)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert said in done.stdout
    *package, stem = name.split(".")
    (built,) = out.joinpath(*package).glob(f"{stem}*")
    spec = importlib.util.spec_from_file_location(stem, built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
