"""Count the instances of the SAT 2026 exact-cover paper with every counting route of
excover beside Knuth's DLX1 and DLX6, and build the N-queens ZDD beside TdZdd's ddqueens.

Issue #40: the paper of Fang et al. (SAT 2026, "DXD") measures exact cover counting on
two sets of its public repository loiufam/alg-lab: ``data/run_set`` (201 instances made
from network graphs) and ``data/exact_cover_benchmark`` (bell, doublefact, kts15,
latin6-8, sts15). The repository has no licence, so none of its data is copied here:
``--alg-lab PATH`` names a checkout or a bare git directory of it, and each instance is
converted on the fly to Knuth's DLX format, cached under
``~/.cache/excover-bench/alg-lab/`` by the file's git blob id.

The two formats (as read by alg-lab's ``src/DancingMatrix.cpp``, read modes 3 and 1):

* ``run_set/*.txt``: a first line ``COLUMNS ROWS``, then one line per row: the number of
  its 1s, then their column numbers (1 to COLUMNS);
* ``exact_cover_benchmark/*.ec`` and ``*.txt``: ``c n = COLUMNS, m = ROWS``, then
  ``p ec COLUMNS``, then one line ``s C1 C2 ...`` per row; other ``c`` lines are comments.

Each row is an option, each column a primary item (named by its number); the problem is
to count the exact covers.

Each row of the table is one instance, each cell one run in a fresh process, killed past
``--timeout`` seconds (shown ``> T``); ``n/a`` marks a route that does not take the
problem (the frontier count off tilings, an engine refusing it) and ``err`` a run that
failed (out of the ``--memory`` cap, say). The routes (``--routes``, comma-separated):

* ``auto``: ``count()``, excover's route choice (:mod:`excover.counting`: the frontier
  count where it applies, else a race of the search engine and DXZ); its cell names the
  route that finished;
* ``search``: ``count(method="search")`` on the default engine; ``search:dlx``,
  ``search:bits``, ``search:cells``: the same on one engine (``engine=``);
* ``zdd``: ``count(method="zdd")``: the frontier count when the problem suits it, else the
  family of ``zdd()`` (top-down when it applies, else DXZ); ``frontier``: the frontier
  count alone (:mod:`excover.zdd.frontier`); ``dxz``: the DXZ family always
  (``dxz.by_dxz``); ``topdown``: the top-down family (``dxz.topdown``, when it applies);
  ``columns``: ``zdd("columns").count()``, one family per item intersected;
* ``components``: the component-decomposition route (``excover.counting.count(problem,
  route="components")``; ``n/a`` where that module is absent);
* ``sat``: ``count(method="sat")``;
* ``DLX1``, ``DLX6``: Knuth's programs, ``prog < FILE`` (DLX6 is DLX2 with DXZ's memo).

excover's times are taken in the child around the count only (the file already read);
Knuth's are the whole process, reading included. Every finished count must agree (Knuth's
64-bit counts modulo 2^64); a disagreement is marked ``MISMATCH`` and the script ends with
exit status 1. ``auto/best`` is auto's time over the best finished route's, ``auto/K``
over the best of Knuth's programs.

``--set knuth`` runs the same table on the repository's own copies of Knuth's files
(``tests/data/knuth``: queens, dominoes, pentominoes; no ``--alg-lab`` needed).

``--set queens`` instead builds the ZDD of the n-queens solutions for n in ``--queens``
(default 12-14) two ways, ``queens(n).zdd()`` in a child process and the command line
``python -m excover count queensN.dlx --method zdd`` (Knuth's file, or the same problem
written out for n past the repository's files), beside TdZdd's ``ddqueens n`` (its own
breadth-first construction, reduction and count), with the seconds, the peak resident
memory of each process, and the ZDD's node count. The three run interleaved,
``--rounds`` rounds (at least 3), each round in the other order than the one before, and
each keeps its best time and lowest memory (``benchmarks/_load.py``). The load average
is printed first and last, and the highest one seen over a row's rounds ends the row;
above 1.5 its ratios are withheld (the two programs are slowed by different amounts
under load) unless ``--allow-load`` is given, which prints them marked with the load.
The zdd() seconds are those of ``zdd()`` alone, as the child reports them; the command
line's and ddqueens' are their whole process, and the CLI CPU ratio compares the two
processes' least CPU time (user and system), which a loaded machine moves less. The
child is what a user runs,
``python -c "from excover.puzzles.queens import queens; queens(n).zdd()"`` (the package
compiled first, as an installed copy is), and the table's ``python s`` and ``python
MiB`` are the same interpreter doing nothing (``python -c pass``, the best of
``--rounds`` runs), measured the same way: the floor under excover's figures. The
command line's seconds include that start, which depends on the installation more than
on excover: 0.01 s from a virtual environment on the 2-core machine of
docs/performance.md, 0.08 s from its base interpreter, whose site-packages hold a
``.pth`` file of the sandbox that imports certifi at every start (run the script with a
virtual environment's python, excover installed there, to time what a user's
installation starts in). Peak memory is taken by ``benchmarks/peak_rss.c`` (built with ``cc``
into the cache), which starts each program from a process of about 1 MiB: Linux keeps a
process's peak resident size across ``exec``, so a program started straight from this
script would report at least this script's own size (ddqueens at n = 12: 15 MiB instead
of 12). Without a C compiler the figures come from the script's own ``wait4`` and a line
says they are floored at its size.

Programs: Knuth's ``dlx1`` and ``dlx6`` in ``--knuth-dir`` (default
``~/.cache/excover-bench/knuth``), built from the CWEB sources of the public repository
ascherer/cwebtest with ``ctangle`` (Debian package ``texlive-binaries``; run it as
``CWEBINPUTS=. ctangle dlx6.w``, this ctangle finds its input through kpathsea)::

    ctangle gb_flip.w && gcc -O3 -march=native -c gb_flip.c
    for p in dlx1 dlx6; do ctangle $p.w && gcc -O3 -march=native -o $p $p.c gb_flip.o; done

``ddqueens``: ``--tdzdd PATH`` names a checkout or bare git directory of the public
repository kunisura/TdZdd (header-only C++); the script builds ``apps/ddqueens`` with
``g++ -O3 -march=native -fopenmp`` into ``~/.cache/excover-bench/tdzdd/``. What is
missing is said on a line of its own, and the rest still runs.

Usage: ``python benchmarks/counting_sets.py --alg-lab PATH [--set run_set|
exact_cover_benchmark|queens] [--limit N] [--largest N] [--timeout S] [--routes LIST]
[--memory GB] [--knuth-dir DIR] [--tdzdd PATH] [--queens 12-14] [--rounds 3]
[--allow-load]``.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from io import BytesIO
from pathlib import Path

from _load import MIN_ROUNDS, add_load_flag, interleaved, load_line, ratio_text

from excover import ExactCover
from excover.errors import ExcoverError, FormatError

__all__ = ["main", "read_alg_lab"]

CACHE = Path.home() / ".cache" / "excover-bench"
SETS = ("run_set", "exact_cover_benchmark", "knuth")
KNUTH_FILES = Path(__file__).resolve().parent.parent / "tests" / "data" / "knuth"
EXCOVER_ROUTES: tuple[str, ...] = (
    "auto",
    "search",
    "search:dlx",
    "search:bits",
    "search:cells",
    "zdd",
)
EXCOVER_ROUTES += ("frontier", "dxz", "topdown", "columns", "components", "sat")
KNUTH = {"DLX1": "dlx1", "DLX6": "dlx6"}
DEFAULT_ROUTES = "auto,search,search:bits,search:cells,zdd,frontier,dxz,DLX1,DLX6"

#: Knuth's closing line on stderr.
ALTOGETHER = re.compile(r"Altogether (\d+) solutions?,")
#: ddqueens' closing figures.
DDQUEENS = re.compile(r"#node = (\d+), #solution = (\d+)")

#: Exit status of a child whose route does not take the problem.
NOT_APPLICABLE = 3

#: The queens child: what a user runs, and nothing else (no json, no argparse: every
#: module imported counts in the process's peak memory); prints count, seconds, nodes.
QUEENS_CHILD = """import sys, time
from excover.puzzles.queens import queens
problem = queens(int(sys.argv[1]))
start = time.perf_counter()
family = problem.zdd()
seconds = time.perf_counter() - start
print(family.count(), seconds, family.size)
"""
#: The launcher's closing line on stderr: the peak resident KiB of what it ran.
PEAK_RSS = re.compile(r"^peak_rss (\d+)$", re.MULTILINE)


# ----- the formats of alg-lab -----


def _numbers(fields: Sequence[str], source: str, line: int) -> list[int]:
    """The integers of ``fields``, or a FormatError naming the line."""
    try:
        return [int(field) for field in fields]
    except ValueError:
        message = f"expected numbers, got {' '.join(fields)!r}"
        raise FormatError(message, source=source, line=line) from None


def _columns(numbers: list[int], width: int, source: str, line: int) -> list[int]:
    """The 1-based column numbers of a row as 0-based item indices, checked."""
    for column in numbers:
        if not 1 <= column <= width:
            raise FormatError(f"column {column} not in 1..{width}", source=source, line=line)
    return [column - 1 for column in numbers]


def _read_counted(lines: list[str], source: str) -> ExactCover:
    """run_set's format: ``COLUMNS ROWS``, then ``K C1 ... CK`` per row."""
    width, height = _numbers(lines[0].split(), source, 1)[:2]
    rows = []
    for number, text in enumerate(lines[1:], start=2):
        fields = _numbers(text.split(), source, number)
        if not fields:
            continue
        if fields[0] != len(fields) - 1:
            message = f"row says {fields[0]} columns but lists {len(fields) - 1}"
            raise FormatError(message, source=source, line=number)
        rows.append(_columns(fields[1:], width, source, number))
    if len(rows) != height:
        raise FormatError(f"header says {height} rows, file has {len(rows)}", source=source)
    return ExactCover.from_sparse(rows, width)


def _read_ec(lines: list[str], source: str) -> ExactCover:
    """exact_cover_benchmark's format: ``c`` comments, ``p ec COLUMNS``, ``s C1 C2 ...``."""
    width: int | None = None
    rows = []
    for number, text in enumerate(lines, start=1):
        fields = text.split()
        if not fields or fields[0] == "c":
            continue
        if fields[:2] == ["p", "ec"] and len(fields) == 3 and width is None:
            width = _numbers(fields[2:], source, number)[0]
        elif fields[0] == "s" and width is not None:
            rows.append(_columns(_numbers(fields[1:], source, number), width, source, number))
        else:
            raise FormatError(f"unexpected line {text.strip()!r}", source=source, line=number)
    if width is None:
        raise FormatError("no 'p ec COLUMNS' line", source=source)
    return ExactCover.from_sparse(rows, width)


def read_alg_lab(text: str, source: str = "<string>") -> ExactCover:
    """An instance of alg-lab in either of its formats (told apart by the first line: ``c``
    or ``p`` in the ``.ec`` format, two numbers in run_set's)."""
    lines = text.splitlines()
    first = next((line.split() for line in lines if line.strip()), None)
    if first is None:
        raise FormatError("empty instance", source=source)
    if first[0] in ("c", "p"):
        return _read_ec(lines, source)
    return _read_counted(lines, source)


# ----- the instances, from a checkout or a bare git directory -----


@dataclass(frozen=True)
class Instance:
    """One file of alg-lab: its name, size in bytes, and git blob id (the cache key)."""

    name: str
    path: str
    size: int
    blob: str


def _git(repo: Path, *args: str) -> bytes:
    """The output of a git command on the bare git directory ``repo``."""
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], check=True, capture_output=True
    ).stdout


def _is_checkout(repo: Path) -> bool:
    return (repo / "data").is_dir()


def list_instances(repo: Path, subset: str) -> list[Instance]:
    """The files of ``data/<subset>`` in a checkout or at HEAD of a bare git directory."""
    if _is_checkout(repo):
        found = []
        for file in sorted((repo / "data" / subset).iterdir()):
            data = file.read_bytes()
            blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
            found.append(Instance(file.stem, str(file), len(data), blob))
        return found
    listing = _git(repo, "ls-tree", "-r", "-l", "HEAD", f"data/{subset}/").decode()
    found = []
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        _mode, _kind, blob, size = meta.split()
        found.append(Instance(Path(path).stem, path, int(size), blob))
    return found


def converted(repo: Path, instance: Instance) -> Path:
    """The instance in Knuth's format, converted once and cached by its blob id."""
    target = CACHE / "alg-lab" / f"{instance.blob}.dlx"
    if not target.exists():
        if _is_checkout(repo):
            text = Path(instance.path).read_text()
        else:
            text = _git(repo, "cat-file", "blob", instance.blob).decode()
        problem = read_alg_lab(text, instance.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = target.with_suffix(".tmp")
        scratch.write_text(problem.to_dlx())
        scratch.replace(target)
    return target


def natural_key(name: str) -> tuple[str | int, ...]:
    """Sorts ``bell-9`` before ``bell-10``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def select(found: list[Instance], limit: int | None, largest: int | None) -> list[Instance]:
    """The ``largest`` biggest files (by bytes), or the first ``limit`` by name; by name."""
    if largest is not None:
        found = sorted(found, key=lambda item: item.size)[-largest:]
    found = sorted(found, key=lambda item: natural_key(item.name))
    return found if limit is None else found[:limit]


# ----- the child: one route on one problem -----


def _frontier(problem: ExactCover) -> int | None:
    from excover.zdd import frontier

    return frontier.count(problem)


def _auto(problem: ExactCover) -> tuple[int, str]:
    from excover import counting

    found = counting.count(problem)
    return found.count, found.route


def _components(problem: ExactCover) -> int | None:
    from excover import counting
    from excover.counting.routes import ROUTES

    if ROUTES["components"].start(problem) is None:
        return None
    return counting.count(problem, route="components").count


def _by_dxz(problem: ExactCover) -> int:
    from excover.zdd import dxz

    return dxz.by_dxz(problem, dxz.search_manager()).count()


def _topdown(problem: ExactCover) -> int | None:
    from excover.zdd import dxz

    if not dxz.topdown_applies(problem):
        return None
    return dxz.topdown(problem, dxz.search_manager()).count()


def route_function(route: str) -> Callable[[ExactCover], int | tuple[int, str] | None]:
    """What a route runs; None from it means the route does not take the problem; auto
    gives the count and the route that finished."""
    if route.startswith("search:"):
        engine = route.removeprefix("search:")
        return lambda problem: problem.count(method="search", engine=engine)
    table: dict[str, Callable[[ExactCover], int | tuple[int, str] | None]] = {
        "auto": _auto,
        "components": _components,
        "search": lambda problem: problem.count(method="search"),
        "zdd": lambda problem: problem.count(method="zdd"),
        "sat": lambda problem: problem.count(method="sat"),
        "frontier": _frontier,
        "dxz": _by_dxz,
        "topdown": _topdown,
        "columns": lambda problem: problem.zdd("columns").count(),
    }
    return table[route]


def child(route: str, argument: str) -> int:
    """Run ``route`` on the problem in file ``argument``; print a JSON line with the count
    and seconds."""
    problem = ExactCover.read(argument)
    start = time.perf_counter()
    try:
        count = route_function(route)(problem)
    except ExcoverError as error:
        print(json.dumps({"error": str(error)}))
        return NOT_APPLICABLE
    seconds = time.perf_counter() - start
    if count is None:
        return NOT_APPLICABLE
    count, finished = count if isinstance(count, tuple) else (count, None)
    print(json.dumps({"count": str(count), "seconds": seconds, "route": finished}))
    return 0


# ----- running a process under a timeout, with its peak memory -----


@dataclass(frozen=True)
class Outcome:
    """A finished process: exit status, wall seconds, peak resident KiB, its output; or
    ``timed_out``; ``cpu``, its CPU seconds (user and system, its waited-for children's
    included: a launcher's figure is its program's)."""

    status: int
    seconds: float
    peak_kib: int
    stdout: str
    stderr: str
    timed_out: bool = False
    cpu: float = 0.0


def run_process(
    argv: list[str], timeout: float, stdin: Path | None = None, memory: float | None = None
) -> Outcome:
    """Run ``argv`` (input from ``stdin``), kill it past ``timeout`` seconds, and take its
    peak resident memory from ``wait4``; ``memory`` caps its address space in GB."""

    def limit() -> None:
        if memory is not None:
            cap = int(memory * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        source = stdin.open("rb") if stdin is not None else subprocess.DEVNULL
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, stdin=source, stdout=out, stderr=err, preexec_fn=limit, start_new_session=True
        )
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                os.killpg(process.pid, 9)  # the whole group: a launcher's child as well
                os.wait4(process.pid, 0)
                process.returncode = -9
                return Outcome(-9, timeout, 0, "", "", timed_out=True)
            time.sleep(0.005)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if stdin is not None and hasattr(source, "close"):
            source.close()
        out.seek(0)
        err.seek(0)
        text_out = out.read().decode(errors="replace")
        text_err = err.read().decode(errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return Outcome(process.returncode, seconds, usage.ru_maxrss, text_out, text_err, cpu=cpu)


# ----- one cell of the table -----


@dataclass(frozen=True)
class Cell:
    """A route's result on an instance: count and seconds, or a mark (``> T``, ``n/a``,
    ``err``); ``wraps`` for Knuth's 64-bit counts."""

    count: int | None = None
    seconds: float | None = None
    mark: str = ""
    wraps: bool = False
    route: str | None = None

    def text(self) -> str:
        if self.seconds is None:
            return self.mark
        return f"{self.seconds:.3f}" + (f" ({self.route})" if self.route else "")


def run_excover(route: str, path: Path, timeout: float, memory: float) -> Cell:
    """One excover route on a converted file, in a child process."""
    argv = [sys.executable, __file__, "--child", route, str(path)]
    outcome = run_process(argv, timeout, memory=memory)
    if outcome.timed_out:
        return Cell(mark=f"> {timeout:g}")
    if outcome.status == NOT_APPLICABLE:
        return Cell(mark="n/a")
    if outcome.status != 0:
        return Cell(mark="err")
    result = json.loads(outcome.stdout.strip().splitlines()[-1])
    return Cell(int(result["count"]), float(result["seconds"]), route=result.get("route"))


def run_knuth(program: Path, path: Path, timeout: float) -> Cell:
    """One of Knuth's programs on a file, ``program < path``, the count from stderr."""
    outcome = run_process([str(program)], timeout, stdin=path)
    if outcome.timed_out:
        return Cell(mark=f"> {timeout:g}")
    found = ALTOGETHER.search(outcome.stderr)
    if outcome.status != 0 or found is None:
        return Cell(mark="err")
    return Cell(int(found.group(1)), outcome.seconds, wraps=True)


def agree(cells: dict[str, Cell]) -> int | str | None:
    """The common count of the finished cells, None if none finished, or ``MISMATCH``."""
    exact = {cell.count for cell in cells.values() if cell.count is not None and not cell.wraps}
    wrapped = {cell.count for cell in cells.values() if cell.count is not None and cell.wraps}
    if len(exact) > 1:
        return "MISMATCH"
    if exact:
        count = exact.pop()
        return "MISMATCH" if any(other != count % 2**64 for other in wrapped) else count
    if len(wrapped) > 1:
        return "MISMATCH"
    return wrapped.pop() if wrapped else None


def ratio(numerator: Cell | None, denominator: float | None, timeout: float) -> str:
    """``numerator``'s seconds over ``denominator``; past the timeout, a lower bound."""
    if numerator is None or not denominator:
        return "—"
    if numerator.seconds is None:
        return f"> {timeout / denominator:.0f}" if numerator.mark.startswith(">") else "—"
    return f"{numerator.seconds / denominator:.2f}"


# ----- the sets -----


def knuth_programs(directory: Path, routes: list[str]) -> dict[str, Path]:
    """Knuth's programs asked for and found; a line for each one missing."""
    found = {}
    for route in routes:
        if route not in KNUTH:
            continue
        program = directory / KNUTH[route]
        if os.access(program, os.X_OK):
            found[route] = program
        else:
            print(
                f"missing: {route} ({program}); build it from ascherer/cwebtest's "
                f"{KNUTH[route]}.w with ctangle (see this script's docstring)"
            )
    return found


def set_files(args: argparse.Namespace) -> list[tuple[str, Path]] | None:
    """The instances of ``args.set`` as (name, file in Knuth's format); None (with a line
    saying what is missing) when the alg-lab data is not given."""
    if args.set == "knuth":
        files = sorted(KNUTH_FILES.glob("*.dlx"), key=lambda file: natural_key(file.stem))
        files = files if args.limit is None else files[: args.limit]
        return [(file.stem, file) for file in files]
    repo = args.alg_lab
    if repo is None or not (_is_checkout(repo) or (repo / "HEAD").exists()):
        print(
            "missing: the alg-lab data; get it with `git clone "
            "https://github.com/loiufam/alg-lab` and pass --alg-lab PATH (the checkout, or "
            "a bare git directory of that public repository)"
        )
        return None
    instances = select(list_instances(repo, args.set), args.limit, args.largest)
    return [(instance.name, converted(repo, instance)) for instance in instances]


def count_set(args: argparse.Namespace, routes: list[str]) -> int:
    """The table of one set; exit status 1 on a disagreement. ``auto/best`` is auto's
    time over the best of excover's other routes that ran, ``auto/K`` over Knuth's."""
    files = set_files(args)
    if files is None:
        return 0
    knuth = knuth_programs(args.knuth_dir, routes)
    routes = [route for route in routes if route in EXCOVER_ROUTES or route in knuth]
    header = ["instance", "options", "items", "count", *routes, "auto/best", "auto/K"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = False
    for name, path in files:
        problem = ExactCover.read(path)
        cells = {}
        for route in routes:
            if route in knuth:
                cells[route] = run_knuth(knuth[route], path, args.timeout)
            else:
                cells[route] = run_excover(route, path, args.timeout, args.memory)
        count = agree(cells)
        failed |= count == "MISMATCH"
        ours = [
            cell.seconds
            for route, cell in cells.items()
            if route != "auto" and route not in knuth and cell.seconds is not None
        ]
        knuth_times = [cells[name].seconds for name in knuth if cells[name].seconds is not None]
        row = [name, str(problem.n_options), str(problem.n_items)]
        row.append("—" if count is None else f"{count:,}" if isinstance(count, int) else count)
        row += [cells[route].text() for route in routes]
        auto = cells.get("auto")
        row.append(ratio(auto, min(ours, default=None), args.timeout))
        row.append(ratio(auto, min(knuth_times, default=None), args.timeout))  # type: ignore[type-var]
        print("| " + " | ".join(row) + " |", flush=True)
    return 1 if failed else 0


def tdzdd_program(source: Path | None) -> Path | None:
    """ddqueens, built once from a TdZdd checkout or bare git directory; None with a line
    saying what is missing."""
    target = CACHE / "tdzdd" / "ddqueens"
    if target.exists():
        return target
    if source is None:
        print(
            f"missing: TdZdd's ddqueens ({target}); pass --tdzdd PATH, a checkout (or bare "
            "git directory) of the public repository kunisura/TdZdd"
        )
        return None
    build = CACHE / "tdzdd" / "src"
    if (source / "include").is_dir():
        shutil.copytree(source, build, dirs_exist_ok=True)
    else:
        archive = _git(source, "archive", "HEAD", "include", "apps/ddqueens")
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(build, filter="data")
    command = ["g++", "-O3", "-march=native", "-fopenmp", "-DNDEBUG", "-I", str(build / "include")]
    command += ["-o", str(target), str(build / "apps" / "ddqueens" / "ddqueens.cpp")]
    try:
        subprocess.run(command, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"missing: TdZdd's ddqueens, whose build failed: {error}")
        return None
    return target


def peak_launcher() -> Path | None:
    """``benchmarks/peak_rss.c`` built once into the cache (see the module notes), or None
    with a line saying the figures are floored at this script's size."""
    source = Path(__file__).resolve().parent / "peak_rss.c"
    target = CACHE / "peak_rss"
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(["cc", "-O2", "-o", str(target), str(source)], check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(
            f"missing: the peak_rss launcher ({error}); peak memory from this script's "
            "wait4, at least this script's own resident size"
        )
        return None
    return target


def measured(
    argv: list[str], timeout: float, launcher: Path | None, memory: float | None = None
) -> Outcome:
    """``argv`` run under the peak_rss ``launcher`` when there is one (its figure
    replaces the one of ``wait4``, and its line is taken off stderr), else as it is."""
    if launcher is None:
        return run_process(argv, timeout, memory=memory)
    outcome = run_process([str(launcher), *argv], timeout, memory=memory)
    found = PEAK_RSS.search(outcome.stderr)
    if outcome.timed_out or found is None:
        return outcome
    stderr = outcome.stderr[: found.start()] + outcome.stderr[found.end() :]
    peak = int(found.group(1))
    return Outcome(outcome.status, outcome.seconds, peak, outcome.stdout, stderr, cpu=outcome.cpu)


def queens_file(n: int, scratch: Path) -> Path:
    """Knuth's ``queensN.dlx`` from the repository when it is there, else the same
    problem written by :func:`excover.puzzles.queens.queens` (option for option Knuth's)."""
    from excover.puzzles.queens import queens

    path = KNUTH_FILES / f"queens{n}.dlx"
    if path.exists():
        return path
    path = scratch / f"queens{n}.dlx"
    queens(n).write(path)
    return path


def queens_table(args: argparse.Namespace) -> int:
    """excover's queens ZDD beside ddqueens': seconds, peak memory, nodes and ratios,
    for ``queens(n).zdd()`` and for ``excover count queensN.dlx --method zdd``. The three
    programs run interleaved, ``--rounds`` rounds (see ``_load``), the best of each
    kept; ratios are withheld above a load average of 1.5 unless ``--allow-load``.
    ``python MiB``, the interpreter alone, is the floor under excover's memory."""
    import excover

    low, _, high = args.queens.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    program = tdzdd_program(args.tdzdd)
    # compiled once, as an installed copy is (PYTHONDONTWRITEBYTECODE would otherwise make
    # each child compile what it imports, at a cost in time and in peak memory)
    compileall.compile_dir(Path(excover.__file__).parent, quiet=1)
    launcher = peak_launcher()
    bare = interpreter_start(args, launcher)
    print(load_line())
    header = ["n", "solutions", "zdd() s", "zdd() MiB", "CLI s", "CLI MiB", "python s"]
    header += ["python MiB"]
    header += ["nodes", "ddqueens s", "ddqueens MiB", "zdd() time ratio", "CLI time ratio"]
    header += ["zdd() memory ratio", "CLI memory ratio", "CLI CPU ratio", "load"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for n in sizes:
            runs = [
                ("zdd", [sys.executable, "-c", QUEENS_CHILD, str(n)]),
                ("cli", [sys.executable, "-m", "excover", "count"]),
            ]
            runs[1][1].extend([str(queens_file(n, Path(scratch))), "--method", "zdd"])
            if program is not None:
                runs.append(("ddqueens", [str(program), str(n)]))
            outcomes, load = interleaved(
                [(name, _runner(argv, args, launcher)) for name, argv in runs], args.rounds
            )
            row, bad = queens_row(n, outcomes, bare, load, args)
            failed = failed or bad
            print("| " + " | ".join(row) + " |", flush=True)
    print(load_line())
    return 1 if failed else 0


def interpreter_start(args: argparse.Namespace, launcher: Path | None) -> Outcome:
    """The interpreter doing nothing (``python -c pass``), ``--rounds`` times: the run of
    least time, with the least peak memory of them all."""
    runs = [
        measured([sys.executable, "-c", "pass"], args.timeout, launcher)
        for _ in range(max(args.rounds, MIN_ROUNDS))
    ]
    fastest = min(runs, key=lambda run: run.seconds)
    return replace(fastest, peak_kib=min(run.peak_kib for run in runs))


def _runner(
    argv: list[str], args: argparse.Namespace, launcher: Path | None
) -> Callable[[], Outcome]:
    return lambda: measured(argv, args.timeout, launcher, args.memory)


def queens_row(
    n: int, outcomes: dict[str, list[Outcome]], bare: Outcome, load: float, args: argparse.Namespace
) -> tuple[list[str], bool]:
    """One row of the queens table from the interleaved runs, and whether the counts
    disagree. A program's figures are its best run's seconds and its lowest peak memory;
    excover's zdd() seconds are those the child reports for ``zdd()`` alone, the CLI's
    and ddqueens' their whole process. The CLI's CPU ratio is that of the two processes'
    least CPU time (user and system): on a loaded machine it moves less than wall time,
    which waits for the cores."""
    counts: set[int] = set()
    best: dict[str, tuple[float, int]] = {}  # seconds, peak KiB
    cpu: dict[str, float] = {}  # the least CPU seconds of a whole process
    nodes = None
    for name, runs in outcomes.items():
        done = [run for run in runs if not run.timed_out and not run.status]
        if len(done) < len(runs):
            continue
        if name == "zdd":
            words = [run.stdout.split() for run in done]
            counts.update(int(w[0]) for w in words)
            nodes = int(words[0][2])
            best[name] = (min(float(w[1]) for w in words), min(run.peak_kib for run in done))
            continue
        if name == "cli":
            counts.update(int(run.stdout.split()[0]) for run in done)
        else:
            found = [DDQUEENS.search(run.stdout + run.stderr) for run in done]
            counts.update(int(match.group(2)) for match in found if match)
        best[name] = (min(run.seconds for run in done), min(run.peak_kib for run in done))
        cpu[name] = min(run.cpu for run in done)
    row = [str(n), "MISMATCH" if len(counts) > 1 else (f"{counts.pop():,}" if counts else "—")]
    for name in ("zdd", "cli"):
        row += (
            [f"{best[name][0]:.2f}", f"{best[name][1] / 1024:.1f}"]
            if name in best
            else ["err", "—"]
        )
    row += [f"{bare.seconds:.2f}", f"{bare.peak_kib / 1024:.1f}"]
    row.append("—" if nodes is None else f"{nodes:,}")
    theirs = best.get("ddqueens")
    row += [f"{theirs[0]:.2f}", f"{theirs[1] / 1024:.1f}"] if theirs else ["—", "—"]
    for index in (0, 1):  # time ratios, then memory ratios
        for name in ("zdd", "cli"):
            if theirs and name in best:
                row.append(ratio_text(best[name][index] / theirs[index], load, args.allow_load))
            else:
                row.append("—")
    if "cli" in cpu and cpu.get("ddqueens"):
        row.append(ratio_text(cpu["cli"] / cpu["ddqueens"], load, args.allow_load))
    else:
        row.append("—")
    row.append(f"{load:.2f}")
    return row, len(counts) > 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alg-lab", type=Path, help="checkout or bare git dir of alg-lab")
    parser.add_argument("--set", choices=[*SETS, "queens"], default="run_set")
    parser.add_argument("--limit", type=int, help="the first N instances by name")
    parser.add_argument("--largest", type=int, help="the N largest instances (bytes)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--routes", default=DEFAULT_ROUTES, help="comma-separated routes")
    parser.add_argument("--memory", type=float, default=6.0, help="GB per excover run")
    parser.add_argument("--knuth-dir", type=Path, default=CACHE / "knuth")
    parser.add_argument("--tdzdd", type=Path, help="checkout or bare git dir of TdZdd")
    parser.add_argument("--queens", default="12-14", help="n or LOW-HIGH")
    parser.add_argument("--rounds", type=int, default=MIN_ROUNDS, help="queens: interleaved rounds")
    add_load_flag(parser)
    parser.add_argument("--child", nargs=2, metavar=("ROUTE", "ARG"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(*args.child)
    if args.set == "queens":
        return queens_table(args)
    routes = [route.strip() for route in args.routes.split(",") if route.strip()]
    unknown = [route for route in routes if route not in EXCOVER_ROUTES and route not in KNUTH]
    if unknown:
        parser.error(f"unknown routes {unknown}; choose from {[*EXCOVER_ROUTES, *KNUTH]}")
    return count_set(args, routes)


if __name__ == "__main__":
    sys.exit(main())
