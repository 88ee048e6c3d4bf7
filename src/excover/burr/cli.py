"""The ``excover disassemble`` command: which assemblies of a BurrTools puzzle come apart.

It finds the assemblies of one problem of an ``.xmpuzzle`` file (``--problem K``, from 0
as ``burrTxt -o``), disassembles each, and prints the number of assemblies, the solutions
(the assemblies that come apart) sorted by level as BurrTools sorts them, each with its
level and total number of moves (``--moves``: the moves too), and how many assemblies are
stuck or unknown. ``--json`` prints one document instead; ``--write OUT.xmpuzzle`` saves
the puzzle with the solutions and their separations as BurrTools stores them.
``--check`` disassembles nothing: it checks the separations stored in the file (every
problem's, or ``--problem K``'s).

``--workers N`` takes the assemblies apart on N processes (:mod:`excover.burr.pool`), and
``--dask ADDRESS`` on the workers of a Dask scheduler (as ``excover count --dask``), the
results the same for any N and on a cluster; ``--progress`` draws a bar of the assemblies done; with
``--checkpoint CK`` the assemblies done are saved to CK (:mod:`excover.burr.checkpoint`)
now and then, on Ctrl-C, on ``--timeout`` and at the end, and the same command run again
takes them from there and prints what a run without a stop prints.

Exit status: 0 done; 1 when ``--timeout`` stopped the run or ``--max-states`` or
``--max-memory`` left an assembly unknown (what was found is printed, marked partial); 2
bad input (a stored separation refused by ``--check`` included); 130 Ctrl-C. The
compiled search looks at the clock and for Ctrl-C every few milliseconds, whatever it is
doing, so that each stop comes within a fraction of a second.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import Counter

from excover.cli import common
from excover.cli.common import add_json, add_quiet
from excover.errors import LimitReached, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from excover.burr import Assembly, Disassembly, Separation
    from excover.burr.checkpoint import RunCheckpoint
    from excover.burr.xmpuzzle import BurrPuzzle
    from excover.cli.options import RunOptions

__all__ = ["add_disassemble_command"]

#: Seconds between two saves of the ``--checkpoint`` file.
CHECKPOINT_EVERY = 30.0

#: The solutions ``--write`` stores by default, the hardest: BurrTools' default "Limit".
KEEP = 100

#: The assemblies taken apart between two looks at the memory of the results kept.
MEMORY_EVERY = 4096

#: Seconds past ``--timeout`` that ``--write`` may take to save what a run stopped by
#: it found (past them nothing is written).
WRITE_GRACE = 0.5

_DESCRIPTION = """\
Disassemble the assemblies of a BurrTools puzzle (an .xmpuzzle file on the cube grid):
find every assembly of the problem (as 'excover count FILE' counts them: one per
symmetry), then try to take each apart by sliding sets of pieces along the axes, one
set, one direction, any distance being one move (as BurrTools and Bill Cutler count).
Prints the number of assemblies, the solutions (those that come apart) sorted by level
as BurrTools sorts them, each with its level in BurrTools' notation (98.2.4.2: the moves
to the first separation, then those of the parts) and its total number of moves, and
the numbers of assemblies stuck (they cannot come apart) and unknown (--max-states or
--timeout ran out first). Every first separation is tried before an assembly is called
stuck, where BurrTools keeps only the first it finds; a solution BurrTools would miss is
marked. Pieces are numbered from 0 in BurrTools' order (the problem's shapes in order,
copies together)."""


_EPILOG = (
    common.exit_statuses(
        "--timeout, --max-states or --max-memory",
        "the assemblies done printed, an assembly cut short counted as unknown",
        "the assemblies done printed",
    )
    + "\n--json documents follow one schema: 'excover schema' prints it."
)


def add_disassemble_command(commands: Any) -> None:
    """Add ``disassemble`` to the command's sub-parsers."""
    cmd = commands.add_parser(
        "disassemble",
        help="which assemblies of a BurrTools puzzle come apart, and their levels",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=common.HelpFormatter,
    )
    cmd.add_argument("file", metavar="FILE", help="a BurrTools .xmpuzzle file ('-': stdin)")
    cmd.add_argument(
        "--problem",
        type=common.non_negative_int,
        metavar="K",
        help="the problem to disassemble, numbered from 0 in the file's order (as BurrTools' "
        "burrTxt -o); default: the first (with --check: every problem)",
    )
    cmd.add_argument(
        "--moves",
        action="store_true",
        help="print the moves of each solution, separation by separation",
    )
    cmd.add_argument(
        "--greedy",
        action="store_true",
        help="keep only the first separation of each part, as BurrTools does: the same "
        "answers (docs/burr.md says why), less work on the assemblies that do not come apart",
    )
    cmd.add_argument(
        "--min-total",
        action="store_true",
        help="find the disassembly with the fewest moves in all, rather than the fewest "
        "moves to each separation in turn, as BurrTools (the level may then start with a "
        "larger number; the total is smaller or equal)",
    )
    cmd.add_argument(
        "--max-states",
        type=common.positive_int,
        metavar="N",
        help="explore at most N configurations for one assembly; past it the assembly is "
        "unknown (exit status 1)",
    )
    cmd.add_argument(
        "--max-memory",
        type=common.memory_size,
        metavar="SIZE",
        help="bound the memory of the run (512M, 4G, ...; 0: no bound; default: half of the "
        "machine's memory): the assemblies listed stop at SIZE, and each assembly's searches "
        "at SIZE of tables (shared out between --workers); past it the assembly is unknown "
        "(exit status 1)",
    )
    cmd.add_argument(
        "--write",
        metavar="OUT",
        help="save the puzzle to OUT (an .xmpuzzle file, gzip-compressed as BurrTools "
        "writes) with the problem solved: its solutions, sorted by level, each with its "
        "separations, which BurrTools opens and animates",
    )
    cmd.add_argument(
        "--keep",
        type=common.non_negative_int,
        metavar="N",
        help=f"with --write: store the N hardest solutions, as BurrTools keeps them (default "
        f"{KEEP}, BurrTools' own; 0: every one), the problem still counting them all",
    )
    cmd.add_argument(
        "--check",
        action="store_true",
        help="disassemble nothing: check every separation stored in FILE (each state free "
        "of overlaps, each step one legal move, the pieces apart at the end); a refused "
        "one is reported with the step at fault (exit status 2)",
    )
    common.add_flag(cmd, "timeout", "the assemblies not done are not reported")
    common.add_workers(
        cmd,
        "here: the assemblies are disassembled on N processes, each alone, the results the "
        "same for any N (default 1: in this process)",
    )
    cmd.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="disassemble on the Dask scheduler at ADDRESS (such as tcp://127.0.0.1:8786), "
        "as 'excover count --dask' counts: the assemblies are taken apart by its workers "
        "(which need excover), the results the same as in this process; a worker lost "
        "mid-task costs time, never a result",
    )
    cmd.add_argument(
        "--checkpoint",
        metavar="CK",
        help="save the assemblies done and their results to CK (JSON) now and then, on "
        "Ctrl-C, on --timeout and at the end; if CK exists, take them from it and "
        "disassemble only the others (a checkpoint of another file, problem or settings "
        "is refused; while another run uses CK, wait for it)",
    )
    cmd.add_argument(
        "--checkpoint-every",
        type=common.seconds,
        default=CHECKPOINT_EVERY,
        metavar="SECONDS",
        help=f"seconds between two saves of the checkpoint (default {CHECKPOINT_EVERY:g})",
    )
    common.add_progress(cmd, "here: the assemblies disassembled")
    add_json(cmd)
    add_quiet(cmd)
    cmd.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from excover.burr.xmpuzzle import parse_xmpuzzle
    from excover.cli.options import RunOptions

    source = "<stdin>" if args.file == "-" else args.file
    data = common.read_input(args.file, binary=True)
    puzzle = parse_xmpuzzle(data, source)
    if args.check:
        if args.checkpoint is not None or args.workers is not None or args.dask is not None:
            raise UsageError("--check disassembles nothing: no --workers, --dask or --checkpoint")
        return _check(args, source, puzzle)
    run = RunOptions.read(args)
    number = 0 if args.problem is None else args.problem  # the problem taken apart
    if args.greedy and args.min_total:
        raise UsageError("--greedy and --min-total exclude each other")
    if args.keep is not None and not args.write:
        raise UsageError("--keep tells --write how many solutions to store: give --write OUT")
    if not args.quiet and number < len(puzzle.problems) > 1:
        label = puzzle.problems[number].label(number)
        print(f"excover: {source}: {label} of {len(puzzle.problems)}", file=sys.stderr)
    with contextlib.ExitStack() as claims:
        tally, stopped_by = _disassemble(args, run, number, data, puzzle, claims)
    complete = stopped_by is None
    unwritten = None if not args.write else _write(args, run, number, puzzle, tally, complete)
    if args.json:
        _print_json(args, number, source, tally, stopped_by)
    else:
        _print_text(args, tally, stopped_by)
    _say_stops(tally, stopped_by)
    if unwritten is not None:
        cause = "interrupted" if unwritten == "interrupt" else "stopped by --timeout"
        _say(f"{args.write} not written ({cause} while writing): any file there is unchanged")
    if "interrupt" in (stopped_by, unwritten):
        return common.EXIT_INTERRUPT
    if stopped_by is not None or unwritten is not None or tally.count("unknown"):
        return common.EXIT_LIMIT
    return common.EXIT_OK


def _say(text: str) -> None:
    print(f"excover: {text}", file=sys.stderr)


def _say_stops(tally: _Tally, stopped_by: str | None) -> None:
    """Tell on stderr what cut the run short: ``stopped_by`` (the run's stop), and the
    assemblies left unknown by --max-states or --max-memory."""
    from excover.burr.search import stop_of

    unknown = Counter(stop_of(r.reason) for r in tally.kept.values() if r.status == "unknown")
    if stopped_by is not None:
        count = unknown[stopped_by] if stopped_by == "max_memory" else 0
        detail = f" ({count} assemblies unknown)" if count else ""
        common.say_stopped(stopped_by, detail)
    for stop, flag in (("max_states", "--max-states"), ("max_memory", "--max-memory")):
        if unknown[stop] and stop != stopped_by:
            _say(f"{unknown[stop]} assemblies stopped by {flag} (unknown); the result is partial")


def _resident() -> int:
    """This process's resident memory in bytes, now (0 where the system does not tell
    it cheaply: read from ``/proc/self/statm``, Linux's)."""
    import os

    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


class _Tally:
    """The assemblies taken apart so far: how many, how many stuck, and the others
    (solved or unknown) by their index in the order the assemblies are found. A stuck
    assembly is counted, not kept: a family of millions of assemblies that do not come
    apart holds nothing per assembly."""

    def __init__(self) -> None:
        self.done = 0
        self.stuck = 0
        self.kept: dict[int, Disassembly] = {}

    def add(self, index: int, result: Disassembly) -> None:
        """Count the result of the assembly at ``index`` (kept unless stuck)."""
        self.done += 1
        if result.status == "stuck":
            self.stuck += 1
        else:
            self.kept[index] = result

    def count(self, status: str) -> int:
        """The assemblies of ``status`` (solved, stuck, unknown)."""
        if status == "stuck":
            return self.stuck
        return sum(r.status == status for r in self.kept.values())


class _Listing:
    """How the listing of the assemblies went: how many were found, whether all of
    them were, and what stopped it (``"timeout"``, or ``"max_memory"`` for the results
    kept) when something did."""

    def __init__(self) -> None:
        self.count = 0
        self.finished = False
        self.stop: str | None = None


def _disassemble(
    args: argparse.Namespace,
    run: RunOptions,
    number: int,
    data: bytes,
    puzzle: BurrPuzzle,
    claims: contextlib.ExitStack,
) -> tuple[_Tally, str | None]:
    """The assemblies of problem ``number`` taken apart, listed and disassembled as they
    are found (none held once done, a stuck one counted only), and what stopped the run
    early (None: nothing)."""
    from pathlib import Path

    from excover.burr import assemblies
    from excover.burr.pool import disassemble_many
    from excover.burr.search import default_memory, stop_of
    from excover.cli.progress import progress

    started = time.monotonic()
    deadline = run.deadline
    bound = default_memory() if args.max_memory is None else args.max_memory
    client = None
    workers = args.workers
    if args.dask is not None:
        if args.workers is not None:
            raise UsageError("--workers does not go with --dask: the cluster has its workers")
        from excover.cli.cluster import connect_dask

        client = claims.enter_context(connect_dask(args.dask))
        workers = len(client.nthreads())
    state: RunCheckpoint | None = None
    if args.checkpoint is not None:
        from excover.burr.checkpoint import RunCheckpoint, digest
        from excover.parallel.checkpoint import claimed

        path = claims.enter_context(
            claimed(Path(args.checkpoint), wait=True, deadline=deadline, say=_say)
        )
        if path is not None:
            named = {
                "greedy": args.greedy,
                "min_total": args.min_total,
                "max_states": args.max_states,
            }
            state = RunCheckpoint.open(path, digest(data), number, named, _say)
            state.save()  # at once: a CK that cannot be written fails before the work
    tally = _Tally()
    stopped_by: str | None = None
    listing = _Listing()
    bar = progress(run, desc="disassemble", unit="assembly")

    def listed() -> Iterator[Assembly]:
        """The assemblies as they are found, until the deadline; those the checkpoint
        holds are tallied here (and still yielded, their index skipped)."""
        found = enumerate(assemblies(puzzle, number, deadline))
        while True:
            try:
                index, assembly = next(found)
            except StopIteration:
                break
            except LimitReached:  # the deadline passed while the next one was looked for
                listing.stop = "timeout"
                return
            if state is not None and (kept := state.take(index, assembly)) is not None:
                tally.add(index, kept)
                bar.update()
            listing.count = index + 1
            yield assembly
            if deadline is not None and time.monotonic() > deadline:
                listing.stop = "timeout"
                return
        if state is not None:
            state.check_count(listing.count)
        listing.finished = True

    if state is not None and state.done and not args.quiet:
        _say(
            f"resuming from {state.path} ({len(state.done)} assemblies disassembled by "
            f"earlier runs in {state.seconds:.1f} s)"
        )
    earlier = 0.0 if state is None else state.seconds
    saved = time.monotonic()

    def save() -> None:
        if state is not None:
            state.seconds = earlier + time.monotonic() - started
            state.save()

    settings = (not args.greedy, args.max_states, args.min_total)
    runs = disassemble_many(
        listed(),
        settings,
        workers=workers or 1,
        deadline=deadline,
        skip=set() if state is None else set(state.done),
        executor=client,
        max_memory=bound,
    )
    before = _resident()
    try:
        for index, result in runs:
            tally.add(index, result)
            bar.update()
            if state is not None and stop_of(result.reason) not in ("timeout", "max_memory"):
                state.record(index, result)
                if time.monotonic() - saved >= args.checkpoint_every:
                    save()
                    saved = time.monotonic()
            if bound and tally.done % MEMORY_EVERY == 0 and _resident() - before > bound:
                listing.stop = "max_memory"  # the results kept fill the bound: stop here
                break
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    finally:
        runs.close()
        bar.close()
        save()
    stops = {stop_of(r.reason) for r in tally.kept.values() if r.status == "unknown"}
    if stopped_by is None:
        stopped_by = listing.stop
    if stopped_by is None and (
        "timeout" in stops or not listing.finished or tally.done < listing.count
    ):
        stopped_by = "timeout"  # the deadline ended the listing or left assemblies out
    if stopped_by is None and "max_memory" in stops:
        stopped_by = "max_memory"
    return tally, stopped_by


def _write(
    args: argparse.Namespace,
    run: RunOptions,
    number: int,
    puzzle: BurrPuzzle,
    tally: _Tally,
    complete: bool,
) -> str | None:
    """Save the puzzle, its problem ``number`` solved, to ``--write``'s file (its
    ``--keep`` hardest solutions stored); None once written, else what stopped the
    writing (``"timeout"``: the deadline, with :data:`WRITE_GRACE` more for a run it
    stopped; ``"interrupt"``), the file then left as it was."""
    from excover.burr.stored import solved_puzzle
    from excover.burr.xmpuzzle import write_xmpuzzle

    keep = KEEP if args.keep is None else args.keep
    solved = solved_puzzle(puzzle, number, tally.kept, tally.done, complete, keep)
    deadline = run.deadline
    try:
        write_xmpuzzle(
            solved, args.write, deadline=None if deadline is None else deadline + WRITE_GRACE
        )
    except LimitReached:
        return "timeout"
    except KeyboardInterrupt:
        return "interrupt"
    if not args.quiet:
        partial = "" if complete else " (the assemblies done)"
        count = tally.count("solved")
        kept = (
            ""
            if count == len(solved.problems[number].stored)
            else (f", the {len(solved.problems[number].stored)} hardest stored (--keep)")
        )
        print(f"excover: wrote {args.write}: {count} solutions{partial}{kept}", file=sys.stderr)
    return None


def _check(args: argparse.Namespace, source: str, puzzle: BurrPuzzle) -> int:
    from excover.burr.check import check_stored

    numbers = range(len(puzzle.problems)) if args.problem is None else [args.problem]
    if args.problem is not None and args.problem >= len(puzzle.problems):
        raise UsageError(f"{source}: no problem {args.problem}")
    found = [(number, checked) for number in numbers for checked in check_stored(puzzle, number)]
    refused = sum(checked.fault is not None for _, checked in found)
    if args.json:
        import json

        entries = [
            {
                "problem": number,
                "solution": checked.solution,
                "line": checked.line,
                "valid": checked.fault is None,
                "level": None if checked.tree is None else checked.tree.level(),
                "total": None if checked.tree is None else checked.tree.total(),
                "fault": checked.fault,
            }
            for number, checked in found
        ]
        document = common.document(
            "disassemble", None, None, None, input=source, checked=entries, refused=refused
        )
        print(json.dumps(document))
    else:
        print(f"separations: {len(found)}")
        print(f"refused: {refused}")
        for number, checked in found:
            at = f"problem {number}, solution {checked.solution} (line {checked.line})"
            if checked.tree is not None:
                total = checked.tree.total()
                print(f"{at}: valid, level {checked.tree.level()}, {total} moves")
            else:
                print(f"{at}: refused: {checked.fault}")
    if refused:
        print(f"excover: {source}: {refused} stored separations refused", file=sys.stderr)
        return common.EXIT_USAGE
    return common.EXIT_OK


def _solutions(tally: _Tally) -> list[tuple[int, Disassembly]]:
    """The solutions with their assembly numbers (from 1), sorted by level as BurrTools
    sorts them (a stable sort: equal levels keep the order the assemblies came in)."""
    solved = [(k + 1, r) for k, r in sorted(tally.kept.items()) if r.status == "solved"]
    return sorted(solved, key=lambda pair: pair[1].sort_key())


def _counts(tally: _Tally) -> dict[str, int]:
    return {status: tally.count(status) for status in ("solved", "stuck", "unknown")}


def _print_text(args: argparse.Namespace, tally: _Tally, stopped_by: str | None) -> None:
    counts = _counts(tally)
    partial = " (so far)" if stopped_by else ""
    print(f"assemblies: {tally.done}{partial}")
    print(f"solutions: {counts['solved']}")
    print(f"stuck: {counts['stuck']}")
    print(f"unknown: {counts['unknown']}")
    for number, result in _solutions(tally):
        note = "  (BurrTools' first separation fails here)" if result.beyond_greedy else ""
        total = f"{result.total} move" + ("" if result.total == 1 else "s")
        print(f"assembly {number}: level {result.level}, {total}{note}")
        if args.moves and result.tree is not None:
            _print_moves(result.tree, "  ")
    for index, result in sorted(tally.kept.items()):
        if result.status == "unknown":
            print(f"assembly {index + 1}: unknown ({result.reason})")


def _print_moves(separation: Separation, indent: str) -> None:
    pieces = " ".join(str(p) for p in separation.pieces)
    count = len(separation.moves)
    print(f"{indent}pieces {pieces}: {count} move" + ("" if count == 1 else "s"))
    for k, move in enumerate(separation.moves, 1):
        print(f"{indent}  {k}. {move}")
    for part in (separation.left, separation.removed):
        if part is not None:
            _print_moves(part, indent + "  ")


def _separation_json(separation: Separation) -> dict[str, Any]:
    return {
        "pieces": list(separation.pieces),
        "start": [list(t) for t in separation.start],
        "moves": [
            {"pieces": list(m.pieces), "direction": list(m.vector), "distance": m.distance}
            for m in separation.moves
        ],
        "left": None if separation.left is None else _separation_json(separation.left),
        "removed": None if separation.removed is None else _separation_json(separation.removed),
    }


def _print_json(
    args: argparse.Namespace,
    number: int,
    source: str,
    tally: _Tally,
    stopped_by: str | None,
) -> None:
    import json

    counts = _counts(tally)
    solutions = []
    for number, result in _solutions(tally):
        entry: dict[str, Any] = {
            "options": list(result.assembly.options),
            "assembly": number,
            "level": result.level,
            "total": result.total,
            "beyond_greedy": result.beyond_greedy,
        }
        if args.moves and result.tree is not None:
            entry["separation"] = _separation_json(result.tree)
        solutions.append(entry)
    document = common.document(
        "disassemble",
        None,
        None,
        stopped_by,
        input=source,
        problem=number,
        assemblies=tally.done,
        solutions=solutions,
        levels=[entry["level"] for entry in solutions],
        stuck=counts["stuck"],
        unknown=counts["unknown"],
    )
    document["complete"] = stopped_by is None and counts["unknown"] == 0
    print(json.dumps(document))
