"""Inputs at the edges that used to end in a traceback or a hang now get a clear
ExcoverError or the right answer: limits beyond 64 bits, unknown keywords, nan, missing
files and directories, Knuth's item line with ``|`` glued to a name, ZDD files with
foreign bytes or huge variables, and a ``.cmb`` include of a device."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import excover as xc
from excover.lang import LangError, Permissions, parse_file

PENTO = str(Path(__file__).resolve().parents[1] / "examples" / "pento3x20.dlx")


@pytest.mark.parametrize(
    ("text", "primary", "secondary"),
    [("a |b\na b\n", ["a"], ["b"]), ("1 |a\n1 a\n", ["1"], ["a"]), ("a | b\na\n", ["a"], ["b"])],
)
def test_a_bar_glued_to_a_name_separates_as_in_knuths_programs(
    text: str, primary: list[str], secondary: list[str]
) -> None:
    problem = xc.ExactCover.from_dlx(text)
    assert (list(problem.primary_items), list(problem.secondary_items)) == (primary, secondary)
    assert problem.count(method="search") == 1


def test_limits_beyond_64_bits_are_no_limits() -> None:
    problem = xc.ExactCover.read(PENTO)
    assert problem.count(method="search", max_solutions=2**64) == 8
    assert problem.count(method="search", max_nodes=2**63) == 8
    search = problem.search()
    assert search.count_until(2**64) is True and search.stats.solutions == 8
    done = subprocess.run(
        [sys.executable, "-m", "excover", "count", PENTO, "--max-nodes", str(2**63)],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (0, "8\n")


def test_bad_keywords_and_numbers_are_usage_errors() -> None:
    problem = xc.ExactCover.read(PENTO)
    with pytest.raises(xc.UsageError, match="unknown keyword argument 'foo'"):
        problem.count(foo=1)  # type: ignore[call-arg]
    with pytest.raises(xc.UsageError, match="timeout must be a non-negative number, not nan"):
        problem.count(method="search", timeout=float("nan"))
    assert problem.count(method="search", timeout=float("inf")) == 8


@pytest.mark.parametrize("path", ["/no/such/file.dlx", "."])
def test_reading_a_missing_file_or_a_directory_says_so(path: str) -> None:
    with pytest.raises(xc.UsageError, match=f"cannot read {path}"):
        xc.ExactCover.read(path)


def test_zdd_files_with_foreign_bytes_or_huge_variables_are_format_errors(
    tmp_path: Path,
) -> None:
    foreign = tmp_path / "foreign.zdd"
    foreign.write_bytes(b"\xff\xfe excover")
    with pytest.raises(xc.FormatError, match="not UTF-8"):
        xc.Family.load(foreign)
    huge = tmp_path / "huge.zdd"
    huge.write_text(f"excover-zdd 1\n2 {2**63} 0 1\nroot 2\n")
    with pytest.raises(xc.FormatError, match="out of range"):
        xc.Family.load(huge)
    digits = tmp_path / "digits.zdd"
    digits.write_text("excover-zdd 1\n2 ² 0 1\nroot 2\n")  # a digit, but not a decimal one
    with pytest.raises(xc.FormatError, match="expected 'id var lo hi'"):
        xc.Family.load(digits)


def test_a_program_that_includes_a_device_is_refused(tmp_path: Path) -> None:
    program = tmp_path / "zero.cmb"
    program.write_text('include "/dev/zero"\n')
    with pytest.raises(LangError, match="not a regular file"):
        parse_file(str(program), permissions=Permissions(allow_paths=("/dev",)))


def test_auto_counts_a_huge_sparse_problem_at_once() -> None:
    """100,000 primary items, one one-item option each: every dancing-links node would
    scan all active items for the MRV choice (10**10 steps in all); ``auto`` takes the
    frontier count (every option spans one item), linear here."""
    from excover import counting

    n = 100_000
    problem = xc.ExactCover(primary=n)
    for item in range(n):
        problem.add_option([item])
    found = counting.count(problem)
    assert (found.count, found.route) == (1, "frontier")
    assert problem.count() == 1


#: Run in a child whose address space is capped: the count must end in a one-line
#: ResourceLimitError, not a MemoryError traceback (nor a crash).
OUT_OF_MEMORY = """
import resource
import sys
import excover as xc
sys.path.insert(0, {tests!r})
from builders import dominoes, queens
problem = {problem}
cap = 160 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
try:
    problem.count(method="zdd")
except xc.ResourceLimitError as error:
    print("ResourceLimitError:", error)
"""


@pytest.mark.parametrize("problem", ["dominoes(26, 26)", "queens(15)"])
def test_running_out_of_memory_is_a_resource_limit_error(problem: str) -> None:
    """The frontier count (dominoes) and DXZ (queens) under a 160 MB address space (the
    smaller the space, the sooner the construction fills it: 250 MB took 3.5 s of CPU;
    below about 100 MB NumPy's own import, which the count needs, fails first). NumPy's
    OpenBLAS takes one thread, whose buffers it reserves at import, so that the space
    left does not depend on the number of CPUs."""
    code = OUT_OF_MEMORY.format(tests=str(Path(__file__).parent), problem=problem)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ResourceLimitError: out of memory")
