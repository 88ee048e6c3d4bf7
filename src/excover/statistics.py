"""The statistics every search reports: :class:`Stats`.

Every method fills in the same fields (Knuth's DLX1 definitions for dancing links), so
results, errors (:class:`~excover.LimitReached` carries the statistics of the partial run)
and the command line's ``--stats`` and ``--json`` speak of one thing. The class lives here,
below everything but :mod:`excover.numbers`, so that :mod:`excover.errors` and every engine
can name it without importing an engine; ``excover.Stats`` and ``excover.engines.Stats``
are this class.
"""

from __future__ import annotations

from excover.numbers import to_decimal
from excover.records import Record

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Stats"]


class Stats(Record):
    """Statistics of one search, with Knuth's DLX1 definitions of nodes and updates.

    ``complete`` is true once the whole search tree has been explored; ``stopped_by`` names
    what ended the last call early (``"max_solutions"``, ``"max_nodes"``, ``"timeout"`` or
    ``"interrupt"``), or is ``None``. ``algorithm`` is Knuth's algorithm that ran (X, C or
    M) and ``engine`` the engine that ran it (``"dlx"``, ``"bits"`` or ``"cells"``; in the
    bit-parallel engine ``updates`` counts options taken out of play, in dancing cells the
    options removed from items' sets). Runs of other methods fill in the same fields:
    ``engine`` is then ``"sat"`` (a SAT solver; ``algorithm`` names it) or ``"nonogram"``
    (the compiled nonogram search).

    (A :class:`~excover.records.Record`, not a dataclass: importing ``dataclasses`` would
    cost every ``excover`` command a sixth of Python's own start-up.)
    """

    solutions: int = 0
    nodes: int = 0
    updates: int = 0
    seconds: float = 0.0
    complete: bool = False
    stopped_by: str | None = None
    algorithm: str = "X"
    engine: str = "dlx"

    def as_dict(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dictionary."""
        return {name: getattr(self, name) for name in self._fields}

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={_shown(value)}" for name, value in self.as_dict().items())
        return f"Stats({fields})"

    def _repr_html_(self) -> str:
        """What a notebook shows: the fields as a table (:mod:`excover.display`)."""
        from excover.display import record_html

        return record_html("stats", "Stats", self.as_dict().items())


def _shown(value: object) -> str:
    """A field of :class:`Stats` in its repr: whole numbers in decimal at any size (a
    count by ganak may have thousands of digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return to_decimal(value)
    return repr(value)
