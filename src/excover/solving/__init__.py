"""Solving: the public problem, :class:`ExactCover` (:mod:`excover.solving.exact_cover`),
the orchestrator that runs the operations around a method, then the method, for the
API and every front end (:mod:`excover.solving.orchestrate`, on the operations of
:mod:`excover.solving.registry`), and what a run is asked
(:mod:`excover.solving.request`).

``ExactCover`` is imported on first use, so that a front end building a
:class:`~excover.solving.request.Request` does not load the model.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.solving.exact_cover import ExactCover

__all__ = ["ExactCover"]


def __getattr__(name: str) -> type[ExactCover]:
    """``ExactCover``, imported when first asked for."""
    if name != "ExactCover":
        raise AttributeError(f"module 'excover.solving' has no attribute {name!r}")
    from excover.solving.exact_cover import ExactCover

    globals()[name] = ExactCover
    return ExactCover
