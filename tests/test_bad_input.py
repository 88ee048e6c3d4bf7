"""Garbage in, ExcoverError out: no input, however malformed, raises anything else.

Hypothesis feeds random text, soups of the format's own tokens, and matrices, sparse rows,
options and arguments of random types to every front door of the model. Each call either
succeeds, giving a problem that is usable (it writes and reads back equal, its arrays are
consistent, the engine counts it), or raises an :class:`~excover.ExcoverError`; any other
exception fails the test. A rejected option leaves its problem unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from excover import ExactCover, ExcoverError, UsageError, nonogram
from excover.sat.solve import solutions as sat_solutions

T = TypeVar("T")


class IntLike:
    """An int-like object that is not an int (``__index__`` only), as numpy integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"IntLike({self.value})"


def attempt(call: Callable[[], T]) -> T | None:
    """The result of ``call``, or None when it raised an ExcoverError (anything else
    propagates and fails the test). Only for calls that never return None themselves:
    for the others, :func:`refused` tells a refusal from a normal None."""
    try:
        return call()
    except ExcoverError:
        return None


def refused(call: Callable[[], object]) -> bool:
    """Whether ``call`` raised an ExcoverError (anything else propagates and fails the
    test), for calls such as ``set_multiplicity`` whose normal result is None."""
    try:
        call()
    except ExcoverError:
        return True
    return False


def check_usable(problem: ExactCover) -> None:
    """A problem that was accepted works everywhere: layout, writing, solving."""
    arrays = problem.engine_input()
    assert len(arrays.option_start) == problem.n_options + 1
    assert all(0 <= item < problem.n_items for item in arrays.node_item)
    if problem.n_primary:
        assert ExactCover.from_dlx(problem.to_dlx()) == problem
    first = problem.first()
    assert first is None or problem.is_solution(first)


# Scalars of many types, and small containers of them. Integers are small, or too large
# for any count (a count of a billion items is valid, and slow to build).
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 6)
    | st.integers(min_value=2**31)
    | st.integers(max_value=-(2**31))
    | st.floats()
    | st.text(max_size=3)
    | st.binary(max_size=2)
    | st.complex_numbers(max_magnitude=2)
    | st.builds(IntLike, st.integers(-2, 6))
)
anything = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner), max_leaves=6
)


@given(st.text(max_size=200))
def test_random_text(text: str) -> None:
    problem = attempt(lambda: ExactCover.from_dlx(text, source="garbage"))
    if problem is not None:
        check_usable(problem)


# The format's own tokens, valid ones (drawn three times as often) and broken ones.
GOOD = ["|", "a", "b", "c", "x", "y", "x:r", "y:g", "x:g", "0:2|b", "2|c", "| comment"]
BAD = [
    "||", ":", "a:r", "x:", ":r", "x:r:g", "2|x", "1:|c", "|a", "a|", "3:1|a", "0|b",
    "99999999999|a", "Ω", "\x00", "\u200b", "\t", "\u2028", "\r", "\x1c",
]  # fmt: skip
tokens = (
    st.sampled_from(GOOD) | st.sampled_from(GOOD) | st.sampled_from(GOOD) | st.sampled_from(BAD)
)
lines = st.lists(tokens, max_size=6).map(" ".join)
item_lines = st.just("a 0:2|b 2|c | x y") | st.just("a b c") | lines


@given(item_lines, st.lists(lines, max_size=8))
def test_token_soup(item_line: str, option_lines: list[str]) -> None:
    problem = attempt(lambda: ExactCover.from_dlx("\n".join([item_line, *option_lines])))
    if problem is not None:
        check_usable(problem)


rows = st.lists(anything, max_size=5) | anything
matrices = st.lists(rows, max_size=5) | anything
counts = st.none() | st.integers(-2, 8) | scalars


@given(matrices, counts)
def test_random_matrices(matrix: object, primary: object) -> None:
    problem = attempt(lambda: ExactCover.from_matrix(matrix, primary=primary))  # type: ignore[arg-type]
    if problem is not None:
        check_usable(problem)


@given(st.lists(st.lists(st.integers(0, 1), min_size=3, max_size=3), max_size=5), counts)
def test_random_zero_one_matrices(matrix: list[list[int]], primary: object) -> None:
    problem = attempt(lambda: ExactCover.from_matrix(matrix, primary=primary))  # type: ignore[arg-type]
    if problem is not None:
        check_usable(problem)


@given(matrices, counts, counts)
def test_random_sparse_rows(matrix: object, n_items: object, primary: object) -> None:
    problem = attempt(lambda: ExactCover.from_sparse(matrix, n_items, primary))  # type: ignore[arg-type]
    if problem is not None:
        check_usable(problem)


@given(st.lists(st.lists(st.integers(-1, 4), max_size=4), max_size=5), st.integers(0, 4))
def test_random_sparse_indices(matrix: list[list[int]], n_items: int) -> None:
    problem = attempt(lambda: ExactCover.from_sparse(matrix, n_items, primary=n_items // 2))
    if problem is not None:
        check_usable(problem)


def reference() -> ExactCover:
    """Primary a, b, c; secondary x, y; two options, one colored."""
    problem = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
    problem.add_option(["a", "x:r"])
    problem.add_option(["b", "c"])
    return problem


good_refs = st.sampled_from(["a", "b", "c", "x", "y", "x:r", "y:g", 0, 1, 3, IntLike(2)])
refs = st.sampled_from(GOOD + BAD) | st.integers(-2, 7) | scalars | anything


@given(st.lists(good_refs, max_size=4) | st.lists(good_refs | refs, max_size=5) | anything)
def test_random_options(items: object) -> None:
    problem = reference()
    if refused(lambda: problem.add_option(items)):  # type: ignore[arg-type]
        assert problem == reference()
    else:
        assert problem.n_options == 3
        check_usable(problem)


@given(refs, anything, anything)
def test_random_multiplicities(item: object, lo: object, hi: object) -> None:
    problem = reference()
    if refused(lambda: problem.set_multiplicity(item, lo, hi)):  # type: ignore[arg-type]
        assert problem == reference()
    else:
        check_usable(problem)


@given(st.lists(refs, max_size=4) | anything, st.lists(refs, max_size=4) | anything)
def test_random_items(primary: object, secondary: object) -> None:
    problem = attempt(lambda: ExactCover(primary, secondary))  # type: ignore[arg-type]
    if problem is not None:
        check_usable(problem)


@given(st.lists(refs, max_size=4) | anything)
def test_random_solutions(solution: object) -> None:
    problem = reference()
    refused(lambda: problem.is_solution(solution))  # type: ignore[arg-type]
    refused(lambda: problem.format_solution(solution))  # type: ignore[arg-type]
    refused(lambda: problem.option_items(solution))  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [-1, 1.5, "2", True, False])
@pytest.mark.parametrize(
    "listing",
    [
        lambda p, limit: p.solutions(limit=limit),
        lambda p, limit: p.solutions(limit=limit, up_to_symmetry=True),
        lambda p, limit: p.search().solutions(limit),
        lambda p, limit: sat_solutions(p, limit=limit),
        lambda p, limit: nonogram.solutions([[1]], [[1]], limit=limit),
    ],
    ids=["solutions", "up_to_symmetry", "search", "sat", "nonogram"],
)
def test_a_limit_that_is_no_number_of_solutions_is_refused(listing: Any, limit: object) -> None:
    """Every listing refuses, before it yields anything, a limit that is not a whole
    number of at least 0: a bool too, which Python takes for 0 or 1."""
    problem = ExactCover(primary=["a"])
    problem.add_option(["a"])
    with pytest.raises(UsageError, match="limit must be a non-negative integer"):
        list(listing(problem, limit))
