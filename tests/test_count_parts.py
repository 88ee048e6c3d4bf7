"""The ``parts`` route (excover.counting.parts): a problem that falls apart is counted part
by part, each part by the route choice, and the counts multiplied.

Random disjoint unions (tests/builders.py's ``union``: the parts' items interleaved, so
that no order keeps them apart) are checked against the brute-force oracle of each part,
with every route forced and with the route choice; the choice must take the parts route
on them, name it and say how each part was counted; a part without solutions ends the
count before the others; a secondary item shared by two parts joins them.
"""

from __future__ import annotations

import json
from math import prod
from pathlib import Path

import jsonschema
import pytest
from budget import examples
from builders import Instance, dominoes, instances, queens, union
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover import ExactCover, LimitReached, UsageError, counting
from excover.cli import common
from excover.counting import choice, parts, routes
from excover.main import main

FUZZ = settings(
    max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

pieces = st.lists(
    st.one_of(instances("X", max_options=6), instances("XCC", max_options=6)),
    min_size=2,
    max_size=3,
)


def every_route(problem: ExactCover) -> dict[str, int]:
    """The count of each route that takes ``problem``, forced one by one."""
    counts = {}
    for name in counting.ROUTES:
        try:
            counts[name] = counting.count(problem, route=name).count
        except UsageError:
            continue
    return counts


def disjoint(*boards: ExactCover) -> ExactCover:
    """The disjoint union of ``boards``: each item named after its board and its name."""
    primary = [f"{b}.{name}" for b, board in enumerate(boards) for name in board.primary_items]
    secondary = [f"{b}.{name}" for b, board in enumerate(boards) for name in board.secondary_items]
    whole = ExactCover(primary=primary, secondary=secondary)
    for b, board in enumerate(boards):
        for k in range(board.n_options):
            whole.add_option([f"{b}.{name}" for name in board.option_items(k)])
    return whole


@FUZZ
@given(pieces=pieces, seed=st.integers(0, 2**16), small=st.sampled_from([0, 16]))
def test_every_route_counts_a_disjoint_union_as_the_product_of_its_parts(
    pieces: list[Instance], seed: int, small: int
) -> None:
    """With ``SMALL_OPTIONS`` at 0 every part goes through the route choice (scout, race),
    at 16 (or more) every random part is counted by DXZ directly; with ``SCOUT_FIRST`` at 0 the
    choice looks for parts before the search's scout (as on large problems), else the
    scout counts these small unions first."""
    whole = union(pieces, seed)
    expected = prod(len(piece.all_covers()) for piece in pieces)
    problem = whole.build()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "SMALL_OPTIONS", small)
        counts = every_route(problem)
        scouted = counting.count(problem)
        patch.setattr(choice, "SCOUT_FIRST", 0)
        found = counting.count(problem)
    assert found.count == scouted.count == expected
    assert set(counts.values()) == {expected}
    assert {"dlx", "dxz", "components"} <= set(counts)
    split = parts.parts(problem) is not None  # two parts or more, every item covered
    assert ("parts" in counts) == split
    if routes.frontier_runner(problem, reorder=False) is not None:
        assert found.route == "frontier"  # the frontier count comes first where it goes
    else:
        assert (found.route == "parts") == split


@FUZZ
@given(pieces=st.lists(instances("XCC", max_options=5), min_size=2, max_size=2), seed=st.integers())
def test_a_shared_secondary_item_joins_two_parts(pieces: list[Instance], seed: int) -> None:
    whole = union(pieces, seed, shared=True)
    problem = whole.build()
    expected = len(whole.all_covers())
    assert counting.count(problem).count == expected
    assert set(every_route(problem).values()) == {expected}


def test_the_choice_counts_each_part_by_its_own_route() -> None:
    """A domino board (the frontier count's) beside a queens problem (the search's)
    and a part too small for a choice (DXZ's): each part goes its own way, and the
    report says so."""
    pair = ExactCover.from_sparse([[0], [1], [0, 1]], 2)  # two covers, three options
    problem = disjoint(dominoes(6, 8), queens(8), pair)  # 167,089 tilings, 82 options
    found = counting.count(problem)
    assert (found.count, found.route) == (167089 * 92 * 2, "parts")
    assert "falls apart into 3 independent parts" in found.reason
    assert "(parts by route: bits 1, dxz 1, frontier 1)" in found.reason
    assert {"parts", "frontier", "bits"} <= set(found.work)
    assert found.method == "zdd"


def test_a_part_without_solutions_ends_the_count() -> None:
    """Parts are counted smallest first: a small part with no cover makes the count 0
    before the board, which no route is asked to count."""
    empty = ExactCover.from_sparse([[0, 1], [1, 2], [0, 2]], 3)  # no exact cover
    problem = disjoint(dominoes(5, 6), empty)
    runner = choice._parts_route(problem, "auto")
    assert runner is not None
    assert runner.advance(None) == 0
    assert runner.results == [] and runner.small == 1
    assert counting.count(problem).count == 0 == problem.count(method="search")


def test_a_problem_that_does_not_fall_apart_is_not_taken() -> None:
    assert parts.parts(queens(8)) is None
    with pytest.raises(UsageError, match=r"route 'parts'.*does not take"):
        counting.count(queens(8), route="parts")
    uncovered = ExactCover(primary=3)  # item 2 has no option: a count of 0 at once
    uncovered.add_option([0])
    uncovered.add_option([1])
    assert parts.parts(uncovered) is None and counting.count(uncovered).count == 0


def test_multiplicities_are_left_to_the_other_routes() -> None:
    problem = ExactCover(primary=["a", "b", "c"])
    problem.set_multiplicity("a", 1, 2)
    for items in (["a"], ["a"], ["b"], ["c"]):
        problem.add_option(items)
    assert parts.parts(problem) is None
    assert counting.count(problem).count == problem.count(method="search") == 3


def test_a_timeout_stops_the_parts_route() -> None:
    """A union with a part no route counts quickly (queens 16): the deadline reaches
    into that part's race."""
    problem = disjoint(queens(16), dominoes(4, 4))
    with pytest.raises(LimitReached) as stopped:
        counting.count(problem, timeout=0.2)
    assert stopped.value.reason == "timeout"
    with pytest.raises(LimitReached):
        counting.count(problem, route="parts", timeout=0.2)


VALIDATOR = jsonschema.Draft202012Validator(common.schema())


def test_the_command_line_reports_the_parts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "union.dlx"
    path.write_text(disjoint(dominoes(6, 6), queens(8)).to_dlx())
    assert main(["count", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    VALIDATOR.validate(doc)
    assert doc["count"] == 6728 * 92 and doc["route"]["name"] == "parts"
    assert "parts" in doc["route"]["work"] and doc["method"] == "zdd"
    assert main(["count", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{6728 * 92}\n" and "excover: route parts: the problem falls apart" in err
