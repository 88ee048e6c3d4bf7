"""The ``excover.nonogram`` package: its lazy public names, the name ``nonogram`` of
``excover.puzzles`` that gives it, and the direction of the imports
(nonograms never import ``excover.puzzles``; building the parser loads no solver)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest
from runs import modules_after

import excover.nonogram
import excover.puzzles
from excover.nonogram import api

PACKAGE = Path(excover.nonogram.__file__).parent


def test_the_package_offers_every_name_of_its_api() -> None:
    for name in excover.nonogram.__all__:
        assert getattr(excover.nonogram, name) is getattr(api, name), name
    assert set(excover.nonogram.__all__) <= set(dir(excover.nonogram))


def test_the_puzzles_package_gives_the_nonogram_package() -> None:
    from excover.puzzles import nonogram

    assert nonogram is excover.nonogram
    assert nonogram.solve([[1], [3], [1]], [[1], [3], [1]]) == [".#.", "###", ".#."]
    with pytest.raises(AttributeError, match="no_such_puzzle"):
        excover.puzzles.no_such_puzzle  # noqa: B018  (the look-up is the test)


@pytest.mark.parametrize("module", [excover.nonogram])
def test_an_unknown_name_is_an_attribute_error(module: ModuleType) -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        module.no_such_name  # noqa: B018  (the look-up is the test)


def test_no_nonogram_module_imports_the_puzzles_package() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(n.startswith("excover.puzzles") for n in names), (path, names)
    # and at run time: the whole API, used, loads nothing of excover.puzzles
    modules = modules_after(
        "from excover import nonogram\n"
        "[getattr(nonogram, name) for name in nonogram.__all__]\n"
        "assert nonogram.classify([[1]], [[1]]) == 'unique'"
    )
    assert "excover.nonogram.api" in modules
    assert not {m for m in modules if m.startswith("excover.puzzles")}


def test_building_the_parser_loads_no_nonogram_solver() -> None:
    modules = modules_after("from excover.main import build_parser\nbuild_parser()")
    assert "excover.nonogram.cli" in modules  # the command is registered from the package
    assert not modules & {"excover.nonogram.api", "excover.nonogram._core"}
