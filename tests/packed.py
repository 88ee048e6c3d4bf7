"""Problems written out as the compiled engines take them, for the engines' own tests."""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from excover.problem import EngineInput


def packed(
    n_primary: int,
    n_secondary: int,
    option_start: Iterable[int],
    node_item: Iterable[int],
    node_color: Iterable[int],
    lo: Iterable[int],
    hi: Iterable[int],
    typecode: str = "i",
) -> EngineInput:
    """The :class:`~excover.problem.EngineInput` of arrays written out by hand (as
    :meth:`~excover.problem.Problem.engine_input` would pack them, or malformed on
    purpose, which the engines refuse), as arrays of C ints or of ``typecode``."""
    return EngineInput(
        n_primary,
        n_secondary,
        array(typecode, option_start),
        array(typecode, node_item),
        array(typecode, node_color),
        array(typecode, lo),
        array(typecode, hi),
    )
