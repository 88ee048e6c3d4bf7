"""Counting and listing the solutions of an exact cover problem from the command line.

Every subcommand that solves an :class:`~excover.ExactCover` (``count``, ``solve``,
``queens``, ``sudoku --count/--all``) goes through :func:`count` or :func:`solutions`
here with its :class:`~excover.cli.exact_cover.request.CoverRequest`, so the flags mean
the same everywhere: this module refuses the flags the method cannot honour, turns the
others into a :class:`~excover.solving.request.Request` and
hands it to :mod:`excover.solving.orchestrate`, which runs the method (its runner, the
one the API reads: ``excover count --method zdd`` counts as ``p.count(method="zdd")``
does) and answers with an :class:`~excover.counting.outcome.Outcome`.

Limits: ``--timeout`` is wall-clock time from the start of the command
(:attr:`~excover.cli.options.RunOptions.deadline`), whatever the time is spent on (printing
included). A search runs in slices and stops cleanly at ``--timeout``, ``--max-nodes``,
``--limit`` or Ctrl-C with its count so far; SAT honours ``--timeout`` and ``--limit``
itself; the ZDD method stops at ``--timeout`` by an alarm and at its memory bound
(``--max-memory``), with no partial count (a ZDD count is not a sum found solution by
solution) but with the solutions listed so far; ``--method auto`` races the routes of
:mod:`excover.counting` within ``--timeout`` (the partial count is its search's), says
which route finished and why (``route`` in ``--json``), and ``--route NAME`` forces one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from excover.cli.common import given, refuse
from excover.cli.progress import progress
from excover.counting.outcome import Outcome
from excover.errors import UsageError
from excover.names import METHOD_TRAITS, SEARCH_METHOD
from excover.numbers import abbreviated, to_decimal
from excover.solving.request import Events, Request

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from pathlib import Path

    from excover.cli.exact_cover.problem_input import Totals
    from excover.cli.exact_cover.request import CoverRequest
    from excover.counting.request import Bar
    from excover.parallel.checkpoint import Checkpoint
    from excover.problem import Problem
    from excover.symmetry import Group

__all__ = [
    "CommandEvents",
    "Outcome",
    "check_method_flags",
    "count",
    "count_plain",
    "orchestrator_request",
    "solutions",
]


def check_method_flags(args: CoverRequest, counting: bool) -> None:
    """Refuse every flag that the method of ``args`` cannot honour, at once and saying
    why."""
    method = args.method
    traits = METHOD_TRAITS[method]
    search_only = f"chooses items in a search: it goes with --method search (or auto), not {method}"
    if not traits.searches:
        refuse(args, "heuristic", search_only)
        refuse(args, "engine", search_only.replace("chooses items in", "chooses the engine of"))
        what = "a SAT solver" if traits.solver else f"--method {method}"
        refuse(args, "max_nodes", f"counts nodes of a dancing-links search: {what} has none")
    if args.seed is not None and args.heuristic != "random":
        raise UsageError("--seed goes with --heuristic random (the other heuristics draw nothing)")
    if not traits.chooses:
        refuse(args, "route", f"forces one route of --method auto, not of {method}")
    elif given(args, "route"):
        for name in ("heuristic", "seed", "engine", "limit", "max_nodes"):
            refuse(args, name, "does not go with --route (which forces one route)")
    if not traits.solver:
        refuse(args, "solver", f"goes with --method sat, not {method}")
        refuse(args, "amo", f"goes with --method sat, not {method}")
    if not traits.family:
        refuse(
            args,
            "max_memory",
            f"goes with --method zdd (it bounds the ZDD's nodes, DXZ's memo and the frontier "
            f"count's states), not {method}",
        )
    elif counting:
        refuse(
            args,
            "limit",
            "stops an enumeration: --method zdd counts without enumerating (use search)",
        )


class CommandEvents(Events):
    """What a run tells the command line: notes on stderr (the group a search found,
    a checkpoint resumed, its lock, a split short of subproblems)."""

    def group_found(self, group: Group, seconds: float) -> None:
        orders = f"{to_decimal(group.order)} ({to_decimal(group.option_order)} on the options)"
        print(
            f"excover: symmetries: a group of order {orders}, found in {seconds:.2f} s",
            file=sys.stderr,
        )

    def say(self, text: str) -> None:
        print(f"excover: {text}", file=sys.stderr)

    def resumed(self, path: Path | None, state: Checkpoint, parts: int | None) -> None:
        of = "" if parts is None else f" of {parts}"
        print(
            f"excover: resuming from {path} ({len(state.done)}{of} subproblems counted by "
            f"earlier runs: {abbreviated(state.count)} solutions in {state.seconds:.1f} s)",
            file=sys.stderr,
        )


def orchestrator_request(args: CoverRequest, **composites: Any) -> Request:
    """The orchestrator's request of the run the command line asks for (``args``), by
    its method, with the operations ``composites`` asks for around it: its symmetric
    searches one search each, its scout's short counts done again the plain way (the
    method line names what ran), the group found and the counts on workers under the
    alarm of ``--timeout``."""

    def bar(description: str, unit: str) -> Bar:
        return progress(args, desc=description, unit=unit)

    heuristic = args.heuristic
    return Request(
        args.method,
        # the default heuristic, named or not, sends no count of auto to one search
        heuristic=None if heuristic == "mrv" else heuristic,
        seed=args.seed,
        engine=args.engine or "auto",
        route=args.route,
        solver=args.solver,
        amo=args.amo,
        limit=args.limit,
        max_nodes=args.max_nodes,
        max_memory=args.max_memory,
        deadline=args.deadline,
        preprocess=args.preprocess,
        bar=bar,
        group_method=SEARCH_METHOD,
        scout_answers=False,
        alarm=True,
        events=CommandEvents(),
        **composites,
    )


def count(
    problem: Problem,
    args: CoverRequest,
    symmetry: bool | None = False,
    totals: Totals | None = None,
) -> Outcome:
    """Count the solutions of ``problem`` by ``args.method`` within the command line's
    limits, as :meth:`ExactCover.count` would (same route for the same method); with
    ``symmetry`` None, breaking by default the group it declares or, given ``totals``,
    a board's (:func:`excover.cli.exact_cover.symmetry.may_break`: the caller words such
    a run's engine, :func:`excover.cli.exact_cover.symmetry.worded`)."""
    from excover.solving import orchestrate

    check_method_flags(args, counting=True)
    request = orchestrator_request(args, symmetry=symmetry, totals=totals)
    return orchestrate.count(problem, request)


def count_plain(problem: Problem, max_nodes: int, deadline: float | None) -> Outcome:
    """Count the solutions of ``problem`` by one plain search (no symmetry, no race),
    within ``max_nodes`` nodes and ``deadline``: ``excover estimate``'s count when it
    is cheaper than the probes."""
    from excover.solving import orchestrate

    request = Request(SEARCH_METHOD, symmetry=False, max_nodes=max_nodes, deadline=deadline)
    return orchestrate.count(problem, request)


def solutions(problem: Problem, args: CoverRequest, emit: Callable[[list[int]], None]) -> Outcome:
    """Find the solutions of ``problem`` by ``args.method`` (``auto``: dancing links, as
    in the API), calling ``emit`` on each as soon as it is found; stops at the command
    line's limits, Ctrl-C or a closed pipe (BrokenPipeError propagates)."""
    from excover.solving import orchestrate

    check_method_flags(args, counting=False)
    return orchestrate.solutions(problem, orchestrator_request(args, symmetry=False), emit)
