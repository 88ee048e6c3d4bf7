"""The flags of a count by subproblems (``--workers``, ``--tasks``, ``--checkpoint``,
``--checkpoint-every``, ``--dask``, ``--split-after``, ``--progress``), shared by
``excover count`` and ``excover sequence``; :mod:`excover.cli.exact_cover.parallel` runs
the count they ask for."""

from __future__ import annotations

import argparse

from excover.cli.common import add_progress, add_workers, positive_int

__all__ = ["CHECKPOINT_EVERY", "SPLIT_AFTER", "add_task_options"]

#: Seconds between two saves of the checkpoint, by default (``--checkpoint-every``).
CHECKPOINT_EVERY = 30.0

#: Seconds a long subproblem runs on a cluster before it is cut for idle workers (the
#: default of ``--split-after``; :data:`excover.parallel.cluster.SPLIT_AFTER`).
SPLIT_AFTER = 2.0


def add_task_options(count: argparse.ArgumentParser) -> None:
    """The options of ``excover count`` that cut the count into subproblems, and
    ``--progress``."""
    from excover.cli.common import seconds

    group = count.add_argument_group(
        "long counts",
        "Any of --workers, --tasks or --checkpoint counts the problem as subproblems,\n"
        "cut where the search tree is big (its size estimated by Knuth's random probes);\n"
        "the total is exact and the same for any number of workers.",
    )
    add_workers(group, "default 1: in this process")
    group.add_argument(
        "--tasks",
        type=_task_count,
        metavar="N",
        help="cut the search into at least N subproblems (default 6 per worker; with "
        "--method zdd, one per worker; at most 1,000,000)",
    )
    group.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the finished subproblems to FILE (JSON) now and then, on Ctrl-C, on "
        "--timeout and at the end; if FILE exists, resume from it; while another run "
        "uses FILE, wait for it (a damaged FILE is renamed aside)",
    )
    group.add_argument(
        "--checkpoint-every",
        type=seconds,
        default=CHECKPOINT_EVERY,
        metavar="SECONDS",
        help=f"seconds between two saves of the checkpoint (default {CHECKPOINT_EVERY:g})",
    )
    add_progress(group)
    cluster = count.add_argument_group(
        "counting on a Dask cluster",
        "With --dask the subproblems are counted by the workers of a Dask scheduler\n"
        "(`dask scheduler`, `dask worker ADDRESS`): a worker lost or hung costs time, never\n"
        "the total, and with --checkpoint a killed run resumes where it stopped.",
    )
    cluster.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="count on the Dask scheduler at ADDRESS (such as tcp://127.0.0.1:8786)",
    )
    cluster.add_argument(
        "--task-timeout",
        type=seconds,
        metavar="SECONDS",
        help="take a subproblem running longer than SECONDS for hung and count it again on "
        "another worker (default: never)",
    )
    cluster.add_argument(
        "--split-after",
        type=seconds,
        default=SPLIT_AFTER,
        metavar="SECONDS",
        help="when workers are idle, cut a subproblem running longer than SECONDS into "
        f"parts for them (default {SPLIT_AFTER:g}; 0: never)",
    )


def _task_count(text: str) -> int:
    """An argparse type: a number of subproblems, from 1 to
    :data:`~excover.parallel.subproblems.MAX_TASKS`."""
    from excover.parallel.subproblems import MAX_TASKS

    value = positive_int(text)
    if value > MAX_TASKS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_TASKS:,}, not {text}: each subproblem is estimated by "
            "random probes and kept in memory and in the checkpoint (a long one is cut "
            "further where it runs: --split-after on a cluster)"
        )
    return value
