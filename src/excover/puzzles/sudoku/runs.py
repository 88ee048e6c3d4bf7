"""The runs of ``excover sudoku``: each puzzle solved, counted or classified, its result
printed as soon as it is done.

Three paths, chosen by :mod:`excover.puzzles.sudoku.cli`: :func:`run_plain_lines` hands a
file of one-line 9x9 puzzles to the compiled core, which reads the bytes and writes the
lines itself; :func:`run_batches` solves or classifies with the compiled solvers,
:data:`BATCH` puzzles at a time; :func:`run_each` takes every puzzle through its exact
cover and the shared runs (any method, the shared limits, ``--count``, ``--all``, killer
cages). Each takes the run's :class:`SudokuRequest`, read once off the flags, prints
through a :class:`SudokuReport`, the text lines or the entries of one JSON document, and hands
back the run's :class:`~excover.counting.outcome.Outcome`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from excover.cli import common
from excover.cli.exact_cover.request import CoverRequest

if TYPE_CHECKING:
    from excover.counting.outcome import Outcome
    from excover.puzzles.sudoku import killer
    from excover.solving import ExactCover

#: Puzzles given to the compiled solver at once: small enough for results to stream and
#: the progress bar to move, large enough for the batch to cost nothing.
BATCH = 256

_STATUS = ("none", "unique", "multiple")


class SudokuRequest(CoverRequest):
    """What a run of ``excover sudoku`` asks for: a count or a listing of each puzzle's
    exact cover (:class:`~excover.cli.exact_cover.request.CoverRequest`: ``counting``
    is ``--count``), and ``all`` (every solution listed: ``--all``, or ``--limit N``
    without ``--count``), ``classify`` (``--classify``) and ``pretty``
    (``--pretty``)."""

    all: bool = False
    classify: bool = False
    pretty: bool = False


class SudokuReport:
    """Prints each puzzle's result as soon as it is done (text, or an entry of the JSON
    document's ``results``), and keeps the results for ``--svg``."""

    def __init__(self, args: SudokuRequest, source: str | None) -> None:
        from excover.cli.progress import progress

        self.args = args
        self.input = source
        self.results: list[dict[str, Any]] = []
        self.rules: dict[str, Any] = {}
        self.stream = common.JsonStream(sys.stdout, "sudoku", "results") if args.json else None
        self.bar = progress(args, unit="puzzle", desc="sudoku")

    def add(self, result: dict[str, Any], flush: bool = True) -> None:
        from excover.puzzles import sudoku

        number = len(self.results) + 1
        self.results.append(result)
        if result.get("status") == "none" and result["complete"]:
            result["conflicts"] = sudoku.conflicts(result["puzzle"], **self.rules)
            _report_none(number, result["conflicts"])
        if self.stream is not None:
            self.stream.add({"input": result["puzzle"], **result})
        else:
            args = self.args
            if args.counting:
                # a count stopped with nothing to show (a ZDD count has no partial one)
                print("unknown" if result["count"] is None else result["count"])
            elif args.classify:
                print(result["status"] or "unknown")
            elif args.all:
                if not result["solutions"] and result["complete"]:
                    print("none")
            elif result["solution"] and args.pretty:
                print(_pretty(result["solution"], self.rules) + "\n")
            else:
                print(result["solution"] or "none")
            if flush:
                sys.stdout.flush()
        self.bar.update()

    def close(self, outcome: Outcome, digits: str = "123456789") -> int:
        """End the output (the JSON document names the ``digits`` the puzzles were read
        with) and give the exit status."""
        from excover.cli.report import finish

        if self.stream is not None:
            self.stream.close(
                outcome.method, outcome.engine, outcome.stopped_by, input=self.input, digits=digits
            )
        return finish(outcome, self.args)


#: Lines of a file handed to the compiled 9x9 core at once on the plain-lines path.
LINES_BATCH = 4096


def run_plain_lines(data: bytes, name: str, args: SudokuRequest) -> int | None:
    """Solve or classify a file of one-line 9x9 puzzles with the compiled core, which
    reads the file's bytes and writes the output lines itself, :data:`LINES_BATCH`
    puzzles at a time: the same output as the general path (a line per puzzle,
    unsolvable puzzles reported on stderr) without a Python object per puzzle. None,
    having printed nothing, when a line is anything but a puzzle of 81 cells
    (``.0123456789``), a blank or a comment: the general path then reads the file, and
    names the line of an error."""
    from excover.counting.outcome import Outcome
    from excover.puzzles.sudoku.simd import core

    _sudoku9 = core()

    total = _sudoku9.count_plain_lines(data)
    if total < 0:
        return None
    report = SudokuReport(args, name)
    report.bar.set(0, total)
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
    at, done, stopped_by = 0, 0, None
    try:
        with common.deadline(args.time_left()):
            while at < len(data):
                lines, at, count, unsolvable = _sudoku9.run_lines(
                    data, at, LINES_BATCH, args.classify
                )
                if unsolvable:
                    from excover.puzzles import sudoku

                    for index, puzzle in unsolvable:
                        _report_none(done + index + 1, sudoku.conflicts(puzzle))
                if out is not None:
                    sys.stdout.flush()
                    out.write(lines)
                    out.flush()
                else:  # a text stream without bytes under it (tests capture so)
                    sys.stdout.write(lines.decode("ascii"))
                    sys.stdout.flush()
                done += count
                report.bar.update(count)
    except common.TimeUp:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    finally:
        report.bar.close()
    stats = {"puzzles": total, "done": done}
    return report.close(Outcome("grid", "compiled 9x9 core", None, stopped_by, stats))


def run_batches(
    texts: list[str], rules: dict[str, Any], args: SudokuRequest, report: SudokuReport
) -> Outcome:
    """Solve or classify with the compiled solvers (the 9x9 core for the classic board),
    :data:`BATCH` puzzles at a time."""
    from excover.counting.outcome import Outcome
    from excover.puzzles import sudoku

    report.rules = rules
    report.bar.set(0, len(texts))
    stopped_by = None
    try:
        with common.deadline(args.time_left()):
            for start in range(0, len(texts), BATCH):
                chunk = texts[start : start + BATCH]
                if args.classify:
                    statuses = sudoku.classify_many(chunk, **rules)
                    for text, kind in zip(chunk, statuses, strict=True):
                        report.add({"puzzle": text, "status": kind, "complete": True}, False)
                else:
                    solved = sudoku.solve_many(chunk, **rules)
                    for text, solution in zip(chunk, solved, strict=True):
                        status = "none" if solution is None else "solved"
                        grids = [] if solution is None else [{"grid": solution}]
                        report.add(
                            {
                                "puzzle": text,
                                "solution": solution,
                                "status": status,
                                "complete": True,
                                "solutions": grids,
                            },
                            False,
                        )
                sys.stdout.flush()  # the batch's lines at once
    except common.TimeUp:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    stats = {"puzzles": len(texts), "done": len(report.results)}
    classic = rules["box"] == (3, 3) and not rules["diagonal"] and rules["regions"] is None
    engine = "compiled 9x9 core" if classic else "compiled grid solver"
    return Outcome("grid", engine, None, stopped_by, stats)


def run_each(
    texts: list[str],
    rules: dict[str, Any],
    cages: list[killer.Cage],
    args: SudokuRequest,
    report: SudokuReport,
) -> Outcome:
    """Every puzzle through its exact cover and the shared runs (any method, limits)."""
    from excover.cli.exact_cover import solving
    from excover.counting.outcome import Outcome

    report.rules = rules
    report.bar.set(0, len(texts))
    outcome = Outcome(args.method, None, None, None)
    mode = args
    if args.classify:
        mode = args.but(limit=2)  # two solutions settle it
    elif not (args.counting or args.all):
        mode = args.but(limit=1)
    stops: list[str] = []  # what cut a puzzle's result short, puzzle by puzzle
    for text in texts:
        cover = puzzle_cover(text, rules, cages)
        if args.counting and args.up_to_symmetry:
            from excover.cli.exact_cover import symmetry

            outcome = symmetry.count(cover, mode)
        elif args.counting:
            outcome = solving.count(cover, mode)
        else:
            outcome = _listed(cover, mode, _printer(args, rules), rules.get("digits"))
        result = _result(text, outcome, args)
        report.add(result)
        if outcome.stopped_by is not None and not result["complete"]:
            stops.append(outcome.stopped_by)
        if outcome.stopped_by not in (None, "limit"):
            break
    # the run stopped early only where a result is partial: the one or two solutions
    # that settle a solve or a classification are no stop; the last stop ended the run
    outcome.stopped_by = stops[-1] if stops else None
    if len(texts) > 1:  # the figures of the last puzzle are not the run's
        outcome.count = None
        outcome.stats = {"puzzles": len(texts), "done": len(report.results)}
    return outcome


def puzzle_cover(text: str, rules: dict[str, Any], cages: list[killer.Cage]) -> ExactCover:
    """The exact cover problem of one puzzle (with its killer cages, if any)."""
    from excover.puzzles import sudoku
    from excover.puzzles.sudoku import killer

    if cages:
        return killer.cover(cages, givens="".join(text.split()), **rules)
    return sudoku.problem(text, **rules)


def _result(text: str, outcome: Outcome, args: SudokuRequest) -> dict[str, Any]:
    """The result of one puzzle run through its exact cover, in the mode of ``args``."""
    number = outcome.count
    # classify and solve asked for 2 and 1 solutions: reaching them settles the answer
    settled = outcome.stopped_by is None or (
        outcome.stopped_by == "limit" and not (args.counting or args.all)
    )
    result: dict[str, Any] = {"puzzle": text, "complete": settled}
    if number is not None:
        known = settled or number >= 2
        result["status"] = _STATUS[min(number, 2)] if known else None
    if args.counting:
        result["count"] = None if number is None else common.exact(number)
        return result
    grids = [{"grid": grid} for grid in outcome.stats.pop("grids", [])]
    if not args.classify:
        result["solutions"] = grids
    if not (args.all or args.classify):
        result["solution"] = grids[0]["grid"] if grids else None
        result["status"] = "solved" if grids else ("none" if settled else None)
    return result


def _printer(args: SudokuRequest, rules: dict[str, Any]) -> Callable[[str], None] | None:
    """Print each solution of ``--all`` as soon as it is found (text mode)."""
    if not args.all or args.json:
        return None

    def show(grid: str) -> None:
        print(_pretty(grid, rules) + "\n" if args.pretty else grid)
        sys.stdout.flush()

    return show


def _pretty(solution: str, rules: dict[str, Any]) -> str:
    """``--pretty``: a solution over several lines, boxes set apart (a jigsaw's regions
    are not boxes: its rows are printed plainly)."""
    from excover.puzzles import sudoku

    if rules.get("regions") is not None:
        size = math.isqrt(len(solution))
        return "\n".join(" ".join(solution[row * size : (row + 1) * size]) for row in range(size))
    return sudoku.format_grid(solution, rules.get("box"), digits=rules.get("digits"))


def _listed(
    cover: ExactCover,
    args: SudokuRequest,
    show: Callable[[str], None] | None,
    digits: str | None = None,
) -> Outcome:
    """The solutions of one puzzle's cover (kept in the outcome's ``grids``), written
    with ``digits`` (default ``1-9A-Z``)."""
    from excover.cli.exact_cover import solving
    from excover.puzzles import sudoku

    grids: list[str] = []

    def emit(solution: list[int]) -> None:
        grid = sudoku.grid_of(cover, solution, digits=digits)
        grids.append(grid)
        if show is not None:
            show(grid)

    if args.up_to_symmetry:
        from excover.cli.exact_cover import symmetry

        outcome = symmetry.solutions(cover, args, emit)
    else:
        outcome = solving.solutions(cover, args, emit)
    outcome.stats["grids"] = grids
    return outcome


def _report_none(number: int, clashes: list[tuple[int, int]]) -> None:
    where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in clashes)
    detail = f": clashing givens at {where}" if clashes else ""
    print(f"excover: puzzle {number} has no solution{detail}", file=sys.stderr)
