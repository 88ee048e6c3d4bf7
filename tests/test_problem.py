"""The model: building problems, every validation error, the engine layout, is_solution.

References are independent of the model: hand-checked small cases, the definition of an
exact cover in ``builders.Instance.is_cover``, and the same problem built through each
front door (names, positions, a dense matrix, sparse rows).
"""

from __future__ import annotations

import re
from itertools import combinations

import pytest
from builders import Instance, instances
from hypothesis import given
from hypothesis import strategies as st

from excover import ExactCover, ProblemError, UsageError
from excover.problem import EngineInput


class IntLike:
    """An int-like object that is not an int, as numpy integers are (``__index__`` only)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"IntLike({self.value})"


def small() -> ExactCover:
    """Primary a, b, c and secondary x, y; options a x | b c x:red | b c | a y:blue."""
    problem = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    problem.add_option(["a", "x"])
    problem.add_option(["b", "c", "x:red"])
    problem.add_option(["b", "c"])
    problem.add_option(["a", "y:blue"])
    return problem


def naming(*culprits: str) -> str:
    """A pattern matching a message that names every one of ``culprits``, in any order."""
    return "(?s)" + "".join(f"(?=.*{re.escape(culprit)})" for culprit in culprits)


# ----- building -----


def test_named_items_and_counts() -> None:
    problem = small()
    assert problem.items == ("a", "b", "c", "x", "y")
    assert problem.primary_items == ("a", "b", "c")
    assert problem.secondary_items == ("x", "y")
    assert (problem.n_items, problem.n_primary, problem.n_secondary) == (5, 3, 2)
    assert problem.n_options == 4
    assert problem.option_items(1) == ["b", "c", "x:red"]
    assert problem.option_items(3) == ["a", "y:blue"]


def test_numbered_items_continue_after_the_primary_ones() -> None:
    problem = ExactCover(primary=3, secondary=2)
    assert problem.primary_items == ("0", "1", "2")
    assert problem.secondary_items == ("3", "4")
    mixed = ExactCover(primary=["p", "q"], secondary=2)
    assert mixed.items == ("p", "q", "2", "3")
    assert ExactCover(primary=IntLike(2)).items == ("0", "1")
    assert ExactCover().items == ()


def test_names_may_come_from_any_iterable() -> None:
    problem = ExactCover(primary=(name for name in "abc"), secondary={"x": 1})
    assert problem.items == ("a", "b", "c", "x")


def test_add_option_returns_consecutive_indices() -> None:
    problem = ExactCover(primary=2)
    assert [problem.add_option([k]) for k in (0, 1, 0)] == [0, 1, 2]


def test_positions_and_names_are_interchangeable() -> None:
    by_name = small()
    by_position = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    by_position.add_option([0, IntLike(3)])
    by_position.add_option([1, "c", "x:red"])
    by_position.add_option(iter([1, 2]))
    by_position.add_option(("a", "y:blue"))
    assert by_position == by_name


def test_item_order_within_an_option_is_kept() -> None:
    problem = ExactCover(primary=["a", "b"], secondary=["x"])
    problem.add_option(["x", "b", "a"])
    assert problem.option_items(0) == ["x", "b", "a"]
    assert list(problem.engine_input().node_item) == [2, 1, 0]


def test_multiplicities() -> None:
    problem = small()
    assert problem.multiplicity("a") == (1, 1)
    problem.set_multiplicity("a", 0, 3)
    problem.set_multiplicity(IntLike(1), 2, 2)
    assert problem.multiplicity(0) == (0, 3)
    assert problem.multiplicity("b") == (2, 2)
    assert problem.multiplicity("c") == (1, 1)


def test_repr_gives_the_counts() -> None:
    assert repr(small()) == "<ExactCover: 3 primary items, 2 secondary items, 4 options>"


def test_format_solution_prints_one_option_per_line() -> None:
    assert small().format_solution([1, 3]) == "b c x:red\na y:blue"
    assert small().format_solution([]) == ""


# ----- every ProblemError, naming its culprit -----


@pytest.mark.parametrize(
    ("items", "culprits"),
    [
        (["a", "zz"], ["'zz'", "option 4"]),
        (["a", "x:"], ["''", "'x'", "option 4"]),
        (["a", "x:r:g"], ["'r:g'", "option 4"]),
        (["a", "x:r g"], ["'r g'", "option 4"]),
        (["a", "b", "a"], ["'a'", "twice", "option 4"]),
        (["a", 0], ["'a'", "twice", "option 4"]),
        (["a", "x", "x:red"], ["'x'", "twice", "option 4"]),
        (["a:red"], ["primary", "'a'", "option 4"]),
        (["x", "y"], ["no primary item", "option 4"]),
        ([], ["no primary item", "option 4"]),
        (["a", 5], ["5", "out of range", "option 4"]),
        (["a", -1], ["-1", "out of range", "option 4"]),
        (["a", 2.0], ["2.0", "option 4"]),
        (["a", None], ["None", "option 4"]),
        (["a", True], ["True", "option 4"]),
        (["a", ["b"]], ["['b']", "option 4"]),
        ("abc", ["'abc'", "option 4"]),
        (7, ["7", "option 4"]),
    ],
)
def test_bad_options_are_rejected_by_name(items: object, culprits: list[str]) -> None:
    problem = small()
    with pytest.raises(ProblemError, match=naming(*culprits)):
        problem.add_option(items)  # type: ignore[arg-type]


def test_a_rejected_option_leaves_the_problem_unchanged() -> None:
    problem = small()
    with pytest.raises(ProblemError):
        problem.add_option(["b", "x:green", "zz"])
    with pytest.raises(ProblemError):
        problem.add_option(["x:green", "y:green"])
    assert problem == small()
    problem.add_option(["a", "x:blue"])
    expected = small()
    expected.add_option(["a", "x:blue"])
    assert problem == expected
    assert problem.engine_input().node_color[-1] == 2  # blue is the second color seen


@pytest.mark.parametrize(
    ("primary", "secondary", "culprits"),
    [
        (["a", "b", "a"], [], ["duplicate", "'a'"]),
        (["a"], ["b", "a"], ["duplicate", "'a'"]),
        (["1"], 1, ["duplicate", "'1'"]),
        ([""], [], ["''"]),
        (["a b"], [], ["'a b'"]),
        (["a:b"], [], ["'a:b'"]),
        (["a|b"], [], ["'a|b'"]),
        (["a"], ["x\ty"], ["'x\\ty'", "secondary"]),
        (["a\x00"], [], ["'a\\x00'"]),
        (["a\u200b"], [], ["'a\\u200b'"]),
        (["\ud800"], [], ["'\\ud800'"]),
        (["a\xa0b"], [], ["'a\\xa0b'"]),
        (2**31, 0, [str(2**31), "primary"]),
        (["a"], 2**31 - 1, [str(2**31 - 1), "secondary"]),
        ([3], [], ["3", "primary"]),
        ("abc", [], ["'abc'", "primary"]),
        (-1, 0, ["-1", "primary"]),
        (2, -3, ["-3", "secondary"]),
        (2.5, 0, ["2.5", "primary"]),
        (None, 0, ["None", "primary"]),
    ],
)
def test_bad_items_are_rejected_by_name(
    primary: object, secondary: object, culprits: list[str]
) -> None:
    with pytest.raises(ProblemError, match=naming(*culprits)):
        ExactCover(primary, secondary)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("item", "lo", "hi", "culprits"),
    [
        ("a", 2, 1, ["2..1", "'a'"]),
        ("b", -1, 1, ["-1..1", "'b'"]),
        ("c", 0, 0, ["0..0", "'c'"]),
        ("a", 0, 2**31, ["'a'", str(2**31)]),
        ("x", 0, 2, ["secondary", "'x'"]),
        (4, 0, 2, ["secondary", "'y'"]),
        ("zz", 0, 2, ["unknown", "'zz'"]),
        (9, 0, 2, ["9", "out of range"]),
        ("a", 1.5, 2, ["lo", "1.5"]),
        ("a", 1, "2", ["hi", "'2'"]),
    ],
)
def test_bad_multiplicities_are_rejected_by_name(
    item: object, lo: object, hi: object, culprits: list[str]
) -> None:
    problem = small()
    with pytest.raises(ProblemError, match=naming(*culprits)):
        problem.set_multiplicity(item, lo, hi)  # type: ignore[arg-type]
    assert problem == small()


def test_secondary_items_have_no_multiplicity() -> None:
    with pytest.raises(ProblemError, match=naming("secondary", "'y'")):
        small().multiplicity("y")


@pytest.mark.parametrize(
    ("rows", "primary", "culprits"),
    [
        ([[1, 0], [1]], None, ["row 1", "1 entries"]),
        ([[1, 0], [1, 0, 1]], None, ["row 1", "3 entries"]),
        ([[1, 2]], None, ["row 0", "column 1", "2"]),
        ([[1, 0], [-1, 1]], None, ["row 1", "column 0", "-1"]),
        ([[1, "1"]], None, ["row 0", "column 1", "'1'"]),
        ([[1, 0.0]], None, ["row 0", "column 1", "0.0"]),
        ([[1, None]], None, ["row 0", "column 1", "None"]),
        ([[1, 0], 5], None, ["row 1", "5"]),
        ([[1, 0], "10"], None, ["row 1", "'10'"]),
        ([[1, 0], [0, 0]], None, ["no primary item", "row 1"]),
        ([[1, 0], [0, 1]], 1, ["no primary item", "row 1"]),
        ([[1, 0]], 3, ["primary=3", "2 columns"]),
        ([[1, 0]], -1, ["primary=-1"]),
        ([[1, 0]], "1", ["primary", "'1'"]),
        (5, None, ["5"]),
        ("0101", None, ["'0101'"]),
    ],
)
def test_bad_matrices_are_rejected_by_cell(
    rows: object, primary: object, culprits: list[str]
) -> None:
    with pytest.raises(ProblemError, match=naming(*culprits)):
        ExactCover.from_matrix(rows, primary=primary)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rows", "n_items", "culprits"),
    [
        ([[0], [3]], 3, ["column 3", "row 1", "out of range"]),
        ([[0], [-1]], 3, ["column -1", "row 1", "out of range"]),
        ([[0, 2, 0]], 3, ["'0'", "twice", "row 0"]),
        ([[0, 1.0]], 3, ["1.0", "row 0"]),
        ([[0, "1"]], 3, ["'1'", "row 0"]),
        ([[0], 1], 3, ["row 1", "1"]),
        ([[]], 3, ["no primary item", "row 0"]),
        ([[0]], -2, ["n_items", "-2"]),
        ([[0]], 2.0, ["n_items", "2.0"]),
        (None, 2, ["None"]),
    ],
)
def test_bad_sparse_rows_are_rejected_by_cell(
    rows: object, n_items: object, culprits: list[str]
) -> None:
    with pytest.raises(ProblemError, match=naming(*culprits)):
        ExactCover.from_sparse(rows, n_items)  # type: ignore[arg-type]


def test_option_indices_are_checked() -> None:
    problem = small()
    with pytest.raises(UsageError, match="option 4"):
        problem.option_items(4)
    with pytest.raises(UsageError, match="option -1"):
        problem.option_items(-1)
    with pytest.raises(UsageError, match="'0'"):
        problem.format_solution(["0"])  # type: ignore[list-item]
    with pytest.raises(UsageError, match="7"):
        problem.is_solution(7)  # type: ignore[arg-type]


# ----- the front doors agree -----


@st.composite
def matrices(draw: st.DrawFn) -> tuple[list[list[int]], int]:
    """A random 0/1 matrix, each row with a 1 among the first ``primary`` columns."""
    primary = draw(st.integers(1, 5))
    width = primary + draw(st.integers(0, 4))
    row = st.lists(st.integers(0, 1), min_size=width, max_size=width).filter(
        lambda r: any(r[:primary])
    )
    return draw(st.lists(row, max_size=8)), primary


@given(matrices())
def test_matrix_sparse_and_add_option_build_the_same_problem(
    case: tuple[list[list[int]], int],
) -> None:
    rows, primary = case
    width = primary + (len(rows[0]) - primary if rows else 0)
    sparse = [[j for j, bit in enumerate(row) if bit] for row in rows]
    by_position = ExactCover(primary, width - primary)
    by_name = ExactCover(primary, width - primary)
    for columns in sparse:
        by_position.add_option(columns)
        by_name.add_option([str(j) for j in columns])
    assert ExactCover.from_sparse(sparse, width, primary=primary) == by_position
    assert by_name == by_position
    if rows:  # the width of a matrix is that of its rows
        from_matrix = ExactCover.from_matrix(rows, primary=primary)
        assert from_matrix == by_position
        assert from_matrix.secondary_items == tuple(str(j) for j in range(primary, width))
        bools = [[bool(b) for b in row] for row in rows]
        assert ExactCover.from_matrix(bools, primary) == by_position
        intlike = [[IntLike(b) for b in row] for row in rows]
        assert ExactCover.from_matrix(intlike, primary) == by_position


def test_an_empty_matrix_has_no_columns() -> None:
    assert ExactCover.from_matrix([]) == ExactCover()
    with pytest.raises(ProblemError, match=naming("primary=1", "0 columns")):
        ExactCover.from_matrix([], primary=1)


def test_matrix_and_sparse_default_to_all_primary() -> None:
    dense = ExactCover.from_matrix([[1, 0, 1], [0, 1, 0]])
    sparse = ExactCover.from_sparse([[0, 2], [1]], 3)
    assert dense == sparse
    assert dense.primary_items == ("0", "1", "2")
    assert dense.n_secondary == 0


# ----- the engine's layout -----


def test_engine_input_layout() -> None:
    problem = small()
    problem.set_multiplicity("b", 0, 2)
    arrays = problem.engine_input()
    assert isinstance(arrays, EngineInput)
    assert (arrays.n_primary, arrays.n_secondary) == (3, 2)
    assert list(arrays.option_start) == [0, 2, 5, 7, 9]
    assert list(arrays.node_item) == [0, 3, 1, 2, 3, 1, 2, 0, 4]
    assert list(arrays.node_color) == [0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert list(arrays.lo) == [1, 0, 1]
    assert list(arrays.hi) == [1, 2, 1]
    assert all(a.typecode == "i" for a in arrays[2:])


@given(instances("MCC"))
def test_engine_input_decodes_back_to_the_options(instance: Instance) -> None:
    arrays = instance.build().engine_input()
    color_ids: dict[str, int] = {}
    for k, option in enumerate(instance.options):
        nodes = range(arrays.option_start[k], arrays.option_start[k + 1])
        assert [arrays.node_item[j] for j in nodes] == [item for item, _ in option]
        for j, (_, color) in zip(nodes, option, strict=True):
            expected = 0 if color is None else color_ids.setdefault(color, len(color_ids) + 1)
            assert arrays.node_color[j] == expected
    assert len(arrays.option_start) == len(instance.options) + 1
    assert list(zip(arrays.lo, arrays.hi, strict=True)) == list(instance.bounds)


def test_engine_input_is_cached_until_the_problem_changes() -> None:
    problem = small()
    first = problem.engine_input()
    assert problem.engine_input() is first
    problem.add_option(["a"])
    second = problem.engine_input()
    assert second is not first
    assert len(second.option_start) == len(first.option_start) + 1
    problem.set_multiplicity("c", 1, 3)
    third = problem.engine_input()
    assert third is not second
    assert list(third.hi) == [1, 1, 3]
    assert problem.engine_input() is third
    with pytest.raises(ProblemError):
        problem.add_option(["zz"])
    assert problem.engine_input() is third


# ----- is_solution -----


@pytest.mark.parametrize(
    ("solution", "expected"),
    [
        ([0, 2], True),  # a x + b c
        ([2, 0], True),
        ([2, 3], True),  # a y:blue + b c
        ([0, 1], False),  # x used twice, once uncolored
        ([1, 3], True),  # b c x:red + a y:blue
        ([0], False),  # b, c uncovered
        ([0, 2, 3], False),  # a twice
        ([0, 2, 2], False),  # repeated index
        ([0, 4], False),  # no option 4
        ([0, -1], False),
        ([], False),
    ],
)
def test_is_solution_hand_checked(solution: list[int], expected: bool) -> None:
    assert small().is_solution(solution) is expected


def test_is_solution_with_colors_and_multiplicities() -> None:
    problem = ExactCover(primary=["p", "q"], secondary=["x"])
    problem.set_multiplicity("p", 1, 2)
    problem.set_multiplicity("q", 0, 1)
    problem.add_option(["p", "x:red"])  # 0
    problem.add_option(["p", "x:red"])  # 1
    problem.add_option(["p", "x:blue"])  # 2
    problem.add_option(["p", "x"])  # 3
    problem.add_option(["q"])  # 4
    assert problem.is_solution([0])
    assert problem.is_solution([0, 1])  # same color: shared
    assert problem.is_solution([0, 1, 4])
    assert not problem.is_solution([0, 2])  # red and blue
    assert not problem.is_solution([0, 3])  # uncolored use conflicts
    assert problem.is_solution([3])
    assert not problem.is_solution([4])  # p below its lower bound
    assert problem.is_solution(iter([IntLike(2)]))
    problem.add_option(["p"])  # 5
    assert not problem.is_solution([0, 1, 5])  # p three times, above 2


def test_is_solution_without_primary_items() -> None:
    assert ExactCover().is_solution([])
    assert ExactCover(secondary=["x"]).is_solution([])


@given(st.one_of(instances("X"), instances("XCC"), instances("MCC")), st.data())
def test_is_solution_agrees_with_the_definition(instance: Instance, data: st.DataObject) -> None:
    problem = instance.build()
    subset = data.draw(st.lists(st.integers(-1, len(instance.options)), max_size=6))
    assert problem.is_solution(subset) == instance.is_cover(subset)


def test_is_solution_on_every_subset_of_a_small_problem() -> None:
    problem = small()
    solutions = {
        chosen
        for size in range(5)
        for chosen in combinations(range(4), size)
        if problem.is_solution(chosen)
    }
    assert solutions == {(0, 2), (1, 3), (2, 3)}


# ----- equality -----


def test_equality_is_structural() -> None:
    assert small() == small()
    assert small() != "not a problem"
    with pytest.raises(TypeError):
        hash(small())


def test_equality_sees_every_difference() -> None:
    reference = small()
    other_order = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    for items in (["b", "c", "x:red"], ["a", "x"], ["b", "c"], ["a", "y:blue"]):
        other_order.add_option(items)
    other_kind = ExactCover(primary=["a", "b", "c", "x"], secondary=["y"])
    for items in (["a", "x"], ["b", "c", "x"], ["b", "c"], ["a", "y:blue"]):
        other_kind.add_option(items)
    other_color = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    for items in (["a", "x"], ["b", "c", "x:green"], ["b", "c"], ["a", "y:blue"]):
        other_color.add_option(items)
    other_names = ExactCover(primary=["a", "b", "d"], secondary=["x", "y"])
    for items in (["a", "x"], ["b", "d", "x:red"], ["b", "d"], ["a", "y:blue"]):
        other_names.add_option(items)
    other_bounds = small()
    other_bounds.set_multiplicity("c", 1, 2)
    other_items_in_option = small()
    other_items_in_option.add_option(["a", "b"])
    reordered_items = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    for items in (["x", "a"], ["b", "c", "x:red"], ["b", "c"], ["a", "y:blue"]):
        reordered_items.add_option(items)
    for different in (
        other_order,
        other_kind,
        other_color,
        other_names,
        other_bounds,
        other_items_in_option,
        reordered_items,
    ):
        assert different != reference


# ----- solving shortcuts -----


def test_count_first_and_solutions_run_the_engine() -> None:
    problem = ExactCover(primary=["a", "b", "c"], secondary=["x"])
    for items in (["a", "x"], ["b", "c"], ["a", "b"], ["c"], ["b", "c", "x"], ["a"]):
        problem.add_option(items)
    every = list(problem.solutions())
    assert sorted(map(sorted, every)) == [[0, 1], [1, 5], [2, 3], [4, 5]]  # checked by hand
    assert all(problem.is_solution(solution) for solution in every)
    assert problem.count() == problem.count(method="search") == 4
    assert problem.first() in every
    assert problem.first(method="auto", heuristic="leftmost") in every
    assert len(list(problem.solutions(limit=2))) == 2
    assert problem.count(heuristic="random", seed=3) == 4
    assert problem.search().count() == 4


def test_solutions_are_produced_lazily() -> None:
    problem = ExactCover(primary=1)
    problem.add_option([0])
    iterator = problem.solutions("search")
    assert iter(iterator) is iterator
    assert next(iterator) == [0]
    assert next(iterator, None) is None


@pytest.mark.parametrize("method", ["brute", "DLX", ""])
def test_unknown_methods_list_the_valid_ones(method: str) -> None:
    for call in (small().count, small().first, small().solutions):
        with pytest.raises(UsageError, match="auto, search, zdd, sat"):
            call(method)
