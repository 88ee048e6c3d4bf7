"""``ExactCover.add_options``, the bulk door the tiling reduction builds its problems with:
the same problem as one ``add_option`` call per option, the same solutions as the
brute-force oracle, and every malformed batch refused whole, naming the option."""

from __future__ import annotations

import numpy as np
import pytest
from budget import examples
from builders import Instance, instances
from hypothesis import given, settings

from excover import ExactCover, ProblemError
from excover.tiling import Pattern, Tile, Tiling, pentominoes, tiles


def flat(instance: Instance) -> tuple[list[int], list[int], list[int], list[str]]:
    """The instance's options as ``add_options`` arrays: starts, items, colors, names."""
    names = sorted({color for option in instance.options for _, color in option if color})
    starts, items, colors = [0], [], []
    for option in instance.options:
        for item, color in option:
            items.append(item)
            colors.append(0 if color is None else names.index(color) + 1)
        starts.append(len(items))
    return starts, items, colors, names


@settings(max_examples=examples(60))
@given(instances("MCC", max_options=8))
def test_bulk_equals_one_by_one_and_the_oracle(instance: Instance) -> None:
    starts, items, colors, names = flat(instance)
    bulk = ExactCover(primary=instance.n_primary, secondary=instance.n_secondary)
    for item, (lo, hi) in enumerate(instance.bounds):
        bulk.set_multiplicity(item, lo, hi)
    added = bulk.add_options(np.array(starts), np.array(items, dtype=np.int32), colors, names)
    assert added == range(len(instance.options))
    one_by_one = instance.build()
    assert bulk.engine_input() == one_by_one.engine_input()
    assert [bulk.option_items(k) for k in added] == [one_by_one.option_items(k) for k in added]
    assert {frozenset(s) for s in bulk.solutions()} == instance.all_covers()


def test_batches_append_after_existing_options() -> None:
    problem = ExactCover(["a", "b", "c"], ["x"])
    problem.add_option(["a"])
    assert problem.add_options([0, 2, 3], [1, 3, 2], [0, 1, 0], ["red"]) == range(1, 3)
    assert problem.add_options([0], []) == range(3, 3)
    assert [problem.option_items(k) for k in range(3)] == [["a"], ["b", "x:red"], ["c"]]
    assert problem.count() == 1


@pytest.mark.parametrize(
    ("starts", "items", "colors", "message"),
    [
        ([0, 1, 3], [0, 1, 9], None, "item position 9 in option 2 is out of range"),
        ([0, 1, 2], [0, -1], None, "item position -1 in option 2"),
        ([0, 1, 2], [0, 3], None, "no primary item in option 2"),
        ([0, 1, 1, 2], [0, 1], None, "no primary item in option 2"),
        ([0, 2, 1, 3], [0, 1, 2], None, "option 2"),
        ([0, 1, 3], [0, 2, 2], None, "item 'c' twice in option 2"),
        ([1, 2], [0, 1], None, "starts must begin at 0"),
        ([0, 1], [0, 1], None, "end at len"),
        ([], [], None, "starts must begin at 0"),
        ([0, 1], [0.0], None, "items must be a one-dimensional array of integers"),
        ([0, 1], [[0]], None, "items must be a one-dimensional array of integers"),
        ([0, 1], [True], None, "items must be a one-dimensional array of integers"),
        ([0, 1, 3], [0, 1, 3], [0, 0, 2], "color 2 in option 2 is not 0 or a number"),
        ([0, 1, 3], [0, 1, 3], [0, 1, 0], "color on primary item 'b' in option 2"),
        ([0, 1, 3], [0, 1, 3], [0, 0], "colors has 2 entries"),
    ],
)
def test_bad_batches_are_refused_whole(
    starts: list[int], items: list[object], colors: list[int] | None, message: str
) -> None:
    problem = ExactCover(["a", "b", "c"], ["x"])
    problem.add_option(["a"])
    before = problem.engine_input()
    with pytest.raises(ProblemError, match=message):
        problem.add_options(starts, items, colors, ["red"])  # type: ignore[arg-type]
    assert problem.engine_input() == before and problem.n_options == 1


def test_bad_color_name() -> None:
    with pytest.raises(ProblemError, match="bad color name 'dark red'"):
        ExactCover(["a"], ["x"]).add_options([0, 2], [0, 1], [0, 1], ["dark red"])


def test_tiling_reduction_matches_the_one_by_one_build() -> None:
    """The tiling's bulk-built problem equals one built by naming every item of every
    placement, decoded from the tiling's own placements."""
    tiling = Tiling(Pattern.constant(6, 5), [*tiles(pentominoes(), "maybe"), Tile("*", "m", 2)])
    problem = tiling.problem
    slow = ExactCover(problem.primary_items, problem.secondary_items)
    slow.set_multiplicity("m", 2, 2)
    for option in range(problem.n_options):
        placement = tiling.placement(option)
        cells = [",".join(map(str, cell)) for cell in placement.cells]
        slow.add_option([str(placement.tile.name), *cells])
    assert slow == problem
