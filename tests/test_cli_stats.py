"""``--stats``: every figure a run prints, by every route and method, is defined in
:data:`excover.cli.outcome.FIGURES` and in docs/cli.md ("Statistics"); the figures whose
meaning depends on what ran are followed by their definition. A new figure printed
without a definition fails here.

The counts are checked against each other (every route of one problem gives the same)
and against published figures: 46,976 domino tilings of the small camel (combine's
example), 92 and 12 solutions of 8 queens (OEIS A000170, A002562).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from excover import names
from excover.cli.outcome import FIGURES
from excover.main import main

ROOT = Path(__file__).resolve().parent.parent
QUEENS8 = str(ROOT / "tests" / "data" / "knuth" / "queens8.dlx")
CAML = str(ROOT / "examples" / "caml_small.cmb")
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
HEART = str(ROOT / "examples" / "nonograms" / "heart.non")

#: The routes ``excover count --route`` can force (``parts`` is taken by auto alone).
ROUTES = tuple(route for route in names.ROUTES if route != "parts")


def figures(err: str) -> tuple[dict[str, str], dict[str, str]]:
    """The figures of a ``--stats`` report (name -> value) and its ``meaning of`` lines."""
    shown: dict[str, str] = {}
    meaning: dict[str, str] = {}
    for line in err.splitlines():
        if line.startswith("excover: ") or ": " not in line:
            continue
        name, value = line.split(": ", 1)
        if name.startswith("meaning of "):
            meaning[name.removeprefix("meaning of ")] = value
        else:
            shown[name] = value
    return shown, meaning


def stats_of(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[str, dict[str, str], dict[str, str]]:
    status = main([*argv, "--stats"])
    out, err = capsys.readouterr()
    assert status == 0, err
    shown, meaning = figures(err)
    undefined = sorted(set(shown) - set(FIGURES))
    assert not undefined, f"{' '.join(argv)}: figures without a definition: {undefined}"
    return out, shown, meaning


@pytest.fixture(scope="module")
def caml_dlx(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("stats") / "caml.dlx")
    assert main(["run", CAML, "--write-dlx", f"caml_small={path}"]) == 0
    return path


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_prints_defined_figures(
    route: str, caml_dlx: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, shown, meaning = stats_of(capsys, "count", caml_dlx, "--route", route)
    assert out == "46976\n"
    assert shown["solutions"] == "46976" and shown["search"] == "complete"
    assert "nodes" in meaning, f"route {route}: nodes printed without its definition"
    if route in names.SEARCH_ENGINES:
        assert shown["engine"] == route and "updates" in meaning
        assert meaning["nodes"].startswith("nodes of the search tree, Knuth's DLX1")
    else:
        assert "updates" not in shown
        assert "DLX1" not in meaning["nodes"] or "not DLX1" in meaning["nodes"]


@pytest.mark.parametrize(
    "argv",
    [
        ["count", QUEENS8, "--method", "zdd"],
        ["count", QUEENS8, "--method", "sat"],
        ["count", QUEENS8, "--method", "search", "--engine", "dlx", "--heuristic", "random"],
        ["count", QUEENS8, "--workers", "2"],
        ["count", QUEENS8, "--workers", "2", "--tasks", "8"],
        ["solve", QUEENS8, "--limit", "2"],
        ["queens", "8", "--count"],
        ["sudoku", SUDOKU],
        ["nonogram", HEART, "--count"],
    ],
    ids=lambda argv: " ".join(Path(a).name for a in argv),
)
def test_every_method_prints_defined_figures(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, shown, meaning = stats_of(capsys, *argv)
    assert "search" in shown or "subproblems" in shown or "method" in shown
    if "92" in out.split():
        assert re.match(r"92\b", shown["solutions"])
    if "updates" in shown:
        assert "updates" in meaning


def test_up_to_symmetry_prints_defined_figures(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("igraph")
    out, shown, _ = stats_of(capsys, "queens", "8", "--count", "--up-to-symmetry")
    assert out == "12\n" and shown["group order"] == "8"


def test_a_symmetry_broken_count_prints_the_nodes_of_its_searches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``sequence --stats`` prints the states its count by states merged, and with
    ``--progress`` (the symmetry-broken search) the nodes of the searches it ran, each
    fewer than the plain count of the same problem walks, with their meaning."""
    out, states, _ = stats_of(capsys, "sequence", "A360498", "6")
    assert out == "3620\n"
    out, shown, meaning = stats_of(capsys, "sequence", "A360498", "6", "--progress")
    assert out == "3620\n" and "symmetry-broken" in meaning["nodes"]
    written = str(tmp_path / "a6.dlx")
    assert main(["sequence", "A360498", "6", "--write-dlx", written]) == 0
    capsys.readouterr()
    plain_out, plain, _ = stats_of(capsys, "count", written, "--method", "search")
    assert plain_out == out
    assert 0 < int(shown["nodes"]) < int(plain["nodes"])
    assert 0 < int(states["states"]) < int(plain["nodes"])


def test_every_definition_is_in_the_manual() -> None:
    """docs/cli.md's Statistics tables name every figure of :data:`FIGURES`."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Statistics", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([^`]+)`", row)}
    assert set(FIGURES) <= named, sorted(set(FIGURES) - named)
    for route in (*ROUTES, "parts", "sat"):
        assert route in named, f"what nodes count in route {route} is not in docs/cli.md"


def test_the_classes_by_burnside_print_their_parts(capsys: pytest.CaptureFixture[str]) -> None:
    """``sequence A328020 --stats`` prints the parts of Burnside's lemma, each defined:
    the dissections (the identity's fixed tilings, A172477's term) and the seven other
    symmetries' fixed tilings, whose sum is eight times the classes printed."""
    out, shown, _ = stats_of(capsys, "sequence", "A328020", "5")
    assert main(["sequence", "A172477", "5"]) == 0
    dissections = int(capsys.readouterr().out)
    fixed = [int(part) for part in shown["fixed"].strip("[]").split(",")]
    assert int(shown["dissections"]) == dissections and len(fixed) == 7
    assert dissections + sum(fixed) == 8 * int(out)
