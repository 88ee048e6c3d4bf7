"""Scaling a search: subproblems, parallel and distributed runs, size estimates.

* :func:`split` cuts the search tree into :class:`Subproblem` objects (options forced in
  and options forbidden) whose solutions partition those of the problem
  (:mod:`excover.parallel.subproblems`, over the tree walk of :mod:`excover.parallel.tree`);
* :func:`count` and :func:`solutions` solve the subproblems on a process pool or on any
  ``concurrent.futures`` executor, a Dask ``Client`` included (:mod:`excover.parallel.run`);
* :func:`estimate` estimates the size and running time of a search by Knuth's random
  probes (:mod:`excover.parallel.probes`);
* :mod:`excover.parallel.checkpoint` saves a long count's finished subproblems so it can
  resume after a stop (several runs may share the file: :mod:`excover.parallel.sharing`
  writes it whole, locks it and sets damaged files aside), and
  :mod:`excover.solving.checkpointed` drives all this for the orchestrator (``excover
  count --workers/--checkpoint/--progress``, the studio's long counts);
* :mod:`excover.parallel.cluster` counts on a Dask cluster through faults (lost and hung
  workers, a killed client, a restarted scheduler) and cuts long subproblems for idle
  workers (``excover count --dask``), over the tasks of :mod:`excover.parallel.tasks`.

The usual doors are the methods of :class:`~excover.ExactCover`: ``p.split(tasks=n)``,
``p.count(workers=n)``, ``p.solutions(workers=n)``, ``p.count(executor=client)``,
``p.estimate(samples=n)``.

The names below are loaded on first use (PEP 562), so that the command line, which
imports :mod:`excover.cli.parallel` at start-up, does not pay for the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from excover.parallel.probes import Estimate, estimate
    from excover.parallel.run import count, solutions
    from excover.parallel.subproblems import Subproblem, split

__all__ = ["Estimate", "Subproblem", "count", "estimate", "solutions", "split"]

#: The module of each public name.
_HOME = {
    "Estimate": "probes",
    "estimate": "probes",
    "count": "run",
    "solutions": "run",
    "Subproblem": "subproblems",
    "split": "subproblems",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
