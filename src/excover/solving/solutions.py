"""A list of solutions that knows its problem: :class:`Solutions`, what
:meth:`excover.ExactCover.all` returns.

:meth:`~excover.ExactCover.solutions` yields each solution, a plain list of option
indices, as it is found; a list of them shows in a notebook as nested lists of numbers.
``Solutions`` is that same list (a ``list`` subclass: indexing, ``len``, ``==`` with a
plain list, JSON, pickling all work as before) that also holds the problem, so that a
notebook shows it as a table of each solution's options and their items
(:func:`excover.display.solutions_html`).
"""

from __future__ import annotations

from collections.abc import Iterable

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.problem import Problem

__all__ = ["Solutions"]


class Solutions(list[list[int]]):
    """Solutions of ``problem`` (each a list of option indices), in a list that holds
    the problem too: ``problem`` is its attribute. The list is the caller's, to change as
    any list (a slice of it is a plain list)."""

    def __init__(self, problem: Problem, solutions: Iterable[list[int]] = ()) -> None:
        super().__init__(solutions)
        self.problem = problem

    def _repr_html_(self) -> str:
        """What a notebook shows: how many solutions, then the first few, each as its
        options and their items (:func:`excover.display.solutions_html`)."""
        from excover.display import solutions_html

        return solutions_html(self.problem, self)
