"""BurrTools' example puzzles on its four other grids (triangular prisms, spheres,
rhombic dodecahedra, tetrahedra-octahedra): excover's count up to BurrTools' symmetries
beside the count stored in the file and beside BurrTools' own solver, timed side by side.

For every problem of every ``.xmpuzzle`` of github.com/burr-tools/burr-tools
(``examples/`` and ``doc_src/``) whose grid is not the cube's: the stored number of
assemblies, excover's (``ExactCover.from_burrtools(puzzle, n).count(up_to_symmetry=True)``,
reading and building included, in a fresh process), and with ``--burrtxt PATH``
burrTxt's (``burrTxt -q -o N``). The two are run interleaved, each the best of
``--repeat`` runs (3), and the load average is printed: the machine may be shared. Each
time is the wall-clock time and the CPU time (user and system) of the process: on a
loaded machine the first counts the waits for a core, the second much less so. The ratio
column is excover's time over burrTxt's, wall-clock and CPU. The last column is the CPU time of the
same count in a process that has already counted it once (imports and first calls
paid): what a long-lived process (the studio, a notebook) pays per problem.

With ``--before SRC`` (the ``src`` folder of another checkout of excover, say the
version before a change) that version is timed too, interleaved with this one (the
excover this script imports), in the columns marked "before".

excover runs with compiled bytecode, as an installed copy does: the runs write and read it
in a temporary ``PYTHONPYCACHEPREFIX`` (never in the repository), even when the
environment sets ``PYTHONDONTWRITEBYTECODE``, and a first untimed run fills it. Beside
the problems, ``python -c "import numpy"`` is timed the same way: the least a fresh
process of excover takes, where burrTxt takes hundredths of a second.

Target (issue 57): every stored count matched; each count within 2x of burrTxt's time.

    python benchmarks/burrtools_grids.py BURR_TOOLS_DIR [--burrtxt PATH] [--before SRC]
        [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from burrtools_files import burrtxt_count, puzzle_files

import excover
from excover.burr.xmpuzzle import BurrProblem, parse_xmpuzzle

COUNT = (
    "import sys; from excover import ExactCover; "
    "from excover.burr.xmpuzzle import read_xmpuzzle; "
    "p = read_xmpuzzle(sys.argv[1]); "
    "print(ExactCover.from_burrtools(p, int(sys.argv[2])).count(up_to_symmetry=True))"
)
#: The same count in one process: once untimed, then the least CPU time of ``repeat``.
IN_PROCESS = (
    "import sys, time; from excover import ExactCover; "
    "from excover.burr.xmpuzzle import read_xmpuzzle\n"
    "def count(): return ExactCover.from_burrtools("
    "read_xmpuzzle(sys.argv[1]), int(sys.argv[2])).count(up_to_symmetry=True)\n"
    "count(); best = float('inf')\n"
    "for _ in range(int(sys.argv[3])):\n"
    "    started = time.process_time(); count()\n"
    "    best = min(best, time.process_time() - started)\n"
    "print(best)"
)


def run(env: dict[str, str], *arguments: str) -> str:
    """What a fresh Python process running ``arguments`` prints (or its error)."""
    done = subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, check=False, env=env
    )
    return done.stdout.strip() or "error: " + done.stderr.strip().splitlines()[-1]


def ours(env: dict[str, str], path: str, number: int) -> str:
    """excover's count, in a fresh process (as the command line would run it)."""
    return run(env, "-c", COUNT, path, str(number))


def in_process(env: dict[str, str], path: str, number: int, repeat: int) -> str:
    """The CPU time of excover's count in a process that has made it once, as text."""
    seconds = run(env, "-c", IN_PROCESS, path, str(number), str(repeat))
    return f"{1000 * float(seconds):.0f}" if not seconds.startswith("error") else seconds


def bare(env: dict[str, str]) -> str:
    """A fresh process that imports numpy and stops."""
    subprocess.run([sys.executable, "-c", "import numpy"], check=True, env=env)
    return "-"


def timed(run: Callable[..., str], *arguments: object) -> tuple[str, float]:
    """The result of ``run(*arguments)`` and its wall-clock time."""
    started = time.perf_counter()
    result = run(*arguments)
    return result, time.perf_counter() - started


def children_cpu() -> float:
    """The CPU time (user and system) of the child processes ended so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_run(run: Callable[..., str], *arguments: object) -> tuple[str, float, float]:
    """The result of ``run(*arguments)`` (which runs child processes), its wall-clock
    time and the CPU time of its children: on a loaded machine the wall-clock time
    counts the waits for a core, the CPU time does not."""
    cpu = children_cpu()
    result, seconds = timed(run, *arguments)
    return result, seconds, children_cpu() - cpu


def environments(folder: str, before: Path | None) -> dict[str, dict[str, str]]:
    """The environment of each excover timed ("ours": the one this script imports), by
    name: compiled bytecode in a temporary folder, the version's ``src`` first on the
    path."""
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    sources = {"ours": Path(excover.__file__).resolve().parents[1]}
    if before is not None:
        sources["before"] = before.resolve()
    return {
        name: {
            **base,
            "PYTHONPATH": str(src),
            "PYTHONPYCACHEPREFIX": str(Path(folder) / f"pycache-{name}"),
        }
        for name, src in sources.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, help="burr-tools checkout or bare git dir")
    parser.add_argument("--burrtxt", help="BurrTools' burrTxt binary")
    parser.add_argument("--before", type=Path, help="the src folder of excover to compare")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the best kept")
    args = parser.parse_args()
    if args.source is None or not args.source.exists():
        print("missing: a copy of github.com/burr-tools/burr-tools", file=sys.stderr)
        return 2
    if args.before is not None and not (args.before / "excover").is_dir():
        print(f"--before {args.before}: not a src folder holding excover", file=sys.stderr)
        return 2
    print(f"load average: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        envs = environments(folder, args.before)
        names = list(envs)[::-1]  # "before" first
        header = ["file", "problem", "grid", "stored", "ours", "burrTxt"]
        header += [f"{name} (s / CPU s)" for name in names]
        header += ["burrTxt (s / CPU s)"] if args.burrtxt else []
        header += [f"{name} ratio" for name in names]
        header += [f"{name} in-process (CPU ms)" for name in names]
        rows = []
        bare(envs["ours"])  # untimed: compiles numpy
        bare_runs = [timed_run(bare, envs["ours"]) for _ in range(args.repeat)]
        row = ["python -c 'import numpy'", *"-----"] + ["-"] * names.index("ours")
        row.append(f"{min(r[1] for r in bare_runs):.2f} / {min(r[2] for r in bare_runs):.2f}")
        rows.append(row + ["-"] * (len(header) - len(row)))
        for name, data in puzzle_files(args.source).items():
            puzzle = parse_xmpuzzle(data, name)
            if puzzle.grid == 0:
                continue
            path = Path(folder) / Path(name).name
            path.write_bytes(data)
            for number, problem in enumerate(puzzle.problems):
                cells = problem_cells(args, envs, names, path, data, number, problem)
                rows.append([Path(name).name, str(number), str(puzzle.grid), *cells])
                print("  ".join(rows[-1]), file=sys.stderr, flush=True)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"load average: {os.getloadavg()}")
    return 0


def problem_cells(
    args: argparse.Namespace,
    envs: dict[str, dict[str, str]],
    names: list[str],
    path: Path,
    data: bytes,
    number: int,
    problem: BurrProblem,
) -> list[str]:
    """The cells of one problem's row from the stored count on."""
    for env in envs.values():
        ours(env, str(path), number)  # untimed: compiles what it imports
    runs = [*names, "burrTxt"] if args.burrtxt else names
    best = {name: float("inf") for name in runs}
    cpu = {name: float("inf") for name in runs}
    counts = {name: "-" for name in runs}
    for _ in range(args.repeat):
        for name in runs:
            if name == "burrTxt":
                done = timed_run(burrtxt_count, args.burrtxt, data, number)
            else:
                done = timed_run(ours, envs[name], str(path), number)
            counts[name] = done[0]
            best[name] = min(best[name], done[1])
            cpu[name] = min(cpu[name], done[2])
    stored = str(problem.assemblies) if problem.state == 2 else "-"
    count = counts["ours"]
    if counts.get("before", count) != count:
        count += f" (before: {counts['before']})"
    row = [stored, count, counts.get("burrTxt", "-")]
    row += [f"{best[name]:.2f} / {cpu[name]:.2f}" for name in runs]
    for name in names:
        if args.burrtxt:
            row.append(f"{best[name] / best['burrTxt']:.1f} / {cpu[name] / cpu['burrTxt']:.1f}")
        else:
            row.append("-")
    row += [in_process(envs[name], str(path), number, args.repeat) for name in names]
    return row


if __name__ == "__main__":
    sys.exit(main())
