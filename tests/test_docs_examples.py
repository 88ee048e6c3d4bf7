"""Every code block of the README and of the documentation runs as written.

A reader pastes one block into a fresh interpreter or shell and expects it to work, so
each block runs alone, in a fresh process, in an empty folder where ``examples/`` (the
repository's examples) is the only thing at hand. The pages follow these conventions:

- ```` ```python ````: a program that stands alone (its own imports and inputs).
- ```` ```sh ````: shell commands, one per line, joined by ``&&`` where a line chains them.
  Each must exit with status 0, unless its line ends with a comment ``# exit status N``:
  it must then exit with N, and what it writes to stderr counts as printed (an example of
  an error message). ``pip install`` commands are not run from inside the suite: the
  extras and dependency groups they name must exist in ``pyproject.toml`` instead.
  ``python -m pytest`` (this suite) is not run either.
- ```` ```output ````: what the block just before it prints, compared line by line after
  trailing blanks are dropped; a line ``...`` stands for any number of lines.
- any other block (```` ```text ````, ```` ```dlx ````, ...): shown only (file contents,
  syntax summaries).

The README's blocks run in the default run; those of the pages in the slow run
(``python -m pytest -m slow``), since each starts fresh processes.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: The extras that pyproject.toml declares, for checking ``pip install ".[extra]"``.
EXTRAS = set(_PYPROJECT["project"]["optional-dependencies"])
#: Its dependency groups, for checking ``pip install --group NAME``.
GROUPS = set(_PYPROJECT["dependency-groups"])

#: The longest a single documentation example may take (seconds).
TIMEOUT = 120


@dataclass(frozen=True)
class Block:
    """One runnable block of a page, with the output the page shows for it (if any)."""

    page: Path
    line: int
    language: str
    code: str
    output: str | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The python and sh blocks of a page, each with the output block that follows it."""
    fence = re.compile(r"^```([\w+-]*)\s*$")
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, str, str]] = []
    i = 0
    while i < len(lines):
        opening = fence.match(lines[i])
        if opening is None:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        found.append((i + 1, opening.group(1), "\n".join(lines[i + 1 : end])))
        i = end + 1
    runnable = []
    for k, (line, language, code) in enumerate(found):
        if language not in ("python", "sh"):
            continue
        output = None
        if k + 1 < len(found) and found[k + 1][1] == "output":
            output = found[k + 1][2]
        runnable.append(Block(page, line, language, code, output))
    return runnable


ALL_BLOCKS = [block for page in PAGES for block in blocks(page)]


def _matches(expected: str, actual: str) -> bool:
    """Whether the printed text fits the shown output (``...`` lines match any lines)."""
    pattern = []
    for line in expected.strip("\n").splitlines():
        if line.strip() == "...":
            pattern.append(r"(?:.*\n)*?")
        else:
            pattern.append(re.escape(line.rstrip()) + r"[ \t]*\n")
    text = "\n".join(line.rstrip() for line in actual.strip("\n").splitlines()) + "\n"
    return re.fullmatch("".join(pattern), text) is not None


def _workdir(tmp_path: Path) -> Path:
    """An empty folder holding only a link to the repository's examples."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    return tmp_path


def _environment() -> dict[str, str]:
    """The suite's environment, with the interpreter's folder first on PATH so that
    ``excover`` and ``python`` are the ones of the installation under test."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


#: The comment that gives a command's expected exit status.
EXIT_STATUS = re.compile(r"\s+#\s*exit status (\d+)\s*$")


def _shell_commands(code: str) -> list[tuple[str, int]]:
    """The commands of a sh block that the suite runs, each with the exit status it
    should end with, after checking the ones it does not run."""
    commands = []
    for raw in code.replace("\\\n", " ").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        status = 0
        expected = EXIT_STATUS.search(line)
        if expected is not None:
            status = int(expected.group(1))
            line = line[: expected.start()]
        for command in line.split("&&"):
            words = shlex.split(command)
            if words[:2] == ["pip", "install"] or words[:4] == ["python", "-m", "pip", "install"]:
                for extra in re.findall(r"\[([\w,-]+)\]", command):
                    assert set(extra.split(",")) <= EXTRAS, f"no such extra: {extra}"
                for group in re.findall(r"--group\s+([\w-]+)", command):
                    assert group in GROUPS, f"no such dependency group: {group}"
            elif words[:3] == ["python", "-m", "pytest"]:
                continue
            else:
                commands.append((command.strip(), status))
    return commands


def _param(block: Block) -> Any:
    """The README's blocks run by default (the first commands a user meets); the pages'
    blocks, some 100 s of CPU in fresh processes, only in the slow run."""
    in_readme = block.page == ROOT / "README.md"
    return pytest.param(block, id=block.name, marks=() if in_readme else pytest.mark.slow)


@pytest.mark.parametrize("block", [_param(block) for block in ALL_BLOCKS])
def test_documented_example_runs(block: Block, tmp_path: Path) -> None:
    cwd = _workdir(tmp_path)
    env = _environment()
    runs: list[tuple[str | list[str], int]]
    if block.language == "python":
        runs = [([sys.executable, "-c", block.code], 0)]
    else:
        runs = list(_shell_commands(block.code))
    printed = []
    for run, status in runs:
        done = subprocess.run(
            run,
            cwd=cwd,
            env=env,
            shell=isinstance(run, str),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == status, (
            f"{block.name}: exit {done.returncode}, not {status}\n{done.stderr[-3000:]}"
        )
        printed.append(done.stdout if status == 0 else done.stdout + done.stderr)
    if block.output is not None:
        actual = "".join(printed)
        assert _matches(block.output, actual), f"{block.name} printed:\n{actual}"


def test_every_page_has_been_collected() -> None:
    """The collector sees the README and every page, and finds examples on the main ones."""
    names = {block.page.name for block in ALL_BLOCKS}
    assert {"README.md", "model-and-search.md", "zdd.md", "tiling.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_block_says_what_it_is(page: Path) -> None:
    """An unlabeled block would be neither run nor marked as shown-only: each opening
    fence names its language (python, sh, output, text, ...)."""
    inside = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if not inside:
                assert line.strip() != "```", f"{page.name}:{number}: a block without a language"
            inside = not inside
