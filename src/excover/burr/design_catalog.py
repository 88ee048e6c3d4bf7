"""What a space of burr designs chooses from: the pieces and the shape they must make.

A :class:`BurrCatalog` holds the candidate pieces (voxel sets, each with its label), the
result they assemble into (its voxels that must be filled and those that may stay empty,
BurrTools' variable voxels) and each piece's mirror partner in the catalog. It is read
from a ``catalog`` field (:func:`read_catalog`):

- ``notchable``: Bill Cutler's 59 notchable pieces
  (:func:`excover.burr.sixpiece.notchable_pieces`), labelled by their numbers from 1;
- ``general``: the 837 pieces with any of a stick's 12 notchable voxels removed
  (:func:`excover.burr.sixpiece.general_pieces`), numbered the same way;
- ``FILE.xmpuzzle``: the shapes of a BurrTools file that no problem of it uses as its
  result, labelled by their names (``S3`` for the third shape when it has none);

each followed, if wanted, by ``:N,N,...``: some of them, by number from 1 (for a file,
BurrTools' shape numbers: ``S3`` is 3). The result is the six-piece burr of sticks 6 or 8 long (the
notchable voxels free to stay empty, or not) or the result of a file's first problem.

A design and its mirror image are one design when the result is its own mirror image
(up to a rotation, its variable voxels included): the reflection maps the assemblies of
one onto the other's, solution onto solution, move onto move. A piece's mirror partner
is the catalog's piece equal to its mirror image up to a rotation (None when the catalog
has none); identical pieces (up to a rotation) in a file are refused, since they would
make the same design twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations, product
from pathlib import Path

import numpy as np

from excover.errors import ExcoverError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.burr.xmpuzzle import BurrPuzzle, BurrShape

__all__ = [
    "BurrCatalog",
    "CatalogError",
    "burr_result",
    "digest",
    "file_result",
    "form",
    "read_catalog",
    "split_spec",
]

Voxel = tuple[int, int, int]

#: The catalogs of stick pieces by name, with how many pieces each has.
STICK_CATALOGS = {"notchable": 59, "general": 837}
#: The suffix of a BurrTools file.
XMPUZZLE = ".xmpuzzle"


class CatalogError(ExcoverError, ValueError):
    """A catalog or result that cannot be read: the message names what is at fault."""


@dataclass(frozen=True)
class BurrCatalog:
    """Pieces to choose from and the result they make (see the module notes).

    ``labels[k]`` names piece ``k`` (``shapes[k]``, its voxels); ``mirror[k]`` is the
    index of its mirror partner (None: not in the catalog, or the result is chiral);
    ``filled`` and ``optional`` are the result's voxels that must be filled and may stay
    empty; ``result_name`` says what the result is, in words."""

    labels: tuple[str, ...]
    shapes: tuple[frozenset[Voxel], ...]
    mirror: tuple[int | None, ...]
    filled: frozenset[Voxel]
    optional: frozenset[Voxel]
    result_name: str

    @property
    def voxels(self) -> tuple[int, ...]:
        """Each piece's number of voxels."""
        return tuple(len(shape) for shape in self.shapes)

    @cached_property
    def puzzle_shapes(self) -> tuple[BurrShape, ...]:
        """The pieces as BurrTools shapes (named ``piece 12`` for a catalog's number, a
        file's by their own names), then the result (named ``burr``): made once, for
        the puzzle of every design."""
        from excover.burr.xmpuzzle import BurrShape

        pieces = tuple(
            BurrShape.from_voxels(voxels, name=f"piece {label}" if label.isdigit() else label)
            for label, voxels in zip(self.labels, self.shapes, strict=True)
        )
        return (*pieces, BurrShape.from_voxels(self.filled, self.optional, name="burr"))


# ----- forms under rotation -----


@cache
def _rotations() -> np.ndarray:
    """The 24 rotations of space as signed permutation matrices (24 x 3 x 3)."""
    found = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            matrix = np.zeros((3, 3), dtype=np.int64)
            for i in range(3):
                matrix[i, perm[i]] = signs[i]
            if round(np.linalg.det(matrix)) == 1:
                found.append(matrix)
    return np.array(found)


def form(filled: Iterable[Voxel], optional: Iterable[Voxel] = ()) -> tuple[int, ...]:
    """The same value for a shape (its filled voxels marked 0, optional ones 1) and each
    of its rotations and translations: the smallest, over the rotations, of the sorted
    codes of its voxels moved to start at 0."""
    must, may = list(filled), list(optional)
    points = must + may
    marks = np.array([0] * len(must) + [1] * len(may), dtype=np.int64)
    if not points:
        return ()
    turned = np.einsum("rij,nj->rni", _rotations(), np.array(points, dtype=np.int64))
    turned -= turned.min(axis=1, keepdims=True)
    side = int(turned.max()) + 1
    codes = ((turned[..., 0] * side + turned[..., 1]) * side + turned[..., 2]) * 2 + marks
    codes.sort(axis=1)
    best = min(tuple(int(c) for c in row) for row in codes)
    return (side, *best)


def _mirrored(voxels: Iterable[Voxel]) -> list[Voxel]:
    return [(-x, y, z) for x, y, z in voxels]


def _partners(shapes: Sequence[frozenset[Voxel]], achiral: bool) -> tuple[int | None, ...]:
    """Each shape's mirror partner among ``shapes`` (None without one, or for every
    shape when the result is not achiral)."""
    if not achiral:
        return (None,) * len(shapes)
    where = {form(shape): k for k, shape in enumerate(shapes)}
    return tuple(where.get(form(_mirrored(shape))) for shape in shapes)


def _achiral(filled: frozenset[Voxel], optional: frozenset[Voxel]) -> bool:
    """Whether a result is its own mirror image up to a rotation."""
    return form(filled, optional) == form(_mirrored(filled), _mirrored(optional))


# ----- results -----


def burr_result(length: int = 8, holes: bool = True) -> tuple[frozenset[Voxel], frozenset[Voxel]]:
    """The six-piece burr of sticks ``length`` long: its voxels that must be filled and
    those that may stay empty (the notchable ones with ``holes``, else none)."""
    from excover.burr.sixpiece import NOTCHABLE, SHAPE, at_length

    shape, notchable = at_length(SHAPE, length), at_length(NOTCHABLE, length)
    optional = notchable if holes else frozenset()
    return shape - optional, optional


def file_result(path: Path) -> tuple[frozenset[Voxel], frozenset[Voxel], str]:
    """The result of the first problem of a BurrTools file: its filled and variable
    voxels, and the shape's name in words."""
    puzzle = _read_puzzle(path)
    if not puzzle.problems:
        raise CatalogError(f"{path}: the file has no problem, so no result to make")
    problem = puzzle.problems[0]
    shape = puzzle.shapes[problem.result]
    named = f"the result of {path.name} ({shape.label(problem.result)})"
    return frozenset(shape.cells("#")), frozenset(shape.cells("+")), named


# ----- reading a catalog -----


def read_catalog(
    spec: str,
    filled: frozenset[Voxel],
    optional: frozenset[Voxel],
    result_name: str,
    length: int = 8,
    folder: Path | None = None,
) -> tuple[BurrCatalog, str]:
    """The catalog ``spec`` names (see the module notes), for the result ``filled`` +
    ``optional``, its stick pieces at ``length``; relative file names are taken from
    ``folder``. Also returns the catalog's one written form. A :class:`CatalogError`
    names what is wrong."""
    source, colon, listed = split_spec(spec)
    if source in STICK_CATALOGS:
        labels, shapes = _stick_catalog(source, length)
        numbers: tuple[int, ...] = tuple(range(1, len(shapes) + 1))
    elif source.endswith(XMPUZZLE):
        numbers, labels, shapes = _file_catalog(_path(source, folder))
    else:
        names = ", ".join(repr(name) for name in STICK_CATALOGS)
        raise CatalogError(
            f"must be {names} or a BurrTools file (name{XMPUZZLE}), each followed by "
            f"':N,N,...' for some of its pieces, not {spec!r}"
        )
    chosen = _chosen(listed, numbers, source) if colon else list(range(len(shapes)))
    picked = [shapes[k] for k in chosen]
    catalog = BurrCatalog(
        tuple(labels[k] for k in chosen),
        tuple(picked),
        _partners(picked, _achiral(filled, optional)),
        filled,
        optional,
        result_name,
    )
    if len(chosen) == len(shapes):
        return catalog, source
    return catalog, f"{source}:{','.join(str(numbers[k]) for k in chosen)}"


def split_spec(spec: str) -> tuple[str, str, str]:
    """``source:listed`` taken apart (a file's name may hold a colon: only a tail of
    numbers and commas is a list)."""
    name, colon, listed = spec.strip().partition(":")
    if name.strip() in STICK_CATALOGS:
        return name.strip(), colon, listed
    source, colon, listed = spec.strip().rpartition(":")
    if colon and source and all(c.isdigit() or c in ", " for c in listed):
        return source.strip(), colon, listed
    return spec.strip(), "", ""


def _chosen(listed: str, numbers: Sequence[int], source: str) -> list[int]:
    """The pieces (their places in ``numbers``) that a ``N,N,...`` list names by their
    ``numbers`` (from 1: a stick's number in its catalog, a shape's in its file)."""
    place = {number: k for k, number in enumerate(numbers)}
    chosen: list[int] = []
    for word in listed.split(","):
        word = word.strip()
        if not word.isdigit():
            raise CatalogError(f"{word!r} is not a piece number")
        number = int(word)
        if number not in place:
            raise CatalogError(_missing(number, numbers, source))
        if place[number] in chosen:
            raise CatalogError(f"piece {number} is named twice")
        chosen.append(place[number])
    return sorted(chosen)


def _missing(number: int, numbers: Sequence[int], source: str) -> str:
    """The message for a piece number that ``source`` does not have."""
    if source in STICK_CATALOGS:
        return f"no {source} piece {number}: they are numbered 1 to {len(numbers)}"
    shown = ", ".join(map(str, numbers))
    return f"no piece {number} in {Path(source).name}: its pieces are the shapes {shown}"


@cache
def _stick_catalog(name: str, length: int) -> tuple[tuple[str, ...], tuple[frozenset[Voxel], ...]]:
    """The pieces of a catalog of sticks, at ``length``, labelled by number from 1."""
    from excover.burr.sixpiece import at_length, general_pieces, notchable_pieces

    made = notchable_pieces() if name == "notchable" else general_pieces()
    shapes = tuple(at_length(piece, length) for piece in made)
    return tuple(str(k + 1) for k in range(len(shapes))), shapes


def _path(source: str, folder: Path | None) -> Path:
    path = Path(source).expanduser()
    if not path.is_absolute() and folder is not None:
        path = folder / path
    return path.resolve()


def _read_puzzle(path: Path) -> BurrPuzzle:
    """A BurrTools file on the cube grid, without colours (the search does not keep
    BurrTools' colour constraints)."""
    from excover.burr.xmpuzzle import read_xmpuzzle
    from excover.burr.xmpuzzle.model import CUBE_GRID

    try:
        puzzle = read_xmpuzzle(path)
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    if puzzle.grid != CUBE_GRID:
        raise CatalogError(f"{path}: a puzzle on the {puzzle.grid_name} grid (cubes only)")
    for number, shape in enumerate(puzzle.shapes):
        if any(shape.colors):
            raise CatalogError(
                f"{path}: {shape.label(number)} has coloured voxels (colour constraints are "
                "not searched)"
            )
    return puzzle


def _file_catalog(
    path: Path,
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[frozenset[Voxel], ...]]:
    """The shapes of a BurrTools file that no problem uses as its result: their numbers
    from 1 (BurrTools' ``S1``, ``S2``, ...), labels (their names, or ``S`` and the
    number) and voxels."""
    puzzle = _read_puzzle(path)
    results = {problem.result for problem in puzzle.problems}
    numbers: list[int] = []
    labels: list[str] = []
    shapes: list[frozenset[Voxel]] = []
    seen: dict[object, str] = {}
    for number, shape in enumerate(puzzle.shapes):
        if number in results:
            continue
        if shape.cells("+"):
            raise CatalogError(
                f"{path}: {shape.label(number)} has variable voxels (only a result may)"
            )
        voxels = frozenset(shape.cells("#"))
        if not voxels:
            raise CatalogError(f"{path}: {shape.label(number)} is empty")
        label = shape.name.strip() or f"S{number + 1}"
        key = form(voxels)
        if key in seen:
            raise CatalogError(
                f"{path}: {shape.label(number)} is {seen[key]} again (up to a rotation): "
                "name it once, and let copies say how often it may be used"
            )
        seen[key] = label
        numbers.append(number + 1)
        labels.append(label)
        shapes.append(voxels)
    if not shapes:
        raise CatalogError(f"{path}: every shape of the file is a result: no pieces to choose")
    return tuple(numbers), tuple(labels), tuple(shapes)


def digest(path: Path) -> str:
    """A short digest of a file's bytes (a ledger of a search over a file's pieces is
    refused once the file changed)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
