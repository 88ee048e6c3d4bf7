"""Solving: the public problem, :class:`ExactCover` (:mod:`excover.solving.exact_cover`),
the registry that serves its solving methods and the front ends
(:mod:`excover.solving.registry`), and what a run is asked and answers
(:mod:`excover.solving.request`, :mod:`excover.solving.outcome`).

``ExactCover`` is imported on first use, so that a front end reading an
:class:`~excover.solving.outcome.Outcome` does not load the model.
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
