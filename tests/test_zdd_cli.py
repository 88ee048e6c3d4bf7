"""``excover count --method zdd|auto``: the same counts as dancing links, ZDD statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import dominoes, walks

from excover import ExactCover
from excover.counting import by_search
from excover.main import main

KNUTH = Path(__file__).parent / "data" / "knuth"


def count(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["count", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name", ["domino6x6", "queens8", "queens10"])
# specific methods: this module's (the ZDD and the route choice that may run it), each
# against a search
@pytest.mark.parametrize("method", ["zdd", "auto"])
def test_methods_agree_with_dlx(capsys: pytest.CaptureFixture[str], name: str, method: str) -> None:
    path = str(KNUTH / f"{name}.dlx")
    status, reference, _ = count(capsys, path, "--method", "search")
    assert status == 0
    status, out, err = count(capsys, path, "--method", method)
    assert (status, out) == (0, reference)
    assert err.startswith("excover: method ")
    assert len(err.splitlines()) == (2 if method == "auto" else 1)  # auto names its route


def test_stats_and_json_show_the_zdd(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "dominoes.dlx"
    problem = dominoes(6, 7)
    problem.write(path)
    family = problem.zdd()
    status, out, _ = count(capsys, str(path), "--method", "zdd", "--json")
    result = json.loads(out)
    # dominoes suit the frontier count, which p.count(method="zdd") uses too: no ZDD built
    assert (status, result["count"], result["engine"]) == (0, family.count(), "frontier count")
    colored = tmp_path / "walks.dlx"
    problem = walks(5, [("a", "b"), ("b", "a"), ("a", "a")])
    problem.write(colored)
    status, out, err = count(capsys, str(colored), "--method", "zdd", "--stats")
    family = problem.zdd()
    assert status == 0 and int(out) == family.count()
    assert f"zdd nodes: {family.size}" in err.splitlines()
    assert "excover: method zdd, DXZ family" in err.splitlines()


@pytest.mark.slow  # queens boards counted by ZDD
def test_queens_are_counted_on_the_top_down_family(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(KNUTH / "queens10.dlx")
    status, out, _ = count(capsys, path, "--method", "zdd", "--json")
    result = json.loads(out)
    family = ExactCover.read(path).zdd()
    assert (status, result["engine"], result["count"]) == (0, "top-down family", family.count())
    assert result["stats"]["zdd_nodes"] == family.size
    status, out, _ = count(capsys, str(KNUTH / "scott-pfix.dlx"), "--method", "zdd", "--json")
    assert (status, json.loads(out)["engine"]) == (0, "DXZ family")


def test_colors_count_like_dancing_links(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "walks.dlx"
    problem = walks(5, [("a", "b"), ("b", "a"), ("a", "a")])
    problem.write(path)
    status, out, _ = count(capsys, str(path), "--method", "zdd")
    assert (status, int(out)) == (0, problem.count(method="search"))
    assert ExactCover.read(path).count(method="zdd") == int(out)


def test_zdd_refuses_what_it_cannot_honour(capsys: pytest.CaptureFixture[str]) -> None:
    for flag in (["--max-nodes", "5"], ["--limit", "3"], ["--heuristic", "random"]):
        status, out, err = count(capsys, str(KNUTH / "queens8.dlx"), "--method", "zdd", *flag)
        assert status == 2 and out == "" and flag[0] in err and "zdd" in err


def test_zdd_honours_a_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = count(
        capsys, str(KNUTH / "queens8.dlx"), "--method", "zdd", "--timeout", "30"
    )
    assert (status, out, err) == (0, "92\n", "excover: method zdd, top-down family\n")


def test_auto_goes_on_with_the_dlx_run_it_chose(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When --method auto picks dancing links, the run it started finishes the count (no
    second search), and its statistics are those of one whole run."""
    path = str(KNUTH / "queens10.dlx")
    status, _, plain = count(capsys, path, "--method", "search", "--stats")
    assert status == 0

    def no_second_search(*_: object) -> None:
        raise AssertionError("a second DLX search was started")

    monkeypatch.setattr(by_search, "new_search", no_second_search)
    status, out, chosen = count(capsys, path, "--method", "auto", "--stats")
    assert status == 0 and int(out) == 724
    nodes = [line for line in plain.splitlines() if line.startswith("nodes")]
    assert nodes and nodes == [line for line in chosen.splitlines() if line.startswith("nodes")]
