"""What a count by the choice of routes answers (:class:`CountResult`): the count, the
route that finished and why, the time, and what every route in the race did.

:func:`excover.counting.count` returns one (:mod:`excover.counting.choice` runs the
race); a notebook shows it as a table (:func:`excover.display.record_html`).
"""

from __future__ import annotations

from excover.numbers import to_decimal
from excover.records import Record

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.counting.routes import Work
    from excover.preprocess import PreprocessStats

__all__ = ["CountResult"]


class CountResult(Record):
    """A count and how it was made: the ``route`` that finished (a name of
    :data:`~excover.counting.routes.ROUTES`), ``reason``, why that route counted, in
    words; ``seconds`` in all; ``work``, what each route that ran did (the race's
    losers too), by name. (A :class:`~excover.records.Record`, not a named tuple:
    ``count`` would clash with a tuple's method.)"""

    count: int
    route: str
    reason: str
    seconds: float
    work: dict[str, Work]
    #: What the choice's preprocessing did, when it ran (see
    #: :data:`excover.counting.choice.PREPROCESS_ABOVE`).
    preprocessed: PreprocessStats | None = None

    def __repr__(self) -> str:
        return (
            f"CountResult(count={to_decimal(self.count)}, route={self.route!r}, "
            f"reason={self.reason!r}, seconds={self.seconds:.6f}, work={self.work!r}, "
            f"preprocessed={self.preprocessed!r})"
        )

    @property
    def method(self) -> str:
        """The method the route belongs to: ``"search"`` for a search engine, else ``"zdd"``."""
        from excover.names import SEARCH_ENGINES, SEARCH_METHOD

        return SEARCH_METHOD if self.route in SEARCH_ENGINES else "zdd"

    def _repr_html_(self) -> str:
        """What a notebook shows: the count, the route and why, the time, what the
        preprocessing removed, and what each route did (:mod:`excover.display`)."""
        from excover.display import record_html

        facts = [("count", self.count), ("method", self.method), ("route", self.route)]
        facts += [("reason", self.reason), ("seconds", self.seconds)]
        if self.preprocessed is not None:
            done = self.preprocessed
            facts += [("options removed", done.options_removed)]
            facts += [("items removed", done.items_removed)]
        work = {name: done._asdict() for name, done in self.work.items()}
        return record_html("count", "CountResult", facts, work)
