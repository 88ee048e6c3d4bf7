"""Where the build's CPU goes: Cython and the C compiler, extension by extension.

    python benchmarks/build_profile.py [--debug-info] [--jobs N]

Clones the repository's committed state into a temporary folder and builds its
extensions there as ``pip install .`` does (``setup.py``'s own extensions, options and
flags), but one at a time, timing each step in CPU seconds (user + system, which a busy
machine inflates far less than the wall clock):

- Cython: each ``.pyx`` translated to C, and the shared utility module generated;
- the C compiler: each extension's compile, and its link, through a wrapper of ``$CC``
  that records the CPU of every compiler it starts.

It prints one row per extension, the totals, and the shortest time the compiles can take
on ``--jobs`` cores (default: this machine's) when handed out in ``setup.py``'s order,
the largest first: the total divided by the cores is the bound, the gap above it what the
order loses. ``--debug-info`` builds with ``EXCOVER_DEBUG_INFO=1`` (``-g``, Python's own
flag, which the build otherwise drops). The figures are quoted in docs/performance.md,
"Installing".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Runs setup.py's module-level code serially with ``setuptools.setup`` stubbed out,
#: timing each Cython translation; prints {module: seconds} and the extensions'
#: compile order as JSON.
TRANSLATE = textwrap.dedent(
    """
    import json, os, resource, runpy, sys
    from unittest import mock
    import setuptools
    from Cython.Build import Dependencies, SharedModule

    def cpu():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    seconds = {}
    one, shared = Dependencies.cythonize_one, SharedModule.generate_shared_module

    def timed_one(pyx, c_file, *args, **kwargs):
        start = cpu()
        one(pyx, c_file, *args, **kwargs)
        seconds[os.path.relpath(c_file)] = cpu() - start

    def timed_shared(options):
        start = cpu()
        shared(options)
        seconds[os.path.relpath(options.shared_c_file_path)] = cpu() - start

    captured = {}
    with mock.patch.object(Dependencies, "cythonize_one", timed_one), mock.patch.object(
        SharedModule, "generate_shared_module", timed_shared
    ), mock.patch.object(setuptools, "setup", lambda **kw: captured.update(kw)):
        space = runpy.run_path("setup.py")
    order = sorted(captured["ext_modules"], key=space["_compile_size"], reverse=True)
    print(json.dumps({"cython": seconds, "order": [e.sources[0] for e in order]}))
    """
)

#: A stand-in for the C compiler: runs the real one (its first argument) and appends
#: the CPU it used, the source or output it worked on and whether it linked, to a log.
WRAPPER = textwrap.dedent(
    """
    import json, os, resource, subprocess, sys
    done = subprocess.run(sys.argv[1:])
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    args = sys.argv[1:]
    sources = [a for a in args if a.endswith(".c")]
    target = sources[0] if sources else args[args.index("-o") + 1]
    with open(os.environ["BUILD_PROFILE_LOG"], "a") as log:
        record = {"file": target, "link": "-c" not in args,
                  "seconds": usage.ru_utime + usage.ru_stime}
        log.write(json.dumps(record) + "\\n")
    sys.exit(done.returncode)
    """
)


def makespan(seconds: list[float], cores: int) -> float:
    """When the last of jobs of ``seconds`` ends, each handed in order to the core that
    frees first (as setuptools' pool of threads hands out the extensions)."""
    free = [0.0] * cores
    for job in seconds:
        core = free.index(min(free))
        free[core] += job
    return max(free)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug-info", action="store_true", help="EXCOVER_DEBUG_INFO=1 (-g)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cores")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "excover"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = dict(os.environ, EXCOVER_BUILD_JOBS="1")
        if args.debug_info:
            env["EXCOVER_DEBUG_INFO"] = "1"
        translated = subprocess.run(
            [sys.executable, "-c", TRANSLATE],
            cwd=clone,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        found = json.loads(translated.stdout.strip().splitlines()[-1])
        cython: dict[str, float] = found["cython"]
        wrapper = Path(scratch) / "cc_wrapper.py"
        wrapper.write_text(WRAPPER)
        log = Path(scratch) / "cc.log"
        compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
        env.update(CC=f"{sys.executable} {wrapper} {compiler}", BUILD_PROFILE_LOG=str(log))
        subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=clone,
            env=env,
            check=True,
            capture_output=True,
        )
        records = [json.loads(line) for line in log.read_text().splitlines()]
        lines = {
            str(Path(source).with_suffix(".c")): len(
                (clone / source).with_suffix(".c").read_bytes().splitlines()
            )
            for source in found["order"]
        }
    compile_s = {r["file"]: r["seconds"] for r in records if not r["link"]}
    link_s = {Path(r["file"]).name.split(".")[0]: r["seconds"] for r in records if r["link"]}
    print(f"| C file | lines | Cython s | compile s | link s |{' (-g)' if args.debug_info else ''}")
    print("|---|---:|---:|---:|---:|")
    rows: list[tuple[str, float, float, float]] = []

    for source in found["order"]:
        c_file = str(Path(source).with_suffix(".c"))
        compiled = next((s for f, s in compile_s.items() if f.endswith(c_file)), 0.0)
        linked = link_s.get(Path(c_file).stem, 0.0)
        rows.append((c_file, cython.get(c_file, 0.0), compiled, linked))
    for c_file, translate, compiled, linked in rows:
        print(
            f"| `{c_file}` | {lines[c_file]:,} | {translate:.1f} | {compiled:.1f} | {linked:.2f} |"
        )
    total_cython = sum(r[1] for r in rows)
    jobs = [r[2] + r[3] for r in rows]
    print(
        f"| all | {sum(lines.values()):,} | {total_cython:.1f} | {sum(r[2] for r in rows):.1f} | "
        f"{sum(r[3] for r in rows):.2f} |"
    )
    print(
        f"compiles on {args.jobs} cores in setup.py's order: {makespan(jobs, args.jobs):.1f} s "
        f"(bound {sum(jobs) / args.jobs:.1f} s); Cython {total_cython / args.jobs:.1f} s "
        f"at best; load average at the end {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
