"""What a ``.cmb`` program makes is bounded before it is allocated (issue #61).

Each hostile program of the issue is refused with a located error (exit status 2,
``file:line:column``). The programs that would take gigabytes run in a child process
whose address space is limited (``resource.setrlimit``), so that a regression fails with
the child's "resource limit" (exit status 3) instead of eating the machine's memory.
"""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from runs import ended

from excover.lang import Interpreter, LangError, limits, parse, parse_file
from excover.lang import parser as lang_parser
from excover.main import main
from excover.tiling import Pattern

#: The address space of the child processes: a run of a small program needs about a
#: third of it; each hostile program below would ask for more than all of it.
ADDRESS_SPACE = 1536 << 20


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def limited_run(cwd: Path, *args: str) -> tuple[int, str, str]:
    """``python -m excover run ARGS`` in ``cwd`` with ADDRESS_SPACE bytes of address space:
    exit status, stdout, stderr."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    process = subprocess.Popen(
        [sys.executable, "-m", "excover", "run", *args],
        cwd=cwd,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    out, err = ended(process, 120)
    return process.returncode, out, err


def run(text: str) -> str:
    out = io.StringIO()
    Interpreter(out, io.StringIO()).run(parse(text, "t.cmb"))
    return out.getvalue()


# ----- frames: every operation checked before numpy is asked -----


@pytest.mark.parametrize(
    ("program", "message"),
    [
        # the drawings: a long row, then many short ones (60 KB, 300 KB)
        ("pattern a = {" + "*" * 30_000 + "$." * 15_000 + "}\n", "a 30000x15001 frame"),
        ("pattern a = {" + "*" * 150_000 + "$." * 75_000 + "}\n", "a 150000x75001 frame"),
        # rows of blanks and comments are no rows; blanks are not cells
        ("pattern a = {" + "* " * 20_000 + "#x\n" + "\t.\n" * 1000 + "}\n", "a 20000x1001 frame"),
    ],
    ids=["60KB", "300KB", "blanks"],  # the test's id is in the child's environment
)
def test_a_huge_drawing_is_refused_before_it_is_made(
    tmp_path: Path, program: str, message: str
) -> None:
    write(tmp_path / "draw.cmb", program)
    status, out, err = limited_run(tmp_path, "draw.cmb")
    assert (status, out) == (2, "")
    assert err.startswith(f"draw.cmb:1:13: {message} is too large (at most 16777216 cells)")


def test_many_frames_each_under_the_limit_pass_the_programs_budget(tmp_path: Path) -> None:
    """A 4000x4000 drawing (12 KB of text) named 100 times would make 1.6 GB: the 34th
    passes the 512 MiB that a program's values may take in all."""
    drawing = "{" + "*" * 4000 + "$." * 3999 + "}"
    lines = [f"pattern a{number} = {drawing}\n" for number in range(100)]
    write(tmp_path / "many.cmb", "".join(lines))
    status, out, err = limited_run(tmp_path, "many.cmb")
    assert (status, out) == (2, "")
    first = err.splitlines()[0]
    assert first.startswith("many.cmb:34:15: a 4000x4000 frame would take about 15 MiB more")
    assert "past the 512 MiB a program's patterns, tiles, problems and results" in first


@pytest.mark.parametrize(
    ("program", "where", "message"),
    [
        # a board of 16,777,216 cells: 10 GB of placements
        ("problem p = constant 4096x4096 true [{*}]", "1:1", "problem 'p' (a board of 16777216"),
        # a tile as large as the board, turned 8 ways: 5 GB of coordinates
        (
            "pattern b = constant 4096x4096 true\nproblem p = b [b ~sym]",
            "2:16",
            "tile 'b' of 16777216 cells would take",
        ),
        # a union of a drawing with itself, 2000 times: each result a new frame
        (
            "pattern a = constant 4000x4000 true\n"
            + "".join(f"pattern b{n} = a || {{*}}\n" for n in range(2000)),
            "34:17",
            "a 4000x4000 frame would take",
        ),
    ],
    ids=["board", "tile", "unions"],
)
def test_problems_tiles_and_copies_are_charged_before_they_are_made(
    tmp_path: Path, program: str, where: str, message: str
) -> None:
    write(tmp_path / "big.cmb", program + "\n")
    status, out, err = limited_run(tmp_path, "big.cmb")
    assert (status, out) == (2, "")
    assert err.startswith(f"big.cmb:{where}: {message}"), err


def test_large_frames_within_the_limits_still_work(tmp_path: Path) -> None:
    """A quarter turn of a full 4096x4096 frame (it listed 16,777,216 coordinates: 800 MB)
    and a drawing of 6 MB (its regular expression kept 250 bytes a character) run in the
    child's address space."""
    text = (
        "pattern a = constant 4096x4096 true\n"
        "pattern b = apply Rot90 (a - constant 1x4096 true)\n"
        "assert b = shift constant 4096x4095 true 0x1\n"
        "pattern c = {" + "*" * (6 << 20) + "}\n"
        "problem p = crop 0x0 4x1 c [{**}]\ncount dlx p\n"
    )
    write(tmp_path / "fine.cmb", text)
    status, out, err = limited_run(tmp_path, "fine.cmb")
    assert (status, out) == (0, "p : (DLX) 1 solutions\n"), err


def test_the_budget_counts_what_is_made_not_what_is_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_PROGRAM_MEMORY", 1000)
    assert run("pattern a = constant 30x30 true\npattern b = a\npattern c = a\n") == ""
    with pytest.raises(LangError, match=r"t.cmb:2:13: a 30x4 frame would take"):
        run("pattern a = constant 30x30 true\npattern a = constant 30x4 true\n")
    # each print keeps its picture in the program's records
    monkeypatch.setattr(limits, "MAX_PROGRAM_MEMORY", 2000)
    text = "pattern a = {**}\nproblem p = a [a]\n" + "print p\n" * 100
    with pytest.raises(LangError, match=r"t.cmb:(\d+):1: the picture of problem 'p' would take"):
        run(text)


def test_an_all_that_lists_without_end_stops_at_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each solution listed by ``all`` is kept in its record (the --json output): the
    records of a problem with millions of tilings would fill the memory."""
    monkeypatch.setattr(limits, "MAX_PROGRAM_MEMORY", 200_000)
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    program = parse("problem p = constant 8x8 true [{**} ~sym]\nall dlx p\n", "t.cmb")
    with pytest.raises(LangError, match=r"t.cmb:2:1: the record of one more solution"):
        interpreter.run(program)
    listed = out.getvalue().count("\n\n")
    assert 10 < listed < 100  # some listed (64 cells, 8 KiB each), far from 12,988,816


def test_hexagonal_patterns_are_charged_by_their_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_PROGRAM_MEMORY", 100 * limits.CELL_SET_BYTES)
    assert run("pattern a = hex{" + "* " * 30 + "}\npattern b = a || a\n") == ""
    with pytest.raises(LangError, match=r"t.cmb:1:13: a hex pattern of 120 cells would take"):
        run("pattern a = hex{" + "* " * 120 + "}\n")
    with pytest.raises(LangError, match=r"t.cmb:2:15: a hex pattern of 90 cells would take"):
        run("pattern a = hex{" + "* " * 45 + "}\npattern b = a || a\n")


def test_the_studio_and_the_api_get_a_budget_per_call() -> None:
    """evaluate without a budget (as the studio calls it) still bounds each expression."""
    from excover.lang import syntax
    from excover.lang.evaluate import evaluate

    program = parse("pattern a = constant 4096x4096 false\n")
    statement = program.statements[0]
    assert isinstance(statement, syntax.PatternDecl)
    made = evaluate(statement.expr, {})
    assert isinstance(made, Pattern) and made.shape == (4096, 4096)
    budget = limits.Budget(limit=20_000_000)
    evaluate(statement.expr, {}, budget)
    with pytest.raises(LangError, match="would take about 16 MiB more than the 16 MiB"):
        evaluate(statement.expr, {}, budget)


# ----- the text: tokens, bytes -----


def test_the_tokens_of_a_program_and_its_includes_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lark keeps an object for each token (a tile list of 100,000 names took 240 MB)."""
    monkeypatch.setattr(lang_parser, "MAX_PROGRAM_TOKENS", 20)
    write(tmp_path / "lib.cmb", "pattern b = {*}\ntiles t = [b, b, b]\n")  # 12 tokens
    main_file = write(tmp_path / "m.cmb", 'pattern a = {*}\ninclude "lib.cmb"\n')  # 6 tokens
    assert len(parse_file(str(main_file)).statements) == 3
    main_file.write_text('pattern a = {*}\npattern c = a\ninclude "lib.cmb"\n')
    with pytest.raises(LangError, match=r"lib.cmb:2:15: a program and its included files hold"):
        parse_file(str(main_file))


def test_the_text_given_to_parse_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lang_parser, "MAX_PROGRAM_BYTES", 100)
    assert parse("pattern a = {" + "*" * 80 + "}").statements
    with pytest.raises(LangError, match=r"t.cmb:1:1: a program and its included files hold"):
        parse("pattern a = {" + "*" * 90 + "}", "t.cmb")


# ----- NUL bytes and links: errors, never tracebacks nor where a link leads -----


@pytest.mark.parametrize(
    ("statement", "column"),
    [
        ('include "a\0b.cmb"', 9),
        ('solve dlx p svg "a\0b.svg"', 17),
        ('dimacs p "a\0b.cnf"', 10),
        ('solve sat "a\0b" p ascii', 11),
    ],
)
def test_a_nul_byte_in_a_path_is_a_located_error(
    tmp_path: Path, statement: str, column: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was a ValueError from os.path.realpath: exit status 1 (a timeout's) and a
    traceback."""
    problem = "pattern d = {**}\nproblem p = constant 2x2 true [d ~sym]\n"
    program = write(tmp_path / "nul.cmb", problem + statement)
    assert main(["run", str(program)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{program}:3:{column}: the string 'a\\x00b")
    assert "holds a NUL byte" in err and "Traceback" not in err


def test_the_sandbox_refuses_a_nul_byte_too(tmp_path: Path) -> None:
    from excover.lang.errors import Source
    from excover.lang.sandbox import resolve_read, resolve_write

    pos = Source("t.cmb", "x").end()
    with pytest.raises(LangError, match="holds a NUL byte"):
        resolve_read("a\0b", (str(tmp_path),), pos)
    with pytest.raises(LangError, match="holds a NUL byte"):
        resolve_write("a\0b", (str(tmp_path),), pos, created=set(), overwrite=False)


def test_a_link_out_of_the_sandbox_is_named_as_written(tmp_path: Path) -> None:
    """A link in the program's folder (or /proc/self/cwd) leads outside: the refusal names
    the path as the program wrote it, not where it leads (a server's folders)."""
    secret = tmp_path / "private-folder-name"
    write(secret / "lib.cmb", "pattern a = {*}\n")
    (tmp_path / "prog").mkdir()
    (tmp_path / "prog" / "link").symlink_to(secret, target_is_directory=True)
    write(tmp_path / "x.cmb", "pattern a = {*}\n")
    for path in ("link/lib.cmb", "/proc/self/cwd/x.cmb"):  # run from tmp_path
        write(tmp_path / "prog" / "p.cmb", f'include "{path}"\n')
        status, out, err = limited_run(tmp_path, "prog/p.cmb")
        assert (status, out) == (2, "")
        assert err.startswith(f"prog/p.cmb:1:1: include: cannot read {path}: outside the folders")
        assert "private-folder-name" not in err and str(tmp_path) not in err
