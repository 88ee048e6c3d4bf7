"""benchmarks/counting_sets.py's queens table: a process's CPU time taken from ``wait4``,
and the CLI's CPU ratio over ddqueens' from the least CPU time of each."""

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script as a module (it imports ``_load`` from its folder)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("counting_sets")


def test_a_process_outcome_carries_its_cpu_time(bench: ModuleType) -> None:
    busy = bench.run_process([sys.executable, "-c", "sum(range(10**7))"], timeout=60)
    idle = bench.run_process([sys.executable, "-c", "import time; time.sleep(0.3)"], timeout=60)
    assert busy.status == idle.status == 0
    assert idle.cpu < idle.seconds  # asleep: its wall time, not its CPU time
    assert busy.cpu > idle.cpu


def test_the_cli_cpu_ratio_is_over_the_least_cpu_of_each(bench: ModuleType) -> None:
    def run(cpu: float, stdout: str = "", stderr: str = "") -> object:
        return bench.Outcome(0, 1.0, 1024, stdout, stderr, cpu=cpu)

    ours = [run(0.5, "92\n"), run(0.3, "92\n"), run(0.4, "92\n")]
    theirs = [run(0.6, stderr=f"#node = 50, #solution = 92 {k}") for k in range(2)]
    theirs.append(run(0.45, stderr="#node = 50, #solution = 92"))
    args = argparse.Namespace(allow_load=True)
    bare = run(0.01)
    row, bad = bench.queens_row(8, {"cli": ours, "ddqueens": theirs}, bare, 0.5, args)
    assert not bad and row[1] == "92"
    assert row[-2] == f"{0.3 / 0.45:.2f}" and row[-1] == "0.50"
    loaded, _ = bench.queens_row(8, {"cli": ours, "ddqueens": theirs}, bare, 3.0, args)
    assert loaded[-2] == f"{0.3 / 0.45:.2f} (load 3.0)"
