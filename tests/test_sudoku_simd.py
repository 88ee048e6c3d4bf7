"""The Sudoku core's kernels (one per instruction set, chosen at run time) agree.

Every kernel this CPU runs is compared with the portable one, which is plain C and the
reference here (it is itself checked against the general solver and dancing links in
test_sudoku9_core.py): counts up to a limit, the first solution, and the number of
branchings (the kernels run one search, with wider vector steps). Then the switch:
``EXCOVER_SIMD`` forces a kernel, refuses an unknown name or a kernel the CPU lacks with a
clear :class:`~excover.UsageError`, and ``excover --version`` names the kernel in use.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array
from collections.abc import Iterator

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import excover
from excover import UsageError
from excover.puzzles import sudoku
from excover.puzzles.sudoku import solver
from excover.puzzles.sudoku.simd import (
    KERNELS,
    available_kernels,
    core,
    kernel_for,
    simd_kernel,
    use_kernel,
)

#: Puzzles known as hard for solvers (they need a search): "Easter Monster", Arto
#: Inkala's 2012 puzzle, "AI Escargot".
HARD = [
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
]

#: Kernels to compare with the portable one: every other one this CPU runs.
WIDER = [k for k in available_kernels() if k != "portable"]


@pytest.fixture(autouse=True)
def restore_kernel() -> Iterator[None]:
    """Each test leaves the kernel in use as it found it."""
    before = simd_kernel()
    yield
    use_kernel(before)


def run(kernel: str, grids: bytes, limit: int) -> tuple[list[int], bytes, list[int]]:
    """Counts up to ``limit``, first solutions and branchings of ``grids`` by ``kernel``."""
    use_kernel(kernel)
    n = len(grids) // 81
    counts, guesses, out = array("i", bytes(4 * n)), array("q", bytes(8 * n)), bytearray(grids)
    core().run(grids, limit, out, counts, guesses)
    return list(counts), bytes(out), list(guesses)


def grids_of(texts: list[str]) -> bytes:
    return b"".join(bytes(0 if c == "." else int(c) for c in t) for t in texts)


@st.composite
def puzzles(draw: st.DrawFn) -> bytes:
    """A random full grid thinned at random, sometimes with a random given added (often a
    clash): puzzles of no, one and many solutions."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    _, full = solver._run(solver.CLASSIC, bytes(81), 1, seed=rng.getrandbits(64) | 1)
    grid = bytearray(full)
    for cell in rng.sample(range(81), 81 - draw(st.integers(0, 81))):
        grid[cell] = 0
    if draw(st.booleans()):
        grid[rng.randrange(81)] = rng.randrange(1, 10)
    return bytes(grid)


def test_the_portable_kernel_is_always_there() -> None:
    assert available_kernels()[0] == "portable"
    assert set(available_kernels()) <= set(KERNELS)
    assert simd_kernel() in available_kernels()


@pytest.mark.parametrize("kernel", WIDER)
@settings(max_examples=examples(60), deadline=None)
@given(st.lists(puzzles(), min_size=1, max_size=6), st.sampled_from([1, 2, 30]))
def test_each_kernel_agrees_with_the_portable_one(
    kernel: str, batch: list[bytes], limit: int
) -> None:
    grids = b"".join(batch)
    assert run(kernel, grids, limit) == run("portable", grids, limit)


@pytest.mark.parametrize("kernel", WIDER)
def test_each_kernel_agrees_on_hard_and_minimal_puzzles(kernel: str) -> None:
    texts = HARD + [sudoku.generate(seed=k) for k in range(12)] + ["." * 81]
    grids = grids_of(texts)
    for limit in (1, 2, 1000):
        counts, out, guesses = run(kernel, grids, limit)
        assert (counts, out, guesses) == run("portable", grids, limit)
        assert counts[-1] == limit  # the empty grid has more solutions than any limit
    assert all(g > 0 for g in guesses[:3])  # the hard ones do need a search
    assert counts[:-1] == [1] * (len(texts) - 1)  # generate() makes unique puzzles


@pytest.mark.parametrize("kernel", available_kernels())
def test_the_batch_api_gives_the_same_answers_with_each_kernel(kernel: str) -> None:
    texts = [*HARD, "11" + "." * 79, "." * 81]
    use_kernel("portable")
    expected = sudoku.solve_many(texts), sudoku.classify_many(texts)
    use_kernel(kernel)
    assert simd_kernel() == kernel
    assert (sudoku.solve_many(texts), sudoku.classify_many(texts)) == expected


@pytest.mark.parametrize("name", KERNELS)
def test_a_kernel_is_taken_when_the_cpu_runs_it_and_refused_otherwise(name: str) -> None:
    if name in available_kernels():
        assert kernel_for(name) == name
        assert kernel_for(name.upper()) == name
    else:
        with pytest.raises(UsageError, match=f"cannot run the {name} kernel; it runs portable"):
            kernel_for(name)


@pytest.mark.parametrize("value", ["neon", "avx-512", "sse2", "native"])
def test_an_unknown_kernel_is_refused_naming_the_known_ones(value: str) -> None:
    with pytest.raises(UsageError, match="is not a kernel: use one of portable, sse4, avx2"):
        kernel_for(value)
    with pytest.raises(UsageError, match=repr(value)):
        use_kernel(value)


def test_no_value_means_the_widest_kernel() -> None:
    assert kernel_for(None) == kernel_for("") == available_kernels()[-1]


def excover_command(*argv: str, simd: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EXCOVER_SIMD": simd}
    return subprocess.run(
        [sys.executable, "-m", "excover", *argv],
        capture_output=True,
        text=True,
        env=env,
        input="",
        check=False,
        timeout=60,
    )


def test_version_names_the_kernel_in_use_and_the_switch_forces_it() -> None:
    assert excover_command("--version", simd="").stdout == (
        f"excover {excover.__version__} (simd: {available_kernels()[-1]})\n"
    )
    assert excover_command("--version", simd="portable").stdout == (
        f"excover {excover.__version__} (simd: portable)\n"
    )


def test_a_refused_switch_is_a_clear_error_not_a_traceback() -> None:
    for argv in (["--version"], ["sudoku", "-"]):
        done = excover_command(*argv, simd="avx9")
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.startswith("excover: EXCOVER_SIMD='avx9' is not a kernel")
        assert "Traceback" not in done.stderr
