"""The old import path of the search engines, kept for one release.

The compiled search engines and their Python face moved to :mod:`excover.engines` (the
package holds three engines, not only dancing links). ``import excover.dlx`` still works
and gives the same objects, with a :class:`DeprecationWarning`; it will be removed in the
next release.
"""

from __future__ import annotations

import warnings

from excover.engines import (
    ENGINES,
    HEURISTICS,
    CompiledEngine,
    Deadline,
    Search,
    Stats,
    new_engine,
    pick_engine,
    wall_clock_search,
)

__all__ = [
    "ENGINES",
    "HEURISTICS",
    "CompiledEngine",
    "Deadline",
    "Search",
    "Stats",
    "new_engine",
    "pick_engine",
    "wall_clock_search",
]

warnings.warn(
    "excover.dlx is now excover.engines; the old name will be removed in the next release",
    DeprecationWarning,
    stacklevel=2,
)
