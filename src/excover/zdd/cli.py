"""``excover count --method zdd|auto``: counting on the DXZ family, for the command line.

Kept apart from :mod:`excover.cli` so that the command's own module stays about dancing
links; :func:`count_zdd` prints the count and, with ``--stats``, the size of the ZDD.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from excover.dlx import Search
from excover.errors import UsageError
from excover.problem import ExactCover
from excover.zdd import auto, dxz

__all__ = ["count_zdd"]


def count_zdd(problem: ExactCover, args: argparse.Namespace) -> int | Search | None:
    """Count ``problem`` on its DXZ family and print the result; return the exit status.

    When dancing links should count it instead, return the DLX run that ``--method auto``
    started and chose, to be finished by the caller (no work is lost), or None when a
    dancing-links option was given (the caller starts its own run)."""
    search_options = [
        flag
        for flag, given in [
            ("--heuristic", args.heuristic != "mrv"),
            ("--seed", args.seed is not None),
            ("--timeout", args.timeout is not None),
            ("--max-nodes", args.max_nodes is not None),
        ]
        if given
    ]
    if args.method == "zdd" and search_options:
        raise UsageError(f"--method zdd does not take {', '.join(search_options)}")
    if search_options:
        return None
    start = time.perf_counter()
    run = None
    if args.method == "auto":
        choice = auto.choose(problem)
        if choice.method == "dlx":
            assert choice.search is not None  # a DLX choice hands back its run
            return choice.search
        run = choice.probe  # goes on with the probe's search (None if the probe finished)
    probe = (run or dxz.Run(problem, dxz.search_manager())).run()
    assert probe.family is not None  # no budget, so the search ran to its end
    count = probe.family.count()
    stats = {
        "solutions": count,
        "zdd_nodes": probe.family.size,
        "nodes": probe.nodes,
        "memo_hits": probe.hits,
        "seconds": time.perf_counter() - start,
        "method": "zdd",
    }
    if args.json:
        print(json.dumps({"count": count, "complete": True, "method": "zdd", "stats": stats}))
    else:
        print(count)
    sys.stdout.flush()
    if args.stats:
        lines = [
            f"solutions: {count}",
            f"zdd nodes: {stats['zdd_nodes']}",
            f"search nodes: {probe.nodes} ({probe.hits} answered by the memo)",
            f"time: {stats['seconds']:.3f} s",
            "method: zdd (DXZ)",
        ]
        print("\n".join(lines), file=sys.stderr)
    return 0
