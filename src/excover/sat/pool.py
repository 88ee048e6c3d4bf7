"""Numbering the variables of a CNF formula as the encodings create them.

The first variables are the options of the problem (option ``i`` is variable ``i + 1``);
every encoding that needs an auxiliary variable asks the :class:`Pool` for the next free
number, so auxiliary variables always come after the option variables and the option
variables alone form the projection set of the formula.
"""

from __future__ import annotations

__all__ = ["Clause", "Pool"]

#: A clause: a list of non-zero literals, ``v`` for variable v true, ``-v`` for false.
Clause = list[int]


class Pool:
    """Hands out fresh variable numbers after the ``top`` ones already in use."""

    def __init__(self, top: int) -> None:
        self.top = top

    def new(self) -> int:
        """A fresh variable."""
        self.top += 1
        return self.top

    def many(self, count: int) -> list[int]:
        """``count`` fresh variables, in increasing order."""
        first = self.top + 1
        self.top += count
        return list(range(first, self.top + 1))
