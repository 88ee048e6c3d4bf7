"""A ``.cmb`` count stopped early says what it counted (issue #60): ``excover run
--timeout`` and Ctrl-C print, for the count that was running, its solutions so far (a
lower bound on the total) and how it ran, record them in ``--json`` (``complete``
false), and exit with status 1 (130 for Ctrl-C), whether the count breaks the board's
symmetry (a pinned tile: each tiling found stands for the group's order) or not.

The program packs the 12 pentominoes and the square tetromino into the 8x8 square:
16,146 packings up to the square's 8 symmetries (Haselgrove 1958), 129,168 in all,
seconds of CPU with the symmetry and far more without it. The pinned count is stopped
with four monominoes in the square tetromino's place (holes anywhere): minutes of CPU
even with the symmetry, so that no count here finishes.
"""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runs import ended, wait_until_busy

from excover.deadlines import TimeUp
from excover.lang import Interpreter, parse
from excover.main import main
from excover.names import SEARCH_ENGINES

#: Every packing of the square, each symmetric image counted apart.
TOTAL = 16_146 * 8

PROGRAM = """include "excover:pentominoes"
include "excover:tetrominoes"
tiles t = {tiles}
problem sq = constant 8x8 true t
count {how}
"""

#: The tiles of :data:`PROGRAM`: the 12 pentominoes and the square tetromino.
SQUARE = "pentominoes + [O4 ~one]"
#: The 12 pentominoes and four monominoes: a count of minutes even with the symmetry.
HOLES = "pentominoes + [{*} ~4]"

#: The counts: by the pinned tile (the default), one search without the symmetry, and
#: the race of routes without it.
COUNTS = {
    "pinned": "dlx sq",
    "search": "dlx sq ~no_break_symmetry",
    "auto": "auto sq ~no_break_symmetry",
    "zdd": "zdd sq",
}

#: What ``excover run`` says of the count it stopped.
STOPPED = re.compile(
    r"excover: \S+:5: count sq: (?P<cause>stopped by --timeout after [\d.]+ s|interrupted) "
    r"\((?P<found>[\d,]+) solutions so far\); the result is partial"
)


#: The tiles a count is stopped on: the pinned count of the square ends within 0.9 to
#: 3 s of CPU time (0.86 s on a quiet machine finished before the first limit, 1.5 s:
#: the suite failed on it), so it runs with holes instead, minutes even with the
#: symmetry (no total known, but each tiling it finds stands for the group's 8).
TILES = {"pinned": HOLES}


def _program(tmp_path: Path, count: str, tiles: str | None = None) -> str:
    path = tmp_path / "square.cmb"
    tiles = TILES.get(count, SQUARE) if tiles is None else tiles
    path.write_text(PROGRAM.format(tiles=tiles, how=COUNTS[count]), encoding="utf-8")
    return str(path)


#: The time limits tried in turn: the first leaves time to build the problem, not to count
#: it; on a loaded machine it may run out while the problem is built (no count to report),
#: and the next reaches the count, still seconds from its end.
LIMITS = ("1.5", "3")


def _stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str, *flags: str
) -> tuple[str, str]:
    """Stdout and stderr of ``excover run`` on the program of ``count``, stopped by the
    first of :data:`LIMITS` that stops the count itself (exit status 1 every time)."""
    for limit in LIMITS:
        assert main(["run", _program(tmp_path, count), "--timeout", limit, *flags]) == 1
        captured = capsys.readouterr()
        if "count sq: stopped by --timeout" in captured.err:
            return captured.out, captured.err
    raise AssertionError(f"no limit of {LIMITS} stopped the count itself: {captured.err}")


def _so_far(err: str, cause: str) -> int:
    """The solutions so far that stderr gives for the stopped count, stopped by ``cause``."""
    said = STOPPED.search(err)
    assert said is not None, err
    assert said["cause"].startswith(cause)
    return int(said["found"].replace(",", ""))


@pytest.mark.parametrize("count", ["auto", "pinned", "search"])
def test_a_count_stopped_by_the_timeout_prints_its_solutions_so_far(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    out, err = _stopped(tmp_path, capsys, count)
    assert out == ""  # no count line: the count did not finish
    found = _so_far(err, "stopped by --timeout")
    assert 0 <= found <= TOTAL or count == "pinned"  # the pinned count has holes
    if count == "pinned":  # each tiling of the pinned problem stands for 8
        assert found % 8 == 0
        assert "symmetry: board group of order 8, I pinned" in err
    elif count == "search":
        assert "count sq: method search, " in err


@pytest.mark.parametrize("count", ["pinned", "search"])
def test_the_json_document_records_the_stopped_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    out, err = _stopped(tmp_path, capsys, count, "--json")
    document = json.loads(out)
    assert (document["complete"], document["stopped_by"]) == (False, "timeout")
    (record,) = document["results"]
    assert (record["statement"], record["line"], record["problem"]) == ("count", 5, "sq")
    assert (record["complete"], record["stopped_by"]) == (False, "timeout")
    assert 0 <= record["count"] <= TOTAL or count == "pinned"  # the pinned count has holes
    assert _so_far(err, "stopped by --timeout") == record["count"]
    if count == "pinned":
        assert record["symmetry"].startswith("board group of order 8")
    else:
        assert record["engine"] in SEARCH_ENGINES


def test_a_zdd_count_stopped_says_it_has_no_partial_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a ZDD's count is no sum of solutions found: nothing to give but how it ran
    for limit in LIMITS:  # the first may run out while the problem is built
        assert main(["run", _program(tmp_path, "zdd"), "--timeout", limit, "--json"]) == 1
        results = json.loads(capsys.readouterr().out)["results"]
        if results:
            break
    (record,) = results
    assert (record["complete"], record["count"], record["engine"]) == (False, None, "dxz")
    _, err = _stopped(tmp_path, capsys, "zdd")
    assert "count sq: method zdd, DXZ\n" in err
    assert re.search(r"count sq: stopped by --timeout after [\d.]+ s \(no partial count\)", err)


def test_the_interpreter_records_the_count_its_deadline_stopped() -> None:
    program = parse(PROGRAM.format(tiles=TILES["pinned"], how=COUNTS["pinned"]), "square.cmb")
    for limit in map(float, LIMITS):  # the first may run out while the problem is built
        out, err = io.StringIO(), io.StringIO()
        interpreter = Interpreter(out, err, deadline=time.monotonic() + limit)
        with pytest.raises(TimeUp):
            interpreter.run(program)
        if interpreter.results:
            break
    (record,) = interpreter.results
    assert (record["complete"], record["stopped_by"]) == (False, "timeout")
    assert record["count"] >= 0 and record["count"] % 8 == 0
    assert out.getvalue() == ""


@pytest.mark.parametrize("count", ["pinned", "search"])
def test_ctrl_c_prints_the_solutions_so_far(tmp_path: Path, count: str) -> None:
    """The pinned count runs with holes (:data:`TILES`); the search without the
    symmetry takes some 12 s."""
    process = subprocess.Popen(
        [sys.executable, "-m", "excover", "run", _program(tmp_path, count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # start-up and building the problem take about 1.2 s of CPU: the count runs by 2
    wait_until_busy(process, cpu=2.0)
    process.send_signal(signal.SIGINT)
    out, err = ended(process, 60)
    assert (process.returncode, out) == (130, "")
    found = _so_far(err, "interrupted")
    if count == "pinned":
        assert found % 8 == 0
        assert "symmetry: board group of order 8, I pinned" in err
    else:
        assert 0 <= found <= TOTAL
