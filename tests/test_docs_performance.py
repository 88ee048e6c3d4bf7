"""docs/performance.md leads with one table of current figures, and keeps it honest.

The page opens with "Current figures", one row per headline comparison: what is compared,
the figure, the date it was measured (YYYY-MM-DD), the load average it was measured at,
the command that measures it (a script of ``benchmarks/`` with its arguments) and a link
to the section of the notes below that tells the story. These tests check the table's
shape, that every command names a script that exists and flags that its parser accepts
(its ``--help``, every script at once), and that every link's anchor, and every anchor
that another page or the README links to, is a heading of the page.
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "performance.md"
COLUMNS = ["what", "figure", "date", "load", "command", "the story"]
COMMAND = re.compile(r"^`python (benchmarks/[\w-]+\.py)((?: [^`]*)?)`$")


def _text() -> str:
    return PAGE.read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _first_table(text: str) -> tuple[str, list[list[str]]]:
    """The heading above the page's first table, and the table's rows (header first)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    heading = next(line for line in reversed(lines[:start]) if line.startswith("#"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(_cells(line))
    return heading, rows


def _slugify(title: str) -> str:
    """The id Python-Markdown's toc (mkdocs' default) gives a heading of this text."""
    title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    title = re.sub(r"[^\w\s-]", "", title).strip().lower()
    return re.sub(r"[-\s]+", "-", title)


def _anchors(text: str) -> set[str]:
    """The ids Python-Markdown's toc gives the page's headings (code fences skipped)."""
    anchors: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)$", line)):
            title = re.sub(r"`([^`]*)`", r"\1", match.group(1))
            anchor = _slugify(title)
            base, n = anchor, 0
            while anchor in anchors:
                n += 1
                anchor = f"{base}_{n}"
            anchors.add(anchor)
    return anchors


def _rows() -> list[list[str]]:
    return _first_table(_text())[1][2:]


def test_the_page_opens_with_the_table_of_current_figures() -> None:
    text = _text()
    heading, rows = _first_table(text)
    assert heading == "## Current figures"
    # the first section of the page after its title and a short introduction
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections[0] == "## Current figures"
    intro = text.split("## Current figures")[0].strip().splitlines()[1:]
    assert 3 <= len([line for line in intro if line.strip()]) <= 6
    assert [cell.lower() for cell in rows[0]] == COLUMNS
    assert all(set(cell) <= set("-:") for cell in rows[1])
    assert len(rows) - 2 >= 20, "one row per headline comparison"
    assert "## History and lab notes" in text


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row[0][:40])
def test_every_row_has_a_date_a_load_a_command_and_a_story(row: list[str]) -> None:
    what, figure, date, load, command, story = row
    assert what and figure
    assert re.search(r"\b20\d\d-[01]\d-[0-3]\d\b", date), date
    assert re.search(r"\d|not recorded", load), load
    match = COMMAND.match(command)
    assert match, command
    assert (ROOT / match.group(1)).is_file(), command
    link = re.fullmatch(r"\[[^\]]+\]\(#([a-z0-9_-]+)\)", story)
    assert link, story
    assert link.group(1) in _anchors(_text()), story


def test_the_commands_flags_are_their_scripts() -> None:
    """Each script's ``--help`` (one process each, all at once) lists the row's flags."""
    flags: dict[str, set[str]] = {}
    for row in _rows():
        match = COMMAND.match(row[4])
        assert match, row[4]
        flags.setdefault(match.group(1), set()).update(
            re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", match.group(2))
        )
    helps = {
        script: subprocess.Popen(
            [sys.executable, script, "--help"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for script in flags
    }
    for script, process in helps.items():
        out, _ = process.communicate(timeout=120)
        assert process.returncode == 0 and out.startswith("usage:"), (script, out[-2000:])
        accepted = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", out))
        assert flags[script] <= accepted, (script, flags[script] - accepted)


def test_the_anchors_other_pages_link_to_are_headings_of_the_page() -> None:
    """Links such as ``performance.md#installing`` from the docs and the README."""
    anchors = _anchors(_text())
    sources = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
    linked = {
        (source.name, anchor)
        for source in sources
        for anchor in re.findall(r"performance\.md#([a-z0-9_-]+)", source.read_text("utf-8"))
    }
    linked |= {("performance.md", a) for a in re.findall(r"\]\(#([a-z0-9_-]+)\)", _text())}
    assert linked
    assert {(source, anchor) for source, anchor in linked if anchor not in anchors} == set()


def test_development_keeps_its_rules_and_points_to_the_measurements() -> None:
    """Dated timings left docs/development.md; the anchors others link to are still there."""
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    anchors = _anchors(text)
    assert {"running-the-suite", "where-the-suites-time-goes"} <= anchors
    assert "performance.md#the-suites-time" in text
    assert "the-suites-time" in _anchors(_text())
    # no measured run of the suite (minutes and seconds of a run, "load average N") is left
    assert not re.search(r"\d+ min \d+ s", text)
    assert not re.search(r"load average \d", text)
