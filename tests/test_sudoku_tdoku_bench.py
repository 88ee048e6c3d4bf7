"""benchmarks/sudoku_tdoku.py: its parsing of puzzle files and of its arguments, and a run
without tdoku or data (nothing depends on what is installed on the machine)."""

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("sudoku_tdoku")


def test_load_puzzles_normalises_and_skips(bench: ModuleType, tmp_path: Path) -> None:
    text = f"# header\n\n{PUZZLE.replace('.', '0')}\r\n  {PUZZLE} ;rating 9.9\n{PUZZLE}\n"
    path = tmp_path / "set"
    path.write_text(text)
    assert bench.load_puzzles(path) == [PUZZLE] * 3
    assert bench.load_puzzles(path, limit=2) == [PUZZLE] * 2
    path.write_text(PUZZLE[:80] + "\n")
    with pytest.raises(ValueError, match=r"set:1: not a puzzle"):
        bench.load_puzzles(path)


def test_arguments(bench: ModuleType, tmp_path: Path) -> None:
    args = bench.parse_args(["--sets", "top1465,17_clue", "--limit", "5", "--data-dir", "d"])
    assert args.sets == ["top1465", "17_clue"]
    assert args.limit == 5
    assert args.data_dir == Path("d")
    assert bench.parse_args(["--sets", "all"]).sets == list(bench.SETS)
    for bad in (["--sets", "nope"], ["--limit", "0"]):
        with pytest.raises(SystemExit):
            bench.parse_args(bad)


def test_runs_without_tdoku(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / bench.SETS["top1465"]).write_text(f"# test\n{PUZZLE}\n{PUZZLE}\n")
    argv = ["--sets", "top1465,17_clue", "--data-dir", str(tmp_path)]
    argv += ["--tdoku-dir", str(tmp_path / "none"), "--min-time", "0", "--no-cli"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| top1465"))
    assert row.split("|")[2].strip() == "2"
    assert row.split("|")[3].strip() == "-"  # no tdoku figure
    assert "MISSING: tdoku's run_benchmark and solve not found" in out
    assert "MISSING: data set 17_clue" in out


def test_kernels_are_timed_side_by_side(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from excover.puzzles.sudoku.simd import available_kernels, simd_kernel

    assert bench.parse_args(["--kernels", "all"]).kernels == list(available_kernels())
    with pytest.raises(SystemExit):
        bench.parse_args(["--kernels", "portable,neon"])
    in_use = simd_kernel()
    (tmp_path / bench.SETS["top1465"]).write_text(f"{PUZZLE}\n")
    argv = ["--sets", "top1465", "--data-dir", str(tmp_path), "--kernels", "all"]
    argv += ["--tdoku-dir", str(tmp_path / "none"), "--min-time", "0", "--no-cli"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert f"excover's Sudoku kernel (the excover columns): {in_use}" in out
    assert simd_kernel() == in_use  # the benchmark gives the kernel in use back
    if len(available_kernels()) > 1:  # the table of kernels: a pair of columns each
        head = next(line for line in out.splitlines() if "portable solve/s" in line)
        assert all(f"{k} count≤2 /s" in head for k in available_kernels())
