"""Type stub of the compiled steps from listed solutions to assemblies (``_orbits.pyx``)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["decoded", "smallest_members"]

def smallest_members(
    elements: npt.NDArray[np.int64],
    options: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    pad: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def decoded(
    table: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int64],
    pieces: list[Any],
    groups: Any,
    grid: int,
    make: Callable[..., Any],
) -> list[Any]: ...
