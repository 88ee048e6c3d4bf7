"""Time to reduce large tiling problems to exact cover, and a few end-to-end counts.

Run ``python benchmarks/tiling_build.py``: it prints one line per case (seconds to build,
number of options, and for the counted cases the count and the seconds to count).
"""

from __future__ import annotations

import time
from pathlib import Path

from excover.tiling import Pattern, Pattern3, Tile, Tiling, pentominoes, soma_pieces, tiles

#: The product side's reference shapes, beside the repository.
SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks"


def main() -> None:
    """Build and count the benchmark cases, printing one line each."""
    started = time.perf_counter()
    board = Pattern.constant(100, 100)
    tiling = Tiling(board, tiles(pentominoes(), multiplicity="any"))
    print(
        f"100x100, pentominoes any: {tiling.problem.n_options} options built in "
        f"{time.perf_counter() - started:.2f} s"
    )
    cases = [
        (
            "Scott's board, 12 pentominoes",
            Pattern.read(SHARED / "scott_board.txt"),
            tiles(pentominoes()),
        ),
        ("Soma cube", Pattern3.constant(3, 3, 3), tiles(soma_pieces(), symmetry="rotations")),
        ("8x8 dominoes", Pattern.constant(8, 8), [Tile("**", "d", "any")]),
    ]
    for name, shape, pieces in cases:
        started = time.perf_counter()
        tiling = Tiling(shape, pieces)
        built = time.perf_counter() - started
        count = tiling.count()
        counted = time.perf_counter() - started - built
        orbits = tiling.count(up_to_symmetry=True)
        total = time.perf_counter() - started - built - counted
        print(
            f"{name}: built {built:.3f} s, {count} tilings in {counted:.2f} s, "
            f"{orbits} up to symmetry in {total:.2f} s"
        )


if __name__ == "__main__":
    main()
