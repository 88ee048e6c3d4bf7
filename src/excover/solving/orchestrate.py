"""The one composite policy of every front end: the operations around a method, then
the method's runner.

:func:`count` and :func:`solutions` take a problem and a
:class:`~excover.solving.request.Request` and answer with an
:class:`~excover.counting.outcome.Outcome`, whatever the method
(:func:`excover.counting.methods.runs`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable

    from excover.counting.outcome import Outcome
    from excover.problem import Problem
    from excover.solving.request import Request

__all__ = ["count", "solutions"]


def count(problem: Problem, request: Request) -> Outcome:
    """Count the solutions of ``problem`` as ``request`` asks, within its limits: the
    :class:`Outcome` says what ran, what it found and why it stopped early, if it did.
    ``method="auto"`` given search options runs one search, as in the API."""
    from excover.counting.methods import runs

    return runs(request).count(problem, request)


def solutions(problem: Problem, request: Request, emit: Callable[[list[int]], None]) -> Outcome:
    """Hand each solution of ``problem`` to ``emit`` as soon as ``request``'s method
    finds it (``auto``: one search, as in the API), within its limits; a closed pipe
    (BrokenPipeError from ``emit``) propagates."""
    from excover.counting.methods import runs
    from excover.counting.outcome import emitted

    return emitted(runs(request).listing(problem, request), emit)
