"""Integer sequences of the OEIS as exact cover problems: each term is a count.

Each sequence is a short module that builds, for a given n, the exact cover whose
solutions are the objects the sequence counts, and says whether its term is the number of
solutions or the number of their classes under the symmetries the problem declares:

- :mod:`excover.sequences.rectangles`: Scott R. Shannon's family, the n x n square tiled
  by rectangles under a global rule (A360498, A360725, A360499, A360256, A360804); every
  tiling counts, by the states of the partial tilings
  (:func:`excover.tiling.count_rectangle_tilings`: equal states merged, the square's
  symmetries used at its corners). Their exact covers are also counted by a
  symmetry-broken search under the square's 8 symmetries (on several processes: the
  ``workers`` of :func:`term`), with the bit-parallel engine's size bound
  (``heuristic="sizes"``: each rule's rectangles of one key are a group of one area,
  used at most once) where it pays; the two rules of oriented keys (A360725, A360256:
  72 and 81 groups at n = 9) search faster by MRV alone. A360773 (Shannon and Sloane)
  asks of A360499's tilings of the 2n x 2n square that the rectangles' perimeters sum
  to its area: counted by states that keep the perimeter left to make, its exact cover
  choosing the tiling's set of dimension pairs among those of the right area and sum.
- :mod:`excover.sequences.polyominoes`: A328020, the n x n square tiled by free
  n-ominoes, counted up to the square's symmetries by Burnside's lemma: the square's
  dissections counted from its cells (:func:`excover.tiling.count_dissections`), the
  tilings each other symmetry fixes by search; and A172477, the dissections themselves.
- :mod:`excover.sequences.compositions`: A145835, the n x n square cut into connected
  pieces of any sizes (the compositions of its grid graph), A291806 the same up to the
  square's symmetries and A291807 those classes with a symmetry: the compositions fixed
  by each symmetry and subgroup counted by a frontier over the quotient board
  (:mod:`excover.tiling.symmetric_dissections`), Burnside's lemma for the classes,
  Möbius inversion on the subgroups for those with a symmetry.
- :mod:`excover.sequences.equal_pieces`: A348453, a triangle read by rows, the n x n
  square cut into d connected pieces of equal area for each divisor d of n^2 (the
  term's index is the OEIS's, the rows one after the other: :func:`row` gives a row,
  :func:`index` the index of its k-th entry).

:func:`term` computes a term, :func:`problem` gives the exact cover (for any other route:
``excover count`` with a checkpoint, a Dask cluster, ``method="zdd"``), and
:mod:`excover.sequences.known` holds the published terms the tests check against. On the
command line, ``excover sequence ID N`` prints the term (docs/sequences.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from excover.errors import UsageError

if TYPE_CHECKING:
    from excover.solving import ExactCover

__all__ = ["SEQUENCES", "Sequence", "index", "lookup", "position", "problem", "row", "term"]


#: A sequence's count of its own: the term and what it was made of, from n and a timeout.
Route = Callable[[int, float | None], tuple[int, dict[str, object]]]


class Sequence(NamedTuple):
    """One sequence: its A-number, its OEIS name, how to build the exact cover of its
    n-th term (``build(n, deadline)``: past the deadline, a ``time.monotonic()``
    instant, LimitReached; a term too large to build, a UsageError naming the limit,
    before anything is built), whether the term counts classes of solutions (under the declared
    symmetries of the problem) rather than every solution, the heuristic of its
    count's search, and a count of its own (``route(n, timeout)``: the term and what it
    was made of, for ``--stats``; past ``timeout`` seconds, LimitReached), which
    :func:`term` and ``excover sequence`` use instead of searching the exact cover when
    the sequence has one, named ``route_name`` (method, engine) in the output; with
    ``searched_on_request``, ``excover sequence`` searches the exact cover instead when
    asked for its flags (``--workers``, ``--progress``), else it refuses them. A
    triangle read by rows (A348453) has ``position_of``, the row and column of the term of
    index n, and ``index_of``, the index of the term of a row and column (a UsageError for
    a column the row lacks); its ``build`` and ``route`` take the index. A sequence
    with no exact cover of its terms (A291807: classes with a symmetry, which no count
    of solutions or of their classes gives) has a ``build`` that raises UsageError."""

    id: str
    name: str
    build: Callable[[int, float | None], ExactCover]
    classes: bool = False
    heuristic: str = "mrv"
    route: Route | None = None
    route_name: tuple[str, str] = ("dissections", "cell frontier")
    searched_on_request: bool = False
    position_of: Callable[[int], tuple[int, int]] | None = None
    index_of: Callable[[int, int], int] | None = None


def _rectangles(sequence: str) -> Callable[[int, float | None], ExactCover]:
    def build(n: int, deadline: float | None) -> ExactCover:
        from excover.sequences.rectangles import rectangles

        return rectangles(sequence, n, deadline=deadline)

    return build


def _rectangle_states(sequence: str) -> Route:
    def route(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
        from excover.sequences.rectangles import count_by_states

        return count_by_states(sequence, n, timeout=timeout)

    return route


#: How the output names the count of the rectangle sequences by their states.
RECTANGLE_STATES = ("rectangle states", "state merge")


def _rectangle_sequence(sequence: str, name: str, heuristic: str = "mrv") -> Sequence:
    return Sequence(
        sequence,
        name,
        _rectangles(sequence),
        heuristic=heuristic,
        route=_rectangle_states(sequence),
        route_name=RECTANGLE_STATES,
        searched_on_request=True,
    )


def _ominoes(n: int, deadline: float | None) -> ExactCover:
    from excover.sequences.polyominoes import square_by_ominoes

    return square_by_ominoes(n, deadline=deadline)


def _ominoes_by_dissections(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
    from excover.sequences.polyominoes import classes_by_dissections

    found = classes_by_dissections(n, timeout=timeout)
    return found.classes, {
        "dissections": found.dissections,
        "fixed": list(found.fixed),
        "dissection_seconds": round(found.dissection_seconds, 3),
        "fixed_seconds": round(found.fixed_seconds, 3),
    }


def _dissections(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
    import time

    from excover.errors import LimitReached
    from excover.statistics import Stats
    from excover.tiling import count_dissections

    deadline = None if timeout is None else time.monotonic() + timeout

    def heard(done: int, cells: int, states: int) -> None:
        if deadline is not None and time.monotonic() > deadline:
            raise LimitReached("timeout", Stats())

    return count_dissections(n, n, n, tick=heard), {}


#: How the output names the counts by the compositions of the square's (quotient) boards.
COMPOSITIONS = ("compositions", "cell frontier")


def _compositions(n: int, deadline: float | None) -> ExactCover:
    from excover.sequences.compositions import compositions

    return compositions(n, deadline=deadline)


def _no_cover(sequence: str, why: str) -> Callable[[int, float | None], ExactCover]:
    def build(n: int, deadline: float | None) -> ExactCover:
        raise UsageError(f"{sequence} has no exact cover of its terms: {why}")

    return build


def _composition_count(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
    from excover.sequences.compositions import count_compositions

    return count_compositions(n, timeout=timeout), {}


def _composition_classes(symmetric: bool) -> Route:
    def route(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
        from excover.sequences.compositions import fixed

        found = fixed(n, timeout=timeout)
        parts: dict[str, object] = {"fixed": found.fixed, "asymmetric": found.asymmetric}
        if symmetric:
            return found.symmetric, {"classes": found.classes, **parts}
        return found.classes, {"symmetric": found.symmetric, **parts}

    return route


def _entry_cover(n: int, deadline: float | None) -> ExactCover:
    from excover.sequences.equal_pieces import entry_cover, position

    return entry_cover(*position(n), deadline=deadline)


def _entry_count(n: int, timeout: float | None) -> tuple[int, dict[str, object]]:
    from excover.sequences.equal_pieces import count_entry, position

    return count_entry(*position(n), timeout=timeout)


def _equal_pieces_position(n: int) -> tuple[int, int]:
    from excover.sequences.equal_pieces import position

    return position(n)


def _equal_pieces_index(n: int, k: int) -> int:
    from excover.sequences.equal_pieces import index

    return index(n, k)


#: Every sequence of the package, by A-number.
SEQUENCES: dict[str, Sequence] = {
    s.id: s
    for s in (
        _rectangle_sequence(
            "A360498",
            "Number of ways to tile an n x n square using oblongs with distinct dimensions",
            heuristic="sizes",
        ),
        _rectangle_sequence(
            "A360725",
            "Number of ways to tile an n X n square using oblongs with distinct height x "
            "width dimensions",
        ),
        _rectangle_sequence(
            "A360499",
            "Number of ways to tile an n X n square using rectangles with distinct dimensions",
            heuristic="sizes",
        ),
        _rectangle_sequence(
            "A360256",
            "Number of ways to tile an n X n square using rectangles with distinct height X "
            "width dimensions",
        ),
        _rectangle_sequence(
            "A360804",
            "Number of ways to tile an n X n square using rectangles with distinct areas",
            heuristic="sizes",
        ),
        _rectangle_sequence(
            "A360773",
            "Number of ways to tile a 2n X 2n square using rectangles with distinct "
            "dimensions such that the sum of the rectangles perimeters equals the area of "
            "the square",
        ),
        Sequence(
            "A328020",
            "Number of distinct tilings of an n X n square with free n-polyominoes",
            _ominoes,
            classes=True,
            route=_ominoes_by_dissections,
        ),
        Sequence(
            "A172477",
            "The number of ways to dissect an n X n square into polyominoes of size n",
            _ominoes,
            route=_dissections,
        ),
        Sequence(
            "A145835",
            "Number of compositions of the n X n grid graph",
            _compositions,
            route=_composition_count,
            route_name=COMPOSITIONS,
        ),
        Sequence(
            "A291806",
            "The number of polyomino tilings of n X n square",
            _compositions,
            classes=True,
            route=_composition_classes(symmetric=False),
            route_name=COMPOSITIONS,
        ),
        Sequence(
            "A291807",
            "The number of symmetric polyomino tilings of n X n square",
            _no_cover(
                "A291807",
                "it counts the classes of compositions that have a symmetry, which no count "
                "of solutions or of their classes gives (A291806's exact cover counts all "
                "the classes)",
            ),
            classes=True,
            route=_composition_classes(symmetric=True),
            route_name=COMPOSITIONS,
        ),
        Sequence(
            "A348453",
            "Irregular triangle read by rows: T(n,k) (n >= 1, 1 <= k <= number of divisors "
            "of n^2) is the number of ways to tile an n X n chessboard with d_k "
            "rook-connected polyominoes of equal area, where d_k is the k-th divisor of n^2",
            _entry_cover,
            route=_entry_count,
            position_of=_equal_pieces_position,
            index_of=_equal_pieces_index,
        ),
    )
}


def lookup(sequence: str) -> Sequence:
    """The sequence of A-number ``sequence`` (``"A360498"``, any case)."""
    found = SEQUENCES.get(sequence.upper()) if isinstance(sequence, str) else None
    if found is None:
        raise UsageError(f"unknown sequence {sequence!r}: excover knows {', '.join(SEQUENCES)}")
    return found


def _check_n(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"n must be a positive integer (the sequences start at 1), not {n!r}")
    return n


def _triangle(sequence: str) -> Sequence:
    found = lookup(sequence)
    if found.position_of is None or found.index_of is None:
        raise UsageError(f"{found.id} is not a triangle: its terms are a(n), not rows")
    return found


def position(sequence: str, n: int) -> tuple[int, int]:
    """The row and column (both from 1) of the term of index ``n`` of the triangle
    ``sequence`` (A348453: ``position("A348453", 12) == (4, 5)``)."""
    found = _triangle(sequence)
    assert found.position_of is not None
    return found.position_of(_check_n(n))


def index(sequence: str, n: int, k: int) -> int:
    """The index of the k-th term of row n of the triangle ``sequence``, as the OEIS
    numbers its terms (the rows one after the other); UsageError when row n has no
    column k."""
    found = _triangle(sequence)
    assert found.index_of is not None
    return found.index_of(_check_n(n), _check_n(k))


def row(sequence: str, n: int) -> tuple[int, ...]:
    """Row ``n`` of the triangle ``sequence``, each term computed by :func:`term`
    (A348453's row 4: ``(1, 70, 117, 36, 1)``)."""
    first = index(sequence, n, 1)
    terms: list[int] = []
    while position(sequence, first + len(terms))[0] == n:
        terms.append(term(sequence, first + len(terms)))
    return tuple(terms)


def problem(sequence: str, n: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover of the ``n``-th term of ``sequence``, its symmetries declared;
    a UsageError naming the limit when it is too large to build (told before it is
    built), LimitReached once ``deadline`` (a ``time.monotonic()`` instant) passes while
    it is built."""
    return lookup(sequence).build(_check_n(n), deadline)


def term(sequence: str, n: int, *, workers: int | None = None) -> int:
    """The ``n``-th term of ``sequence`` (an A-number of :data:`SEQUENCES`), computed:
    by the sequence's own route when it has one (on one process: the square's cuts,
    A328020, A172477, A145835, A291806, A291807 and A348453, always; the rectangle
    sequences unless ``workers`` is given), else every solution
    counted by a symmetry-broken search, or the classes of solutions, as the sequence
    asks; ``workers`` counts on that many processes. A triangle's term is numbered as
    the OEIS numbers it, the rows one after the other (:func:`index`)."""
    found = lookup(sequence)
    if found.route is not None and not (found.searched_on_request and workers is not None):
        return found.route(_check_n(n), None)[0]
    cover = found.build(_check_n(n), None)
    if found.classes:
        return cover.count(up_to_symmetry=True, workers=workers, heuristic=found.heuristic)
    return cover.count(symmetry=True, workers=workers, heuristic=found.heuristic)
