"""The orders of a ranking, in a module of their own: the command line offers them as
choices when its parser is built, which must not import the goal's dataclasses."""

from __future__ import annotations

__all__ = ["ORDERS"]

#: The orders of a ranking: the highest scores first, or the lowest.
ORDERS = ("high", "low")
