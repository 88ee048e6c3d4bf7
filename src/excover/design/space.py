"""Design spaces: candidate designs numbered by index, each evaluated against a goal.

A :class:`DesignSpace` is what a domain (packings in :mod:`excover.tiling.designs`,
burrs later) hands the engine of :mod:`excover.design.searching`:

- **candidates by index**: ``size`` indices, and :meth:`~DesignSpace.design` turning an
  index into its :class:`Design`, deterministically, so that a run can be cut into
  ranges of indices and resumed anywhere. Each design appears **once up to the result's
  symmetry and the pieces' own symmetries**: the candidates are counted with those
  symmetries already taken out where the numbering allows (a set of pieces is a multiset
  of canonical piece forms), and an index whose candidate is not the representative of
  its orbit gives None (the design stands at another index). A :class:`Design` carries
  its canonical ``key`` and its ``weight``: how many candidates without the symmetry
  reduction it stands for, so that the reduced search can be checked against one
  without it.
- **an evaluation** per design (:meth:`~DesignSpace.evaluate`), with **early exits**
  driven by the goal: the search of its solutions stops once it has found more than the
  goal allows (a second one, when a unique solution is asked for); when only the top K
  by a score are kept, the engine passes ``beat``, the score of the last of them, and an
  evaluation that sees it cannot do better may stop (its outcome then inexact). Designs
  that cannot have a solution (their area, a colouring) are rejected before any search,
  their :class:`Evaluation` saying why.
- **its declaration** (:meth:`~DesignSpace.declaration`), plain JSON data from which
  :meth:`~DesignSpace.from_declaration` builds the same space again: the ledger names the
  search by it, and worker processes build their own copy from it (each keeps what it
  shares across designs, such as the pieces' placements on the board).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from excover.design.errors import DesignError
from excover.design.fields import Table
from excover.design.goal import Goal, Score
from excover.design.multisets import Multisets

__all__ = ["DeclaredSpace", "Design", "DesignSpace", "Evaluation", "MultisetSpace"]


@dataclass(frozen=True)
class Design:
    """One candidate design: its ``index`` in the space, its canonical ``key`` (the
    same for every candidate of its orbit, readable: ``"I L P U"``), its ``weight`` (the
    candidates of its orbit: how many designs it stands for without the symmetry
    reduction) and its ``parts``, the domain's own description (the catalog numbers of
    its pieces)."""

    index: int
    key: str
    weight: int = 1
    parts: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the evaluation of one design found.

    ``solutions``: its number of solutions (up to symmetry when the goal asks for it);
    a lower bound when not ``exact`` (the search stopped early, the goal needing no
    more). ``scores``: the other figures of the design by name (such as ``nodes``),
    each a number or a tuple of numbers compared in turn (a burr's level).
    ``rejected``: the word saying why no search ran (``"area"``, ``"colouring"``,
    ``"fit"``), the design having no solution."""

    solutions: int
    exact: bool = True
    scores: Mapping[str, Score] = field(default_factory=dict)
    rejected: str | None = None

    def score(self, by: str) -> Score | None:
        """The score named ``by`` (``"solutions"`` or one of :attr:`scores`), None when
        this outcome does not have it."""
        if by == "solutions":
            return self.solutions if self.exact else None
        return self.scores.get(by)


class DesignSpace(ABC):
    """A space of candidate designs (see the module notes); a domain subclasses it."""

    #: The kind of design: the ``kind`` a declaration names.
    kind: ClassVar[str] = ""
    #: The scores a design's outcome can be ranked by (``solutions`` always).
    scores: ClassVar[tuple[str, ...]] = ("solutions",)
    #: The forms :meth:`write` can write a design in (``"cmb"``, ``"svg"``).
    formats: ClassVar[tuple[str, ...]] = ()

    @property
    @abstractmethod
    def size(self) -> int:
        """The number of candidate indices, 0 to ``size - 1``."""

    @abstractmethod
    def design(self, index: int) -> Design | None:
        """The design at ``index``, or None when that candidate is not the
        representative of its orbit (its design stands at another index)."""

    def designs(self, start: int, stop: int) -> Iterator[tuple[int, Design | None]]:
        """``(index, design(index))`` for the indices from ``start`` to ``stop``
        (excluded), in order (a space may walk its numbering faster than one index at a
        time)."""
        for index in range(start, stop):
            yield index, self.design(index)

    @abstractmethod
    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        """The outcome of ``design`` under ``goal``: its search stops once it has found
        more solutions than ``goal.solutions`` (its outcome then inexact). ``beat`` is
        the score of the last of the top K kept so far (None: no such bound), which the
        evaluation may use to stop early when the design cannot beat it, provided the
        outcome still says whether the design qualifies. ``deadline`` is a
        ``time.monotonic()`` instant: past it, :class:`~excover.LimitReached` (the design
        is not recorded)."""

    @abstractmethod
    def declaration(self) -> dict[str, Any]:
        """The space as plain JSON data (kind, fields, a version of its numbering), from
        which :meth:`from_declaration` builds it again."""

    @classmethod
    @abstractmethod
    def from_declaration(cls, declaration: Mapping[str, Any]) -> DesignSpace:
        """The space :meth:`declaration` describes."""

    def describe(self) -> str:
        """The space in a line of words."""
        return f"{self.kind}: {self.size:,} candidates"

    def show(self, design: Design) -> str | None:
        """One solution of ``design`` drawn as text, for the report (None: no drawing)."""
        return None

    def write(self, design: Design, form: str, path: Path) -> None:
        """Write ``design`` in ``form`` (one of :attr:`formats`) to ``path``."""
        raise DesignError(f"{self.kind} designs cannot be written as {form}")


class DeclaredSpace(DesignSpace):
    """A space built from the fields of its declaration (a :class:`Table`, checked by
    :meth:`declared`), which it keeps as they are written back (``_fields``): its
    declaration is its kind, the :attr:`VERSION` of its numbering and those fields."""

    #: The version of the numbering of candidates (a ledger written under another
    #: numbering is refused).
    VERSION: ClassVar[int] = 1

    _fields: dict[str, Any]

    @classmethod
    @abstractmethod
    def declared(cls, table: Table) -> DesignSpace:
        """The space the fields of ``table`` declare (errors name the field at fault)."""

    @classmethod
    def from_declaration(cls, declaration: Mapping[str, Any]) -> DesignSpace:
        fields = dict(declaration)
        if fields.pop("kind", None) != cls.kind or fields.pop("version", None) != cls.VERSION:
            raise DesignError(f"not a declaration of {cls.kind} designs: {declaration!r}")
        return cls.declared(Table(fields, "<declaration>"))

    def declaration(self) -> dict[str, Any]:
        return {"kind": self.kind, "version": self.VERSION, **self._fields}


class MultisetSpace(DesignSpace):
    """A space whose candidates are the multisets of pieces of :attr:`multisets`, an
    index the rank of its multiset; :meth:`_design` makes a multiset a design."""

    multisets: Multisets

    @abstractmethod
    def _design(self, index: int, chosen: tuple[int, ...]) -> Design | None:
        """The design of the multiset ``chosen`` (the catalog numbers of its pieces,
        sorted) at ``index``, or None when it is not the representative of its orbit."""

    @property
    def size(self) -> int:
        return self.multisets.count

    def design(self, index: int) -> Design | None:
        return self._design(index, self.multisets.unrank(index))

    def designs(self, start: int, stop: int) -> Iterator[tuple[int, Design | None]]:
        for index, chosen in self.multisets.between(start, stop):
            yield index, self._design(index, chosen)
