"""benchmarks/crosscheck.py: its tally of a small run, and the reproducer it prints for a
disagreement."""

import importlib
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import strategies as st

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def crosscheck(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script as a module."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("crosscheck")


def test_a_small_run_counts_its_problems_and_results(
    crosscheck: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert crosscheck.main(["--examples", "2", "--family", "x,symmetry"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split("|")[1].strip(): line.split("|") for line in out if line.startswith("| ")}
    assert set(rows) == {"family", "x", "symmetry"}
    assert [int(rows[name][2]) for name in ("x", "symmetry")] == [2, 2]
    assert all(int(rows[name][3]) > 2 for name in ("x", "symmetry"))  # many results each
    assert out[-1].startswith("total: 4 problems, ") and ", 0 disagreements, " in out[-1]


def test_a_disagreement_is_shrunk_to_a_reproducer(crosscheck: ModuleType) -> None:
    def wrong_above_five(n: int) -> int:
        assert n <= 5, f"disagreement on {n}"
        return 1

    family = crosscheck.Family("fake", st.tuples(st.integers(0, 100)), wrong_above_five, 1.0)
    tally = crosscheck.run_family(family, 200, 0)
    assert tally.failure is not None
    assert "disagreement on 6" in tally.failure  # shrunk to the smallest
    assert "arguments=(6,)" in tally.failure  # the falsifying example
    assert tally.problems >= 6 and tally.results == tally.problems
