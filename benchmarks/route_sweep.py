"""auto's count beside every counting route forced, instance by instance, in CPU time.

Issue #40, item 1: ``count()`` (``excover count``, method auto) must come within 1.5x of
the best of excover's own routes (:data:`excover.counting.ROUTES`: dlx, bits, cells, dxz,
frontier, components) on every instance. For each instance of a set this script runs
``counting.count(problem)`` and ``counting.count(problem, route=NAME)`` for each route,
each in a fresh process (so that the imports a route needs count against it, as they do
for a user), and takes the CPU time of the count alone (``time.process_time`` around it,
the file already read). auto and the routes within 1.5x of the best one, when they took
less than ``--repeat-below`` seconds, are run ``--rounds`` times, the rounds interleaved,
and the least CPU time is kept: on a loaded machine that is the figure that survives.

Each route is stopped at a limit of CPU time: the ``--cap`` for auto, and
for the forced routes ``--slack`` times auto's count plus the process's start-up (a
route slower than auto cannot be the one auto should have matched; a ``>`` cell says it
was stopped, at that many CPU seconds of its process). When
auto itself passes the cap, every route gets the cap: an instance that no route counts
within it is *capped* and out of the ratio (issue #40 leaves out what no route finishes
in 10 minutes).

One line per instance: its size and count, auto's time and the route that finished,
the best forced route and its time, ``auto/best``, and every route's time; then a summary
line: the instances, the largest ratio and where, how many are over 1.5x, and those
capped. Every finished count must agree, else the line says ``MISMATCH`` and the exit
status is 1.

The sets (``--set``): ``run_set`` and ``exact_cover_benchmark`` of the public repository
loiufam/alg-lab (``--alg-lab PATH``, a checkout or bare git directory; converted as
benchmarks/counting_sets.py converts them, and cached there), and ``knuth``, the
repository's copies of Knuth's files in tests/data/knuth. Without the alg-lab data the
script says how to get it.

Usage: ``python benchmarks/route_sweep.py --set run_set --alg-lab PATH [--limit N]
[--largest N] [--match REGEX] [--cap S] [--rounds R] [--routes LIST] [--save FILE]``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from counting_sets import SETS, set_files

import excover
from excover import ExactCover, counting
from excover.errors import ExcoverError

__all__ = ["main"]

#: Exit status of a child whose route does not take the problem.
NOT_APPLICABLE = 3
#: The summary's threshold (issue #40).
TARGET = 1.5


# ----- the child: one route on one file -----


def child(route: str, path: str) -> int:
    """Count the problem in ``path`` by ``route`` (``auto``: the route choice); print a
    JSON line: count, CPU and wall seconds of the count alone, the route that finished."""
    problem = ExactCover.read(path)
    forced = None if route == "auto" else route
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        found = counting.count(problem, route=forced)
    except ExcoverError as error:
        print(json.dumps({"error": str(error)}))
        return NOT_APPLICABLE
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    line = {"count": str(found.count), "cpu": cpu, "wall": wall, "route": found.route}
    print(json.dumps(line))
    return 0


# ----- running the children -----


@dataclass
class Result:
    """One route on one instance: its count and least CPU seconds over the runs, or a
    mark (``>`` a CPU limit, ``n/a``, ``err``); ``finished``, the route that counted."""

    count: int | None = None
    cpu: float | None = None
    mark: str = ""
    finished: str | None = None
    runs: list[float] = field(default_factory=list)
    #: CPU seconds of the process besides the count (Python, imports, reading the file).
    start: float = 0.0

    def text(self) -> str:
        return self.mark if self.cpu is None else f"{self.cpu:.3f}"


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system, all threads) process ``pid`` has used so far,
    from /proc (0.0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_child(route: str, path: Path, cpu_limit: float) -> Result:
    """``route`` on ``path`` in a fresh process, killed past ``cpu_limit`` CPU seconds of
    the whole process (its start-up included). (Not by ``RLIMIT_CPU``: a process CPU
    timer makes the child's own clock step in ticks.)"""
    argv = [sys.executable, __file__, "--child", route, str(path)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
        wall = time.monotonic() + 20 * cpu_limit + 60  # a safety net: the machine is shared
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if cpu_seconds(process.pid) > cpu_limit or time.monotonic() > wall:
                process.kill()
                os.wait4(process.pid, 0)
                return Result(mark=f"> {cpu_limit:.3g}")
            time.sleep(0.01)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        stdout = out.read()
    if process.returncode == NOT_APPLICABLE:
        return Result(mark="n/a")
    if process.returncode != 0:
        return Result(mark="err")
    line = json.loads(stdout.strip().splitlines()[-1])
    cpu = float(line["cpu"])
    whole = usage.ru_utime + usage.ru_stime
    return Result(int(line["count"]), cpu, finished=line["route"], runs=[cpu], start=whole - cpu)


def again(result: Result, route: str, path: Path) -> None:
    """One more run of a route that finished; keep the least CPU time."""
    more = run_child(route, path, 4 * (result.cpu or 0.0) + 2 * result.start + 1)
    if more.cpu is not None:
        result.runs.append(more.cpu)
        result.cpu = min(result.runs)


# ----- one instance -----


@dataclass
class Row:
    """One instance's results: auto's, each forced route's, and what they add up to."""

    name: str
    options: int
    items: int
    auto: Result
    routes: dict[str, Result]

    def best(self) -> tuple[str, Result] | None:
        timed = [(name, r) for name, r in self.routes.items() if r.cpu is not None]
        return min(timed, key=lambda pair: pair[1].cpu or 0.0, default=None)

    def ratio(self) -> float | None:
        best = self.best()
        if best is None or self.auto.cpu is None:
            return None
        return self.auto.cpu / max(best[1].cpu or 0.0, 1e-6)

    def count(self) -> int | str | None:
        counts = {r.count for r in [self.auto, *self.routes.values()] if r.count is not None}
        if len(counts) > 1:
            return "MISMATCH"
        return counts.pop() if counts else None


def measure(name: str, path: Path, routes: list[str], args: argparse.Namespace) -> Row:
    """auto and every route on one instance, as the module notes say."""
    problem = ExactCover.read(path)
    auto = run_child("auto", path, args.cap)
    limit = args.cap
    if auto.cpu is not None:  # the process's start-up, with room for a loaded machine
        limit = min(args.cap, args.slack * auto.cpu + 1.5 * auto.start + 0.05)
    results = {route: run_child(route, path, limit) for route in routes}
    row = Row(name, problem.n_options, problem.n_items, auto, results)
    best = row.best()
    if auto.cpu is None or best is None:
        return row
    # again, interleaved: auto and the routes that may be the best (within 1.5x of it)
    near = 1.5 * (best[1].cpu or 0.0)
    close = [(r, x) for r, x in results.items() if x.cpu is not None and x.cpu <= near]
    for _ in range(args.rounds - 1):
        for route, result in [("auto", auto), *close]:
            if (result.cpu or 0.0) < args.repeat_below:
                again(result, route, path)
    return row


def line(row: Row, routes: list[str]) -> str:
    """The table line of one instance."""
    count = row.count()
    best = row.best()
    ratio = row.ratio()
    cells = [row.name, str(row.options), str(row.items)]
    cells.append("—" if count is None else f"{count:,}" if isinstance(count, int) else count)
    cells.append(row.auto.text() + (f" ({row.auto.finished})" if row.auto.finished else ""))
    cells.append("—" if best is None else f"{best[1].text()} ({best[0]})")
    cells.append("—" if ratio is None else f"{ratio:.2f}")
    cells += [row.routes[route].text() for route in routes]
    return "| " + " | ".join(cells) + " |"


def summary(rows: list[Row]) -> str:
    """The closing line: largest ratio and where, how many over the target, capped."""
    rated = [(row.ratio(), row.name) for row in rows if row.ratio() is not None]
    over = [name for ratio, name in rated if ratio is not None and ratio > TARGET]
    capped = [row.name for row in rows if row.best() is None and row.auto.cpu is None]
    worst = max(rated, key=lambda pair: pair[0] or 0.0, default=None)
    text = f"summary: {len(rows)} instances, {len(rated)} rated"
    if worst is not None:
        text += f"; max auto/best {worst[0]:.2f} ({worst[1]})"
    text += f"; {len(over)} over {TARGET}x" + (f" ({', '.join(over)})" if over else "")
    text += f"; {len(capped)} capped" + (f" ({', '.join(capped)})" if capped else "")
    mismatched = [row.name for row in rows if row.count() == "MISMATCH"]
    if mismatched:
        text += f"; MISMATCH on {', '.join(mismatched)}"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alg-lab", type=Path, help="checkout or bare git dir of alg-lab")
    parser.add_argument("--set", choices=SETS, default="run_set")
    parser.add_argument("--limit", type=int, help="the first N instances by name")
    parser.add_argument("--largest", type=int, help="the N largest instances (bytes)")
    parser.add_argument("--match", help="only instances whose name this regex finds")
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds per run")
    parser.add_argument("--slack", type=float, default=1.6, help="routes' limit over auto's")
    parser.add_argument("--rounds", type=int, default=3, help="runs of the quick counts")
    parser.add_argument("--repeat-below", type=float, default=2.0, help="CPU s of quick")
    parser.add_argument("--routes", default=",".join(counting.ROUTES), help="forced routes")
    parser.add_argument("--save", type=Path, help="append each instance as a JSON line")
    parser.add_argument("--child", nargs=2, metavar=("ROUTE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(*args.child)
    # compiled once, as an installed copy is: with PYTHONDONTWRITEBYTECODE set, each
    # fresh process would otherwise compile every module it imports (3-10 ms a count)
    compileall.compile_dir(Path(excover.__file__).parent, quiet=1)
    routes = [route.strip() for route in args.routes.split(",") if route.strip()]
    unknown = sorted(set(routes) - set(counting.ROUTES))
    if unknown:
        parser.error(f"unknown routes {unknown}; choose from {list(counting.ROUTES)}")
    files = set_files(args)
    if files is None:
        return 0
    if args.match:
        files = [(name, path) for name, path in files if re.search(args.match, name)]
    header = ["instance", "options", "items", "count", "auto", "best", "auto/best", *routes]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header), flush=True)
    rows = []
    for name, path in files:
        row = measure(name, path, routes, args)
        rows.append(row)
        print(line(row, routes), flush=True)
        if args.save is not None:
            with args.save.open("a") as out:
                record = {
                    "set": args.set,
                    "name": name,
                    "auto": [row.auto.cpu, row.auto.finished, row.auto.mark],
                    "routes": {r: [x.cpu, x.mark] for r, x in row.routes.items()},
                    "ratio": row.ratio(),
                    "count": str(row.count()),
                }
                out.write(json.dumps(record) + "\n")
    print(summary(rows))
    return 1 if any(row.count() == "MISMATCH" for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
