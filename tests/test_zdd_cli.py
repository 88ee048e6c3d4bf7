"""``excover count --method zdd|auto``: the same counts as dancing links, ZDD statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import dominoes, walks

from excover import ExactCover, cli
from excover.cli import main

KNUTH = Path(__file__).parent / "data" / "knuth"


def count(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["count", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name", ["domino6x6", "queens8", "queens10"])
@pytest.mark.parametrize("method", ["zdd", "auto"])
def test_methods_agree_with_dlx(capsys: pytest.CaptureFixture[str], name: str, method: str) -> None:
    path = str(KNUTH / f"{name}.dlx")
    status, reference, _ = count(capsys, path)
    assert status == 0
    assert count(capsys, path, "--method", method) == (0, reference, "")


def test_stats_and_json_show_the_zdd(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "dominoes.dlx"
    problem = dominoes(6, 7)
    problem.write(path)
    status, out, err = count(capsys, str(path), "--method", "zdd", "--stats")
    family = problem.zdd()
    assert status == 0 and int(out) == family.count()
    assert f"zdd nodes: {family.size}" in err.splitlines()
    status, out, _ = count(capsys, str(path), "--method", "zdd", "--json")
    result = json.loads(out)
    assert result["count"] == family.count() and result["stats"]["zdd_nodes"] == family.size


def test_colors_count_like_dancing_links(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "walks.dlx"
    problem = walks(5, [("a", "b"), ("b", "a"), ("a", "a")])
    problem.write(path)
    status, out, _ = count(capsys, str(path), "--method", "zdd")
    assert (status, int(out)) == (0, problem.count(method="dlx"))
    assert ExactCover.read(path).count(method="zdd") == int(out)


def test_zdd_refuses_search_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = count(
        capsys, str(KNUTH / "queens8.dlx"), "--method", "zdd", "--timeout", "5"
    )
    assert status == 2 and out == "" and "--timeout" in err


def test_auto_goes_on_with_the_dlx_run_it_chose(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When --method auto picks dancing links, the run it started finishes the count (no
    second search), and its statistics are those of one whole run."""
    path = str(KNUTH / "queens10.dlx")
    status, _, plain = count(capsys, path, "--stats")
    assert status == 0

    def no_second_search(*_: object) -> None:
        raise AssertionError("a second DLX search was started")

    monkeypatch.setattr(cli, "_new_search", no_second_search)
    status, out, chosen = count(capsys, path, "--method", "auto", "--stats")
    assert status == 0 and int(out) == 724
    nodes = [line for line in plain.splitlines() if line.startswith("nodes")]
    assert nodes and nodes == [line for line in chosen.splitlines() if line.startswith("nodes")]
