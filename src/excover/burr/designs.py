"""Six-piece burrs as a design space (:mod:`excover.design`): which sets of six notchable
pieces make a burr with exactly one solution, and which of those is the hardest.

:class:`BurrDesigns` (kind ``burrs``) searches the six-piece burrs made of Bill Cutler's
notchable pieces (:func:`excover.burr.sixpiece.notchable_pieces`), or of a family of
them. A design is the multiset of its six pieces (a piece may be used up to ``copies``
times), numbered in lexicographic order by :class:`~excover.design.Multisets`. A
design and its mirror image (each piece replaced by its mirror partner,
:attr:`excover.burr.notchable.Catalog.mirror`) are one design: the burr's reflections
map the assemblies of one onto those of the other, solution onto solution, level onto
level. Of the two multisets the smaller is the design, the other's index gives None,
and the design's ``weight`` is 2 (1 for a multiset that is its own mirror image, or
whose mirror image uses a piece outside the catalog: no other candidate stands for it).

A design's own puzzle (:func:`design_puzzle`: exactly its pieces, the burr with its
notchable voxels free to stay empty, or solid) is assembled by
:func:`excover.burr.assemblies` (one assembly per class under the burr's symmetries, as
BurrTools counts them) and each assembly is taken apart greedily, as BurrTools does
(:func:`excover.burr.disassemble_all` with ``complete=False``): its *solutions* are the
assemblies that come apart. Its scores are BurrTools' level of its hardest solution
(``level``, the level string's numbers: ``5.2.1`` is ``(5, 2, 1)``,
:func:`level_score`), the
moves of that solution (``moves``) and its assemblies (``assemblies``). A design whose
pieces have more voxels than the burr (or, solid, not as many) is rejected by ``area``
before any search; a design's search stops at ``goal.solutions + 1`` solutions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from excover.deadlines import check
from excover.design import (
    Declaration,
    Design,
    DesignError,
    DesignSpace,
    Goal,
    Multisets,
    Outcome,
    Score,
    Table,
)
from excover.formats.burrtools import Part, Problem, Puzzle, Shape

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.burr.disassembly import Disassembly

__all__ = ["PIECES", "BurrDesigns", "declared_space", "design_puzzle", "level_score"]

#: The pieces of a six-piece burr (the only burrs searched so far).
PIECES = 6
#: The number of Cutler's notchable pieces.
NOTCHABLE_COUNT = 59
_CATALOG = "notchable"


@cache
def _pieces() -> tuple[frozenset[tuple[int, int, int]], ...]:
    """The notchable pieces (made once a process)."""
    from excover.burr.sixpiece import notchable_pieces

    return tuple(notchable_pieces())


@cache
def _mirror() -> tuple[int, ...]:
    """The number of each notchable piece's mirror image (from 0)."""
    from excover.burr.notchable import catalog

    return catalog().mirror


def design_puzzle(pieces: Sequence[int], name: str = "burr", holes: bool = True) -> Puzzle:
    """The puzzle of one design: exactly its pieces (their numbers in
    :func:`~excover.burr.sixpiece.notchable_pieces`' order, from 0; a number twice: two
    copies), named ``piece N`` with N from 1, in the six-piece burr, its notchable
    voxels free to stay empty with ``holes``, every voxel filled without."""
    from excover.burr.sixpiece import NOTCHABLE, SHAPE

    every = _pieces()
    kinds = sorted(Counter(pieces).items())
    shapes = [Shape.from_voxels(every[k], name=f"piece {k + 1}") for k, _ in kinds]
    variable = NOTCHABLE if holes else frozenset()
    shapes.append(Shape.from_voxels(SHAPE - variable, variable, name=name))
    parts = tuple(Part(i, count, count) for i, (_, count) in enumerate(kinds))
    return Puzzle(tuple(shapes), (Problem(parts, len(kinds)),))


def level_score(result: Disassembly) -> tuple[int, ...]:
    """The level of a disassembly that comes apart as a score: the numbers of its level
    string (``5.2.1``: ``(5, 2, 1)``); levels compare number by number as their strings
    read, a level below its extensions (``5`` below ``5.4``)."""
    level = result.level
    if level is None:
        raise DesignError("only an assembly that comes apart has a level")
    return tuple(int(part) for part in level.split("."))


def _hardest(solved: Sequence[Disassembly]) -> Disassembly:
    """The hardest of some solutions: the last in BurrTools' order of levels
    (:meth:`~excover.burr.Disassembly.sort_key`, the moves of every separation in turn),
    the first found of those tied."""
    return max(solved, key=lambda r: r.sort_key())


def _catalog_numbers(table: Table) -> tuple[int, ...]:
    """The notchable pieces (from 0) that the ``catalog`` field names: ``notchable``
    (all 59) or ``notchable:1,20,34`` (their numbers from 1)."""
    spec = table.text("catalog", _CATALOG)
    name, colon, listed = spec.strip().partition(":")
    if name.strip() != _CATALOG:
        raise table.error(
            "catalog",
            f"must be {_CATALOG!r} (Cutler's {NOTCHABLE_COUNT} notchable pieces) or "
            f"'{_CATALOG}:N,N,...' (some of them, numbered from 1), not {spec!r}",
        )
    if not colon:
        return tuple(range(NOTCHABLE_COUNT))
    numbers = []
    for word in listed.split(","):
        word = word.strip()
        if not word.isdigit():
            raise table.error("catalog", f"{word!r} is not a piece number (1 to 59)")
        number = int(word)
        if not 1 <= number <= NOTCHABLE_COUNT:
            raise table.error(
                "catalog", f"no notchable piece {number}: they are numbered 1 to {NOTCHABLE_COUNT}"
            )
        if number - 1 in numbers:
            raise table.error("catalog", f"piece {number} is named twice")
        numbers.append(number - 1)
    return tuple(sorted(numbers))


class BurrDesigns(DesignSpace):
    """The six-piece burrs made of ``pieces`` pieces of ``catalog`` (each at most
    ``copies`` times), holey or solid (see the module notes):
    ``BurrDesigns(catalog="notchable:15,34,54,55,57")``."""

    kind: ClassVar[str] = "burrs"
    scores: ClassVar[tuple[str, ...]] = ("solutions", "level", "moves", "assemblies")
    formats: ClassVar[tuple[str, ...]] = ("xmpuzzle",)
    #: The version of the numbering of the candidates, in the declaration (a ledger of
    #: another numbering is refused).
    VERSION: ClassVar[int] = 2

    def __init__(
        self,
        catalog: str = _CATALOG,
        pieces: int = PIECES,
        copies: int = PIECES,
        holes: bool = True,
    ) -> None:
        fields = {"catalog": catalog, "pieces": pieces, "copies": copies, "holes": holes}
        self._read(Table(fields))

    def _read(self, table: Table) -> None:
        """Take the fields from ``table``, each checked (errors name the field)."""
        self.numbers = _catalog_numbers(table)
        self.pieces = table.integer("pieces", PIECES, least=1)
        if self.pieces != PIECES:
            raise table.error(
                "pieces", f"must be {PIECES} (six-piece burrs are searched), not {self.pieces}"
            )
        self.copies = table.integer("copies", PIECES, least=1)
        if self.pieces > len(self.numbers) * self.copies:
            times = "once" if self.copies == 1 else f"{self.copies} times"
            raise table.error(
                "copies",
                f"{self.pieces} pieces cannot be chosen from {len(self.numbers)}, each at "
                f"most {times}",
            )
        self.holes = table.boolean("holes", True)
        table.done()
        self._fields = {
            "catalog": self._spec(),
            "pieces": self.pieces,
            "copies": self.copies,
            "holes": self.holes,
        }
        self.multisets = Multisets(len(self.numbers), self.pieces, self.copies)
        where = {number: k for k, number in enumerate(self.numbers)}
        mirror = _mirror()
        # each catalog item's mirror partner as an item, None when it is not in the catalog
        self._mirror = tuple(where.get(mirror[number]) for number in self.numbers)
        every = _pieces()
        self._voxels = tuple(len(every[number]) for number in self.numbers)

    def _spec(self) -> str:
        """The catalog in its one written form (``notchable`` or ``notchable:1,5,...``)."""
        if self.numbers == tuple(range(NOTCHABLE_COUNT)):
            return _CATALOG
        return f"{_CATALOG}:{','.join(str(k + 1) for k in self.numbers)}"

    @classmethod
    def declared(cls, table: Table) -> BurrDesigns:
        """The space the fields of ``table`` declare (errors name the field at fault)."""
        space = cls.__new__(cls)
        space._read(table)
        return space

    @classmethod
    def from_declaration(cls, declaration: Mapping[str, Any]) -> DesignSpace:
        fields = dict(declaration)
        if fields.pop("kind", None) != cls.kind or fields.pop("version", None) != cls.VERSION:
            raise DesignError(f"not a declaration of {cls.kind} designs: {declaration!r}")
        return cls.declared(Table(fields, "<declaration>"))

    @property
    def size(self) -> int:
        return self.multisets.count

    def declaration(self) -> dict[str, Any]:
        return {"kind": self.kind, "version": self.VERSION, **self._fields}

    def describe(self) -> str:
        if len(self.numbers) == NOTCHABLE_COUNT:
            named = f"Cutler's {NOTCHABLE_COUNT} notchable pieces"
        else:
            listed = " ".join(str(k + 1) for k in self.numbers)
            named = f"the notchable pieces {listed}"
        copies = "" if self.copies >= self.pieces else f", each up to {self.copies} times"
        burr = "holey" if self.holes else "solid"
        return f"{self.pieces} of {named}{copies} in the {burr} six-piece burr"

    # ----- the designs -----

    def numbers_of(self, design: Design) -> tuple[int, ...]:
        """The notchable pieces of ``design``, by their numbers from 0 (sorted)."""
        return tuple(self.numbers[k] for k in design.parts)

    def _design(self, index: int, chosen: tuple[int, ...]) -> Design | None:
        weight = 1
        images = [self._mirror[k] for k in chosen]
        if all(k is not None for k in images):
            image = tuple(sorted(k for k in images if k is not None))
            if image < chosen:
                return None
            weight = 1 if image == chosen else 2
        key = " ".join(str(self.numbers[k] + 1) for k in chosen)
        return Design(index, key, weight, chosen)

    def design(self, index: int) -> Design | None:
        return self._design(index, self.multisets.unrank(index))

    def designs(self, start: int, stop: int) -> Iterator[tuple[int, Design | None]]:
        for index, chosen in self.multisets.between(start, stop):
            yield index, self._design(index, chosen)

    def puzzle(self, design: Design) -> Puzzle:
        """The puzzle of ``design`` (:func:`design_puzzle`: exactly its pieces)."""
        return design_puzzle(self.numbers_of(design), holes=self.holes)

    # ----- evaluation -----

    def _too_big(self, design: Design) -> bool:
        """Whether the pieces' voxels cannot make the burr: more than its 152 (or, solid,
        not exactly as many)."""
        from excover.burr.sixpiece import SHAPE

        voxels = sum(self._voxels[k] for k in design.parts)
        return voxels > len(SHAPE) or (not self.holes and voxels != len(SHAPE))

    def results(
        self, design: Design, deadline: float | None = None, most: int | None = None
    ) -> tuple[list[Disassembly], bool]:
        """The disassembly of each assembly of ``design``'s puzzle, taken apart as
        BurrTools does, in the order the assemblies are found, until ``most`` have come
        apart (None: all of them); and whether every assembly was listed. Past
        ``deadline``, :class:`~excover.LimitReached`."""
        from excover.burr.api import disassemble_all
        from excover.burr.search import stop_of

        found: list[Disassembly] = []
        solved = 0
        for result in disassemble_all(self.puzzle(design), complete=False, deadline=deadline):
            if result.status == "unknown" and stop_of(result.reason) == "timeout":
                check(deadline, len(found))
            found.append(result)
            solved += result.status == "solved"
            if most is not None and solved >= most:
                return found, False
        check(deadline, len(found))
        return found, True

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Outcome:
        """The design's solutions (its assemblies that come apart), up to the burr's
        symmetries; scores of the hardest (``beat`` is not used: a design's level needs
        every assembly taken apart)."""
        if not goal.up_to_symmetry:
            raise DesignError(
                "burr designs count their assemblies up to the burr's symmetries, as "
                "BurrTools does (every solution apart is not offered)"
            )
        if self._too_big(design):
            return Outcome(0, rejected="area")
        most = None if goal.solutions is None else goal.solutions + 1
        found, whole = self.results(design, deadline, most)
        solved = [r for r in found if r.status == "solved"]
        exact = whole and all(r.status != "unknown" for r in found)
        if not solved:
            return Outcome(0, exact)
        best = _hardest(solved)
        scores: dict[str, Score] = {
            "level": level_score(best),
            "moves": best.total or 0,
            "assemblies": len(found),
        }
        return Outcome(len(solved), exact, scores)

    # ----- output -----

    def show(self, design: Design) -> str | None:
        """The design's pieces, and the level and moves of its hardest solution (None
        when nothing comes apart)."""
        found, _ = self.results(design)
        solved = [r for r in found if r.status == "solved"]
        if not solved:
            return None
        best = _hardest(solved)
        moves = "; ".join(str(move) for move in best.moves)
        return (
            f"pieces {design.key} (notchable pieces, numbered from 1)\n"
            f"level {best.level} in {best.total} moves, the assembly's pieces numbered "
            f"from 0 as BurrTools numbers them:\n{moves}"
        )

    def write(self, design: Design, form: str, path: Path) -> None:
        """``xmpuzzle``: the design's puzzle for BurrTools, solved: its assemblies
        counted, its solutions stored with their separations (BurrTools plays them)."""
        from excover.burr.stored import solved_puzzle
        from excover.formats.burrtools import write_xmpuzzle

        if form != "xmpuzzle":
            super().write(design, form, path)
        found, _ = self.results(design)
        solved = solved_puzzle(self.puzzle(design), 0, dict(enumerate(found)), len(found))
        write_xmpuzzle(solved, path)


def declared_space(declaration: Declaration) -> DesignSpace:
    """The space a declaration (:func:`~excover.design.read_declaration`) of kind
    ``burrs`` declares."""
    if declaration.kind != BurrDesigns.kind:
        raise DesignError(f"{declaration.source}: no kind of design {declaration.kind!r} here")
    return BurrDesigns.declared(declaration.fields)
