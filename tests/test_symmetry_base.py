"""The base of a symmetry-broken search, the orbits of its partial solutions and the merged
problems counted in parts (issue #58: the rectangle sequences on odd squares).

The base is the orbit of the item the plain search branches on first when the search is
larger than its partial solutions are many, else the orbit of fewest partial solutions
by estimate; either way the count is the plain count. The orbits of sets of options are
found with the sets packed into one int64 key when they fit, as raw bytes otherwise:
both must give the orbits a plain closure finds. The merged problems are counted in
parts of at most ``ROOT_OPTIONS`` representatives: with tiny parts the counts stay the
plain ones.
"""

from __future__ import annotations

import numpy as np
import pytest

from excover import ExactCover
from excover.sequences import problem
from excover.sequences.known import KNOWN
from excover.symmetry import BrokenSearch, extensions, partials
from excover.symmetry.arrays import OptionArrays
from excover.symmetry.graph import PartialGraph
from excover.symmetry.partials import Partials, choose_base, find_base, first_branch_base


def names(cover: ExactCover, items: list[int] | None) -> list[str]:
    assert items is not None
    return [cover.items[i] for i in items]


def test_an_odd_square_is_broken_on_its_corners_not_its_centre() -> None:
    """On the 5 x 5 square the centre cell has the fewest partial solutions by estimate,
    but the search branches first on a corner: the corners are the base, and the count
    is the published term."""
    cover = problem("A360498", 5)
    group = cover.symmetries()
    arrays = OptionArrays(cover)
    assert names(cover, choose_base(arrays, group)) == ["2,2"]
    corners = ["0,0", "0,4", "4,0", "4,4"]
    assert names(cover, first_branch_base(arrays, group)) == corners
    search = BrokenSearch(cover, group)
    assert names(cover, search.base) == corners
    assert search.count() == KNOWN["A360498"][4] == cover.count(method="search")


def square_with_a_blocker(n: int) -> ExactCover:
    """The n x n square of A360498 with one more primary item ``z`` whose n * n options
    each hold every pair's item (so that none fits beside any rectangle): no solution,
    and the search knows it one node after its first choice."""
    rectangles = problem("A360498", n)
    marks = [f"w{k}" for k in range(n * n)]
    cover = ExactCover(
        primary=[*rectangles.primary_items, "z"], secondary=[*rectangles.secondary_items, *marks]
    )
    for option in range(rectangles.n_options):
        cover.add_option(rectangles.option_items(option))
    keys = list(rectangles.secondary_items)
    for mark in marks:  # more options than a corner has: the search starts on a corner
        cover.add_option(["z", *keys, mark])
    declared = rectangles.declared_symmetries()
    assert declared is not None
    cover.declare_symmetries(declared)
    return cover


def test_a_small_search_keeps_the_base_of_fewest_partial_solutions() -> None:
    """When the plain search ends within as many nodes as the root item's orbit has
    partial solutions, listing them would cost more than the search: the base is the
    estimate's (the centre), and the count still the plain one (none)."""
    cover = square_with_a_blocker(5)
    group = cover.symmetries()
    arrays = OptionArrays(cover)
    corners = first_branch_base(arrays, group)
    assert names(cover, corners) == ["0,0", "0,4", "4,0", "4,4"]
    assert corners is not None
    assert Partials.count(cover, arrays, corners) > 100  # the search takes a few dozen
    base, partials = find_base(cover, arrays, group)
    assert names(cover, base) == ["2,2"] and partials is not None
    assert BrokenSearch(cover, group).count() == 0 == cover.count(method="search")


Orbit = set[tuple[int, ...]]


def closure(rows: list[tuple[int, ...]], generators: list[np.ndarray]) -> list[Orbit]:
    """The orbits of sorted tuples under option maps, by a plain closure."""
    seen: dict[tuple[int, ...], int] = {}
    orbits: list[Orbit] = []
    for start in rows:
        if start in seen:
            continue
        orbit, frontier = {start}, [start]
        while frontier:
            current = frontier.pop()
            for g in generators:
                image = tuple(sorted(int(g[k]) for k in current))
                if image not in orbit:
                    orbit.add(image)
                    frontier.append(image)
        for member in orbit:
            seen[member] = len(orbits)
        orbits.append(orbit)
    return orbits


@pytest.mark.parametrize(("n_options", "width"), [(40, 3), (300, 8)])
def test_orbits_of_packed_and_raw_keys_are_those_of_a_closure(n_options: int, width: int) -> None:
    """Sets of 3 of 40 options fit in an int64 key (6 bits each), sets of 8 of 300 do
    not (9 bits each): under a rotation and a reflection of the options, both find the
    orbits of a plain closure, and each set's image under each generator."""
    rng = np.random.default_rng(58)
    rotation = (np.arange(n_options) + 5) % n_options
    reflection = (n_options - 1 - np.arange(n_options)) % n_options
    generators = [rotation, reflection]
    starts = [tuple(sorted(rng.choice(n_options, width, replace=False).tolist())) for _ in range(4)]
    orbits = closure(starts, generators)
    rows = sorted({member for orbit in orbits for member in orbit})
    table = np.array(rows, dtype=np.int64)
    graph = PartialGraph(table, generators)
    assert (graph._shift == 0) == (width == 8)
    first = graph.first_members()
    found: dict[int, Orbit] = {}
    for row, label in enumerate(first.tolist()):
        found.setdefault(label, set()).add(rows[row])
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, orbits))
    for g, images in zip(generators, graph.images, strict=True):
        expected = [rows.index(tuple(sorted(int(g[k]) for k in row))) for row in rows]
        assert images.tolist() == expected


@pytest.mark.parametrize("sequence", ["A360498", "A360804"])
def test_merged_problems_in_tiny_parts_count_as_one(
    sequence: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With three representatives a merged problem, the count, what it has counted and
    the classes are those of the plain count (the classes by Burnside's lemma)."""
    cover = problem(sequence, 5)
    group = cover.symmetries()
    plain = cover.count(method="search")
    classes = cover.count(up_to_symmetry=True)
    monkeypatch.setattr(extensions, "ROOT_OPTIONS", 3)
    search = BrokenSearch(cover, group)
    assert search.orbits is not None and len(search.orbits) > 30
    assert search.count() == plain == search.counted
    assert BrokenSearch(cover, group).count_orbits() == classes
    assert BrokenSearch(cover, group, engine="dlx").count() == plain


def test_the_root_orbit_has_a_bound_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corners of the 5 x 5 square are listed past the bound of other bases (up to
    ``MAX_ROOT_PARTIALS``), and not past their own: then the centre is the base."""
    cover = problem("A360498", 5)
    group = cover.symmetries()
    arrays = OptionArrays(cover)
    corners = first_branch_base(arrays, group)
    assert corners is not None
    found = Partials.count(cover, arrays, corners)
    monkeypatch.setattr(partials, "MAX_PARTIALS", found // 2)
    base, listed = find_base(cover, arrays, group)
    assert base == corners and listed is not None
    assert sum(orbit.size for orbit in listed.orbits) == found
    monkeypatch.setattr(partials, "MAX_ROOT_PARTIALS", found - 1)
    assert names(cover, find_base(cover, arrays, group)[0]) == ["2,2"]
