"""benchmarks/route_sweep.py: auto against every route forced, on one small file of
Knuth's, its summary line, and what it says without the alg-lab data."""

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def sweep(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script as a module (it imports ``counting_sets`` from its folder)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("route_sweep")


def test_one_file_gives_a_row_and_a_summary(
    sweep: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--set", "knuth", "--match", "^queens8$", "--rounds", "1"]
    assert sweep.main([*argv, "--routes", "bits,dxz,frontier"]) == 0
    out = capsys.readouterr().out.splitlines()
    row = next(line for line in out if line.startswith("| queens8 "))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[3] == "92" and cells[4].endswith(")")  # auto names its route
    assert float(cells[6]) > 0 and cells[-1] == "n/a"  # a ratio; no frontier count here
    assert out[-1].startswith("summary: 1 instances, 1 rated; max auto/best ")


def test_the_summary_names_the_worst_and_those_over(sweep: ModuleType) -> None:
    def row(name: str, auto: float | None, best: float | None) -> object:
        routes = {"bits": sweep.Result(7, best) if best else sweep.Result(mark="> 120")}
        return sweep.Row(name, 1, 1, sweep.Result(7, auto) if auto else sweep.Result(), routes)

    rows = [row("a", 0.3, 0.2), row("b", 1.0, 0.5), row("c", 0.1, 0.1), row("d", None, None)]
    line = sweep.summary(rows)
    assert "4 instances, 3 rated; max auto/best 2.00 (b)" in line
    assert "2 over 1.5x (a, b)" not in line and "1 over 1.5x (b)" in line
    assert "1 capped (d)" in line


def test_without_the_data_it_says_how_to_get_it(
    sweep: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert sweep.main(["--set", "run_set", "--alg-lab", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "missing: the alg-lab data" in out and "git clone" in out
