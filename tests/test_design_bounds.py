"""Bounds on the ranking score (``Goal.least`` and ``Goal.most``): a burr's level at
least L, its moves between M and N. The designs that qualify under a bound are exactly
those of the unbounded search whose score meets it, filtered here on their own."""

from __future__ import annotations

import pytest

from excover.burr.designs import BurrDesigns
from excover.design import Goal, GoalError, search
from excover.design.fields import Table

FAMILY = "notchable:35,39,51,54,57"


@pytest.fixture(scope="module")
def every() -> dict[int, dict[str, object]]:
    """Each design with a solution: its solutions and scores, with no bound."""
    report = search(BurrDesigns(FAMILY), Goal(solutions=None))
    return {f.index: {"solutions": f.solutions, **f.scores} for f in report.found}


def _level_at_least(level: object, bound: tuple[int, ...]) -> bool:
    assert isinstance(level, tuple)
    return level >= bound


@pytest.mark.parametrize("bound", [(5,), (5, 4), (4, 9), (6,)])
def test_a_least_level_keeps_the_designs_at_or_above_it(
    every: dict[int, dict[str, object]], bound: tuple[int, ...]
) -> None:
    goal = Goal(solutions=None, by="level", least=bound)
    found = search(BurrDesigns(FAMILY), goal)
    expected = {i for i, s in every.items() if _level_at_least(s["level"], bound)}
    assert {f.index for f in found.found} == expected
    assert found.qualifying == len(expected)
    assert found.designs == search(BurrDesigns(FAMILY), Goal(solutions=None)).designs


def test_a_lone_number_bounds_a_level_as_that_many_moves(
    every: dict[int, dict[str, object]],
) -> None:
    by_number = search(BurrDesigns(FAMILY), Goal(solutions=None, by="level", least=5))
    by_tuple = search(BurrDesigns(FAMILY), Goal(solutions=None, by="level", least=(5,)))
    assert [f.index for f in by_number.found] == [f.index for f in by_tuple.found]
    assert by_number.found  # 5 and 5.4 designs


def test_moves_between_two_bounds_and_unique_designs(
    every: dict[int, dict[str, object]],
) -> None:
    goal = Goal(solutions=1, by="moves", least=9, most=11)
    found = search(BurrDesigns(FAMILY), goal)
    expected = {
        i
        for i, s in every.items()
        if s["solutions"] == 1 and isinstance(s["moves"], int) and 9 <= s["moves"] <= 11
    }
    assert {f.index for f in found.found} == expected and expected


def test_bounds_are_read_from_a_declaration_and_refused_when_bad() -> None:
    goal = Goal.from_table(Table({"by": "level", "least": "5.2", "most": [6, 1]}))
    assert (goal.least, goal.most) == ((5, 2), (6, 1))
    assert goal.as_dict()["least"] == [5, 2]
    assert "level at least 5.2 and at most 6.1" in goal.describe()
    assert Goal.from_table(Table({"by": "moves", "least": 12})).least == 12
    with pytest.raises(GoalError, match="least"):
        Goal.from_table(Table({"least": "5.x"}))
    with pytest.raises(GoalError, match="most"):
        Goal(most=True)
