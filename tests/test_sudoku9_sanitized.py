"""The Sudoku core's C code run under AddressSanitizer and UndefinedBehaviorSanitizer.

The compiled module cannot be loaded under the sanitizers, so a small C driver, written
here, includes ``_sudoku9.h`` from the source tree and is built with
``-fsanitize=address,undefined``. It counts up to 2 the solutions of random grids thinned
to 18-25 givens (searches with dead ends of every kind, many puzzles with several
solutions) with each kernel this CPU runs, and fails when a kernel's counts or branchings
differ from the portable one's. The test checks that it ran clean. Such grids found an
out-of-bounds read in the naked singles (a cell whose one digit an earlier naked single
had taken), which no answer showed.

Skipped when no C compiler with the sanitizers is at hand, except in CI (``CI`` set, as
``.ci/run`` runs): there the machine has them, and a driver that does not build (a
change to the header, say) must fail the run, not skip out of it.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

from excover.puzzles import sudoku
from excover.puzzles.sudoku import solver

CORE = Path(__file__).resolve().parents[1] / "src" / "excover" / "puzzles" / "sudoku"

#: Compiling the driver with the sanitizers takes most of a minute of CPU: a slow test.
pytestmark = pytest.mark.slow

DRIVER = r"""
#include "_sudoku9.h"
#include <stdio.h>

/* One puzzle a line (81 digits, 0 a blank) on stdin; every kernel the CPU runs counts up
 * to 2 and must agree with the portable kernel. Prints the puzzles and the kernels run. */
int main(void) {
    char line[256];
    int puzzles = 0, kernels = 0;
    s9_init();
    for (int k = 0; k < S9_KERNELS; k++) kernels += s9_supported(k);
    while (fgets(line, sizeof line, stdin)) {
        uint8_t grid[81], out[81];
        long reference[2] = {0, 0};
        for (int j = 0; j < 81; j++) grid[j] = (uint8_t)(line[j] - '0');
        for (int k = 0; k < S9_KERNELS; k++) {
            long ticks = 0, guesses = 0;
            if (!s9_select(k)) continue;
            long count = s9_run(grid, 2, out, NULL, &ticks, &guesses);
            if (k == S9_PORTABLE) {
                reference[0] = count;
                reference[1] = guesses;
            } else if (count != reference[0] || guesses != reference[1]) {
                printf("kernel %s differs on puzzle %d\n", s9_kernel_names[k], puzzles + 1);
                return 1;
            }
        }
        puzzles++;
    }
    printf("%d puzzles, %d kernels\n", puzzles, kernels);
    return 0;
}
"""


def thinned_grids(count: int, seed: int) -> list[str]:
    """Random full grids (the general solver's random search), 18-25 givens kept."""
    board, rng = sudoku.SudokuBoard(), random.Random(seed)
    grids = []
    for _ in range(count):
        _, full = solver._run(board, bytes(81), 1, seed=rng.getrandbits(64) | 1)
        keep = set(rng.sample(range(81), rng.randrange(18, 26)))
        grids.append("".join(str(full[i]) if i in keep else "0" for i in range(81)))
    return grids


def unavailable(why: str) -> NoReturn:
    """Skip for ``why`` on a machine without the tools; fail in CI, which has them."""
    if os.environ.get("CI"):
        pytest.fail(f"in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        unavailable("no C compiler")
    folder = tmp_path_factory.mktemp("sanitized")
    (folder / "driver.c").write_text(DRIVER)
    program = folder / "driver"
    flags = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    built = subprocess.run(
        [compiler, *flags, f"-I{CORE}", str(folder / "driver.c"), "-o", str(program)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if built.returncode != 0:
        unavailable(f"the sanitizer build failed: {built.stderr.strip()[:200]}")
    return program


def test_every_kernel_runs_clean_under_the_sanitizers(driver: Path) -> None:
    grids = thinned_grids(300, seed=1)
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    ran = subprocess.run(
        [str(driver)],
        input="\n".join(grids) + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr[-3000:]
    assert "Sanitizer" not in ran.stderr
    assert ran.stdout.startswith("300 puzzles")
