"""benchmarks/liang_reach.py: its model of Liang's two arrays reproduces their published
terms (the OEIS data lines, columns and diagonals read into benchmarks/data/liang/), by
one count per height and by every height of a width in one pass, folded or not; dancing
links agrees with the frontier route, a b-file is trusted only by its SHA-256, and a
short run reports its reach and saves its new terms, in one pass and from scratch."""

import hashlib
import importlib
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from excover import counting
from excover.errors import ResourceLimitError

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
ARRAYS = ("A219967", "A220054")


@pytest.fixture(scope="module")
def liang() -> ModuleType:
    """The benchmark script as a module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS))
        return importlib.import_module("liang_reach")


@pytest.mark.parametrize("array", ARRAYS)
def test_the_model_reproduces_the_published_data_lines(liang: ModuleType, array: str) -> None:
    published = liang.Published(array)
    boards = [(k, n) for k, n in published.terms if 0 < k <= 10 and n <= 12]
    assert len(boards) >= 45  # the data lines, the columns' and the diagonal's first terms
    for k, n in boards:
        value, source = published.value(k, n)
        assert liang.frontier_count(array, k, n).value == value, (k, n, source)


@pytest.mark.parametrize("fold", [True, False])
@pytest.mark.parametrize("array", ARRAYS)
def test_one_pass_reproduces_the_published_data_lines(
    liang: ModuleType, array: str, fold: bool
) -> None:
    published = liang.Published(array)
    checked = 0
    for k in range(1, 11):
        heights = liang.one_count(array, k, 12, budget=float("inf"), fold=fold).heights
        assert len(heights) == 13
        for n, value in enumerate(heights):
            known = published.value(k, n)
            if known is not None:
                assert value == known[0], (k, n, known[1])
                checked += 1
    assert checked >= 60


@pytest.mark.parametrize("array", ARRAYS)
def test_the_model_reproduces_published_terms_at_width_11(liang: ModuleType, array: str) -> None:
    published = liang.Published(array)
    for n in (9, 10, 11):  # the 9th and 10th columns' entries and the diagonal
        value, source = published.value(11, n)
        assert source != f"{array} data"
        assert liang.frontier_count(array, 11, n).value == value


#: Boards with a few hundred to a few tens of thousands of tilings, which dancing links
#: lists one by one.
SMALL = {"A219967": ((4, 7), (5, 6), (6, 6)), "A220054": ((3, 5), (4, 4), (4, 5))}


@pytest.mark.parametrize("array", ARRAYS)
def test_dancing_links_agrees_with_the_frontier_route(liang: ModuleType, array: str) -> None:
    for k, n in SMALL[array]:
        board = liang.tiling(array, k, n)
        assert board is not None
        problem = board.problem
        by_links = counting.count(problem, route="dlx")
        by_frontier = counting.count(problem, route="frontier")
        assert (by_links.route, by_frontier.route) == ("dlx", "frontier")
        assert by_links.count == by_frontier.count == liang.frontier_count(array, k, n).value
        assert by_links.count > 0


def test_the_budget_stops_a_count(liang: ModuleType) -> None:
    cut = liang.frontier_count("A219967", 14, 14, budget=0.0)
    assert cut.value is None and cut.widest > 0


def test_what_is_new(liang: ModuleType) -> None:
    straight, right = liang.Published("A219967"), liang.Published("A220054")
    assert straight.liang_last(11) == 24 and straight.liang_last(17) == 18
    assert straight.published_by(11, 24) is not None  # Liang's b-file
    assert straight.published_by(11, 25) is None
    assert straight.published_by(18, 18) == "A219975"  # a(18) by Martin Fuller
    assert right.published_by(18, 18) is None  # A220061 stops at 16
    assert right.published_by(10, 150) == "A220060"  # the 10th column's b-file
    assert right.published_by(10, 151) is None


def fake_bfile(folder: Path, array: str, change: int | None = None) -> Path:
    """A copy of the data folder with a b-file made of ``array``'s data lines (the term
    at index ``change`` altered) whose SHA-256 stands as the LFS pointer's."""
    shutil.copy(BENCHMARKS / "data" / "liang" / "published.json", folder)
    entry = json.loads((folder / "published.json").read_text())
    flat = [int(t) for t in entry["arrays"][array]["data"]]
    if change is not None:
        flat[change] += 1
    text = "".join(f"{i} {t}\n" for i, t in enumerate(flat))
    path: Path = folder / str(entry["arrays"][array]["bfile"]["file"])
    path.write_text(text)
    entry["arrays"][array]["bfile"]["lfs_sha256"] = hashlib.sha256(text.encode()).hexdigest()
    (folder / "published.json").write_text(json.dumps(entry))
    return path


def test_a_b_file_is_read_only_by_its_digest(liang: ModuleType, tmp_path: Path) -> None:
    path = fake_bfile(tmp_path, "A219967")
    assert liang.Published("A219967", tmp_path).bfile_read
    assert not liang.Published("A220054", tmp_path).bfile_read  # its file is absent
    path.write_text(path.read_text() + "91 1\n")
    with pytest.raises(SystemExit, match="SHA-256"):
        liang.Published("A219967", tmp_path)


def test_a_b_file_that_disagrees_is_refused(liang: ModuleType, tmp_path: Path) -> None:
    fake_bfile(tmp_path, "A220054", change=40)
    with pytest.raises(SystemExit, match="disagree"):
        liang.Published("A220054", tmp_path)


@pytest.mark.parametrize("scratch", [False, True])
def test_a_short_run(
    liang: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], scratch: bool
) -> None:
    argv = ["--array", "A220054", "--widths", "11", "--budget", "0.4", "--out", str(tmp_path)]
    argv += ["--dxz", "--save-new", "2"]  # DXZ on the first new term (about a second)
    if scratch:
        argv.append("--from-scratch")
    assert liang.main(argv) == 0
    out = capsys.readouterr().out
    assert "0.4 CPU seconds" in out and "load average" in out
    figures = json.loads((tmp_path / "reach-A220054.json").read_text())
    (row,) = figures["widths"]
    terms = json.loads((tmp_path / "new-terms-A220054.json").read_text())["terms"]["11"]
    assert figures["budget"] == 0.4 and not figures["bfile_read"]
    assert figures["one_pass"] is not scratch and figures["fold"] is not scratch
    assert row["liang_last_n"] == 24 and row["reached_n"] > 24  # 1,535 states a layer
    assert row["checked"] + row["unchecked"] + row["new"] == row["reached_n"]
    if scratch:
        assert row["reached_n"] <= row["one_pass_n_low"] <= row["one_pass_n_high"]
    else:  # every row of the tallest board counted is a term
        assert row["reached_n"] <= row["last_board_rows"] and row["counts"] >= 1
        assert row["last_count_seconds"] <= row["all_counts_seconds"]
        assert row["new"] > 2 and row["new_saved"] == 2  # hundreds of rows in one pass
    assert row["new"] == row["reached_n"] - 24 and row["new_saved"] == min(2, row["new"])
    assert [int(n) for n in terms] == list(range(25, 25 + row["new_saved"]))
    first = terms["25"]
    assert f"T(25, 11) = {first} (not checked)" in out
    assert "DXZ agrees on T(25, 11)" in out and row["dxz_agrees"]["n"] == 25


def test_one_pass_goes_taller_while_the_budget_lasts(liang: ModuleType) -> None:
    published = liang.Published("A220054")
    row = liang.one_pass_reach("A220054", 11, 1.0, published, workers=2)
    assert row.counts >= 2 and row.rows > liang.FIRST_ROWS
    assert row.reached > liang.FIRST_ROWS and row.all_seconds < 20  # the budget's order
    assert liang.taller(64, 1.0, 8.0) == 384 and liang.taller(64, 10.0, 0.0) == 128


def test_widths_below_11_are_refused(liang: ModuleType) -> None:
    with pytest.raises(SystemExit) as stopped:
        liang.main(["--widths", "10-12"])
    assert stopped.value.code == 2


def test_dxz_stopped_at_its_limit_is_reported(
    liang: ModuleType,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise ResourceLimitError("the ZDD of the solutions needs more than 5 nodes")

    monkeypatch.setattr(liang.counting, "count", refused)
    argv = ["--array", "A220054", "--widths", "11", "--budget", "0.3", "--out", str(tmp_path)]
    assert liang.main([*argv, "--dxz"]) == 0
    assert "DXZ did not count T(25, 11)" in capsys.readouterr().out
    (row,) = json.loads((tmp_path / "reach-A220054.json").read_text())["widths"]
    assert row["dxz_stopped"]["n"] == 25 and "5 nodes" in row["dxz_stopped"]["why"]
