"""The bit-parallel engine's size bound (``heuristic="sizes"``), against plain MRV.

Options that share an uncolored secondary item exclude one another; when every option
has such an item whose options all cover as many primary items (a *group* of that size:
a piece of a tiling used at most once), the items left at a level must number a sum of
the sizes of distinct groups still in play, and a level where they cannot is dead. The
bound only cuts subtrees without a solution out of MRV's tree, and the levels it keeps
choose as MRV does: the same solutions in the same order, and never more nodes. Where
no option set has such groups (or with multiplicities) the search is MRV's, node for
node.
"""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest

from excover import ExactCover, Search, UsageError
from excover.names import SEARCH_ENGINES
from excover.sequences import problem as sequence_problem
from excover.symmetry import BrokenSearch

KNUTH = Path(__file__).parent / "data" / "knuth"


def strip(length: int, longest: int) -> ExactCover:
    """The 1 x ``length`` strip tiled by bars of lengths 1..``longest``, each length at
    most once (a secondary item per length)."""
    bars = [f"bar{k}" for k in range(1, longest + 1)]
    cover = ExactCover([f"c{i}" for i in range(length)], secondary=bars)
    for k in range(1, longest + 1):
        for start in range(length - k + 1):
            cover.add_option([*(f"c{i}" for i in range(start, start + k)), f"bar{k}"])
    return cover


def strip_tilings(length: int, longest: int) -> int:
    """The tilings of :func:`strip` by enumeration: each set of distinct lengths summing
    to ``length``, in any order along the strip."""
    return sum(
        math.factorial(size)
        for size in range(1, longest + 1)
        for parts in itertools.combinations(range(1, longest + 1), size)
        if sum(parts) == length
    )


def searched(cover: ExactCover, heuristic: str) -> tuple[list[list[int]], int]:
    """Every solution in the order found, and the nodes, on the bit-parallel engine."""
    search = Search(cover, engine="bits", heuristic=heuristic)
    return list(search.solutions()), search.stats.nodes


@pytest.mark.parametrize(("length", "longest"), [(12, 7), (15, 6), (10, 10)])
def test_a_strip_of_distinct_bars_counts_as_enumerated_in_fewer_nodes(
    length: int, longest: int
) -> None:
    cover = strip(length, longest)
    mrv, mrv_nodes = searched(cover, "mrv")
    sizes, sizes_nodes = searched(cover, "sizes")
    assert sizes == mrv  # the same solutions in the same order
    assert len(sizes) == strip_tilings(length, longest)
    assert sizes_nodes < mrv_nodes


def test_the_oblongs_of_distinct_dimensions_in_half_the_nodes() -> None:
    """A360498(6): 3,620 tilings of the 6 x 6 square; the bound cuts MRV's 36,435 nodes
    by more than half."""
    cover = sequence_problem("A360498", 6)
    mrv, mrv_nodes = searched(cover, "mrv")
    sizes, sizes_nodes = searched(cover, "sizes")
    assert sizes == mrv
    assert len(sizes) == 3620
    assert 2 * sizes_nodes < mrv_nodes


def rooted_strip(length: int, longest: int) -> ExactCover:
    """:func:`strip` with a primary item ``#`` held by one option per pair of distinct
    first two bars (their cells and both keys), as a symmetry-broken count's merged
    problem has one option per representative: the tilings of two bars or more."""
    bars = [f"bar{k}" for k in range(1, longest + 1)]
    cover = ExactCover(["#", *(f"c{i}" for i in range(length))], secondary=bars)
    for k in range(1, longest + 1):
        for start in range(length - k + 1):
            cover.add_option([*(f"c{i}" for i in range(start, start + k)), f"bar{k}"])
    for a, b in itertools.permutations(range(1, longest + 1), 2):
        if a + b <= length:
            cover.add_option(["#", *(f"c{i}" for i in range(a + b)), f"bar{a}", f"bar{b}"])
    return cover


def test_the_options_of_the_item_branched_on_first_need_no_group() -> None:
    """The root's options hold two keys (no group); they are all out of play below the
    root, where the bound holds again."""
    cover = rooted_strip(15, 7)
    found = {}
    for heuristic in ("mrv", "sizes"):
        search = Search(cover, engine="bits", heuristic=heuristic, branch_first="#")
        found[heuristic] = (list(search.solutions()), search.stats.nodes)
    assert found["sizes"][0] == found["mrv"][0]
    assert len(found["sizes"][0]) == strip_tilings(15, 7)  # no one bar is 15 long
    assert found["sizes"][1] < found["mrv"][1]


def test_a_symmetry_broken_count_keeps_the_bound() -> None:
    """The count of :func:`excover.sequences.term`: its merged problem branches first on
    the representatives' item, whose options have no group."""
    cover = sequence_problem("A360498", 6)
    counts = {}
    for heuristic in ("mrv", "sizes"):
        search = BrokenSearch(cover, cover.symmetries(), heuristic=heuristic)
        counts[heuristic] = (search.count(), search.nodes)
    assert counts["sizes"][0] == counts["mrv"][0] == 3620
    assert counts["sizes"][1] < counts["mrv"][1]


def random_keyed(rng: random.Random) -> ExactCover:
    """A random problem whose options each hold one key (a secondary item) and a random
    set of primary items of the key's size; some keys colored, some options without a
    key, so that some problems have groups and some do not."""
    n_items = rng.randint(4, 12)
    n_keys = rng.randint(2, 6)
    items = [f"i{t}" for t in range(n_items)]
    keys = [f"k{x}" for x in range(n_keys)]
    cover = ExactCover(items, secondary=keys)
    kind = rng.choice(["groups", "groups", "groups", "colored", "keyless"])
    for x, key in enumerate(keys):
        size = rng.randint(1, min(5, n_items))
        for _ in range(rng.randint(1, 3 * n_items)):
            chosen = rng.sample(items, size)
            if kind == "colored" and x == 0:  # shared by options of one color
                cover.add_option([*chosen, f"{key}:{rng.randint(1, 2)}"])
            else:
                cover.add_option([*chosen, key])
    if kind == "keyless":  # an option of no group: no bound for the whole problem
        cover.add_option(rng.sample(items, rng.randint(1, n_items)))
    return cover


@pytest.mark.parametrize("seed", range(40))
def test_random_keyed_problems_find_mrvs_solutions_in_no_more_nodes(seed: int) -> None:
    cover = random_keyed(random.Random(seed))
    mrv, mrv_nodes = searched(cover, "mrv")
    sizes, sizes_nodes = searched(cover, "sizes")
    assert sizes == mrv
    assert sizes_nodes <= mrv_nodes


def test_without_groups_the_search_is_mrvs() -> None:
    """Pentominoes whose pieces are primary items have no secondary item: no group."""
    cover = ExactCover.read(KNUTH / "pento3x20.dlx")
    assert searched(cover, "sizes") == searched(cover, "mrv")


def test_with_multiplicities_the_search_is_mrvs() -> None:
    cover = ExactCover(["a", "b", "c"], secondary=["x", "y"])
    for option in (["a", "x"], ["a", "b", "y"], ["b", "c", "x"], ["c", "y"], ["b"]):
        cover.add_option(option)
    cover.set_multiplicity("b", 1, 2)
    assert searched(cover, "sizes") == searched(cover, "mrv")


def test_shares_of_a_bounded_search_partition_its_solutions() -> None:
    cover = sequence_problem("A360725", 5)
    parts = [Search(cover, heuristic="sizes", share=(k, 3)).count() for k in range(3)]
    assert sum(parts) == 1056  # A360725(5)


def test_the_bound_runs_on_the_bit_parallel_engine_only() -> None:
    cover = strip(6, 3)
    for engine in (e for e in SEARCH_ENGINES if e != "bits"):
        with pytest.raises(UsageError, match="bit-parallel engine"):
            Search(cover, engine=engine, heuristic="sizes")
    assert Search(cover, heuristic="sizes").engine == "bits"
