"""Burrs as a design space (:mod:`excover.design`): which sets of pieces make a burr
with exactly one solution, and which of those is the hardest.

:class:`BurrDesigns` (kind ``burrs``) chooses its pieces from a catalog
(:mod:`excover.burr.design_catalog`): Bill Cutler's notchable pieces
(:func:`excover.burr.sixpiece.notchable_pieces`), the general pieces of a six-piece
burr (any of a stick's 12 notchable voxels removed), or the shapes of a BurrTools file,
all of them or some; the result is the six-piece burr of sticks 6 or 8 long, holey (its
notchable voxels free to stay empty) or solid, or the result of a BurrTools file's first
problem. A design is the multiset of its pieces (a piece may be used up to ``copies``
times), numbered in lexicographic order by :class:`~excover.design.Multisets`. A
design and its mirror image (each piece replaced by its mirror partner,
:attr:`~excover.burr.design_catalog.BurrCatalog.mirror`) are one design when the result
is its own mirror image: the reflection maps the assemblies of one onto those of the
other, solution onto solution, level onto level. Of the two multisets the smaller is the
design, the other's index gives None, and the design's ``weight`` is 2 (1 for a multiset
that is its own mirror image, or whose mirror image uses a piece outside the catalog: no
other candidate stands for it).

A design's own puzzle (:meth:`BurrDesigns.puzzle`: exactly its pieces in the result) is
assembled by :func:`excover.burr.assemblies` (one assembly per class under the result's
symmetries, as BurrTools counts them) and each assembly is taken apart greedily, as
BurrTools does (:func:`excover.burr.disassemble_all` with ``complete=False``): its
*solutions* are the assemblies that come apart. Its scores are BurrTools' level of its
hardest solution (``level``, the level string's numbers: ``5.2.1`` is ``(5, 2, 1)``,
:func:`level_score`), the moves of that solution (``moves``) and its assemblies
(``assemblies``). A design whose pieces have more voxels than the result may hold, or
fewer than it must, is rejected by ``area`` before any search; a design's search stops
at ``goal.solutions + 1`` solutions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from excover.burr.design_catalog import (
    XMPUZZLE,
    BurrCatalog,
    CatalogError,
    burr_result,
    digest,
    file_result,
    read_catalog,
    split_spec,
)
from excover.burr.sixpiece import LENGTHS
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, Part
from excover.deadlines import check
from excover.design import (
    Declaration,
    Design,
    DesignError,
    DesignSpace,
    Evaluation,
    Goal,
    Multisets,
    Score,
    Table,
)
from excover.design.space import DeclaredSpace, MultisetSpace

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.burr.disassembly import Disassembly

__all__ = ["PIECES", "BurrDesigns", "declared_space", "design_puzzle", "level_score"]

_T = TypeVar("_T")

#: The pieces of a six-piece burr.
PIECES = 6
#: The catalog and result searched when a declaration names none.
_CATALOG = "notchable"
_BURR = "burr"
#: The length of stick when a declaration names none (Cutler's survey, BurrTools' default).
_LENGTH = 8
#: The edge of a cube in the STL files written, in millimetres.
CUBE_MM = 10.0


def design_puzzle(pieces: Sequence[int], name: str = "burr", holes: bool = True) -> BurrPuzzle:
    """The puzzle of one design of notchable pieces: exactly its pieces (their numbers in
    :func:`~excover.burr.sixpiece.notchable_pieces`' order, from 0; a number twice: two
    copies), named ``piece N`` with N from 1, in the six-piece burr of 8-long sticks, its
    notchable voxels free to stay empty with ``holes``, every voxel filled without."""
    filled, optional = burr_result(_LENGTH, holes)
    catalog, _ = read_catalog(_CATALOG, filled, optional, name)
    return _puzzle(catalog, pieces, name)


def _puzzle(catalog: BurrCatalog, pieces: Sequence[int], name: str) -> BurrPuzzle:
    """Exactly ``pieces`` (catalog indices, a number twice: two copies) in the result."""
    kinds = sorted(Counter(pieces).items())
    made = catalog.puzzle_shapes
    shapes = [made[k] for k, _ in kinds]
    result = made[-1]
    shapes.append(result if result.name == name else replace(result, name=name))
    parts = tuple(Part(i, count, count) for i, (_, count) in enumerate(kinds))
    return BurrPuzzle(tuple(shapes), (BurrProblem(parts, len(kinds)),))


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


class BurrDesigns(DeclaredSpace, MultisetSpace):
    """The burrs made of ``pieces`` pieces of ``catalog`` (each at most ``copies``
    times) in ``result``: ``"burr"``, the six-piece burr of sticks ``length`` long,
    holey or solid (``holes``), or a BurrTools file whose first problem's result is
    taken (see the module notes): ``BurrDesigns(catalog="notchable:15,34,54,55,57")``,
    ``BurrDesigns(catalog="general:1,20,300", length=6)``."""

    kind: ClassVar[str] = "burrs"
    scores: ClassVar[tuple[str, ...]] = ("solutions", "level", "moves", "assemblies")
    formats: ClassVar[tuple[str, ...]] = ("xmpuzzle", "stl")
    #: The version of the numbering of the candidates, in the declaration (a ledger of
    #: another numbering is refused).
    VERSION: ClassVar[int] = 2

    def __init__(
        self,
        catalog: str = _CATALOG,
        pieces: int = PIECES,
        copies: int = PIECES,
        holes: bool = True,
        length: int = _LENGTH,
        result: str = _BURR,
    ) -> None:
        fields: dict[str, Any] = {"catalog": catalog, "pieces": pieces, "copies": copies}
        if result == _BURR:
            fields |= {"holes": holes, "length": length}
        else:
            fields["result"] = result
        self._read(Table(fields))

    def _read(self, table: Table) -> None:
        """Take the fields from ``table``, each checked (errors name the field)."""
        folder = Path(table.source).parent if Path(table.source).is_file() else None
        result = table.text("result", _BURR).strip()
        self.length = table.integer("length", _LENGTH, least=1)
        if self.length not in LENGTHS:
            raise table.error(
                "length", f"sticks are {' or '.join(map(str, LENGTHS))} long, not {self.length}"
            )
        digests: dict[str, str] = {}
        if result == _BURR:
            self.holes = table.boolean("holes", True)
            filled, optional = burr_result(self.length, self.holes)
            burr = "holey" if self.holes else "solid"
            sticks = "" if self.length == _LENGTH else f" of {self.length}-long sticks"
            named = f"the {burr} six-piece burr{sticks}"
        else:
            if table.has("holes"):
                raise table.error("holes", "the result's file says which voxels may stay empty")
            if table.has("length") and self.length != _LENGTH:
                raise table.error("length", "only sticks have a length (the result is a file)")
            self.holes = True
            path = self._file(table, "result", result, folder)
            filled, optional, named = self._within(table, "result", lambda: file_result(path))
            result = str(path)
            digests["result_digest"] = digest(path)
        spec = table.text("catalog", _CATALOG)
        catalog, written = self._within(
            table,
            "catalog",
            lambda: read_catalog(spec, filled, optional, named, self.length, folder),
        )
        source, _, _ = split_spec(written)
        if source.endswith(XMPUZZLE):
            digests["catalog_digest"] = digest(Path(source))
        self.catalog = catalog
        self.pieces = table.integer("pieces", PIECES, least=1)
        if result == _BURR and self.pieces != PIECES:
            raise table.error(
                "pieces", f"must be {PIECES} for the six-piece burr, not {self.pieces}"
            )
        self.copies = table.integer("copies", PIECES, least=1)
        if self.pieces > len(catalog.shapes) * self.copies:
            times = "once" if self.copies == 1 else f"{self.copies} times"
            raise table.error(
                "copies",
                f"{self.pieces} pieces cannot be chosen from {len(catalog.shapes)}, each at "
                f"most {times}",
            )
        for name, value in digests.items():
            if table.has(name) and table.text(name) != value:
                raise table.error(name, "the file changed since this search was declared")
            table.raw(name, None)
        table.done()
        self._fields: dict[str, Any] = {
            "catalog": written,
            "pieces": self.pieces,
            "copies": self.copies,
            "holes": self.holes,
        }
        if self.length != _LENGTH:
            self._fields["length"] = self.length
        if result != _BURR:
            self._fields["result"] = result
        self._fields |= digests
        self.multisets = Multisets(len(catalog.shapes), self.pieces, self.copies)

    @staticmethod
    def _file(table: Table, field: str, name: str, folder: Path | None) -> Path:
        """The BurrTools file a field names (relative to the declaration's folder)."""
        if not name.endswith(XMPUZZLE):
            raise table.error(field, f"must be {_BURR!r} or a BurrTools file (name{XMPUZZLE})")
        path = Path(name).expanduser()
        return (folder / path if folder and not path.is_absolute() else path).resolve()

    @staticmethod
    def _within(table: Table, field: str, read: Callable[[], _T]) -> _T:
        """What ``read`` reads, its :class:`CatalogError` or a file's error as the
        field's."""
        from excover.errors import ExcoverError

        try:
            return read()
        except CatalogError as exc:
            raise table.error(field, str(exc)) from None
        except ExcoverError as exc:  # the file itself is bad (a BurrTools format error)
            raise table.error(field, str(exc)) from None

    @classmethod
    def declared(cls, table: Table) -> BurrDesigns:
        """The space the fields of ``table`` declare (errors name the field at fault)."""
        space = cls.__new__(cls)
        space._read(table)
        return space

    def describe(self) -> str:
        source, _, listed = split_spec(self._fields["catalog"])
        count = len(self.catalog.shapes)
        if source.endswith(XMPUZZLE):
            named = f"the shapes of {Path(source).name}"
            named += f" numbered {listed.replace(',', ' ')}" if listed else ""
        elif listed:
            named = f"the {source} pieces {listed.replace(',', ' ')}"
        elif source == "notchable":
            named = f"Cutler's {count} notchable pieces"
        else:
            named = f"the {count} {source} pieces"
        copies = "" if self.copies >= self.pieces else f", each up to {self.copies} times"
        return f"{self.pieces} of {named}{copies} in {self.catalog.result_name}"

    # ----- the designs -----

    @property
    def numbers(self) -> tuple[int, ...]:
        """The catalog's pieces by their numbers from 0 in a catalog of sticks:
        ``notchable_pieces()[k]`` for the notchable one (a file's shapes: an error)."""
        if not all(label.isdigit() for label in self.catalog.labels):
            raise DesignError("the pieces of a file are named, not numbered")
        return tuple(int(label) - 1 for label in self.catalog.labels)

    def numbers_of(self, design: Design) -> tuple[int, ...]:
        """The pieces of ``design`` by their numbers from 0 (sorted; see :attr:`numbers`)."""
        numbers = self.numbers
        return tuple(numbers[k] for k in design.parts)

    def _design(self, index: int, chosen: tuple[int, ...]) -> Design | None:
        weight = 1
        images = [self.catalog.mirror[k] for k in chosen]
        if all(k is not None for k in images):
            image = tuple(sorted(k for k in images if k is not None))
            if image < chosen:
                return None
            weight = 1 if image == chosen else 2
        labels = [self.catalog.labels[k] for k in chosen]
        key = (", " if any(" " in label for label in labels) else " ").join(labels)
        return Design(index, key, weight, chosen)

    def puzzle(self, design: Design) -> BurrPuzzle:
        """The puzzle of ``design``: exactly its pieces in the result."""
        return _puzzle(self.catalog, design.parts, "burr")

    # ----- evaluation -----

    def _too_big(self, design: Design) -> bool:
        """Whether the pieces' voxels cannot make the result: more than it holds, or
        fewer than it must (the burr of 8-long sticks holds 152; solid, it must)."""
        voxels = sum(self.catalog.voxels[k] for k in design.parts)
        least = len(self.catalog.filled)
        return not least <= voxels <= least + len(self.catalog.optional)

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
    ) -> Evaluation:
        """The design's solutions (its assemblies that come apart), up to the burr's
        symmetries; scores of the hardest (``beat`` is not used: a design's level needs
        every assembly taken apart)."""
        if not goal.up_to_symmetry:
            raise DesignError(
                "burr designs count their assemblies up to the burr's symmetries, as "
                "BurrTools does (every solution apart is not offered)"
            )
        if self._too_big(design):
            return Evaluation(0, rejected="area")
        most = None if goal.solutions is None else goal.solutions + 1
        found, whole = self.results(design, deadline, most)
        solved = [r for r in found if r.status == "solved"]
        exact = whole and all(r.status != "unknown" for r in found)
        if not solved:
            return Evaluation(0, exact)
        best = _hardest(solved)
        scores: dict[str, Score] = {
            "level": level_score(best),
            "moves": best.total or 0,
            "assemblies": len(found),
        }
        return Evaluation(len(solved), exact, scores)

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
        source, _, _ = split_spec(self._fields["catalog"])
        named = (
            f"shapes of {Path(source).name}"
            if source.endswith(XMPUZZLE)
            else f"{source} pieces, numbered from 1"
        )
        return (
            f"pieces {design.key} ({named})\n"
            f"level {best.level} in {best.total} moves, the assembly's pieces numbered "
            f"from 0 as BurrTools numbers them:\n{moves}"
        )

    def write(self, design: Design, form: str, path: Path) -> None:
        """``xmpuzzle``: the design's puzzle for BurrTools, solved: its assemblies
        counted, its solutions stored with their separations (BurrTools plays them).
        ``stl``: its pieces to print, side by side in a row one cube apart, each a closed
        body of 10 mm cubes (:func:`excover.tiling.mesh.cells_mesh`)."""
        from excover.burr.stored import solved_puzzle
        from excover.burr.xmpuzzle import write_xmpuzzle

        if form == "stl":
            self._write_stl(design, path)
            return
        if form != "xmpuzzle":
            super().write(design, form, path)
        found, _ = self.results(design)
        solved = solved_puzzle(self.puzzle(design), 0, dict(enumerate(found)), len(found))
        write_xmpuzzle(solved, path)

    def _write_stl(self, design: Design, path: Path) -> None:
        """The design's pieces as one STL file: each piece a body of its own, laid
        along x with one cube between neighbours (``mesh.split()`` gives them back)."""
        from excover.tiling.mesh import MeshLibraryError, cells_mesh, write_stl

        try:
            import trimesh
        except ImportError as error:
            raise MeshLibraryError(
                'STL export needs the mesh library trimesh: pip install "excover[mesh]"'
            ) from error
        bodies = []
        start = 0
        for k in design.parts:
            voxels = self.catalog.shapes[k]
            low = [min(v[axis] for v in voxels) for axis in range(3)]
            cells = [(x - low[0] + start, y - low[1], z - low[2]) for x, y, z in voxels]
            bodies.append(cells_mesh(cells, "cube", CUBE_MM))
            start += max(x for x, _, _ in cells) - start + 2
        write_stl(cast("trimesh.Trimesh", trimesh.util.concatenate(bodies)), path)


def declared_space(declaration: Declaration) -> DesignSpace:
    """The space a declaration (:func:`~excover.design.read_declaration`) of kind
    ``burrs`` declares."""
    if declaration.kind != BurrDesigns.kind:
        raise DesignError(f"{declaration.source}: no kind of design {declaration.kind!r} here")
    return BurrDesigns.declared(declaration.fields)
