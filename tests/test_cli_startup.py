"""The start-up of ``excover count`` and ``excover --version``: a run imports and builds
only what it needs.

On a small problem the command's whole time is its start-up (the interpreter, the
modules it imports, its parser), and on the n-queens ZDD of n = 13 that start-up is a
fifth of TdZdd's whole run (docs/performance.md). So a count builds the parser of
``count`` alone, not those of ``solve``, ``dimacs``, ``estimate`` and ``schema``, and
does not load ``json`` (``--json`` only), ``threading`` and the machinery of a count by
subproblems (``--workers``, ``--tasks``, ``--checkpoint`` only), ``pathlib`` (files are
read with ``open``), ``shutil``, ``random`` (a family's sampling takes a generator the
caller made) or the other commands' modules; ``--version`` builds no
parser and loads neither argparse nor signal. A count that builds its problem with numpy (a
tiling, a BurrTools puzzle, a count up to symmetry) does not load ``numpy.ma``, which
``np.unique`` without ``return_*`` flags imports on its first call.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from runs import imported_by

from excover.main import build_parser
from excover.names import METHOD_TRAITS, METHODS

DATA = Path(__file__).resolve().parent / "data"

#: A problem with three solutions: {a b, c}, {a, b c} and {a, b, c}.
TINY = "a b c\na b\nc\na\nb c\nb\n"

#: Standard modules a plain count does not need (each costs start-up time).
UNNEEDED = {
    "json",
    "pathlib",
    "threading",
    "shutil",
    "dataclasses",
    "inspect",
    "tempfile",
    "random",
}
#: Top-level packages no count of a .dlx file needs.
HEAVY = {"numpy", "pysat", "lark", "tqdm"}
#: Modules of the other commands, and of a count by subproblems.
ELSEWHERE = (
    "excover.cli.exact_cover.parallel",
    "excover.parallel",
    "excover.puzzles.cli",
    "excover.nonogram",
    "excover.lang",
    "excover.tiling",
    "excover.studio",
    "excover.sequences",
    "excover.burr",
    "excover.sat",
)


@pytest.fixture
def tiny(tmp_path: Path) -> str:
    path = tmp_path / "tiny.dlx"
    path.write_text(TINY)
    return str(path)


@pytest.mark.parametrize("method", [m for m in METHODS if not METHOD_TRAITS[m].solver])
def test_a_count_imports_only_what_it_runs(tiny: str, method: str) -> None:
    modules = imported_by(["count", tiny, "--method", method])
    assert "excover.formats.dlx" in modules  # the probe saw the run
    assert not modules & UNNEEDED
    assert not {module.split(".")[0] for module in modules} & HEAVY
    assert not {m for m in modules for other in ELSEWHERE if m.startswith(other)}


def test_the_flags_that_ask_for_more_still_load_it(tiny: str) -> None:
    by_workers = imported_by(["count", tiny, "--workers", "1"])
    assert "excover.cli.exact_cover.parallel" in by_workers
    assert "distributed" not in by_workers  # Dask only for --dask (it takes half a second)
    assert "json" in imported_by(["count", tiny, "--json", "--method", "zdd"])


@pytest.mark.parametrize(
    "args",
    [
        ["two_problems.xmpuzzle"],
        ["two_problems.xmpuzzle", "--up-to-symmetry"],
        ["rotations.xmpuzzle", "--up-to-symmetry"],
    ],
)
def test_a_count_with_numpy_does_not_load_numpy_ma(args: list[str]) -> None:
    modules = imported_by(["count", str(DATA / "burrtools" / args[0]), *args[1:]])
    assert "numpy" in modules  # the run did build its problem with numpy
    assert "numpy.ma" not in modules


def test_a_tiling_count_does_not_load_numpy_ma(tmp_path: Path) -> None:
    board, pieces = tmp_path / "board.txt", tmp_path / "pieces.txt"
    board.write_text("####\n####\n")
    pieces.write_text("[[0,0],[0,1]]\n" * 4)  # five tilings
    modules = imported_by(["count", str(board), "--pieces", str(pieces), "--quiet"])
    assert "excover.tiling" in modules  # the run did tile the board
    assert "numpy.ma" not in modules


def test_version_builds_no_parser() -> None:
    modules = imported_by(["--version"])
    assert not modules & {"argparse", "signal", "gettext", "excover.cli.common"}
    assert not {module.split(".")[0] for module in modules} & HEAVY


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands' parsers of ``parser``, by name, in its order."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action._name_parser_map)


@pytest.mark.parametrize("name", ["count", "solve", "dimacs", "estimate", "schema"])
def test_a_problem_command_builds_its_own_parser_alone(name: str) -> None:
    """Its parser is the whole parser's command, flag for flag (the help and errors
    are compared in test_cli_conventions)."""
    alone, whole = _commands(build_parser(name)), _commands(build_parser())
    assert list(alone) == [name]
    flags = [
        [(action.dest, tuple(action.option_strings), action.default) for action in p._actions]
        for p in (alone[name], whole[name])
    ]
    assert flags[0] == flags[1]


def test_a_top_down_zdd_count_loads_neither_dxz_nor_what_it_does_not_run() -> None:
    """A ZDD count that the top-down construction takes loads neither DXZ's compiled search
    nor the estimate of its progress (with ``statistics``, ``fractions`` and ``decimal``
    behind it), nor ``heapq`` (a family's walks by weight), nor the command line's
    symmetry module (a problem declaring no group has none to break by default)."""
    modules = imported_by(["count", str(DATA / "knuth" / "queens8.dlx"), "--method", "zdd"])
    assert "excover.zdd._topdown" in modules  # the run did reach the ZDD constructions
    unneeded = {
        "excover.zdd._dxz",
        "excover.zdd.weighed",
        "excover.cli.exact_cover.symmetry",
        "heapq",
    }
    assert not modules & (unneeded | {"statistics", "fractions", "decimal"})
