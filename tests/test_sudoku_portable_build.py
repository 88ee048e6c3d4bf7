"""The Sudoku core as MSVC and non-x86 machines build it: the portable kernel alone.

The test compiles ``puzzles/sudoku/_sudoku9.pyx`` from the source tree with
``EXCOVER_NO_SIMD=1`` (the C macro ``S9_PORTABLE_ONLY``: no SSE4.1, AVX2 or AVX-512 copy,
no SSE2 step, no ``__builtin_cpu_supports``) through the project's own ``setup.py`` logic,
loads the module it made, and checks that it offers the portable kernel only and gives
the same counts, first solutions and branchings as the installed build's portable kernel.
"""

from __future__ import annotations

import random
from array import array
from types import ModuleType

import pytest
from lone_build import ONE_AT_A_TIME, lone_build

from excover.puzzles import sudoku
from excover.puzzles.sudoku import _sudoku9, solver

#: "Easter Monster", Arto Inkala's 2012 puzzle, "AI Escargot": they need a search.
HARD = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
]


#: Compiling the extension takes most of a minute of CPU: a slow test (-m slow).
pytestmark = [pytest.mark.slow, ONE_AT_A_TIME]


@pytest.fixture(scope="module")
def portable_core(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The Sudoku core compiled with EXCOVER_NO_SIMD=1, loaded from a scratch folder."""
    return lone_build(
        tmp_path_factory,
        "excover.puzzles.sudoku._sudoku9",
        "EXCOVER_NO_SIMD",
        "portable kernel only (EXCOVER_NO_SIMD is set)",
    )


def run(core: ModuleType, grids: bytes, limit: int) -> tuple[list[int], bytes, list[int]]:
    n = len(grids) // 81
    counts, guesses, out = array("i", bytes(4 * n)), array("q", bytes(8 * n)), bytearray(grids)
    core.run(grids, limit, out, counts, guesses)
    return list(counts), bytes(out), list(guesses)


def test_the_portable_build_has_the_portable_kernel_only(portable_core: ModuleType) -> None:
    assert portable_core.supported() == ("portable",)
    assert portable_core.kernel() == portable_core.best() == "portable"
    with pytest.raises(ValueError, match="cannot run the avx2 kernel"):
        portable_core.select("avx2")


def test_the_portable_build_agrees_with_the_installed_portable_kernel(
    portable_core: ModuleType,
) -> None:
    rng = random.Random(49)
    texts = [*HARD, *(sudoku.generate(seed=k) for k in range(10)), "." * 81, "11" + "." * 79]
    grids = bytearray(b"".join(bytes(0 if c == "." else int(c) for c in t) for t in texts))
    for _ in range(30):  # random full grids thinned at random: no, one or many solutions
        _, full = solver._run(solver.CLASSIC, bytes(81), 1, seed=rng.getrandbits(64) | 1)
        grid = bytearray(full)
        for cell in rng.sample(range(81), rng.randrange(50, 81)):
            grid[cell] = 0
        grids += grid
    before = _sudoku9.kernel()
    _sudoku9.select("portable")
    try:
        for limit in (1, 2, 50):
            expected = run(_sudoku9, bytes(grids), limit)
            assert run(portable_core, bytes(grids), limit) == expected
            assert expected[0][: len(HARD)] == [1] * len(HARD)
    finally:
        _sudoku9.select(before)
