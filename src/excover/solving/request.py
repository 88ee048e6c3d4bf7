"""What a front end asks of one solving run (:class:`Request`), in its own terms.

The command line reads it off its flags, a ``.cmb`` program off its statement, the studio
off its settings; :mod:`excover.solving.registry` runs it and answers with an
:class:`~excover.solving.outcome.Outcome`. Limits are absolute: ``deadline`` is a
``time.monotonic()`` instant, so that the time a front end spends before the run (reading,
building a puzzle) counts against the user's ``--timeout``. A progress bar is the front
end's: ``bar(description, unit)`` makes one (:class:`Bar`), and the default makes none.
A run sets its bar's work done against a total (``set``: an estimate, or none while the
run cannot measure its progress; the bar never shows 100% then) and ends it at 100% with
``finish`` when it ran to its end; :class:`excover.parallel.progress.Meter` turns that
into the share done and the time left, the same for every front end.
"""

from __future__ import annotations

import time

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

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


__all__ = ["NoBar", "Request", "no_bar"]


class NoBar:
    """The bar of a run nobody watches: whatever a run asks of it (a :class:`Bar`'s
    ``set``, ``update``, ``finish``, ``close``), it draws nothing."""

    shown = False

    def _nothing(self, *args: object, **kwargs: object) -> None:
        """Nothing to draw."""

    set = update = finish = close = _nothing


def no_bar(description: str, unit: str) -> Bar:
    """The default bar maker: no bar."""
    return NoBar()


class Request:
    """One run: the method and its options, the limits, and how to show progress.

    ``heuristic``, ``seed`` and ``engine`` go to a search; ``route`` forces one route of
    ``method="auto"``; ``solver`` and ``amo`` go to ``method="sat"``; ``limit`` stops a
    listing (or a search's count) after that many solutions, ``max_nodes`` a search
    after that many nodes, ``max_memory`` (bytes) the tables of ``method="zdd"``;
    ``preprocess`` is the API's (None: ``auto`` decides, True: done already, False:
    never)."""

    def __init__(
        self,
        method: str = "auto",
        *,
        heuristic: str = "mrv",
        seed: int | None = None,
        engine: str = "auto",
        route: str | None = None,
        solver: str | None = None,
        amo: str | None = None,
        limit: int | None = None,
        max_nodes: int | None = None,
        max_memory: int | None = None,
        deadline: float | None = None,
        preprocess: bool | None = None,
        bar: Callable[[str, str], Bar] = no_bar,
    ) -> None:
        self.method = method
        self.heuristic = heuristic
        self.seed = seed
        self.engine = engine
        self.route = route
        self.solver = solver
        self.amo = amo
        self.limit = limit
        self.max_nodes = max_nodes
        self.max_memory = max_memory
        self.deadline = deadline
        self.preprocess = preprocess
        self.bar = bar

    def time_left(self) -> float | None:
        """Seconds left before :attr:`deadline` (0 once past; None: no limit), for the
        ``timeout=`` arguments of the API, which count from the call."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def search_options_given(self) -> bool:
        """Whether search options send ``method="auto"`` to one search, as they do in
        the API (``p.count(max_nodes=...)``); ``engine`` and the deadline go with the
        race of routes."""
        return self.heuristic != "mrv" or any(
            value is not None for value in (self.seed, self.max_nodes, self.limit)
        )

    def options(self) -> dict[str, Any]:
        """The keyword arguments of the run's method, as the API takes them."""
        return {"heuristic": self.heuristic, "seed": self.seed, "engine": self.engine}
