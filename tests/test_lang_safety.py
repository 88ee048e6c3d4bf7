"""A ``.cmb`` program is harmless by default (issue #47): it runs no outside program,
reads only under its own folder, writes only under the current folder or its own and
replaces no file it did not create, and its includes are bounded. Each reproduction of the
issue is run through ``excover run`` (the command's ``main``, in a temporary folder) and the
API;
``--allow-external``, ``--allow-paths`` and ``--overwrite`` (``Permissions``) lift each
restriction."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from runs import ended

from excover.lang import Interpreter, LangError, Permissions, parse, parse_file
from excover.lang import parser as lang_parser
from excover.lang.sandbox import SAFE
from excover.main import main

#: A problem with a solution, for the commands that write files.
DOMINO = "pattern d = {**}\nproblem p = constant 2x2 true [d ~sym]\n"

#: The outside "solver" of the issue: a shell command that writes a file.
SHELL = "sh -c 'id > out.txt'"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def excover_run(
    cwd: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> tuple[int, str, str]:
    """``excover run ARGS`` in ``cwd``, reading ``stdin``: exit status, stdout, stderr.
    The command's ``main`` runs in this process (a child's start-up would cost more than
    most of these runs), except with variables ``env`` added to the environment: a child
    process then runs ``python -m excover``, since ``/proc/self/environ`` shows the
    environment a process started with."""
    if env is not None:
        process = subprocess.Popen(
            [sys.executable, "-m", "excover", "run", *args],
            cwd=cwd,
            env={**os.environ, **env},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        out, err = process.communicate(stdin) if stdin is not None else ended(process, 120)
        return process.returncode, out, err
    printed, errors = io.StringIO(), io.StringIO()
    before, standard_input = os.getcwd(), sys.stdin
    os.chdir(cwd)
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(errors):
            status = main(["run", *args])
    finally:
        sys.stdin = standard_input
        os.chdir(before)
    return status, printed.getvalue(), errors.getvalue()


def run(program_path: Path, permissions: Permissions = SAFE) -> str:
    """The output of the program in a file, parsed and run with ``permissions``."""
    out = io.StringIO()
    program = parse_file(str(program_path), permissions=permissions)
    Interpreter(out, io.StringIO(), permissions=permissions).run(program)
    return out.getvalue()


# ----- 1. outside programs -----

needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")


@needs_sh
def test_a_solver_command_does_not_run_by_default(tmp_path: Path) -> None:
    program = write(tmp_path / "prog" / "ext.cmb", DOMINO + f'solve sat "{SHELL}" p ascii\n')
    status, out, err = excover_run(tmp_path, "prog/ext.cmb")
    assert (status, out) == (2, "")
    first, quoted, caret = err.splitlines()
    assert first.startswith("prog/ext.cmb:3:7: sat ")
    assert "runs an outside program" in first and "--allow-external" in first
    assert quoted == f'    solve sat "{SHELL}" p ascii' and caret == "          ^"
    assert not (tmp_path / "out.txt").exists() and not (program.parent / "out.txt").exists()
    # lifted: the command runs (and writes out.txt), then answers nothing a solver would
    status, out, err = excover_run(tmp_path, "prog/ext.cmb", "--allow-external")
    assert status == 2 and "wrote no answer" in err
    assert (tmp_path / "out.txt").read_text().startswith("uid=")


@pytest.mark.parametrize(
    "statement",
    [
        f'solve sat "{SHELL}" p ascii',
        f'count sat "ext:{SHELL}" p',
        f'all sat "ext:{SHELL}" p',
        f'solve sat "ext:{SHELL}" p ascii',
    ],
)
@needs_sh
def test_no_outside_solver_runs_through_the_api(
    statement: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    program = write(tmp_path / "p.cmb", DOMINO + statement + "\n")
    with pytest.raises(LangError, match="runs an outside program") as caught:
        run(program)
    assert caught.value.line == 3
    assert not (tmp_path / "out.txt").exists()
    with pytest.raises(LangError):  # allowed, it runs: it is no solver, which is an error
        run(program, Permissions(allow_external=True))
    assert (tmp_path / "out.txt").exists()


def test_python_sat_solvers_need_no_permission(tmp_path: Path) -> None:
    program = write(tmp_path / "p.cmb", DOMINO + 'count sat "cadical" p\ncount sat "minisat22" p\n')
    assert run(program) == "p : (SAT) 2 solutions\np : (SAT) 2 solutions\n"


def test_a_refusal_stops_the_program_before_its_first_statement(tmp_path: Path) -> None:
    program = write(tmp_path / "p.cmb", DOMINO + 'count dlx p\ncount sat "ext:nosuch" p\n')
    out = io.StringIO()
    interpreter = Interpreter(out, io.StringIO())
    with pytest.raises(LangError, match=r"p.cmb:4:7: sat 'ext:nosuch' runs an outside"):
        interpreter.run(parse_file(str(program)))
    assert out.getvalue() == "" and interpreter.results == []


# ----- 2. reading files -----


def test_an_include_outside_the_programs_folder_is_refused(tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.txt", "TOPSECRET-LINE\n")
    lines = ['include "../secret.txt"', f'include "{secret}"']
    if os.path.isfile("/etc/passwd"):
        lines.append('include "/etc/passwd"')
    for line in lines:
        write(tmp_path / "prog" / "evil.cmb", f"pattern a = {{*}}\n{line}\n")
        status, out, err = excover_run(tmp_path, "prog/evil.cmb")
        assert (status, out) == (2, "")
        first, quoted, caret = err.splitlines()
        assert first.startswith("prog/evil.cmb:2:1: include: cannot read ")
        assert "--allow-paths DIR" in first
        assert (quoted, caret) == (f"    {line}", "    ^")
    # lifted: the file is read, but it is no .cmb file and its text is not shown
    write(tmp_path / "prog" / "evil.cmb", 'pattern a = {*}\ninclude "../secret.txt"\n')
    status, out, err = excover_run(tmp_path, "prog/evil.cmb", "--allow-paths", str(tmp_path))
    assert status == 2 and "TOPSECRET" not in err
    assert err.splitlines()[0] == (
        "prog/evil.cmb:2:1: an error at secret.txt:1:1 in an included file "
        "that is not a .cmb file (its text is not shown)"
    )


def test_home_and_proc_files_are_refused_and_never_shown(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / ".bashrc", "export TOKEN=bashrc-secret\n")
    env = {"HOME": str(home), "SECRET_TOKEN": "environ-secret"}
    write(tmp_path / "prog" / "a.cmb", 'include "~/.bashrc"\n')
    write(tmp_path / "prog" / "b.cmb", 'include "/proc/self/environ"\n')
    for name in ("a.cmb", "b.cmb"):
        status, _, err = excover_run(tmp_path, f"prog/{name}", env=env)
        assert status == 2 and "include: cannot read" in err and "secret" not in err
    # allowed, each is read but not shown: neither ends in .cmb
    allow = ["--allow-paths", str(home), "--allow-paths", "/proc"]
    for name in ("a.cmb", "b.cmb"):
        status, _, err = excover_run(tmp_path, f"prog/{name}", *allow, env=env)
        assert status == 2 and "its text is not shown" in err and "secret" not in err


def test_a_link_in_the_programs_folder_does_not_lead_out(tmp_path: Path) -> None:
    write(tmp_path / "outside" / "lib.cmb", "pattern a = {*}\n")
    (tmp_path / "prog").mkdir()
    (tmp_path / "prog" / "lib.cmb").symlink_to(tmp_path / "outside" / "lib.cmb")
    (tmp_path / "prog" / "dir").symlink_to(tmp_path / "outside", target_is_directory=True)
    for target in ("lib.cmb", "dir/lib.cmb", "sub/../../outside/lib.cmb"):
        program = write(tmp_path / "prog" / "p.cmb", f'include "{target}"\n')
        with pytest.raises(LangError, match=r"p.cmb:1:1: include: cannot read .*--allow-paths"):
            parse_file(str(program))
        allowed = parse_file(str(program), permissions=Permissions(allow_paths=(str(tmp_path),)))
        assert len(allowed.statements) == 1
    # the refusal names the path as written, never where the link leads (issue #61)
    with pytest.raises(LangError) as caught:
        parse_file(str(write(tmp_path / "prog" / "p.cmb", 'include "lib.cmb"\n')))
    assert "include: cannot read lib.cmb: outside" in caught.value.message
    assert "outside/" not in caught.value.message and "that is" not in caught.value.message


def test_includes_below_the_programs_folder_are_read(tmp_path: Path) -> None:
    write(tmp_path / "prog" / "lib" / "pieces.cmb", 'include "../common/more.cmb"\n')
    write(tmp_path / "prog" / "common" / "more.cmb", "pattern a = {*}\n")
    program = write(tmp_path / "prog" / "main.cmb", 'include "lib/pieces.cmb"\n')
    assert len(parse_file(str(program)).statements) == 1


def test_standard_input_reads_under_the_current_folder(tmp_path: Path) -> None:
    write(tmp_path / "secret.cmb", "pattern a = {*}\n")
    (tmp_path / "work").mkdir()
    status, out, err = excover_run(
        tmp_path / "work", "-", "--parse-only", stdin='include "../secret.cmb"\n'
    )
    assert status == 2 and err.startswith("<stdin>:1:1: include: cannot read ../secret.cmb: ")
    assert str(tmp_path) not in err  # the path as written: the server's folders untold
    status, out, _ = excover_run(tmp_path, "-", "--parse-only", stdin='include "secret.cmb"\n')
    assert (status, out) == (0, "<stdin>: ok, 1 statements\n")


def test_errors_in_an_included_file_that_is_not_a_cmb_file_are_not_quoted(
    tmp_path: Path,
) -> None:
    write(tmp_path / "notes.txt", "pattern b = {*}\nhunter2 password\n")
    write(tmp_path / "asserts.txt", "pattern b = {*}\nassert b = {**}\n")
    write(tmp_path / "names.txt", "pattern b = hunter2\n")
    for name in ("notes.txt", "asserts.txt", "names.txt"):
        program = write(tmp_path / "m.cmb", f'pattern a = {{*}}\n  include "{name}"\n')
        with pytest.raises(LangError) as caught:
            run(program)
        error = caught.value
        assert (error.pos.source.name, error.line, error.column) == (str(program), 2, 3)
        assert "hunter2" not in error.report() and "its text is not shown" in error.message
        assert error.report().splitlines()[1] == f'      include "{name}"'
    # a valid program in a file of another name runs
    write(tmp_path / "lib.txt", "pattern b = {*}\nproblem p = b [b]\ncount dlx p\n")
    assert run(write(tmp_path / "m.cmb", 'include "lib.txt"\n')) == "p : (DLX) 1 solutions\n"


# ----- 3. writing files -----


@pytest.fixture
def nested(tmp_path: Path) -> tuple[Path, Path]:
    """A current folder ``a/b/c`` and a program folder ``a/b/c/prog`` inside it."""
    cwd = tmp_path / "a" / "b" / "c"
    (cwd / "prog").mkdir(parents=True)
    return cwd, cwd / "prog"


def test_writes_outside_the_current_and_the_programs_folder_are_refused(
    nested: tuple[Path, Path],
) -> None:
    cwd, folder = nested
    write(folder / "w.cmb", DOMINO + 'dimacs p "../x.cnf"\n')
    write(folder / "w2.cmb", DOMINO + 'solve dlx p svg "../../y.svg"\n')
    for name, target, statement in (
        ("w.cmb", cwd.parent / "x.cnf", 'dimacs p "../x.cnf"'),
        ("w2.cmb", cwd.parent.parent / "y.svg", 'solve dlx p svg "../../y.svg"'),
    ):
        status, out, err = excover_run(cwd, f"prog/{name}")
        assert (status, out) == (2, "")
        first, quoted, _ = err.splitlines()
        assert first.startswith(f"prog/{name}:3:1: cannot write {statement.split()[-1][1:-1]}")
        assert "--allow-paths DIR" in first and quoted == "    " + statement
        assert not target.exists()
        # lifted
        status, out, err = excover_run(cwd, f"prog/{name}", "--allow-paths", str(cwd.parent.parent))
        assert status == 0, err
        assert target.read_text().startswith("<svg" if name == "w2.cmb" else "c ")


def test_writes_under_the_current_and_the_programs_folder_are_allowed(
    nested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, folder = nested
    monkeypatch.chdir(cwd)
    text = DOMINO + 'dimacs p "here.cnf"\n' + f'solve dlx p svg "{folder}/there.svg"\n'
    assert run(write(folder / "p.cmb", text)) == f'SVG written in file "{folder}/there.svg"\n'
    assert (cwd / "here.cnf").is_file() and (folder / "there.svg").is_file()


def test_a_file_the_run_did_not_create_is_not_replaced(
    nested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, folder = nested
    precious = write(cwd / "out.svg", "precious")
    write(folder / "p.cmb", DOMINO + 'solve dlx p svg "out.svg"\n')
    status, out, err = excover_run(cwd, "prog/p.cmb")
    assert (status, out) == (2, "")
    assert err.startswith("prog/p.cmb:3:1: cannot write out.svg: it exists and this run did not")
    assert "--overwrite" in err and precious.read_text() == "precious"
    status, out, _ = excover_run(cwd, "prog/p.cmb", "--overwrite")
    assert (status, out) == (0, 'SVG written in file "out.svg"\n')
    assert precious.read_text().startswith("<svg")
    # a file written by this run may be written again
    monkeypatch.chdir(cwd)
    program = write(folder / "twice.cmb", DOMINO + 'dimacs p "t.cnf"\ndimacs p "t.cnf"\n')
    assert run(program) == "" and (cwd / "t.cnf").is_file()
    with pytest.raises(LangError, match=r"twice.cmb:3:1: cannot write t.cnf: it exists"):
        run(program)  # a new run did not create it


def test_a_link_in_the_current_folder_does_not_lead_a_write_out(
    nested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, folder = nested
    monkeypatch.chdir(cwd)
    outside = cwd.parent / "target.cnf"
    (cwd / "link.cnf").symlink_to(outside)  # dangling: its target does not exist yet
    program = write(folder / "p.cmb", DOMINO + 'dimacs p "link.cnf"\n')
    with pytest.raises(LangError, match=r"cannot write link.cnf: outside") as caught:
        run(program)
    assert "target.cnf" not in caught.value.message  # where the link leads is not told
    assert not outside.exists()


# ----- 4. bounded includes -----


def bomb(folder: Path, levels: int) -> Path:
    """e0 includes e1 twice, e1 includes e2 twice, ...: 2**levels includes if each ran."""
    for level in range(levels):
        write(folder / f"e{level}.cmb", f'include "e{level + 1}.cmb"\n' * 2)
    write(folder / f"e{levels}.cmb", "pattern a = {*}\n")
    return folder / "e0.cmb"


def test_the_include_bomb_reads_each_file_once(tmp_path: Path) -> None:
    first = bomb(tmp_path, 20)
    assert len(parse_file(str(first)).statements) == 1
    status, out, _ = excover_run(tmp_path, "--parse-only", "e8.cmb")  # 2**12 if each ran
    assert (status, out) == (0, "e8.cmb: ok, 1 statements\n")


def test_a_second_include_of_a_file_does_nothing(tmp_path: Path) -> None:
    write(tmp_path / "a.cmb", "pattern a = {*}\n")
    text = 'include "a.cmb"\npattern a = {**}\ninclude "a.cmb"\nassert a = {**}\n'
    assert run(write(tmp_path / "m.cmb", text)) == ""


def test_the_number_of_included_files_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lang_parser, "MAX_INCLUDED_FILES", 3)
    for number in range(4):
        write(tmp_path / f"f{number}.cmb", f"pattern p{number} = {{*}}\n")
    text = "".join(f'include "f{number}.cmb"\n' for number in range(4))
    with pytest.raises(LangError, match=r"m.cmb:4:1: a program includes at most 3 files"):
        parse_file(str(write(tmp_path / "m.cmb", text)))
    text = "".join(f'include "f{number}.cmb"\n' for number in range(3))
    assert len(parse_file(str(write(tmp_path / "m.cmb", text))).statements) == 3


def test_the_text_of_a_program_and_its_includes_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lang_parser, "MAX_PROGRAM_BYTES", 100)
    write(tmp_path / "big.cmb", "pattern b = {" + "*" * 60 + "}\n")  # 75 bytes
    main = write(tmp_path / "m.cmb", 'pattern a = {*}\ninclude "big.cmb"\n')  # 34 bytes
    with pytest.raises(LangError, match=r"m.cmb:2:1: include: cannot read .*big.cmb: a program "):
        parse_file(str(main))
    main.write_text('include "big.cmb"\n')  # 18 + 75 bytes
    assert len(parse_file(str(main)).statements) == 1


def test_the_text_of_parse_counts_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lang_parser, "MAX_PROGRAM_BYTES", 100)
    write(tmp_path / "big.cmb", "pattern b = {" + "*" * 60 + "}\n")
    text = "# " + "." * 40 + '\ninclude "big.cmb"\n'
    with pytest.raises(LangError, match=r"t.cmb:2:1: include: cannot read"):
        parse(text, "t.cmb", str(tmp_path))


# ----- the switches -----


def test_the_switches_are_in_the_help(tmp_path: Path) -> None:
    status, out, _ = excover_run(tmp_path, "--help")
    assert status == 0
    for switch in ("--allow-external", "--allow-paths DIR", "--overwrite"):
        assert switch in out


def test_allow_paths_must_name_a_folder(tmp_path: Path) -> None:
    write(tmp_path / "p.cmb", "pattern a = {*}\n")
    status, _, err = excover_run(tmp_path, "p.cmb", "--allow-paths", "nowhere")
    assert status == 2 and "'nowhere' is not a folder" in err


def test_permissions_resolve_their_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    permissions = Permissions(allow_paths=("link", str(tmp_path / "real")))
    assert permissions.allow_paths == (str((tmp_path / "real").resolve()),) * 2
