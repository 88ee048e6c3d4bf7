"""What a design search found: a tally of the outcomes as they come, and the report.

:class:`Tally` takes each design's outcome (from the ledger of earlier runs or from this
run, in any order: the result is the same) and keeps the figures and the best
qualifying designs. :class:`Report` is what :func:`excover.design.search` returns: the
designs searched, the distribution of their solutions, the designs rejected before any
search, and the qualifying designs, best first, as a dataclass whose :meth:`Report.as_dict`
is the ``--json`` document's body.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from excover.design.goal import Goal, Score
from excover.design.space import Evaluation

__all__ = ["KEEP", "Found", "Report", "Tally", "sorted_distribution"]

#: The most qualifying designs a report lists when the goal keeps no top K (the count
#: of them is exact beyond).
KEEP = 10_000


@dataclass(frozen=True)
class Found:
    """A qualifying design: its index, canonical key, the candidates it stands for
    (``weight``), its solutions and its scores."""

    index: int
    key: str
    weight: int
    solutions: int
    scores: Mapping[str, Score] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The design as JSON data: its fields (``scores`` a dictionary, as made)."""
        return asdict(self)


def _bucket(outcome: Evaluation) -> str:
    return str(outcome.solutions) if outcome.exact else f"{outcome.solutions}+"


def _bucket_order(key: str) -> tuple[int, int]:
    return (int(key.rstrip("+")), key.endswith("+"))


class Tally:
    """The figures of the outcomes added so far, and the best qualifying designs (at most
    ``goal.top``, else :data:`KEEP`), ranked by the goal."""

    def __init__(self, goal: Goal, keep: int = KEEP) -> None:
        self.goal = goal
        self.keep = goal.top if goal.top is not None else keep
        self.candidates = 0
        self.designs = 0
        self.qualifying = 0
        self.rejected: Counter[str] = Counter()
        self.distribution: Counter[str] = Counter()
        self.seconds = 0.0
        self.best: list[tuple[Score, int, Evaluation]] = []

    def add(self, index: int, outcome: Evaluation | None) -> None:
        """Count the outcome of the candidate at ``index`` (None: not a design)."""
        self.candidates += 1
        if outcome is None:
            return
        self.designs += 1
        if outcome.rejected is not None:
            self.rejected[outcome.rejected] += 1
        self.distribution[_bucket(outcome)] += 1
        if not self.goal.qualifies(outcome.solutions, outcome.exact):
            return
        score = outcome.score(self.goal.by)
        if not self.goal.within(score):
            return
        self.qualifying += 1
        if score is None:
            return
        entry = (self.goal.rank(score), index, outcome)
        if len(self.best) >= self.keep and entry[:2] >= self.best[-1][:2]:
            return
        bisect.insort(self.best, entry, key=lambda kept: kept[:2])
        del self.best[self.keep :]

    def beat(self) -> Score | None:
        """The score a design must beat to enter the top K, once K designs are kept (None
        before, or without a top K)."""
        if self.goal.top is None or len(self.best) < self.goal.top:
            return None
        return self.best[-1][2].score(self.goal.by)


@dataclass
class Report:
    """What a design search found.

    ``space``: the space in words; ``start`` and ``stop``: the range of indices searched
    (of ``size``); ``candidates``: the indices done, of which ``designs`` were designs of
    their own (the others stand in another's orbit); ``resumed``: the designs taken
    from the ledger; ``rejected``: the designs rejected before any search, by reason;
    ``distribution``: the designs by their number of solutions (``"9+"``: at least 9, the
    search stopped there); ``qualifying``: the designs that meet the goal, and ``found``
    the best of them, best first (every one when ``kept_all``); ``seconds``: the time
    the evaluations took over every run (on every worker), ``elapsed`` this run's;
    ``stopped_by``: ``"timeout"`` or ``"interrupt"`` when the run stopped early (the
    figures then cover the candidates done)."""

    kind: str
    space: str
    goal: Goal
    size: int
    start: int
    stop: int
    candidates: int
    designs: int
    resumed: int
    rejected: dict[str, int]
    distribution: dict[str, int]
    qualifying: int
    found: list[Found]
    kept_all: bool
    seconds: float
    elapsed: float
    workers: int
    stopped_by: str | None = None
    ledger: str | None = None

    @property
    def complete(self) -> bool:
        """Whether every candidate of the range was searched."""
        return self.candidates == self.stop - self.start

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON data."""
        return {
            "kind": self.kind,
            "space": self.space,
            "goal": self.goal.as_dict(),
            "goal_text": self.goal.describe(),
            "size": self.size,
            "range": [self.start, self.stop],
            "candidates": self.candidates,
            "designs": self.designs,
            "resumed": self.resumed,
            "rejected": dict(self.rejected),
            "distribution": dict(self.distribution),
            "qualifying": self.qualifying,
            "found": [found.as_dict() for found in self.found],
            "kept_all": self.kept_all,
            "seconds": round(self.seconds, 3),
            "elapsed": round(self.elapsed, 3),
            "workers": self.workers,
            "ledger": self.ledger,
            "complete": self.complete,
            "stopped_by": self.stopped_by,
        }


def sorted_distribution(counts: Mapping[str, int]) -> dict[str, int]:
    """The distribution ordered by number of solutions, each bound after its exact count."""
    return {key: counts[key] for key in sorted(counts, key=_bucket_order)}
