""":func:`excover.entries.distinct`, the model's and the symmetry code's ``np.unique``:
the same values, order and dtype on any integer array, flat or not, empty or not."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from excover.entries import distinct


@st.composite
def arrays(draw: st.DrawFn) -> npt.NDArray[np.int64]:
    """Integer arrays of every width and sign, of up to two dimensions, empty ones
    included, with values from a small range (many repeats) or from the whole dtype."""
    dtype = draw(st.one_of(hnp.integer_dtypes(), hnp.unsigned_integer_dtypes()))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=30))
    elements = draw(st.sampled_from([st.integers(0, 3), hnp.from_dtype(dtype)]))
    result: npt.NDArray[np.int64] = draw(hnp.arrays(dtype, shape, elements=elements))
    return result


@given(arrays())
def test_distinct_is_np_unique(values: npt.NDArray[np.int64]) -> None:
    expected = np.unique(values)
    got = distinct(values)
    assert got.dtype == expected.dtype
    assert got.shape == expected.shape
    assert got.tolist() == expected.tolist()


@given(arrays())
def test_distinct_leaves_its_input_alone(values: npt.NDArray[np.int64]) -> None:
    before = values.copy()
    distinct(values)
    assert np.array_equal(values, before)


def test_distinct_on_small_arrays() -> None:
    assert distinct(np.array([], dtype=np.int64)).tolist() == []
    assert distinct(np.array([7, 7, 7], dtype=np.int32)).tolist() == [7]
    assert distinct(np.array([[3, -1], [3, 2]])).tolist() == [-1, 2, 3]
