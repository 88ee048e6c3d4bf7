"""Algorithm M prunes as soon as an item cannot be satisfied, and counts its statistics
as Knuth's DLX3 does.

The exact figures below were printed by DLX3 (built from Knuth's CWEB sources) on the
same inputs; ``benchmarks/knuth_dlx3_parity.py`` compares thousands of random problems
with DLX1, DLX2 and DLX3 when those programs are at hand. The property tests need no
outside program: an item whose options are fewer than it still needs ends the search at
its first node, wherever it stands in the item list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, Search

KNUTH = Path(__file__).parent / "data" / "knuth"

#: (input in Knuth's format, DLX3's solutions, nodes, updates).
DLX3_FIGURES = [
    ("2:3|B A\nA\n", 0, 1, 0),
    ("1:3|p0\np0\np0\np0\n", 7, 14, 10),
    ("1:2|p0\n" + "p0\n" * 11, 66, 78, 77),
    (
        "2|p0 | s0 s1 s2\np0 s2:b s1:b s0:r\np0 s1\np0 s0:r s2\np0\np0 s1\np0\np0 s2\n"
        "p0 s1:r s2:r s0\n",
        17,
        25,
        70,
    ),
    (
        "2:3|p0 | s0 s1 s2\np0\np0 s1:r\np0 s1 s2\np0 s0:r s2:r\np0 s2 s0:b\np0 s0:r s2:b\n"
        "p0\np0 s0:b\np0 s2 s1:r\n",
        48,
        80,
        209,
    ),
    (
        "p0 1:3|p1 0:3|p2 1:3|p3 0:1|p4 0:1|p5 | s0\np0 p3 p4\np0 p4 p1 p3 p2 p5 s0:b\n"
        "p4 p0 p5 p2 p1 s0:r\np5 p1\np5 p3 p4 p1 p0 p2 s0:b\np5 p1 p0 p2 p3 p4 s0:b\n"
        "p1 p0 p3 p4 p5 s0:b\np5 p3 s0:r\np3 p0 p1 p5\np0 p2 p3 p5 s0:r\n",
        6,
        27,
        185,
    ),
    (
        "3|p0 | s0 s1\np0 s0\np0 s0:r\np0 s0:r s1:r\np0\np0 s1\np0 s1:b s0:r\np0\np0 s0\n"
        "p0 s0:r s1:r\np0 s1:r\np0 s0 s1\np0 s1:r\np0 s0\n",
        66,
        111,
        278,
    ),
]


@pytest.mark.parametrize(("text", "solutions", "nodes", "updates"), DLX3_FIGURES)
def test_statistics_equal_dlx3(text: str, solutions: int, nodes: int, updates: int) -> None:
    search = Search(ExactCover.from_dlx(text), heuristic="mrv", engine="dlx")
    assert search.count() == solutions
    assert search.stats.algorithm == "M"
    assert (search.stats.nodes, search.stats.updates) == (nodes, updates)


def test_an_unsatisfiable_item_ends_a_large_search_at_once() -> None:
    """Domino tilings of 8x8 (12,988,816 of them, 50 million nodes for Algorithm X) with
    an item ``Z`` that needs two options and has none, put first: DLX3 takes 1 node."""
    lines = (KNUTH / "domino8x8.dlx").read_text().splitlines()
    first = next(k for k, line in enumerate(lines) if line and not line.startswith("|"))
    lines[first] = "2|Z " + lines[first]
    search = Search(ExactCover.from_dlx("\n".join(lines)), heuristic="mrv", engine="dlx")
    assert search.count() == 0
    assert (search.stats.nodes, search.stats.updates) == (1, 0)


@settings(max_examples=examples(150), deadline=None)
@given(
    need=st.integers(2, 4),
    have=st.integers(0, 1),
    others=st.integers(1, 6),
    position=st.integers(0, 6),
)
def test_an_item_short_of_options_fails_at_the_first_node(
    need: int, have: int, others: int, position: int
) -> None:
    """Whatever the other items, an item needing ``need`` options among fewer makes the
    root the only node, with nothing covered."""
    names = [f"i{k}" for k in range(others)]
    names.insert(min(position, others), "short")
    problem = ExactCover(primary=names)
    problem.set_multiplicity("short", need, need + 1)
    for name in names:
        if name != "short":
            problem.add_option([name])
    for _ in range(have):
        problem.add_option(["short", names[0] if names[0] != "short" else names[1]])
    search = Search(problem, heuristic="mrv", engine="dlx")
    assert search.count() == 0
    assert (search.stats.nodes, search.stats.updates) == (1, 0)
