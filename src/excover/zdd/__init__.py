"""ZDDs: the compiled node store, the ``Family`` type, and exact covers as families.

A zero-suppressed decision diagram (Minato, 1993) stores a family of sets of ints as a
DAG whose nodes test one variable each; shared sub-families are stored once, so families
with astronomically many sets can be small. Here the nodes live in a compiled store
(:mod:`excover.zdd._store`) owned by a :class:`Manager`; :class:`Family` is the Python
handle on one node. :func:`configure` sets the sizes of the default manager.

The constructions of all the solutions of an :class:`~excover.ExactCover` live in
:mod:`excover.zdd.dxz` (memoised dancing links) and :mod:`excover.zdd.columns` (combine's
column-by-column intersection).
"""

import os
from typing import TYPE_CHECKING

from excover.lazy import lazy_getattr

# Threads of the compiled counts (the frontier's layers) waiting at a barrier sleep rather
# than spin: a spinning thread takes the core that the thread it waits for, or another
# process, needs. The OpenMP runtime reads this once, when the first compiled module of
# this package that uses it loads, so it is set here, before any of them can be imported
# (importing excover.zdd._frontier directly runs this first); a policy the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if TYPE_CHECKING:
    from excover.zdd.family import Family
    from excover.zdd.manager import Manager, configure, default

__all__ = ["Family", "Manager", "configure", "default"]

#: Names imported on first use, so that a module of this package (``excover.zdd.frontier``
#: for a count) loads without the family's machinery.
_LAZY = {
    "excover.zdd.family": ["Family"],
    "excover.zdd.manager": ["Manager", "configure", "default"],
}


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
