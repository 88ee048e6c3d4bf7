"""``excover count --workers N --checkpoint FILE --progress``: long counts, for the command line.

With ``--workers``, ``--tasks``, ``--checkpoint`` or ``--dask`` the count is cut into
subproblems counted on ``--workers`` processes (1: in the command's own process) or on a
Dask cluster, saved to the ``--checkpoint`` file (or the automatic one) every
``--checkpoint-every`` seconds, on Ctrl-C, on ``--timeout`` and at the end: the
orchestrator runs it (:mod:`excover.solving.checkpointed`, a count by subproblems with a
checkpoint). This module refuses the flags such a count cannot take, turns the others
into its :class:`~excover.solving.request.Request`, and prints what it found: the count
(or its ``--json`` document), the method line, a stop's note (and how to resume), and
with ``--stats`` the statistics. A run resumed from a checkpoint says so on stderr: the
file, the subproblems and solutions it took from it, and the time earlier runs spent.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import TYPE_CHECKING, Any

from excover.cli.cluster import connect_dask
from excover.cli.common import document, exact, say_cpu, say_method
from excover.cli.exact_cover.task_flags import SPLIT_AFTER
from excover.errors import UsageError
from excover.names import METHOD_TRAITS
from excover.numbers import to_decimal

if TYPE_CHECKING:
    from excover.cli.exact_cover.problem_input import Totals
    from excover.cli.exact_cover.request import CoverRequest
    from excover.problem import Problem
    from excover.solving.checkpointed import SplitOutcome

__all__ = ["count_tasks"]

#: Exit codes, as in :mod:`excover.cli`.
EXIT_OK, EXIT_LIMIT, EXIT_INTERRUPT = 0, 1, 130


def _check(args: CoverRequest) -> None:
    """Refuse what a count by subproblems cannot take from the command line."""
    method = args.method
    traits = METHOD_TRAITS[method]
    if not traits.splits:
        raise UsageError(f"--method {method} cannot count by subproblems (--workers, --tasks, ...)")
    if args.max_nodes is not None:
        raise UsageError("--max-nodes does not go with --workers, --tasks or --checkpoint")
    given = args.heuristic not in (None, "mrv") or args.seed is not None or args.engine is not None
    if traits.family and given:
        raise UsageError(f"--method {method} does not take --heuristic, --seed or --engine")
    if args.dask is None:
        _refuse_cluster_flags(args)
    elif args.workers is not None:
        raise UsageError("--workers does not go with --dask: the cluster has its workers")


def count_tasks(
    problem: Problem,
    args: CoverRequest,
    symmetry: bool | None = False,
    totals: Totals | None = None,
) -> int:
    """Count ``problem`` by subproblems as the command line says; print the count (and
    the statistics); return the exit status. With ``symmetry`` None, a count that a
    plain search does not finish at once breaks the group the problem declares
    (:func:`excover.cli.exact_cover.symmetry.may_break`), its symmetry-broken search on
    ``--workers`` processes (a board's group given ``totals``)."""
    from excover.cli.exact_cover import solving
    from excover.cli.exact_cover.symmetry import worded
    from excover.cli.progress import progress
    from excover.cli.report import print_outcome
    from excover.solving import orchestrate
    from excover.solving.checkpointed import SplitOutcome

    _check(args)
    request = solving.orchestrator_request(
        args,
        symmetry=symmetry,
        totals=totals,
        workers=args.workers,
        tasks=args.tasks,
        checkpoint=args.checkpoint or True,
        checkpoint_every=args.checkpoint_every,
        task_timeout=args.task_timeout,
        split_after=args.split_after,
    )
    request.bar = lambda description, unit: progress(args, total=100, desc=description, unit=unit)
    with contextlib.ExitStack() as cluster:
        if args.dask is not None:
            request.executor = cluster.enter_context(connect_dask(args.dask))
        outcome = orchestrate.count(problem, request)
    if not isinstance(outcome, SplitOutcome):  # broken by default, on --workers
        return print_outcome(worded(outcome, args, counting=True), args)
    return _report(outcome, args)


def _refuse_cluster_flags(args: CoverRequest) -> None:
    """--task-timeout and --split-after need --dask."""
    if args.task_timeout is not None:
        raise UsageError("--task-timeout goes with --dask")
    if args.split_after != SPLIT_AFTER:
        raise UsageError("--split-after goes with --dask")


def _report(outcome: SplitOutcome, args: CoverRequest) -> int:
    """Print a count by subproblems as its kind says; the exit status."""
    if outcome.kind == "cut_short":
        return _cut_short(outcome, args)
    if outcome.kind == "whole":
        if outcome.count is None:  # Ctrl-C stopped the frontier count
            print("excover: interrupted; nothing counted", file=sys.stderr)
            return EXIT_INTERRUPT
        return _whole_count(outcome, args)
    if outcome.cluster is not None and args.stats:
        run = outcome.cluster
        print(
            f"cluster: {run.retried} retried, {run.hung} hung, "
            f"{run.splits} cut for idle workers, {run.ignored} late results ignored",
            file=sys.stderr,
        )
    return _tasks_report(outcome, args)


def _print(outcome: SplitOutcome, args: CoverRequest, stats: dict[str, Any]) -> None:
    """The count on stdout, or its ``--json`` document; the method line."""
    method, engine = outcome.method, outcome.engine
    assert engine is not None
    if args.json:
        command = args.command or "count"
        count = outcome.count
        print(
            json.dumps(
                document(command, method, engine, outcome.stopped_by, count=count, stats=stats)
            )
        )
    else:
        print(to_decimal(outcome.count or 0))
    sys.stdout.flush()
    if not args.json:
        say_method(args, method, engine)
        say_cpu(args, outcome.stats)


def _cut_short(outcome: SplitOutcome, args: CoverRequest) -> int:
    """Print the result of a count stopped while its problem was being cut into
    subproblems: nothing counted, a partial count of 0; the exit status."""
    _print(outcome, args, outcome.stats)
    tasks = outcome.tasks
    into = "subproblems" if tasks is None else f"{tasks:,} subproblems"
    cause = "stopped by --timeout" if outcome.stopped_by == "timeout" else "interrupted"
    print(
        f"excover: {cause} while cutting the problem into {into}, before any was counted; "
        "the result is partial",
        file=sys.stderr,
    )
    return EXIT_INTERRUPT if outcome.stopped_by == "interrupt" else EXIT_LIMIT


def _whole_count(outcome: SplitOutcome, args: CoverRequest) -> int:
    """Print the count of the whole problem, found without subproblems by some threads
    or processes (not always the ``--workers`` asked for); return 0."""
    total = outcome.count
    assert total is not None
    stats = outcome.stats
    shown = {"solutions": exact(total), "seconds": stats["seconds"], "workers": stats["workers"]}
    _print(outcome, args, shown)
    if args.stats:
        print(
            f"solutions: {to_decimal(total)}\ntime: {stats['seconds']:.3f} s\n"
            f"method: {outcome.method} ({outcome.engine})",
            file=sys.stderr,
        )
    return EXIT_OK


def _tasks_report(outcome: SplitOutcome, args: CoverRequest) -> int:
    """Print the count and the statistics of a count by subproblems (its method: the
    one that ran); return the exit status."""
    state = outcome.state
    assert state is not None
    stats = {**outcome.stats, "solutions": exact(state.count)}
    stats = {key: stats[key] for key in _STATS}
    _print(outcome, args, stats)
    stopped_by = outcome.stopped_by
    seconds = outcome.stats["seconds"]
    workers = outcome.workers
    if stopped_by is not None:
        cause = "stopped by --timeout" if stopped_by == "timeout" else "interrupted"
        kept = outcome.path
        where = "" if kept is None or not state.done else f"; run again to resume from {kept}"
        print(
            f"excover: {cause} with {len(state.done)} of {len(state.subproblems)} subproblems "
            f"counted; the result is partial{where}",
            file=sys.stderr,
        )
    if args.stats or stopped_by == "interrupt":
        lines = [
            f"solutions: {to_decimal(state.count)}",
            f"nodes: {state.nodes} (in the subproblems counted by a search)",
            f"time: {seconds:.3f} s ({state.seconds:.3f} s in all runs)",
            f"subproblems: {len(state.done)} of {len(state.subproblems)} counted, "
            f"{outcome.resumed} from the checkpoint",
            f"workers: {workers}",
            f"method: {outcome.method}",
        ]
        print("\n".join(lines), file=sys.stderr)
    if stopped_by == "interrupt":
        return EXIT_INTERRUPT
    return EXIT_LIMIT if stopped_by == "timeout" else EXIT_OK


#: The statistics of a count by subproblems, in the order ``--json`` gives them.
_STATS = (
    "solutions",
    "nodes",
    "seconds",
    "total_seconds",
    "complete",
    "stopped_by",
    "method",
    "workers",
    "subproblems",
    "done",
    "resumed",
)
