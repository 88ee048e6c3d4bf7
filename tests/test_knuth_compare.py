"""benchmarks/knuth_compare.py on one small row, without Knuth's programs or with fake ones
(so nothing depends on what is installed on the machine)."""

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def knuth_compare(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark script as a module (it imports ``_data`` from its own folder)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("knuth_compare")


def test_missing_programs_leave_excover_row(
    knuth_compare: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--files", "queens8.dlx", "--repeat", "1", "--knuth-dir", str(tmp_path)]
    assert knuth_compare.main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("queens8.dlx"))
    assert " 92 " in row
    assert row.count("missing") == 3  # DLX1, DLX2, SSXCC; SSMCC is not run on X rows
    assert "missing from" in out
    assert "dlx1, dlx2, ssxcc, ssmcc" in out
    assert "ascherer/cwebtest" in out


@pytest.mark.skipif(sys.platform == "win32", reason="the fake program is a shell script")
def test_count_mismatch_is_an_error(
    knuth_compare: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "dlx1"
    fake.write_text("#!/bin/sh\ncat >/dev/null\necho 'Altogether 91 solutions, 0 mems' >&2\n")
    fake.chmod(0o755)
    argv = ["--files", "queens8", "--repeat", "1", "--knuth-dir", str(tmp_path)]
    assert knuth_compare.main(argv) == 1
    assert "DLX1 counts 91 solutions" in capsys.readouterr().err
