"""What one method is asked to do in this process (:class:`MethodRequest`), in its terms.

Every run of a method goes through the method's runner (:mod:`excover.counting.methods`),
whoever asks: the front ends through the orchestrator (:mod:`excover.solving.orchestrate`,
whose :class:`~excover.solving.request.Request` is a ``MethodRequest`` that also carries
the operations around the method), the API's shortcuts and the operations themselves (a
subproblem on a worker, a part of a symmetry-broken search) through
:func:`excover.counting.methods.count` and its siblings.

Limits are absolute: ``deadline`` is a ``time.monotonic()`` instant, so that the time a
front end spends before the run (reading, building a puzzle) counts against the user's
``--timeout``. A progress bar is the front end's: ``bar(description, unit)`` makes one
(:class:`Bar`), and the default makes none. A run sets its bar's work done against a total
(``set``: an estimate, or none while the run cannot measure its progress; the bar never
shows 100% then) and ends it at 100% with ``finish`` when it ran to its end;
:class:`excover.parallel.progress.Meter` turns that into the share done and the time
left, the same for every front end.
"""

from __future__ import annotations

import time

from excover.records import Record

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import KW_ONLY
    from typing import Protocol

    from excover.problem import Problem, SearchOptions

    class Bar(Protocol):
        """A progress bar as the runs draw it (:class:`excover.cli.progress.Progress`)."""

        @property
        def shown(self) -> bool: ...
        def set(
            self,
            done: float,
            total: float | None = None,
            *,
            left: float | None = None,
            **postfix: object,
        ) -> None: ...
        def update(self, amount: float = 1) -> None: ...
        def finish(self, done: float | None = None, **postfix: object) -> None: ...
        def close(self) -> None: ...

    class TreeSizer(Protocol):
        """An estimate of the nodes of a search tree, for a bar whose engine does not
        tell the share of its tree walked (:class:`excover.solving.progress.TreeSize`)."""

        def nodes(self, walked: int) -> float | None: ...


__all__ = ["MethodRequest", "NoBar", "no_bar"]


class NoBar:
    """The bar of a run nobody watches: whatever a run asks of it (a :class:`Bar`'s
    ``set``, ``update``, ``finish``, ``close``), it draws nothing."""

    shown = False

    def _nothing(self, *args: object, **kwargs: object) -> None:
        """Nothing to draw."""

    set = update = finish = close = _nothing


#: The one bar nobody watches (it keeps no state).
_NO_BAR = NoBar()


def no_bar(description: str, unit: str) -> Bar:
    """The default bar maker: no bar."""
    return _NO_BAR


class MethodRequest(Record):
    """One run of one method: the method and its options, the limits, and how to show
    progress.

    ``heuristic`` (None: not given, which is ``"mrv"``), ``seed`` and ``engine`` go to a
    search; ``route`` forces one route of ``method="auto"``; ``solver`` and ``amo`` go to
    ``method="sat"``; ``limit`` stops a listing (or a search's count) after that many
    solutions, ``max_nodes`` a search after that many nodes, ``max_memory`` (bytes) the
    tables of ``method="zdd"``; ``preprocess`` is the API's (None: ``auto`` decides,
    True: done already, False: never). With ``note_ctrl_c``, a run that can stop between
    two of its steps notes Ctrl-C rather than raising it there (a search: it stops at
    the end of its slice, every solution it counted handed over), as a front end that
    prints what was found wants; the API's runs let it raise. The runners trust what
    they are given: each front end checks its user's choices first (the API in
    :func:`excover.counting.methods.request_of`, the command line against its flags).
    """

    method: str = "auto"
    _: KW_ONLY
    heuristic: str | None = None
    seed: int | None = None
    engine: str = "auto"
    route: str | None = None
    solver: str | None = None
    amo: str | None = None
    limit: int | None = None
    max_nodes: int | None = None
    max_memory: int | None = None
    deadline: float | None = None
    preprocess: bool | None = None
    bar: Callable[[str, str], Bar] = no_bar
    note_ctrl_c: bool = False

    def time_left(self) -> float | None:
        """Seconds left before :attr:`deadline` (0 once past; None: no limit), for the
        ``timeout=`` arguments of the engines, which count from the call."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def engine_options(self) -> SearchOptions:
        """The options that choose how a search runs, those given: ``heuristic``,
        ``seed`` and ``engine`` (not ``"auto"``), as the engines take them."""
        options: SearchOptions = {}
        if self.heuristic is not None:
            options["heuristic"] = self.heuristic
        if self.seed is not None:
            options["seed"] = self.seed
        if self.engine != "auto":
            options["engine"] = self.engine
        return options

    def search_options_given(self) -> bool:
        """Whether search options send ``method="auto"`` to one search, as they do in
        the API (``p.count(max_nodes=...)``); ``engine`` and the deadline go with the
        race of routes."""
        return any(
            value is not None for value in (self.heuristic, self.seed, self.max_nodes, self.limit)
        )

    def size_tree(self, problem: Problem) -> TreeSizer | None:
        """What estimates the nodes of a search of ``problem`` for its bar, when its
        engine does not tell the share of its tree walked: nothing here (the bar counts
        up); the orchestrator's request probes the tree
        (:meth:`excover.solving.request.Request.size_tree`)."""
        return None
