"""The method of a compiled search is ``search``; ``dlx``, its old name, is a deprecated
alias (issue 59): the API reads it with a DeprecationWarning, the command line with one
note on stderr, and a checkpoint written with ``"method": "dlx"`` still resumes, its next
save writing ``"search"``. What a run reports names the method ``search``."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import KNUTH_DATA, queens

from excover import ExactCover, parallel
from excover.main import main
from excover.names import METHOD_ALIASES, METHOD_TRAITS, METHODS, canonical_method
from excover.parallel.checkpoint import Checkpoint, checksum, named_file
from excover.tiling import Pattern, Tile, Tiling

QUEENS8 = str(KNUTH_DATA / "queens8.dlx")
NOTE = "excover: --method dlx is now --method search (the old name is deprecated)\n"


def test_the_alias_names_a_method_that_is_not_itself_a_method() -> None:
    assert METHOD_ALIASES == {"dlx": "search"}
    assert "dlx" not in METHODS and "search" in METHODS
    assert set(METHOD_TRAITS) == set(METHODS)
    assert canonical_method("dlx") == "search"
    for name in (*METHODS, "nonsense", "DLX", ""):
        assert canonical_method(name) == name  # the check of a name comes after


#: Each API entry point that takes a method, called with ``method``: its result, as a
#: value that compares equal between two methods that find the same solutions.
CALLS: dict[str, Callable[[str], Any]] = {
    "count": lambda method: queens(6).count(method=method),
    "count positional": lambda method: queens(6).count(method),
    "solutions": lambda method: sorted(map(sorted, queens(6).solutions(method=method))),
    "first": lambda method: queens(6).first(method=method),
    "count with workers": lambda method: queens(6).count(method=method, tasks=3, workers=1),
    "parallel.count": lambda method: parallel.count(queens(6), method, tasks=3),
    "tiling count": lambda method: Tiling(Pattern.constant(3, 4), [Tile("**", "d")]).count(method),
    "tiling up to symmetry": lambda method: Tiling(Pattern.constant(4, 4), [Tile("**", "d")]).count(
        method, up_to_symmetry=True
    ),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_the_api_reads_dlx_as_search_with_a_deprecation_warning(
    call: Callable[[str], Any],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name warns of nothing
        expected = call("search")
    with pytest.warns(DeprecationWarning, match="method='dlx' is deprecated") as caught:
        found = call("dlx")
    assert found == expected
    assert len(caught) == 1  # one warning per call, not one per layer
    assert caught[0].filename == __file__  # it points at the caller's line


def test_an_unknown_method_still_lists_the_new_names() -> None:
    with pytest.raises(Exception, match="auto, search, zdd, sat"):
        queens(4).count(method="dancing")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_reads_method_dlx_with_one_note(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, expected, err = run(capsys, "count", QUEENS8, "--method", "search")
    assert status == 0 and "--method dlx" not in err
    status, out, err = run(capsys, "count", QUEENS8, "--method", "dlx")
    assert (status, out) == (0, expected)
    assert err.count(NOTE) == 1 and err.startswith(NOTE)
    assert "excover: method search, " in err  # the run names the method by its new name
    status, out, err = run(capsys, "solve", QUEENS8, "--method", "dlx", "--limit", "1")
    assert status == 0 and out.startswith("solution 1:") and err.count(NOTE) == 1


def test_json_documents_name_the_method_search(capsys: pytest.CaptureFixture[str]) -> None:
    for method in ("search", "dlx"):  # specific methods: the name and its old name
        status, out, _ = run(capsys, "count", QUEENS8, "--method", method, "--json")
        document = json.loads(out)
        assert (status, document["method"]) == (0, "search")
    status, out, _ = run(capsys, "count", QUEENS8, "--json")  # auto, resolved
    assert json.loads(out)["method"] in ("search", "zdd")


def test_help_offers_search(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "count", "--help")
    shown = " ".join(out.split())
    assert status == 0 and "--method {auto,search,zdd,sat}" in shown
    assert "dlx: the old name of search, deprecated" in shown


def test_other_commands_with_methods_of_their_own_do_not_take_the_alias(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``nonogram`` has methods of its own: ``dlx`` is no name there, old or new."""
    status, _, err = run(capsys, "nonogram", "x.non", "--method", "dlx")
    assert status == 2 and "invalid choice: 'dlx'" in err and NOTE not in err


def _as_written_before(path: Path, drop: str) -> None:
    """Rewrite the checkpoint ``path`` as a run before the rename would have: method
    ``dlx``, the result of subproblem ``drop`` not yet in, a checksum that holds."""
    data = json.loads(path.read_text())
    del data["checksum"]
    data["method"] = "dlx"
    total, _ = data["done"].pop(drop)
    data["count"] -= total
    data["checksum"] = checksum(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("method", ["search", "dlx"])  # specific methods: the name, its old name
def test_an_old_checkpoint_resumes_and_its_next_save_says_search(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, method: str
) -> None:
    state = tmp_path / "queens8.json"
    flags = ("--tasks", "6", "--checkpoint", str(state))
    status, expected, _ = run(capsys, "count", QUEENS8, "--method", "search", *flags)
    assert status == 0 and json.loads(state.read_text())["method"] == "search"
    _as_written_before(state, "5")
    loaded = Checkpoint.load(state, ExactCover.read(QUEENS8), "search")
    assert loaded is not None and loaded.method == "search" and 5 not in loaded.done
    status, out, err = run(capsys, "count", QUEENS8, "--method", method, *flags)
    assert (status, out) == (0, expected)
    assert "resuming from" in err and "5 of 6 subproblems counted by earlier runs" in err
    assert json.loads(state.read_text())["method"] == "search"


def test_an_old_checkpoint_is_still_refused_for_another_method(tmp_path: Path) -> None:
    state = tmp_path / "queens8.json"
    assert (
        main(["count", QUEENS8, "--method", "search", "--tasks", "6", "--checkpoint", str(state)])
        == 0
    )
    _as_written_before(state, "0")
    with pytest.raises(Exception, match="checkpoint of a count with --method dlx, not zdd"):
        Checkpoint.load(state, ExactCover.read(QUEENS8), "zdd")


def test_an_automatic_checkpoint_named_by_the_old_name_is_found(tmp_path: Path) -> None:
    digest = "0123456789abcdef" * 4
    new = named_file(tmp_path, digest, "search")
    assert new.name.endswith("-search.json") and not new.exists()
    old = tmp_path / new.name.replace("-search.json", "-dlx.json")
    old.write_text("{}")
    assert named_file(tmp_path, digest, "search") == old  # only the old one exists
    new.write_text("{}")
    assert named_file(tmp_path, digest, "search") == new  # the new one, once written
    assert named_file(tmp_path, digest, "zdd").name.endswith("-zdd.json")
