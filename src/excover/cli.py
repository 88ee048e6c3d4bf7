"""The ``excover`` command: count or list the solutions of an exact cover problem.

``excover count FILE`` and ``excover solve FILE`` read a problem in Knuth's DLX text format
(``-`` reads standard input) and run the dancing-links search on it. Results go to stdout,
as text for people or, with ``--json``, as one JSON document for programs; statistics and
messages go to stderr, so stdout stays clean for pipes.

Solutions are streamed: each one is written as soon as the search finds it, so listing
millions of solutions takes no memory, and ``excover solve FILE | head`` stops the search
as soon as ``head`` has seen enough.

Exit status: 0 success; 1 when ``--timeout`` or ``--max-nodes`` stopped the search (the
partial result is still printed and stderr says so); 2 bad usage or bad input (one line
``file:line: message`` on stderr); 130 Ctrl-C (the partial result is printed too, with
statistics on stderr); 141 when the reader of stdout went away (as a process killed by
SIGPIPE would).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

from excover import __version__
from excover.dlx import HEURISTICS, Search
from excover.errors import ExcoverError, LimitReached, ProblemError, UsageError
from excover.formats.dlx import parse_dlx_bytes
from excover.lang.cli import add_run_command
from excover.parallel.cli import add_task_options, count_tasks, search_progress, uses_tasks
from excover.problem import ExactCover
from excover.puzzles.cli import add_puzzle_commands
from excover.puzzles.nonogram_cli import add_nonogram_command
from excover.sat.amo import AMO_ENCODINGS

__all__ = ["main"]

#: Exit codes of the command.
EXIT_OK, EXIT_LIMIT, EXIT_USAGE, EXIT_INTERRUPT, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141

_T = TypeVar("_T")


# --------------------------------------------------------------------------- arguments


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, not {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be a non-negative number, not {text!r}")
    return value


_DESCRIPTION = """\
Exact cover: dancing links (Knuth's Algorithms X, C and M), ZDDs of all the solutions
(DXZ), SAT encodings, combine's .cmb tiling language, and puzzles.

count, solve and dimacs read Knuth's DLX1/DLX2/DLX3 text format: lines starting with '|'
are comments; the first other line names the items (primary items, then '|', then
secondary items); every following line is one option, a list of items ('item:color' on
secondary items).

examples:
  excover count examples/pento6x10.dlx --stats      count the solutions, with statistics
  excover count examples/pento6x10.dlx --workers 2  the same on two processes
  excover solve examples/pento6x10.dlx --limit 3    print three solutions
  excover run examples/caml.cmb                     a .cmb program: tile the camel
  excover sudoku 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
  excover nonogram examples/nonograms/heart.non     paint a nonogram"""

_EPILOG = """\
exit status: 0 success; 1 stopped by --timeout or --max-nodes; 2 bad usage or bad input;
130 interrupted by Ctrl-C. A stopped or interrupted run still prints its partial result.
Run 'excover COMMAND --help' for the options of a command."""

_JSON_FIELDS = """\
"complete" says whether the whole search tree was explored; "seed" is null unless the
heuristic is random; "stats" holds solutions, nodes, updates, seconds, complete, algorithm
and stopped_by: null, "max_solutions" (--limit), "max_nodes", "timeout" or "interrupt"."""

_COUNT_DESCRIPTION = f"""\
Count the solutions of an exact cover problem and print the count on stdout.

The count is exact (no overflow). With --json, stdout gets one JSON object:
  {{"count": N, "complete": ..., "heuristic": "mrv", "seed": ..., "stats": {{...}}}}
{_JSON_FIELDS}"""

_SOLVE_DESCRIPTION = f"""\
Find solutions of an exact cover problem and print them on stdout as they are found.

Every solution is printed as a header line 'solution K:' followed by its options, one
per line, each as the item names of the option in input order; a blank line separates
two solutions. Without --limit every solution is printed (streamed: pipe into 'head' or
press Ctrl-C to stop early); 'excover solve FILE --limit 1' finds one.
With --json, stdout gets one JSON object, one solution per line:
  {{"solutions": [{{"options": [option indices, from 0], "items": [[item names], ...]}},
                 ...],
   "complete": ..., "heuristic": "mrv", "seed": ..., "stats": {{...}}}}
{_JSON_FIELDS}"""


def _common_options() -> argparse.ArgumentParser:
    """The options shared by ``count`` and ``solve``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "file", metavar="FILE", help="problem in Knuth's DLX format; '-' reads stdin"
    )
    common.add_argument(
        "--heuristic",
        choices=list(HEURISTICS),
        default="mrv",
        help="item choice: mrv = fewest remaining options, ties to the leftmost item "
        "(Knuth's DLX1, the default); leftmost = first uncovered primary item; "
        "random = mrv with ties broken at random",
    )
    common.add_argument(
        "--seed",
        type=_int,
        metavar="N",
        help="seed of --heuristic random (default: a fresh random seed, shown by --stats)",
    )
    common.add_argument(
        "--stats",
        action="store_true",
        help="print statistics on stderr: solutions, nodes, updates (Knuth's DLX1 "
        "definitions), time, algorithm",
    )
    common.add_argument(
        "--json", action="store_true", help="print one machine-readable JSON object on stdout"
    )
    common.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help="stop the whole run after this many seconds (exit status 1)",
    )
    common.add_argument(
        "--max-nodes",
        type=_non_negative_int,
        metavar="N",
        help="stop the whole run after N nodes of the search tree (exit status 1)",
    )
    common.add_argument(
        "--solver",
        metavar="NAME",
        help="with --method sat: a python-sat solver (cadical, glucose4, minisat22, kissat, "
        "...), 'ext:COMMAND' for an outside solver, or ganak (count only); default: "
        "cadical (count races ganak against it on large counts, when pyganak is installed)",
    )
    common.add_argument(
        "--amo",
        choices=list(AMO_ENCODINGS),
        help="with --method sat: the at-most-one encoding (default: auto)",
    )
    return common


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="excover",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"excover {__version__}")
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    common = _common_options()
    count = commands.add_parser(
        "count",
        parents=[common],
        help="count the solutions",
        description=_COUNT_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    count.add_argument(
        "--method",
        choices=["dlx", "zdd", "sat", "auto"],
        default="dlx",
        help="dlx: dancing links (default); zdd: count on the DXZ family of all solutions "
        "(--stats then shows its ZDD nodes); sat: a SAT encoding, solutions enumerated by "
        "CaDiCaL, raced by ganak if there are many and pyganak is installed; auto: "
        "whichever suits the problem",
    )
    add_task_options(count)
    count.set_defaults(run=_count)
    solve = commands.add_parser(
        "solve",
        parents=[common],
        help="print solutions",
        description=_SOLVE_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument(
        "--limit",
        type=_positive_int,
        metavar="K",
        help="stop after K solutions (default: print them all)",
    )
    solve.add_argument(
        "--method",
        choices=["dlx", "sat"],
        default="dlx",
        help="dlx: dancing links (default); sat: a SAT encoding solved by CaDiCaL (or "
        "--solver), each new solution found after blocking the ones before",
    )
    solve.set_defaults(run=_solve)
    _add_dimacs_command(commands)
    add_puzzle_commands(commands)
    add_nonogram_command(commands)
    add_run_command(commands)
    return parser


_DIMACS_DESCRIPTION = """\
Write an exact cover problem as a SAT formula in DIMACS CNF, for any SAT solver.

Variable k is option k-1 of the problem (options numbered from 0 in file order); further
variables are auxiliary. Comment lines at the top repeat the problem ('c excover option k
...' lists the items of variable k) and give the projection set ('c p show ... 0'), so a
model printed by any solver decodes into a solution, and a projected model counter
(ganak, d4) counts the solutions."""


def _add_dimacs_command(commands: Any) -> None:
    """The ``dimacs`` command: write the CNF encoding of a problem."""
    dimacs = commands.add_parser(
        "dimacs",
        help="write the problem as a SAT formula (DIMACS CNF)",
        description=_DIMACS_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dimacs.add_argument(
        "file", metavar="FILE", help="problem in Knuth's DLX format; '-' reads stdin"
    )
    dimacs.add_argument(
        "-o", "--output", metavar="OUT", default="-", help="output file (default: stdout)"
    )
    dimacs.add_argument(
        "--amo",
        choices=list(AMO_ENCODINGS),
        default="auto",
        help="at-most-one encoding (default: auto = pairwise for at most 6 options, else "
        "seqcounter)",
    )
    dimacs.set_defaults(run=_dimacs)


# --------------------------------------------------------------------------- input


def _read_problem(path: str) -> ExactCover:
    """Parse the problem in ``path`` (``-``: stdin); errors name the file and the line."""
    if path != "-":
        try:
            return ExactCover.read(path)
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    source = "<stdin>"
    try:
        data = sys.stdin.buffer.read()
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror or exc}") from None
    return parse_dlx_bytes(data, source, ExactCover)


# --------------------------------------------------------------------------- searching

#: The longest stretch of search (seconds) before the command looks at Ctrl-C again.
_SLICE = 0.05

#: How the command line names each reason for a run to stop early.
_STOP_CAUSES = {
    "max_solutions": "stopped by --limit",
    "max_nodes": "stopped by --max-nodes",
    "timeout": "stopped by --timeout",
    "interrupt": "interrupted",
}


class _Stopped(Exception):
    """The run ended early; ``reason`` is a key of ``_STOP_CAUSES``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Runner:
    """Drives one :class:`~excover.Search` for the command, in slices of ``_SLICE`` seconds.

    The engine keeps its state when a slice ends, so slicing costs next to nothing, and the
    command can act between two slices: it enforces ``--timeout`` (a slice ends at the
    deadline or after ``_SLICE`` seconds, whichever is first) and it notices Ctrl-C.
    ``--max-nodes`` is the search's own whole-run bound. Ctrl-C only raises a flag, so it
    never falls between the engine finding a solution and the command printing it: every
    solution the statistics count has been printed. A second Ctrl-C raises KeyboardInterrupt
    at once.
    """

    def __init__(self, search: Search, args: argparse.Namespace) -> None:
        self.search = search
        self.max_nodes: int | None = args.max_nodes
        self.deadline = None if args.timeout is None else time.monotonic() + args.timeout
        self.interrupted = False
        self.tick: Callable[[], None] | None = None  # called between slices (progress)

    def step(self, call: Callable[[], _T]) -> _T:
        """``call()`` (``search.count`` or ``search.first``), resumed until it returns."""
        search = self.search
        while True:
            if self.interrupted:
                raise _Stopped("interrupt")
            now = time.monotonic()
            end = now + _SLICE if self.deadline is None else min(now + _SLICE, self.deadline)
            search.timeout = search.stats.seconds + max(0.0, end - now)
            search.max_nodes = self.max_nodes
            try:
                return call()
            except LimitReached as exc:
                if exc.reason != "timeout":
                    raise _Stopped(exc.reason) from None
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    raise _Stopped("timeout") from None
                if self.tick is not None:
                    self.tick()

    def solutions(self, limit: int | None) -> Iterator[list[int]]:
        """The solutions, one by one, until the last one or ``limit`` of them."""
        found = 0
        while limit is None or found < limit:
            solution = self.step(self.search.first)
            if solution is None:
                return
            found += 1
            yield solution
        raise _Stopped("max_solutions")

    def run(self, body: Callable[[], object]) -> str | None:
        """Run ``body``, which drives the search; return why it stopped early, or None."""
        with self._noting_ctrl_c():
            try:
                body()
            except _Stopped as exc:
                return exc.reason
            except KeyboardInterrupt:
                return "interrupt"
        return None

    @contextmanager
    def _noting_ctrl_c(self) -> Iterator[None]:
        """Within the block, Ctrl-C sets ``interrupted`` rather than raising (first time).

        Left alone when Ctrl-C is ignored (a background job) or handled by a program that
        calls :func:`main`, or off the main thread: the engine's KeyboardInterrupt stops
        the run then.
        """
        if (
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            or threading.current_thread() is not threading.main_thread()
        ):
            yield
            return

        def note(signum: int, frame: FrameType | None) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        signal.signal(signal.SIGINT, note)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _new_search(problem: ExactCover, args: argparse.Namespace) -> Search:
    return problem.search(heuristic=args.heuristic, seed=args.seed)


# --------------------------------------------------------------------------- output


def _text_entry(problem: ExactCover, solution: list[int], number: int) -> str:
    """Solution ``number`` for people: a header line, then one option per line."""
    gap = "\n" if number > 1 else ""
    return f"{gap}solution {number}:\n{problem.format_solution(solution)}\n"


def _json_entry(problem: ExactCover, solution: list[int], number: int) -> str:
    """Solution ``number`` as one line of the JSON array of solutions."""
    items = [problem.option_items(option) for option in solution]
    comma = "," if number > 1 else ""
    return f"{comma}\n{json.dumps({'options': solution, 'items': items})}"


def _stats(search: Search, stopped_by: str | None) -> dict[str, Any]:
    """The statistics of the run, with what stopped it as the command saw it."""
    stats = search.stats.as_dict()
    if stopped_by is not None:
        stats["stopped_by"] = stopped_by
    return stats


def _json_tail(search: Search, stopped_by: str | None) -> dict[str, Any]:
    """The fields that end every JSON result: completeness, how items were chosen, stats."""
    stats = _stats(search, stopped_by)
    seed = search.seed if search.heuristic == "random" else None
    return {
        "complete": stats["complete"],
        "heuristic": search.heuristic,
        "seed": seed,
        "stats": stats,
    }


def _stats_lines(search: Search, stopped_by: str | None) -> list[str]:
    """The statistics of the run as ``name: value`` lines, for people."""
    stats = _stats(search, stopped_by)
    seconds, updates = stats["seconds"], stats["updates"]
    rate = f" ({updates / seconds / 1e6:.1f} M updates/s)" if seconds else ""
    heuristic = search.heuristic
    if heuristic == "random":
        heuristic += f" (seed {search.seed})"
    state = "complete" if stopped_by is None else _STOP_CAUSES[stopped_by]
    return [
        f"solutions: {stats['solutions']}",
        f"nodes: {stats['nodes']}",
        f"updates: {updates}",
        f"time: {seconds:.3f} s{rate}",
        f"algorithm: {stats['algorithm']}",
        f"heuristic: {heuristic}",
        f"search: {state}",
    ]


def _finish(search: Search, stopped_by: str | None, args: argparse.Namespace) -> int:
    """Say on stderr what stopped the run, and the statistics; return the exit status."""
    sys.stdout.flush()  # the result first, when stdout and stderr share a terminal or file
    if stopped_by in ("max_nodes", "timeout", "interrupt"):
        stats = search.stats
        print(
            f"excover: {_STOP_CAUSES[stopped_by]} after {stats.nodes} nodes and "
            f"{stats.seconds:.3f} s; the result is partial ({stats.solutions} solutions found)",
            file=sys.stderr,
        )
    if args.stats or stopped_by == "interrupt":
        print("\n".join(_stats_lines(search, stopped_by)), file=sys.stderr)
    if stopped_by == "interrupt":
        return EXIT_INTERRUPT
    return EXIT_LIMIT if stopped_by in ("max_nodes", "timeout") else EXIT_OK


# --------------------------------------------------------------------------- commands


def _count(args: argparse.Namespace) -> int:
    from excover.sat.cli import check_sat_flags

    check_sat_flags(args)
    problem = _read_problem(args.file)
    if uses_tasks(args):
        return count_tasks(problem, args)
    if args.method == "sat":
        from excover.sat.cli import count_sat

        return count_sat(problem, args)
    search = None
    if args.method != "dlx":
        from excover.zdd.cli import count_zdd

        outcome = count_zdd(problem, args)
        if isinstance(outcome, int):
            return outcome
        search = outcome  # the DLX run --method auto chose, to go on with (or None)
    search = search or _new_search(problem, args)
    runner = _Runner(search, args)
    runner.tick = progress = search_progress(problem, search, args)
    stopped_by = runner.run(lambda: runner.step(search.count))
    if progress is not None:
        progress.close()
    count = search.stats.solutions
    if args.json:
        print(json.dumps({"count": count, **_json_tail(search, stopped_by)}))
    else:
        print(count)
    return _finish(search, stopped_by, args)


def _solve(args: argparse.Namespace) -> int:
    from excover.sat.cli import check_sat_flags, solve_sat

    check_sat_flags(args)
    problem = _read_problem(args.file)
    if args.method == "sat":
        return solve_sat(problem, args)
    search = _new_search(problem, args)
    runner = _Runner(search, args)
    entry = _json_entry if args.json else _text_entry
    out = sys.stdout
    found = 0

    def body() -> None:
        nonlocal found
        for solution in runner.solutions(args.limit):
            found += 1
            out.write(entry(problem, solution, found))
            out.flush()  # the next solution may be a long search away

    if args.json:
        out.write('{"solutions": [')
    stopped_by = runner.run(body)
    if args.json:
        tail = json.dumps(_json_tail(search, stopped_by))  # "{...}": continue the open object
        out.write(f"\n], {tail[1:]}\n")
    elif found == 0 and stopped_by is None:
        print("excover: no solution", file=sys.stderr)
    return _finish(search, stopped_by, args)


def _dimacs(args: argparse.Namespace) -> int:
    cnf = _read_problem(args.file).to_cnf(args.amo)
    if args.output == "-":
        sys.stdout.write(cnf.to_dimacs())
    else:
        try:
            cnf.write_dimacs(args.output)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return EXIT_OK


# --------------------------------------------------------------------------- main


def _exit_status(exc: SystemExit) -> int:
    """The exit status argparse asked for (it exits on --help, --version and errors)."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or EXIT_OK
    return EXIT_USAGE


def _error_line(exc: ExcoverError) -> str:
    """One line for stderr: ``file:line: message`` for bad input, else ``excover: ...``."""
    text = str(exc) if isinstance(exc, ProblemError) else f"excover: {exc}"
    return text.replace("\n", " ")


def _detach_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the final flush stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``excover`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns the exit status instead of exiting, so tests can call it in-process.
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return _exit_status(exc)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except ExcoverError as exc:
        print(_error_line(exc), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("excover: interrupted", file=sys.stderr)
        return EXIT_INTERRUPT
    except BrokenPipeError:
        _detach_stdout()
        return EXIT_BROKEN_PIPE
