"""Design searches against independent truth: on small spaces every candidate, taken
without the symmetry reduction, is counted by a plain :meth:`Tiling.count` (its own
route: Burnside's lemma or a pinned tile over the board's symmetries), and the reduced
search must agree: each design stands for its orbit (its weight), the weighted figures
are the brute force's, and every design reported unique has exactly one tiling up to
symmetry by a count of its own. The numbering of multisets is checked against
:mod:`itertools`."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from excover.design import Design, Goal, Multisets, canonical, search
from excover.tiling import Pattern, Tile, Tiling, polyforms
from excover.tiling.designs import BoardSpace, PackingSpace


@pytest.mark.parametrize(
    ("items", "size", "copies"), [(5, 3, 1), (6, 3, 2), (4, 4, 3), (7, 4, 4), (3, 0, 1)]
)
def test_multisets_are_numbered_in_lexicographic_order(items: int, size: int, copies: int) -> None:
    every = [
        chosen
        for chosen in itertools.combinations_with_replacement(range(items), size)
        if max(Counter(chosen).values(), default=0) <= copies
    ]
    numbering = Multisets(items, size, copies)
    assert numbering.count == len(every)
    assert [numbering.unrank(i) for i in range(len(every))] == every
    assert [numbering.rank(chosen) for chosen in every] == list(range(len(every)))
    for start in range(len(every) + 1):
        stop = min(len(every), start + 5)
        assert [c for _, c in numbering.between(start, stop)] == every[start:stop]


def test_the_canonical_multiset_is_the_smallest_of_its_orbit() -> None:
    swap = [(0, 1, 2, 3), (1, 0, 2, 3)]  # a mirror swapping the hands 0 and 1
    assert canonical((0, 2, 3), swap) == (True, 2)
    assert canonical((1, 2, 3), swap) == (False, 2)
    assert canonical((0, 1, 2), swap) == (True, 1)


def _bucket(count: int, most: int) -> str:
    return str(count) if count <= most else f"{most + 1}+"


def test_pentomino_sets_of_a_rectangle_against_every_set_counted() -> None:
    """4 of the 12 pentominoes in the 5x4 rectangle: every one of the 495 sets counted
    by the tiling library, against the search's distribution and unique sets."""
    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    report = search(space)
    truth: Counter[str] = Counter()
    unique = set()
    for chosen in itertools.combinations(space.names, 4):
        tiles = [Tile(space.catalog.pieces[name], name) for name in chosen]
        count = Tiling(Pattern.constant(5, 4), tiles).count(up_to_symmetry=True)
        truth[_bucket(count, 1)] += 1
        if count == 1:
            unique.add(" ".join(chosen))
    assert report.complete and report.candidates == report.designs == 495
    assert report.distribution == dict(truth)
    assert {found.key for found in report.found} == unique
    assert report.qualifying == len(unique) == 9


def _every_candidate(space: PackingSpace) -> dict[tuple[int, ...], int]:
    """Each candidate of the space without the reduction (every multiset), with its
    tilings up to symmetry counted by the tiling library."""
    found = {}
    for chosen in itertools.combinations_with_replacement(range(len(space.names)), space.pieces):
        if max(Counter(chosen).values()) > space.copies:
            continue
        found[chosen] = space.tiling(_as_design(space, chosen)).count(up_to_symmetry=True)
    return found


def _as_design(space: PackingSpace, chosen: tuple[int, ...]) -> Design:
    """A candidate as a design (the representative of its orbit or not), for its tiling."""
    return Design(-1, " ".join(space.names[k] for k in chosen), 1, chosen)


@pytest.mark.parametrize(
    ("board", "pieces", "copies"),
    [("4x4", 4, 2), ("7x2", 2, 2), ("4x3", 3, 1)],
)
def test_one_sided_pieces_each_design_stands_for_its_mirror(
    board: str, pieces: int, copies: int
) -> None:
    """Tetrominoes that may only turn (7 of them, two mirror pairs): the rectangle's
    mirrors swap the hands of a pair, so a set and its mirror image are one design. Every
    multiset is counted alone; the search's designs, weighted by their orbits, give the
    same figures, and each multiset's representative is a design of the space."""
    space = PackingSpace(
        board=board, catalog="tetrominoes", turn="rotations", pieces=pieces, copies=copies
    )
    truth = _every_candidate(space)
    report = search(space, Goal(solutions=3))
    weighted: Counter[str] = Counter()
    designs = {}
    for index in range(space.size):
        design = space.design(index)
        if design is not None:
            designs[design.parts] = design
    for chosen, count in truth.items():
        images = {tuple(sorted(m[k] for k in chosen)) for m in space._maps or [tuple(range(7))]}
        representative = designs[min(images)]
        assert truth[representative.parts] == count  # a mirror keeps the count
        weighted[_bucket(count, 3)] += 1
    assert sum(d.weight for d in designs.values()) == len(truth) == space.size
    assert len(designs) < len(truth)  # the mirror made a difference
    by_design: Counter[str] = Counter()
    for design in designs.values():
        by_design[_bucket(truth[design.parts], 3)] += design.weight
    assert by_design == weighted
    assert report.designs == len(designs)
    expected = Counter(_bucket(truth[d.parts], 3) for d in designs.values())
    assert report.distribution == dict(expected)
    qualifying = {d.key for d in designs.values() if 1 <= truth[d.parts] <= 3}
    assert {found.key for found in report.found} == qualifying


def test_counting_every_solution_agrees_with_a_plain_count() -> None:
    space = PackingSpace(board="5x3", catalog="polyominoes:2-4", pieces=4)
    report = search(space, Goal(solutions=None, up_to_symmetry=False))
    truth: Counter[str] = Counter()
    for chosen in itertools.combinations(range(len(space.names)), 4):
        truth[str(space.tiling(_as_design(space, chosen)).count())] += 1
    assert report.distribution == dict(truth)
    sizes = [len(space.catalog.pieces[name].coords()) for name in space.names]
    wrong = [
        c for c in itertools.combinations(range(len(sizes)), 4) if sum(sizes[k] for k in c) != 15
    ]
    assert report.rejected["area"] == len(wrong)


def test_every_design_reported_unique_has_one_tiling_by_a_plain_count() -> None:
    space = PackingSpace(board="5x2x2", catalog="pentacubes", pieces=4)
    report = search(space, stop=3000)
    assert report.found, "the range holds unique designs"
    for found in report.found:
        design = space.design(found.index)
        assert design is not None and design.key == found.key
        assert space.tiling(design).count(up_to_symmetry=True) == 1


@pytest.mark.parametrize(
    ("use", "turn", "group"),
    [(["I3", "L3"], "all", 8), (["tetromino2", "tromino2"], "rotations", 4)],
)
def test_boards_against_every_fixed_board(use: list[str], turn: str, group: int) -> None:
    """The boards a set of pieces fills: every board up to translation (the fixed
    polyominoes) counted alone, against the boards up to the isometries that keep the
    set of pieces (all 8 for free pieces; the 4 rotations for a chiral one-sided piece),
    each weighted by the boards of its class."""
    catalog = "polyominoes:3-4" if turn == "rotations" else "trominoes"
    space = BoardSpace(catalog=catalog, use=use, turn=turn)
    assert len(space.group) == group
    report = search(space, Goal(solutions=2))
    pieces = [Tile(space.catalog.pieces[name], name, 1, turn) for name in use]
    truth: Counter[str] = Counter()
    for cells in polyforms("square", space.cells, "none"):
        count = Tiling(Pattern.from_cells(cells.tolist()), pieces, interchangeable=True).count(
            up_to_symmetry=True
        )
        truth[_bucket(count, 2)] += 1
    weighted: Counter[str] = Counter()
    for index in range(space.size):
        design = space.design(index)
        if design is not None:
            count = space.tiling(design).count(up_to_symmetry=True)
            weighted[_bucket(count, 2)] += design.weight
    assert weighted == truth
    assert sum(report.distribution.values()) == report.designs
    for found in report.found:
        design = space.design(found.index)
        assert design is not None
        assert space.tiling(design).count(up_to_symmetry=True) == found.solutions <= 2


def test_the_top_k_by_fewest_solutions_is_the_brute_force_ranking() -> None:
    """With any number of solutions and the top 6 by fewest, the search is told the
    count to beat and stops the designs that cannot: the 6 kept are still those a plain
    count of every set ranks first (ties to the smaller index), and every design with a
    tiling qualifies."""
    space = PackingSpace(board="5x4", catalog="pentominoes", pieces=4)
    report = search(space, Goal(solutions=None, top=6))
    counted = []
    for index in range(space.size):
        design = space.design(index)
        assert design is not None
        count = space.tiling(design).count(up_to_symmetry=True)
        if count:
            counted.append((count, index))
    best = sorted(counted)[:6]
    assert [(f.solutions, f.index) for f in report.found] == best
    assert report.qualifying == len(counted) == 26
