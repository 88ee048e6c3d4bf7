"""The goal of a design search: which designs qualify, and how the best come first.

A :class:`Goal` is a small declarative object:

- ``solutions``: the most solutions a qualifying design may have, 1 for *exactly one*
  (the default: a puzzle worth making has one answer), N for *at most N*, None for *any
  number* (at least one solution, always);
- ``up_to_symmetry``: whether solutions that a symmetry of the result maps onto each other
  count as one (the default) or each on its own;
- ``top``: keep only the K best qualifying designs (None: every one);
- ``by`` and ``order``: the score that ranks them (``"solutions"`` by default; a design
  space names the scores it gives, such as the search nodes of a packing or, for burrs,
  the level) and whether the ``"high"`` or the ``"low"`` scores come first (by default
  the fewest solutions, else the highest score). Ties go to the design of the smaller
  index, so the ranking never depends on the order the designs were searched in;
- ``least`` and ``most``: bounds on that score for a design to qualify (a burr's level
  at least ``(5, 2)``, its moves at least 12), None for no bound. A level bound of one
  number stands for the level of that many moves: ``least=5`` keeps ``5``, ``5.4``, ``6``.

The goal drives the early exits of each design's evaluation: a design's search stops as
soon as it has found more solutions than ``solutions`` allows (a second one, for
*exactly one*), and a design that cannot beat the last of the top K may be cut short
(see :meth:`excover.design.space.DesignSpace.evaluate`).

:meth:`Goal.from_table` reads the ``[goal]`` table of a declaration, and every bad field
is a :class:`~excover.design.errors.GoalError` naming it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from excover.design.errors import GoalError
from excover.design.fields import Table
from excover.design.orders import ORDERS

__all__ = ["ORDERS", "Goal", "Score"]


#: A design's score: a number, or numbers compared in turn (a burr's level, separation
#: by separation).
Score = float | tuple[float, ...]


def _whole(value: object, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


@dataclass(frozen=True)
class Goal:
    """What a design search looks for (see the module notes)."""

    solutions: int | None = 1
    up_to_symmetry: bool = True
    top: int | None = None
    by: str = "solutions"
    order: str | None = None
    least: Score | None = None
    most: Score | None = None

    def __post_init__(self) -> None:
        if self.solutions is not None and not _whole(self.solutions, 1):
            raise GoalError(
                "solutions", f"must be a whole number >= 1 or None (any), not {self.solutions!r}"
            )
        if not isinstance(self.up_to_symmetry, bool):
            raise GoalError("up_to_symmetry", f"must be True or False, not {self.up_to_symmetry!r}")
        if self.top is not None and not _whole(self.top, 1):
            raise GoalError("top", f"must be a whole number >= 1 or None, not {self.top!r}")
        if not isinstance(self.by, str) or not self.by:
            raise GoalError("by", f"must name a score, not {self.by!r}")
        for name in ("least", "most"):
            bound = getattr(self, name)
            if bound is not None and not _score(bound):
                raise GoalError(
                    name, f"must be a number or numbers in turn (a level 5.2), not {bound!r}"
                )
        if self.order is None:
            object.__setattr__(self, "order", "low" if self.by == "solutions" else "high")
        elif self.order not in ORDERS:
            raise GoalError("order", f"must be one of {', '.join(ORDERS)}, not {self.order!r}")

    @classmethod
    def from_table(cls, table: Table | Mapping[str, Any]) -> Goal:
        """The goal a declaration's ``[goal]`` table (or a plain mapping) gives: its
        ``solutions`` is ``"unique"``, ``"any"`` or a whole number N >= 1."""
        if not isinstance(table, Table):
            table = Table(table, prefix="goal.")
        solutions: int | None = 1
        if table.has("solutions"):
            given = table.raw("solutions")
            if given == "unique":
                solutions = 1
            elif given == "any":
                solutions = None
            elif _whole(given, 1):
                solutions = given
            else:
                raise table.error(
                    "solutions",
                    f"must be 'unique', 'any' or a whole number >= 1 (at most that many), "
                    f"not {given!r}",
                    GoalError,
                )
        else:
            table.raw("solutions", None)
        goal = cls(
            solutions,
            table.boolean("up_to_symmetry", True),
            table.integer("top", None, least=1),
            table.text("by", "solutions"),
            table.choice("order", ORDERS, None),
            _bound(table, "least"),
            _bound(table, "most"),
        )
        table.done()
        return goal

    def check_scores(self, scores: Sequence[str], table: Table | None = None) -> None:
        """Refuse a ``by`` that is none of the ``scores`` a design space gives."""
        if self.by in scores:
            return
        message = f"names no score of these designs (their scores: {', '.join(scores)})"
        if table is not None:
            raise table.error("by", message, GoalError)
        raise GoalError("by", message)

    def qualifies(self, solutions: int, exact: bool) -> bool:
        """Whether a design with ``solutions`` solutions (a lower bound when not
        ``exact``) meets the goal."""
        if solutions < 1:
            return False
        if self.solutions is None:
            return True
        return exact and solutions <= self.solutions

    def within(self, score: Score | None) -> bool:
        """Whether a design's ``by`` score meets the bounds ``least`` and ``most`` (a
        design without that score meets none but the absence of bounds)."""
        if self.least is None and self.most is None:
            return True
        if score is None:
            return False
        if self.least is not None and _compared(score, self.least) < 0:
            return False
        return self.most is None or _compared(score, self.most) <= 0

    def rank(self, score: Score) -> Score:
        """A sort key of ``score``: smaller keys come first. A tuple is compared number
        by number, and a tuple before its extensions (``(5,)`` before ``(5, 4)``):
        highest first, the key of each number is its negative, and the end of a tuple
        ranks after any number (``(5, 4)`` before ``(5,)``, as level ``5.4`` before
        ``5``)."""
        if self.order == "low":
            return score
        if isinstance(score, tuple):
            return (*(-part for part in score), math.inf)
        return -score

    def as_dict(self) -> dict[str, Any]:
        """The goal as JSON (what a ledger records of it): its fields, the bounds
        (``least``, ``most``) only when set, numbers in turn as a list."""
        data = asdict(self)
        for name in ("least", "most"):
            bound = data.pop(name)
            if bound is not None:
                data[name] = list(bound) if isinstance(bound, tuple) else bound
        return data

    def describe(self) -> str:
        """The goal in words: ``exactly one solution up to symmetry; the top 10 by nodes,
        highest first``."""
        if self.solutions is None:
            text = "at least one solution"
        elif self.solutions == 1:
            text = "exactly one solution"
        else:
            text = f"at most {self.solutions} solutions"
        text += " up to symmetry" if self.up_to_symmetry else " (every solution counted)"
        bounds = [
            f"{word} {_shown(bound)}"
            for word, bound in (("at least", self.least), ("at most", self.most))
            if bound is not None
        ]
        if bounds:
            text += f"; {self.by} {' and '.join(bounds)}"
        if self.top is not None:
            text += f"; the top {self.top} by {self.by}, {self.order}est first"
        elif self.by != "solutions" or self.order != "low":
            text += f"; ranked by {self.by}, {self.order}est first"
        return text


def _score(value: object) -> bool:
    """Whether ``value`` is a score: a number, or a non-empty tuple of numbers."""
    number = (int, float)
    if isinstance(value, bool):
        return False
    if isinstance(value, tuple):
        return bool(value) and all(isinstance(v, number) and not isinstance(v, bool) for v in value)
    return isinstance(value, number)


def _compared(score: Score, bound: Score) -> int:
    """-1, 0 or 1 as ``score`` is below, equal to or above ``bound``: numbers compared
    in turn, a tuple below its extensions, a lone number the same as a tuple of it."""
    mine = score if isinstance(score, tuple) else (score,)
    theirs = bound if isinstance(bound, tuple) else (bound,)
    return (mine > theirs) - (mine < theirs)


def _bound(table: Table, field: str) -> Score | None:
    """A bound read from a declaration: a number, a list of numbers, or a string of
    numbers joined by dots (a level, ``"5.2"``)."""
    if not table.has(field):
        table.raw(field, None)
        return None
    given = table.raw(field)
    if isinstance(given, list) and given:
        given = tuple(given)
    elif isinstance(given, str):
        parts = given.strip().split(".")
        if all(part.isdigit() for part in parts):
            given = tuple(int(part) for part in parts) if len(parts) > 1 else int(parts[0])
    if not _score(given):
        raise table.error(
            field, f"must be a number or a level such as '5.2', not {given!r}", GoalError
        )
    return given  # type: ignore[no-any-return]


def _shown(bound: Score) -> str:
    """A bound as it is written: ``5.2`` for a level, ``12`` for a number."""
    if isinstance(bound, tuple):
        return ".".join(str(part) for part in bound)
    return str(bound)
