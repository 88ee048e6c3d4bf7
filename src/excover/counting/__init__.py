"""Counting every solution of an exact cover problem: the routes, and the choice among them.

:mod:`excover.counting.routes` names each way of counting (the search engines ``dlx``,
``bits`` and ``cells``, ``dxz``, the ``frontier`` count, ``components``, ``parts``)
behind one interface that counts in steps; :mod:`excover.counting.choice` is
``count(method="auto")``: the frontier count where it applies, the parts route where
the problem falls apart, else a race of the routes in growing steps; it says which route
finished and why::

    from excover import counting
    found = counting.count(problem)          # a CountResult
    found.count, found.route, found.reason   # 921600, 'parts', 'the problem falls ...'
    counting.count(problem, route="bits")    # one route, forced

``ExactCover.count(method="auto")`` returns ``counting.count(problem).count``.
"""

from __future__ import annotations

from excover.lazy import lazy_getattr

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.counting.choice import CountResult, Work, count
    from excover.counting.routes import ROUTES

__all__ = ["ROUTES", "CountResult", "Work", "count"]

#: The public names, imported on first use (so that :mod:`excover.counting.methods`,
#: which every solving call imports, costs a dancing-links count nothing more), by the
#: module each lives in.
_LAZY = {
    "excover.counting.choice": ["CountResult", "Work", "count"],
    "excover.counting.routes": ["ROUTES"],
}

__getattr__ = lazy_getattr(__name__, _LAZY, globals())
