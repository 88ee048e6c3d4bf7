"""The end of a run over an exact cover problem, for every command that counts or lists
one (the problem commands, and the puzzles' own): the count on stdout (or its ``--json``
document), then on stderr the method and engine that ran, what stopped the run early and,
with ``--stats``, the statistics and what they mean; the exit status.
"""

from __future__ import annotations

import sys

from excover.cli import common
from excover.numbers import byte_size, to_decimal

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.cli.options import RunOptions
    from excover.counting.outcome import Outcome

__all__ = ["exact_stats", "finish", "print_outcome", "stats_lines", "stopped_building"]


def stats_lines(stats: dict[str, Any], route: str | None = None) -> str:
    """The statistics of a run for people, one ``name: value`` per line, then ``search:
    complete`` or what stopped it, then ``meaning of NAME: ...`` for each figure whose
    definition depends on the engine or the ``route`` that ran (the others:
    :data:`~excover.cli.outcome.FIGURES`)."""
    from excover.cli.outcome import definitions

    meaning = definitions(stats, route)
    lines = []
    for key, value in stats.items():
        if key in ("complete", "stopped_by", "seed") or value is None:
            continue
        if key == "seconds":
            lines.append(f"time: {value:.3f} s")
        elif key == "heuristic" and value == "random":
            lines.append(f"heuristic: random (seed {stats.get('seed')})")
        else:
            shown = to_decimal(value) if isinstance(value, int) else value
            lines.append(f"{key.replace('_', ' ')}: {shown}")
    stopped_by = stats.get("stopped_by")
    lines.append(f"search: {'complete' if stopped_by is None else common.STOP_CAUSES[stopped_by]}")
    lines += [f"meaning of {key.replace('_', ' ')}: {text}" for key, text in meaning.items()]
    return "\n".join(lines)


def print_outcome(outcome: Outcome, run: RunOptions) -> int:
    """Print a count: the number on stdout (or the JSON document of ``run.command``), the
    method, what stopped the run and, with ``--stats``, the statistics on stderr; the
    exit status."""
    if run.json:
        import json  # here, not at the top: a run without --json spares the import

        doc = common.document(
            run.command,
            outcome.method,
            outcome.engine,
            outcome.stopped_by,
            count=outcome.count,
            stats=exact_stats(outcome.stats),
        )
        if outcome.route is not None:
            doc["route"] = outcome.route
        print(json.dumps(doc))
    elif outcome.count is not None:
        print(to_decimal(outcome.count))
    return finish(outcome, run)


def stopped_building(run: RunOptions, method: str, stop: BaseException) -> int:
    """The output of a run that ``stop`` (:class:`~excover.LimitReached` at
    ``--timeout``, or Ctrl-C) ended while its problem was being built, before any
    search: nothing found, marked partial (a count of 0, a listing with no solution),
    by ``method`` (the one asked for); the exit status."""
    from excover.cli.outcome import Outcome

    stopped_by = "interrupt" if isinstance(stop, KeyboardInterrupt) else "timeout"
    outcome = Outcome(method, "building the problem", 0, stopped_by, {"solutions": 0})
    if run.counting:
        return print_outcome(outcome, run)
    if run.json:
        stream = common.JsonStream(sys.stdout, run.command)
        stream.close(outcome.method, outcome.engine, stopped_by, count=0)
    return finish(outcome, run)


def finish(outcome: Outcome, run: RunOptions) -> int:
    """After the result: method, stop cause and statistics on stderr; the exit status."""
    sys.stdout.flush()  # the result first, when stdout and stderr share a terminal or file
    if not run.json:
        common.say_method(run, outcome.method, outcome.engine)
        if outcome.route is not None:
            common.say_route(run, outcome.route)
        common.say_cpu(run, outcome.stats)
    count = run.counting
    if outcome.stopped_by not in (None, "limit") or (outcome.stopped_by == "limit" and count):
        # a listing that printed the N solutions --limit asked for is what was asked for
        found = outcome.count
        if found is None:
            detail = "" if outcome.stopped_by == "limit" else "no partial count"
        else:
            detail = f"{to_decimal(found)} solutions so far"
        if outcome.stopped_by == "max_memory" and "memory_bound" in outcome.stats:
            detail = f"a bound of {byte_size(outcome.stats['memory_bound'])}; {detail}"
        common.say_stopped(outcome.stopped_by, f" ({detail})" if detail else "")
    if run.stats or outcome.stopped_by == "interrupt":
        # what stopped the run is the outcome's to say: some commands' statistics
        # (a nonogram's solution count) do not carry it
        stats = {**outcome.stats, "stopped_by": outcome.stopped_by}
        route = None if outcome.route is None else outcome.route["name"]
        print(stats_lines(stats, route), file=sys.stderr)
    return common.exit_status(outcome.stopped_by, count)


#: The statistics that are counts, of any size (a seed is written as it is).
_COUNTS = ("solutions", "group_order")


def exact_stats(stats: dict[str, Any]) -> dict[str, Any]:
    """Statistics for JSON: the counts exact at any size (:func:`~excover.cli.common.exact`)."""
    return {
        k: common.exact(v) if k in _COUNTS and isinstance(v, int) else v for k, v in stats.items()
    }
