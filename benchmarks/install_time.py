"""Time ``pip install .`` from a clean clone into a fresh virtual environment.

    python benchmarks/install_time.py [--jobs N] [--no-cache]

Clones the repository's committed state (``git clone`` of the working copy's folder) into
a temporary folder, makes a fresh venv there and installs the clone into it as the README
says, then prints the wall-clock seconds and the CPU seconds (user + system, of pip and
every compiler it ran). The CPU figure is what a busy machine cannot inflate: on an idle
machine the wall time is at least the CPU time divided by the cores that compile.
``--jobs N`` sets ``EXCOVER_BUILD_JOBS``; ``--no-cache`` keeps pip from its cache (the
dependencies' wheels downloaded again). The figures are quoted in docs/performance.md,
"Installing".
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, help="EXCOVER_BUILD_JOBS (default: one a core)")
    parser.add_argument("--no-cache", action="store_true", help="pip install --no-cache-dir")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.jobs is not None:
        env["EXCOVER_BUILD_JOBS"] = str(args.jobs)
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "excover"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        venv.create(Path(scratch) / "venv", with_pip=True)
        pip = [str(Path(scratch) / "venv" / "bin" / "pip"), "install", "-q", "."]
        if args.no_cache:
            pip.append("--no-cache-dir")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(pip, cwd=clone, env=env, check=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    load = os.getloadavg()[0]
    print(f"pip install . from a clean clone: {wall:.1f} s wall, {cpu:.1f} s CPU")
    python = sys.version.split()[0]
    print(f"cores: {os.cpu_count()}, load average at the end: {load:.2f}, python {python}")


if __name__ == "__main__":
    main()
