"""Solving: the public problem, :class:`ExactCover`, and the registry that serves its
solving methods (:mod:`excover.solving.registry`)."""

from excover.solving.exact_cover import ExactCover

__all__ = ["ExactCover"]
