"""Type stub of the compiled loops of the BurrTools reduction (see _cover.pyx)."""

import numpy as np
import numpy.typing as npt

def fitting(
    offsets: npt.NDArray[np.int64],
    bounds: npt.NDArray[np.int64],
    low: npt.NDArray[np.int64],
    high: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    size: npt.NDArray[np.int64],
    strides: npt.NDArray[np.int64],
    masks: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def row_table(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]: ...
def matching(
    rows: npt.NDArray[np.int64], items: npt.NDArray[np.int64], table: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]: ...
def normal_images(
    cells: npt.NDArray[np.int64],
    firsts: npt.NDArray[np.int64],
    matrices: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    prism: bool,
    period: int,
    parity: int,
) -> npt.NDArray[np.int64]: ...
def self_maps(
    cells: npt.NDArray[np.int64],
    matrices: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    prism: bool,
    period: int,
    parity: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
