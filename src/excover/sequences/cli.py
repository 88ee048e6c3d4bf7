"""``excover sequence ID N``: a term of an OEIS sequence, counted.

Builds the exact cover of the term (:func:`excover.sequences.problem`) and counts it as
``excover count`` does, with the same output: the number alone on the last line of
stdout, the route on stderr, ``--json``, ``--stats``, ``--timeout`` (a partial count,
exit status 1). Two routes:

- by default, the symmetry-broken search under the square's symmetries the problem
  declares (``excover count --break-symmetry``), or the count of classes for a sequence
  of classes (``--up-to-symmetry``); ``--workers N`` counts its problems on N processes;
- with ``--checkpoint FILE``, ``--tasks N`` or ``--dask ADDRESS``, a plain count by
  dancing links cut into subproblems (``excover count --method search --checkpoint``):
  no symmetry used, resumable from its checkpoint or ledger by running the same command
  again, on one machine or a Dask cluster. Sequences of classes do not take it.

A sequence with a count of its own is counted by it, on one process, unless the flags
of the count by subproblems ask for the exact cover's plain count (the sequences of
every tiling only): A328020 and A172477 by the square's dissections counted from its
cells (:func:`excover.tiling.count_dissections`), A145835, A291806, A291807 and
A348453 by the compositions of the square's (quotient) boards counted from their cells
(:mod:`excover.tiling.cell_frontier`; for all these ``--workers`` and ``--progress``
are refused), the rectangle sequences by the states of their partial tilings
(:func:`excover.tiling.count_rectangle_tilings`; ``--workers N`` or ``--progress``
count them by the symmetry-broken search instead).

``--write-dlx FILE`` writes the problem in Knuth's format instead, for any other route.

A triangle read by rows (A348453) takes ``ID N K``: the term T(N, K), as any term; with
``ID N`` alone, row N, each term alone on its line in the row's order (``--json``: one
result per term), under one ``--timeout`` for the row.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from excover.cli import common
from excover.cli.common import add_command, add_json, add_limits
from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.sequences import Sequence

__all__ = ["add_sequence_command"]

_DESCRIPTION = """\
Count the N-th term of an OEIS sequence and print it (the number alone on the last line
of stdout).

Sequences: A360498, A360725, A360499, A360256, A360804 (Scott R. Shannon's n x n squares
tiled by rectangles under a rule: each dimension pair once, each h x w once, distinct
areas; every tiling counted), A360773 (the 2n x 2n square tiled by rectangles of
distinct dimension pairs whose perimeters sum to its area), A328020 (the n x n square
tiled by free n-ominoes, up to the square's symmetries), A172477 (the n x n square
cut into pieces of n cells, every cut counted), A145835 (the n x n square cut into
connected pieces of any sizes), A291806 (the same up to the square's symmetries),
A291807 (those classes with a symmetry) and A348453 (a triangle: row N, the N x N
square cut into d connected pieces of equal area for each divisor d of N^2; give K for
its K-th term alone); docs/sequences.md describes each model.

The sequences of the square's cuts (A328020, A172477, A145835, A291806, A291807,
A348453) are counted by a frontier over the square's cells (A328020 adding, by
Burnside's lemma, the tilings each other symmetry of the square fixes, found by search;
A291806 and A291807 the cuts each symmetry fixes, counted on the quotient board), on
one process: --workers and --progress are refused.

The rectangle sequences are counted by the states of their partial tilings (equal
states merged), on one process; --workers N (on N processes) or --progress counts them
by a search with the square's symmetries broken instead.

--checkpoint FILE, --tasks N or --dask ADDRESS count a term instead by dancing links
without symmetry, cut into subproblems, the finished ones saved to FILE: the same
command run again resumes from it (the sequences of every tiling only). --write-dlx
FILE writes the term's exact cover in Knuth's format for 'excover count FILE' and its
other routes."""

_WHOLE = "a term is a whole count"


def add_sequence_command(commands: Any) -> None:
    """Add ``sequence`` to the command's sub-parsers."""
    from excover.cli.exact_cover.task_flags import add_task_options

    cmd = add_command(
        commands, "sequence", help="a term of an OEIS sequence", description=_DESCRIPTION
    )
    cmd.add_argument("sequence", metavar="ID", help="the sequence's A-number, such as A360498")
    cmd.add_argument(
        "n", metavar="N", type=common.positive_int, help="the index of the term (a triangle's row)"
    )
    cmd.add_argument(
        "k",
        metavar="K",
        nargs="?",
        type=common.positive_int,
        help="a triangle's column (A348453): the term T(N, K); without it, row N",
    )
    add_limits(cmd, limit=False, max_nodes=False)
    common.add_flag(cmd, "stats")
    add_json(cmd)
    common.add_quiet(cmd)
    common.add_write_dlx(cmd, "the term")
    add_task_options(cmd)  # --workers, --tasks, --checkpoint, --progress, --dask
    common.add_refused(
        cmd,
        {
            "method": "the term is counted by a search (dancing links); --write-dlx FILE "
            "writes its problem, which 'excover count FILE --method ...' counts",
            "engine": "the engine is chosen for each search the count makes; --write-dlx "
            "FILE writes the problem for 'excover count FILE --engine ...'",
            "up_to_symmetry": "each sequence says whether it counts every tiling or the "
            "classes of tilings, and the term is counted so",
            "break_symmetry": "each sequence counts every tiling by a symmetry-broken "
            "search, under the symmetries its problem declares",
            "limit": _WHOLE,
            "max_nodes": f"{_WHOLE}, made of several searches: --timeout bounds it",
            "preprocess": "the symmetries the problem declares are those of the problem "
            "as built, which preprocessing would change",
        },
    )
    cmd.set_defaults(run=_sequence)


def _sequence(args: argparse.Namespace) -> int:
    from excover.cli import report
    from excover.cli.exact_cover.commands import count_problem
    from excover.cli.exact_cover.request import CoverRequest
    from excover.errors import LimitReached
    from excover.sequences import lookup, problem

    sequence = lookup(args.sequence)
    n, label = args.n, f"{sequence.id}({args.n})"
    if sequence.index_of is not None:
        if args.k is None:
            return _row(sequence, args)
        n, label = sequence.index_of(args.n, args.k), f"{sequence.id} T({args.n},{args.k})"
    elif args.k is not None:
        raise UsageError(
            f"{sequence.id} is not a triangle: N is the index of its term, and there is no K"
        )
    tasks = any(common.given(args, dest) for dest in ("checkpoint", "tasks", "dask"))
    searching = sequence.searched_on_request and any(
        common.given(args, dest) for dest in ("workers", "progress")
    )
    if sequence.route is not None and args.write_dlx is None and not tasks and not searching:
        return _by_route(sequence, args, n)
    # --method is refused: the term's cover is counted by a search, on either route; by
    # default the symmetric one its sequence asks for
    symmetric: dict[str, Any] = {}
    if not tasks:
        symmetric = {"up_to_symmetry": sequence.classes, "break_symmetry": not sequence.classes}
    request = CoverRequest.read(args, method="search", **symmetric)
    try:
        cover = problem(sequence.id, n, deadline=request.deadline)
    except (LimitReached, KeyboardInterrupt) as stop:  # a large term takes a while to build
        return report.stopped_building(request, "search", stop)
    if args.write_dlx is not None:
        return common.write_dlx(args, [(cover, args.write_dlx)], label)
    if tasks and sequence.classes:
        raise UsageError(
            f"{sequence.id} counts classes of tilings, by a symmetric search that keeps "
            "no checkpoint: --checkpoint, --tasks and --dask count every tiling"
        )
    return count_problem(cover, request)


def _refuse_workers(sequence: Sequence, args: argparse.Namespace) -> None:
    for dest, flag in (("workers", "--workers"), ("progress", "--progress")):
        if common.given(args, dest):
            raise UsageError(
                f"{sequence.id} is counted by its own route on one process, which does not "
                f"take {flag} (--write-dlx FILE writes its exact cover for other routes)"
            )


def _row(sequence: Sequence, args: argparse.Namespace) -> int:
    """Print row ``args.n`` of a triangle, each term counted by the sequence's own route
    and printed alone on its line as it is found (``--json``: one result per term); at
    ``--timeout`` (for the whole row) or Ctrl-C, the terms found and exit status 1."""
    import json
    import time

    from excover.cli.options import RunOptions
    from excover.cli.report import finish
    from excover.counting.outcome import Outcome
    from excover.errors import LimitReached
    from excover.numbers import to_decimal

    for dest, flag in (
        ("write_dlx", "--write-dlx"),
        ("checkpoint", "--checkpoint"),
        ("tasks", "--tasks"),
        ("dask", "--dask"),
    ):
        if common.given(args, dest):
            raise UsageError(f"{flag} takes one term of {sequence.id}: give its column K after N")
    _refuse_workers(sequence, args)
    assert sequence.route is not None and sequence.position_of is not None
    assert sequence.index_of is not None
    run = RunOptions.read(args)
    started = time.process_time()
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    first = sequence.index_of(args.n, 1)
    results: list[dict[str, object]] = []
    stopped_by: str | None = None
    stats: dict[str, object] = {}
    i = first
    try:
        while sequence.position_of(i)[0] == args.n:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            value, parts = sequence.route(i, left)
            label = f"T({args.n},{i - first + 1})"
            stats[label] = value
            for name, part in parts.items():
                stats[f"{label} {name}"] = part
            if run.json:
                results.append({"input": label, "complete": True, "count": common.exact(value)})
            else:
                print(to_decimal(value), flush=True)
            i += 1
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    method, engine = sequence.route_name
    outcome = Outcome(
        method, engine, None, stopped_by, {"seconds": time.process_time() - started, **stats}
    )
    if run.json:
        document = common.document(
            run.command, method, engine, stopped_by, results=results, stats=stats
        )
        print(json.dumps(document))
    return finish(outcome, run)


def _by_route(sequence: Sequence, args: argparse.Namespace, n: int) -> int:
    """Count the term of index ``n`` by the sequence's own route and print it as a count is printed
    (the route's parts in ``--stats`` and ``--json``; at ``--timeout`` or Ctrl-C, no
    partial count and exit status 1)."""
    import time

    from excover.cli.options import RunOptions
    from excover.cli.report import print_outcome
    from excover.counting.outcome import Outcome
    from excover.errors import LimitReached

    _refuse_workers(sequence, args)
    assert sequence.route is not None
    started = time.process_time()
    value: int | None = None
    stopped_by: str | None = None
    parts: dict[str, object] = {}
    try:
        value, parts = sequence.route(n, args.timeout)
    except LimitReached:
        stopped_by = "timeout"
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    stats = {"seconds": time.process_time() - started, **parts}
    method, engine = sequence.route_name
    outcome = Outcome(method, engine, value, stopped_by, stats)
    return print_outcome(outcome, RunOptions.read(args))
