"""benchmarks/nonogram_hard.py beside nonosolve: its reading of nonosolve's answers, one
puzzle at a time and in batch mode, against a stand-in program (nothing depends on
nonosolve being built here). The stand-in answers with excover's own classify, or, told
to lie, with the other answer, so the comparison must notice."""

import importlib
import os
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

STAND_IN = """\
import sys
from excover import nonogram

LIE = {lie!r}


def answer(puzzle):
    word = nonogram.classify(puzzle).upper()
    return {{"UNIQUE": "MULTIPLE", "MULTIPLE": "UNIQUE"}}.get(word, word) if LIE else word


args = sys.argv[1:]
if args[0] == "--taai":
    puzzles = nonogram.read_all(args[1])
    log = args[args.index("--log") + 1]
    with open(log, "w") as out:
        for rank, puzzle in enumerate(puzzles, start=1):
            out.write(f"#{{rank}}\\t0.00{{rank % 10}}\\t{{answer(puzzle)}}\\tnodes=1\\n")
        out.write("total time: 0.1\\n")
else:
    puzzle = nonogram.read(args[-1])
    print(f"{{args[-1]}} {{puzzle.width}}x{{puzzle.height}} {{answer(puzzle)}} time=0.001")
"""


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("nonogram_hard")


def stand_in(folder: Path, lie: bool) -> Path:
    """An executable that answers as nonosolve does (its output and log formats)."""
    program = folder / ("liar" if lie else "nonosolve")
    program.write_text(f"#!{sys.executable}\n" + STAND_IN.format(lie=lie))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is started by its #! line")
@pytest.mark.parametrize("lie", [False, True])
def test_answers_beside_nonosolve_are_read_and_compared(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], lie: bool
) -> None:
    program = stand_in(tmp_path, lie)
    bench.main(
        ["--only", "webpbn-00001", "--large", "0", "--random", "4", "--nonosolve", str(program)]
    )
    lines = capsys.readouterr().out.splitlines()
    single = next(line for line in lines if line.startswith("webpbn-00001"))
    batch = next(line for line in lines if "(nonosolve, its log)" in line)
    assert "4 answered" in batch
    if lie:
        assert "nonosolve multiple" in single and "DISAGREE" in single
        assert "differ from excover's: [(0, " in batch
    else:
        assert "nonosolve unique" in single and "DISAGREE" not in single
        assert batch.endswith("differ from excover's: none")


def test_a_missing_nonosolve_is_a_clear_error(bench: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--large", "0", "--only", "none", "--nonosolve", str(tmp_path / "absent")])
