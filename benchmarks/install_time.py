"""Time ``pip install .`` from a clean clone into a fresh virtual environment.

    python benchmarks/install_time.py [--jobs N] [--no-cache]

Clones the repository's committed state (``git clone`` of the working copy's folder) into
a temporary folder, makes a fresh venv there and installs the clone into it as the README
says, then prints the wall-clock seconds and the CPU seconds (user + system, of pip and
every compiler it ran). The CPU figure is what a busy machine cannot inflate: on an idle
machine the wall time is at least the CPU time divided by the cores that compile.
``--jobs N`` sets ``EXCOVER_BUILD_JOBS``; ``--no-cache`` keeps pip from its cache (the
dependencies' wheels downloaded again). It also prints when each of pip's steps ended
(wall clock, read from pip's own progress lines): the isolated build environment
(setuptools and Cython installed into it), the Cython translation (``setup.py`` runs it
when pip asks for the build's requirements), the metadata and the dependencies' choice,
the compiles (the wheel built), and the install of excover and its dependencies. The
figures are quoted in docs/performance.md, "Installing".

``--readme`` times the README's way to the suite instead, from a clean clone: pip
upgraded, then the one install (``pip install --group test .``: excover compiled and
the test packages brought in one step), the first result (``excover run
examples/caml.cmb``), and the suite's result (``python -m pytest``), each with the time
since the clone and the load average, and the number of compiled modules installed.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: pip's steps, each with the line pip prints when it is over (when its output is no tty).
STEPS = [
    ("build environment (setuptools, Cython)", "Installing build dependencies: finished"),
    ("Cython translation", "Getting requirements to build wheel: finished"),
    ("metadata, dependencies chosen", "Building wheel for excover (pyproject.toml): started"),
    ("compiles (the wheel built)", "Building wheel for excover (pyproject.toml): finished"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, help="EXCOVER_BUILD_JOBS (default: one a core)")
    parser.add_argument("--no-cache", action="store_true", help="pip install --no-cache-dir")
    parser.add_argument(
        "--readme", action="store_true", help="the README's one install, first result and suite"
    )
    args = parser.parse_args()
    if args.readme:
        readme_way()
        return
    env = dict(os.environ)
    if args.jobs is not None:
        env["EXCOVER_BUILD_JOBS"] = str(args.jobs)
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "excover"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        venv.create(Path(scratch) / "venv", with_pip=True)
        pip = [str(Path(scratch) / "venv" / "bin" / "pip"), "install", "."]
        if args.no_cache:
            pip.append("--no-cache-dir")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        ended: dict[str, float] = {}
        with subprocess.Popen(
            pip, cwd=clone, env=env, stdout=subprocess.PIPE, text=True
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                for step, marker in STEPS:
                    if marker in line and step not in ended:
                        ended[step] = time.perf_counter() - started
        if process.returncode != 0:
            raise SystemExit(f"pip install failed with status {process.returncode}")
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    load = os.getloadavg()[0]
    print(f"pip install . from a clean clone: {wall:.1f} s wall, {cpu:.1f} s CPU")
    last = 0.0
    for step, _ in STEPS:
        if step in ended:
            print(f"  {step}: {ended[step] - last:.1f} s (ended at {ended[step]:.1f} s)")
            last = ended[step]
    print(f"  install of excover and its dependencies: {wall - last:.1f} s")
    python = sys.version.split()[0]
    print(f"cores: {os.cpu_count()}, load average at the end: {load:.2f}, python {python}")


def readme_way() -> None:
    """Clone, one install, first result, suite: the times since the clone started."""
    started = time.perf_counter()
    marks: list[tuple[str, float, float]] = []

    def mark(step: str) -> None:
        marks.append((step, time.perf_counter() - started, os.getloadavg()[0]))
        print(f"{step}: {marks[-1][1]:.0f} s since the clone (load {marks[-1][2]:.1f})", flush=True)

    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "excover"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        venv.create(Path(scratch) / "venv", with_pip=True)
        bin_ = Path(scratch) / "venv" / "bin"
        python = str(bin_ / "python")
        env = dict(os.environ, PATH=f"{bin_}{os.pathsep}{os.environ['PATH']}")

        def run(*command: str) -> None:
            subprocess.run(command, cwd=clone, env=env, check=True, stdout=subprocess.DEVNULL)

        run(python, "-m", "pip", "install", "-q", "--upgrade", "pip")
        run(python, "-m", "pip", "install", "-q", "--group", "test", ".")
        mark("the one install (pip upgraded, excover compiled, the test packages)")
        run(str(bin_ / "excover"), "run", "examples/caml.cmb")
        mark("the first result (excover run examples/caml.cmb)")
        suite = subprocess.run(
            [python, "-m", "pytest", "-q", "-p", "no:randomly"],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
        )
        mark("the suite's result (python -m pytest)")
        print(suite.stdout.strip().splitlines()[-1])
        modules = list((Path(scratch) / "venv").rglob("excover/**/*.so"))
        print(f"compiled modules installed: {len(modules)}; cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
