"""One command line: the search flags of every command that searches, walked against the
one table of :data:`excover.cli.common.SEARCH_FLAGS`, and what the runs say about
themselves (docs/cli.md, "The same flags everywhere").

Counts are checked against an independent route: a brute-force count of queens
placements and of their classes under the square's symmetries, the API, or a published
figure (OEIS A000170 and A002562).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import re
from pathlib import Path

import pytest

from excover import ExactCover, nonogram
from excover.cli import common
from excover.cli.common import SEARCH_FLAGS, Refused
from excover.main import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "tests" / "data" / "knuth"
QUEENS8 = str(KNUTH / "queens8.dlx")
PENTO = str(ROOT / "examples" / "pento6x10.dlx")
HEART = str(ROOT / "examples" / "nonograms" / "heart.non")
MULTIPLE = str(ROOT / "tests" / "data" / "nonogram" / "multiple12.txt")
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EMPTY4 = "." * 16

#: Every command that searches, with the arguments of a small run of it.
SEARCHING = {
    "count": [QUEENS8],
    "solve": [QUEENS8],
    "estimate": [QUEENS8],
    "queens": ["6"],
    "sudoku": [PUZZLE],
    "nonogram": [HEART],
    "run": [str(ROOT / "examples" / "caml_small.cmb")],
    "sequence": ["A360498", "4"],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@functools.cache
def commands() -> dict[str, argparse.ArgumentParser]:
    """The parser of each command, as the whole ``excover`` parser builds it (built once:
    the parametrized tests below ask for them at collection, and only read them)."""
    action = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    parsers: dict[str, argparse.ArgumentParser] = action.choices
    return parsers


def subparser(command: str) -> argparse.ArgumentParser:
    """The parser of one command."""
    return commands()[command]


def _key(option: str) -> str:
    """An option string with its spelling's accidents removed (case, dashes, underscores)."""
    return option.lower().replace("-", "").replace("_", "")


# --------------------------------------------------------------------------- the parsers


@pytest.mark.parametrize("command", sorted(SEARCHING))
def test_every_search_flag_is_taken_or_refused_with_a_reason(command: str) -> None:
    """Each shared flag: present once, spelt as the table spells it, parsed as the table
    says (type, metavar, action), and either documented by the shared meaning (a
    command's own addition after it) or refused with a reason shown in the help."""
    parser = subparser(command)
    for name, flag in SEARCH_FLAGS.items():
        actions = [action for action in parser._actions if action.dest == name]
        assert len(actions) == 1, f"{command} {flag.options[0]}: missing, or there twice"
        (action,) = actions
        assert action.option_strings == flag.spelling, f"{command}: spelt {action.option_strings}"
        assert action.help is not None
        if isinstance(action, Refused):
            assert action.reason.startswith(f"does not apply to {command}: ")
            assert len(action.reason) > len(f"does not apply to {command}: ") + 10
            assert action.help == "not taken: " + action.reason.split(": ", 1)[1]
            continue
        assert action.help.startswith(flag.meaning), f"{command} {flag.options[0]}: {action.help}"
        for keyword in ("type", "metavar"):
            if keyword in flag.keywords:
                assert getattr(action, keyword) == flag.keywords[keyword], (command, name)
        if "action" in flag.keywords:
            expected = flag.keywords["action"]
            kind = argparse._StoreTrueAction if expected == "store_true" else expected
            assert isinstance(action, kind), (command, name)


def test_no_command_spells_a_shared_flag_another_way() -> None:
    """``--max_nodes``, ``--Timeout`` or ``--upto-symmetry`` beside the shared spelling
    would be the same flag spelt differently: none exists in any command."""
    spelt = {_key(option): option for flag in SEARCH_FLAGS.values() for option in flag.spelling}
    for command, parser in commands().items():
        for action in parser._actions:
            for option in action.option_strings:
                shared = spelt.get(_key(option))
                assert shared in (None, option), f"{command}: {option} is {shared} spelt otherwise"


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (command, flag)
        for command in sorted(SEARCHING)
        for flag in SEARCH_FLAGS.values()
        if isinstance(
            next(a for a in subparser(command)._actions if a.option_strings == flag.spelling),
            Refused,
        )
    ],
    ids=lambda value: value if isinstance(value, str) else value.options[0],
)
def test_a_refused_flag_is_an_error_naming_it_and_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, flag: common.Flag
) -> None:
    action = next(a for a in subparser(command)._actions if a.option_strings == flag.spelling)
    # a value wherever the flag takes one where it is taken (``--method search``), whatever
    # the refusing action expects
    value = [] if "action" in flag.keywords else ["1" if "type" in flag.keywords else "auto"]
    status, out, err = run(capsys, command, *SEARCHING[command], flag.options[0], *value)
    assert isinstance(action, Refused)
    assert (status, out) == (2, "")
    assert err == f"excover: {flag.options[0]} {action.reason}\n"


def test_the_shared_flags_table_is_the_one_the_help_gives() -> None:
    """The top-level help lists the shared flags by the table's spellings."""
    epilog = build_parser().epilog or ""
    for flag in SEARCH_FLAGS.values():
        assert flag.options[0] in epilog


# --------------------------------------------------------------------------- one command line


def _brute_queens(n: int) -> tuple[int, int]:
    """The placements of n queens and their classes under the 8 symmetries of the
    square, by trying every permutation (rows to columns)."""
    found = [
        columns
        for columns in itertools.permutations(range(n))
        if len({r + c for r, c in enumerate(columns)}) == n
        and len({r - c for r, c in enumerate(columns)}) == n
    ]

    def images(columns: tuple[int, ...]) -> list[tuple[int, ...]]:
        squares = [(r, c) for r, c in enumerate(columns)]
        result = []
        for turn in range(8):
            moved = squares
            for _ in range(turn % 4):
                moved = [(c, n - 1 - r) for r, c in moved]
            if turn >= 4:
                moved = [(r, n - 1 - c) for r, c in moved]
            result.append(tuple(c for _, c in sorted(moved)))
        return result

    classes = {min(images(columns)) for columns in found}
    return len(found), len(classes)


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_queens_counts_on_workers_up_to_symmetry(
    capsys: pytest.CaptureFixture[str], n: int
) -> None:
    every, classes = _brute_queens(n)
    status, out, err = run(capsys, "queens", str(n), "--count", "--workers", "2")
    assert (status, out) == (0, f"{every}\n")
    argv = ["queens", str(n), "--count", "--workers", "2", "--up-to-symmetry"]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (0, f"{classes}\n")
    assert "excover: method search, classes under a group of order 8" in err


def test_queens_12_on_two_workers_up_to_symmetry(capsys: pytest.CaptureFixture[str]) -> None:
    """The run of the issue: 14,200 placements (OEIS A000170), 1,787 up to symmetry
    (OEIS A002562), the classes counted on two processes."""
    argv = ["queens", "12", "--count", "--workers", "2", "--up-to-symmetry", "--json"]
    status, out, _ = run(capsys, *argv)
    document = json.loads(out)
    assert (status, document["command"], document["count"]) == (0, "queens", 1787)
    assert "counted on 2 processes" in document["engine"]
    status, out, _ = run(capsys, "queens", "12", "--count", "--workers", "2")
    assert (status, out) == (0, "14200\n")


def test_queens_takes_the_search_flags_of_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "queens", "8", "--count", "--engine", "dlx", "--stats")
    assert (status, out) == (0, "92\n")
    assert "dancing links" in err and "updates: 16680" in err  # Knuth's DLX1 figure
    status, out, err = run(capsys, "queens", "6", "--up-to-symmetry", "--limit", "5")
    boards = out.strip().split("\n\n")
    assert status == 0 and len(boards) == 1  # queens 6: 4 placements, one class
    status, out, err = run(capsys, "queens", "6", "--workers", "2")
    assert (status, out) == (2, "") and "--workers counts on several processes" in err


def test_sudoku_limit_lists_as_queens_and_nonogram_do(capsys: pytest.CaptureFixture[str]) -> None:
    """``--limit N`` without ``--count``: up to N solutions of each puzzle, one a line,
    as ``--all --limit N`` prints them (queens and nonogram print N solutions too)."""
    status, out, _ = run(capsys, "sudoku", EMPTY4, "--limit", "3")
    grids = out.split()
    assert status == 0 and len(set(grids)) == 3
    assert all(len(grid) == 16 and set(grid) == set("1234") for grid in grids)
    assert run(capsys, "sudoku", EMPTY4, "--all", "--limit", "3")[:2] == (0, out)
    status, out, _ = run(capsys, "sudoku", EMPTY4, "--limit", "3", "--json")
    (result,) = json.loads(out)["results"]
    assert (status, len(result["solutions"]), result["complete"]) == (0, 3, False)
    status, out, _ = run(capsys, "nonogram", MULTIPLE, "--limit", "2")
    assert status == 0 and len(out.strip().split("\n\n")) == 2


def test_sudoku_counts_classes_of_solutions(capsys: pytest.CaptureFixture[str]) -> None:
    """The 288 Shidoku grids fall in 2 classes under the symmetries of their exact cover
    (the board's and the relabellings of the digits), as is known of the 4x4 grids."""
    assert run(capsys, "sudoku", EMPTY4, "--count")[:2] == (0, "288\n")
    status, out, err = run(capsys, "sudoku", EMPTY4, "--count", "--up-to-symmetry")
    assert (status, out) == (0, "2\n") and "group of order 3072" in err
    status, out, _ = run(capsys, "sudoku", EMPTY4, "--all", "--up-to-symmetry")
    assert status == 0 and len(out.split()) == 2
    status, out, err = run(capsys, "sudoku", PUZZLE, "--up-to-symmetry")
    assert (status, out) == (2, "") and "goes with --count, --all or --limit" in err


@pytest.mark.parametrize("flag", [["--no-progress"], ["--progress"]])
def test_queens_takes_progress_and_no_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, flag: list[str]
) -> None:
    from excover.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    status, out, err = run(capsys, "queens", "8", "--count", "--method", "search", *flag)
    assert (status, out) == (0, "92\n")
    assert ("100%|" in err) == (flag == ["--progress"])


def test_the_plain_counts_bar_ends_at_100_percent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar's total is an estimate of the tree (pento6x10's is below the 3,620,988
    nodes searched); a count run to its end ends at all its nodes, 100%."""
    from excover.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)
    status, out, err = run(capsys, "count", PENTO, "--method", "search", "--progress")
    last = err.split("\r")[-1].splitlines()[0]
    assert (status, out) == (0, "9356\n")
    assert last.startswith("count: 100%|") and "3.62M/3.62M" in last


# --------------------------------------------------------------------------- --write-dlx


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["queens", "8"], 92),
        (["sudoku", PUZZLE], 1),
        (["sudoku", EMPTY4], 288),
        (["nonogram", HEART], nonogram.count(nonogram.read(HEART))),
        (["nonogram", MULTIPLE], nonogram.count(nonogram.read(MULTIPLE))),
    ],
)
def test_a_puzzle_written_in_knuths_format_counts_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], expected: int
) -> None:
    out = tmp_path / "puzzle.dlx"
    status, printed, err = run(capsys, *argv, "--write-dlx", str(out))
    assert (status, printed) == (0, "") and "wrote the" in err and str(out) in err
    assert ExactCover.read(out).count() == expected
    assert run(capsys, "count", str(out))[:2] == (0, f"{expected}\n")


def test_a_file_of_puzzles_is_written_one_problem_a_puzzle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{PUZZLE}\n{PUZZLE.replace('5', '.', 1)}\n")
    out = tmp_path / "s.dlx"
    assert run(capsys, "sudoku", str(puzzles), "--write-dlx", str(out))[0] == 0
    counts = [ExactCover.read(tmp_path / f"s-{k}.dlx").count() for k in (1, 2)]
    from excover.puzzles import sudoku

    assert counts == [sudoku.count(PUZZLE), sudoku.count(PUZZLE.replace("5", ".", 1))]


@pytest.mark.parametrize(
    ("program", "name", "expected"),
    [
        ("scott.cmb", "scott", 520),
        ("tetrominoes.cmb", "box", 57472),
        ("tetrominoes.cmb", "box_same", 1796),  # interchangeable pieces
        ("soma.cmb", "soma", 11520),  # a problem3
    ],
)
def test_a_cmb_problem_written_in_knuths_format_counts_as_the_program_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, program: str, name: str, expected: int
) -> None:
    """The counts are the ones the programs' comments give (and print: checked by
    tests/test_lang_examples.py); the program's commands do not run."""
    out = tmp_path / "p.dlx"
    path = str(ROOT / "examples" / program)
    status, printed, err = run(capsys, "run", path, "--write-dlx", f"{name}={out}")
    assert (status, printed) == (0, "") and f"wrote problem {name} to {out}" in err
    assert run(capsys, "count", str(out))[:2] == (0, f"{expected}\n")


def test_write_dlx_says_what_it_cannot_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scott = str(ROOT / "examples" / "scott.cmb")
    status, out, err = run(capsys, "run", scott, "--write-dlx", f"nope={tmp_path / 'x.dlx'}")
    assert (status, out) == (2, "") and "declares no problem 'nope' (its problems: scott," in err
    status, out, err = run(capsys, "run", scott, "--write-dlx", "scott")
    assert status == 2 and "PROBLEM=FILE" in err
    status, out, err = run(capsys, "queens", "8", "--count", "--write-dlx", str(tmp_path / "q"))
    assert (status, out) == (2, "") and "--count asks for a search" in err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- usage and hints


@pytest.mark.parametrize("command", [*sorted(SEARCHING), "dimacs", "studio"])
def test_an_unknown_flag_shows_the_commands_usage(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    status, out, err = run(capsys, command, *SEARCHING.get(command, ["x"]), "--no-such-flag")
    assert (status, out) == (2, "")
    assert err.startswith(f"usage: excover {command} ")
    assert err.endswith(f"excover {command}: error: unrecognized arguments: --no-such-flag\n")


@pytest.mark.parametrize("command", ["count", "solve", "estimate", "dimacs"])
def test_a_cmb_program_given_for_a_problem_gets_a_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    scott = ROOT / "examples" / "scott.cmb"
    status, out, err = run(capsys, command, str(scott))
    assert (status, out) == (2, "")
    assert "is a .cmb program" in err and f"'excover run {scott}'" in err
    renamed = tmp_path / "scott.txt"  # no suffix to go by: the text tells
    renamed.write_text(scott.read_text())
    status, out, err = run(capsys, command, str(renamed))
    assert (status, out) == (2, "")
    assert f"{renamed}:1: bad primary item name" in err and "looks like a .cmb program" in err


def test_the_hint_knows_every_statement_of_the_language() -> None:
    from excover.cli.kinds import _CMB_WORDS
    from excover.lang.grammar import KEYWORDS, STATEMENT_KEYWORDS

    assert {KEYWORDS[name] for name in STATEMENT_KEYWORDS} == _CMB_WORDS


# --------------------------------------------------------------------------- output


@pytest.mark.parametrize(
    ("engine", "meaning"),
    [
        ("dlx", "links changed, Knuth's DLX1 definition"),
        ("bits", "options taken out of play by the bit-parallel engine, not DLX1's"),
        ("cells", "removals of an option from an item's set by dancing cells, not DLX1's"),
    ],
)
def test_stats_name_the_definition_of_each_figure(
    capsys: pytest.CaptureFixture[str], engine: str, meaning: str
) -> None:
    """The engines walk one tree (the same nodes) but count updates each its own way:
    each figure is printed with what it counts."""
    status, _, err = run(
        capsys, "count", QUEENS8, "--method", "search", "--engine", engine, "--stats"
    )
    figures = dict(line.split(": ", 1) for line in err.splitlines() if ": " in line)
    assert status == 0 and figures["nodes"] == "1049"  # Knuth's DLX1 figure, every engine
    assert figures["meaning of updates"].startswith(meaning)
    assert figures["meaning of nodes"].startswith("nodes of the search tree, Knuth's DLX1")
    updates = {"dlx": "16680", "bits": "5067"}  # DLX1's figure, and the bits engine's
    assert figures["updates"] == updates.get(engine, figures["updates"])


@pytest.mark.parametrize(
    "argv",
    [
        ["count", QUEENS8],
        ["count", QUEENS8, "--method", "search", "--tasks", "4"],
        ["count", QUEENS8, "--workers", "2"],
        ["count", QUEENS8, "--up-to-symmetry"],
        ["solve", QUEENS8, "--limit", "1"],
        ["estimate", QUEENS8],
        ["queens", "6"],
        ["queens", "6", "--count", "--workers", "2", "--method", "search"],
        ["sudoku", PUZZLE],
        ["sudoku", EMPTY4, "--count"],
        ["nonogram", HEART],
    ],
)
def test_every_run_names_its_method_and_engine_on_stderr(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, _, err = run(capsys, *argv)
    said = [line for line in err.splitlines() if line.startswith("excover: method ")]
    assert status == 0 and len(said) == 1
    assert ", " in said[0]  # the method, then its engine


def test_a_resumed_count_says_what_it_resumed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = tmp_path / "state.json"
    argv = ["count", str(KNUTH / "queens10.dlx"), "--method", "search", "--tasks", "8"]
    assert run(capsys, *argv, "--checkpoint", str(state))[:2] == (0, "724\n")
    subproblems = len(json.loads(state.read_text())["subproblems"])
    status, out, err = run(capsys, *argv, "--checkpoint", str(state))
    assert (status, out) == (0, "724\n")
    told = f"excover: resuming from {state} ({subproblems} of {subproblems} subproblems "
    assert told + "counted by earlier runs: 724 solutions in " in err


def test_estimate_help_lists_only_the_statuses_it_can_give(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["estimate", "--help"]) == 0
    statuses = capsys.readouterr().out.split("exit status:", 1)[1]
    assert "1 stopped by --timeout (nothing printed)" in statuses
    assert "--max-nodes" not in statuses and "--limit" not in statuses


def test_estimate_stops_at_its_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "estimate", PENTO, "--timeout", "0")
    assert (status, out) == (1, "") and "stopped by --timeout before the estimate" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["queens", "8", "--count", "--workers", "2", "--method", "search"],
        ["queens", "8", "--count", "--workers", "2", "--up-to-symmetry"],
        ["queens", "8", "--up-to-symmetry", "--limit", "3"],
        ["sudoku", EMPTY4, "--limit", "3"],
        ["sudoku", EMPTY4, "--count", "--up-to-symmetry"],
        ["nonogram", MULTIPLE, "--count", "--limit", "1"],
    ],
)
def test_the_new_runs_follow_the_schema(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    import jsonschema

    status, out, _ = run(capsys, *argv, "--json")
    document = json.loads(out)
    jsonschema.Draft202012Validator(common.schema()).validate(document)
    assert document["command"] == argv[0] and document["method"] and document["engine"]
    assert status == (1 if "--count" in argv and "--limit" in argv else 0)


@pytest.mark.parametrize("command", sorted(SEARCHING))
def test_quiet_silences_the_lines_naming_what_ran(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Every command that searches names on stderr the method that ran; ``--quiet``
    drops those lines (what the program asks for stays: ``debug on``'s ZDD size) and
    leaves stdout as it was (but for a measured time)."""

    def timeless(text: str) -> list[str]:
        return [line for line in text.splitlines() if "time" not in line]

    status, out, err = run(capsys, command, *SEARCHING[command])
    assert status == 0 and "method " in err, err
    status, quiet_out, quiet_err = run(capsys, command, *SEARCHING[command], "--quiet")
    assert status == 0 and timeless(quiet_out) == timeless(out)
    named = ("excover: route ", "method ")

    def untimed(lines: list[str]) -> list[str]:  # "found in 0.03 s": a measured time
        return [re.sub(r"\d+\.\d+ s\b", "T s", line) for line in lines]

    assert untimed(quiet_err.splitlines()) == untimed(
        [line for line in err.splitlines() if not any(n in line for n in named)]
    )
