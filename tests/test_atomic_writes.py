"""Every file excover writes is written whole (issue 80, :mod:`excover.atomic`): each
writer, interrupted at 50 points drawn over its whole run, leaves the old file as it was
(or, past the rename, the whole new one) and no temporary file behind.

An interrupt point is a line of Python run (``sys.settrace``) or a call of a compiled
function (``sys.setprofile``: a file's ``write``, ``os.fsync``, ``os.replace``, gzip's
compression, ...). A first run counts them; each of the 50 runs then raises Ctrl-C
(KeyboardInterrupt) or a full disk (OSError ENOSPC) at one of them, drawn by a seeded
generator. The dissection count writes its checkpoint from compiled code, through
``os.write``: there the points are its calls of ``os.write``, ``os.fsync`` and
``os.replace``. Then the links planted where a checkpoint and its lock are written.
"""

from __future__ import annotations

import errno
import io
import os
import random
import shutil
import stat
import sys
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from excover import ExactCover, Family, atomic
from excover.burr.checkpoint import RunCheckpoint
from excover.burr.xmpuzzle import read_xmpuzzle, write_xmpuzzle
from excover.cli.files import write_file, write_problem
from excover.errors import UsageError
from excover.lang.interp import Interpreter
from excover.lang.parser import parse_file
from excover.lang.sandbox import Permissions
from excover.main import main
from excover.nonogram import formats as nonogram_formats
from excover.parallel.checkpoint import Checkpoint, claimed
from excover.tiling import Pattern, Tile, Tiling, count_dissections
from excover.tiling.mesh import write_stl

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ROOT / "tests" / "data" / "burrtools" / "prisms.xmpuzzle"
NONOGRAM = ROOT / "examples" / "nonograms" / "heart.txt"
#: The interrupt points tried for each writer.
POINTS = 50
#: Old content that no writer writes.
OLD = b"the designer's file, as it was\n"


class Interrupter:
    """Counts the interrupt points of a run (see the module notes) and, when ``at`` is
    given, raises ``error`` at the ``at``-th, once."""

    def __init__(self, at: int | None = None, error: BaseException | None = None) -> None:
        self.at = at
        self.error = error
        self.seen = 0
        self.fired = False
        self.active = False

    def _point(self) -> None:
        if not self.active:
            return
        self.seen += 1
        if self.seen == self.at:
            self.active = False
            self.fired = True
            error, self.error = self.error, None
            assert error is not None
            try:
                raise error
            finally:  # held by no one but its traceback, no frame of it: dropped with it
                del error

    def trace(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            self._point()
        return self.trace

    def profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "c_call":
            self._point()

    def run(self, write: Callable[[], object]) -> bool:
        """Run ``write`` under this interrupter; True when an exception ended it (the
        injected one, or what the writer made of it). The exception is dropped, and
        with it the frames it stopped, as a command does when it reports it: a ``with``
        block stopped in its own machinery (in ``contextlib``) is closed then."""
        old_trace, old_profile = sys.gettrace(), sys.getprofile()
        sys.settrace(self.trace)
        sys.setprofile(self.profile)
        self.active = True
        try:
            write()
        except BaseException:
            return True
        finally:
            self.active = False
            sys.setprofile(old_profile)
            sys.settrace(old_trace)
        return False


def error(k: int) -> BaseException:
    """The exception raised at the ``k``-th point tried: Ctrl-C and a full disk in turn."""
    if k % 2:
        return KeyboardInterrupt()
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def points(total: int, name: str) -> list[int]:
    """50 points drawn over a run of ``total`` points (all of them when fewer), the
    generator seeded by the writer's name."""
    chosen = random.Random(zlib.crc32(name.encode()))
    if total <= POINTS:
        return list(range(1, total + 1))
    return sorted(chosen.sample(range(1, total + 1), POINTS))


@dataclass
class Writer:
    """A writer (``name``: what calls it) of the file ``file`` in a folder:
    ``make(folder)`` prepares what it needs (outside the interrupted run) and gives the
    call that writes the file; ``whole(data)``, when given, tells a complete file other
    than the one a run without interrupt writes (a command whose content depends on
    where it was stopped)."""

    name: str
    make: Callable[[Path], Callable[[], object]]
    whole: Callable[[bytes], bool] | None = None


def _problem() -> ExactCover:
    p = ExactCover(primary=["a", "b", "c"], secondary=["x"])
    p.add_option(["a", "x"])
    p.add_option(["b", "c"])
    p.add_option(["a", "b", "c", "x:red"])
    return p


def _xmpuzzle(folder: Path) -> Callable[[], object]:
    puzzle = read_xmpuzzle(PUZZLE)
    return lambda: write_xmpuzzle(puzzle, folder / "file")


def _disassemble(folder: Path) -> Callable[[], object]:
    """``excover disassemble P --write P``: the puzzle solved and saved over itself."""
    target = str(folder / "file")
    return lambda: main(["disassemble", target, "--write", target, "--quiet"])


def _is_puzzle(data: bytes) -> bool:
    from excover.burr.xmpuzzle import parse_xmpuzzle

    try:
        parse_xmpuzzle(data)
    except UsageError:
        return False
    return True


def _dlx(folder: Path) -> Callable[[], object]:
    p = _problem()
    return lambda: p.write(folder / "file")


def _write_dlx_flag(folder: Path) -> Callable[[], object]:
    p = _problem()
    return lambda: write_problem(p, str(folder / "file"), "the problem")


def _dimacs(folder: Path) -> Callable[[], object]:
    p = _problem()
    return lambda: p.write_dimacs(folder / "file")


def _knuth_sat(folder: Path) -> Callable[[], object]:
    cnf = _problem().to_cnf()
    return lambda: cnf.write_knuth(folder / "file")


def _family(folder: Path) -> Callable[[], object]:
    family = Family.from_sets([{1, 2}, {3}, {1, 3, 4}])
    return lambda: family.save(folder / "file")


def _svg(folder: Path) -> Callable[[], object]:
    domino = Tile(Pattern.from_ascii("**"), multiplicity="any")
    solution = Tiling(Pattern.from_ascii("***\n***"), [domino]).first()
    assert solution is not None
    return lambda: solution.write_svg(folder / "file")


def _stl(folder: Path) -> Callable[[], object]:
    data = bytes(range(256)) * 8  # what the writer is given: it writes it as it is
    return lambda: write_stl(data, folder / "file")


def _svg_flag(folder: Path) -> Callable[[], object]:
    text = "<svg>" + "<rect/>" * 100 + "</svg>\n"
    return lambda: write_file(str(folder / "file"), text)


def _nonogram(folder: Path) -> Callable[[], object]:
    puzzle = nonogram_formats.read(NONOGRAM)
    return lambda: nonogram_formats.write(puzzle, folder / "file", "non")


def _nonograms(folder: Path) -> Callable[[], object]:
    puzzle = nonogram_formats.read(NONOGRAM)
    return lambda: nonogram_formats.write_all([puzzle, puzzle], folder / "file", "tcga")


def _cmb(statement: str) -> Callable[[Path], Callable[[], object]]:
    """A ``.cmb`` program whose ``statement`` writes ``file`` (``--overwrite``: the
    file is there before the run)."""

    def make(folder: Path) -> Callable[[], object]:
        source = folder.parent / "program.cmb"
        pattern = "pattern d = {**}\nproblem p = constant 2x2 true [d ~sym]\n"
        source.write_text(pattern + statement.replace("FILE", str(folder / "file")) + "\n")
        allowed = Permissions(overwrite=True, allow_paths=(str(folder),))
        program = parse_file(str(source), permissions=allowed)
        return lambda: Interpreter(io.StringIO(), io.StringIO(), permissions=allowed).run(program)

    return make


def _ledger(folder: Path) -> Callable[[], object]:
    state = Checkpoint(folder / "file", "0" * 64, "search", [], {}, 12.5)
    return state.save


def _disassembly_checkpoint(folder: Path) -> Callable[[], object]:
    state = RunCheckpoint(folder / "file", "0" * 64, 0, {"moves": True}, {}, 3.0)
    return state.save


WRITERS = [
    Writer("write_xmpuzzle", _xmpuzzle),
    Writer("disassemble --write", _disassemble, _is_puzzle),
    Writer("ExactCover.write", _dlx),
    Writer("--write-dlx", _write_dlx_flag),
    Writer("write_dimacs", _dimacs),
    Writer("write_knuth", _knuth_sat),
    Writer("Family.save", _family),
    Writer("write_svg", _svg),
    Writer("write_stl", _stl),
    Writer("--svg", _svg_flag),
    Writer("nonogram write", _nonogram),
    Writer("nonogram write_all", _nonograms),
    Writer(".cmb svg", _cmb('solve dlx p svg "FILE"')),
    Writer(".cmb dimacs", _cmb('dimacs p "FILE"')),
    Writer("checkpoint", _ledger),
    Writer("disassembly checkpoint", _disassembly_checkpoint),
]


@pytest.mark.parametrize("writer", WRITERS, ids=[writer.name for writer in WRITERS])
def test_a_writer_interrupted_anywhere_leaves_the_old_file_whole(
    tmp_path: Path, writer: Writer, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    target = folder / "file"
    monkeypatch.chdir(tmp_path)
    old = PUZZLE.read_bytes() if writer.whole is not None else OLD
    write = writer.make(folder)
    target.write_bytes(old)
    write()  # the first run loads what the writer imports on use
    new = target.read_bytes()
    assert new != old
    target.write_bytes(old)
    counting = Interrupter()
    assert not counting.run(write) and target.read_bytes() == new
    outcomes = {"old": 0, "new": 0}
    chosen = points(counting.seen, writer.name)
    for k, at in enumerate(chosen):
        target.write_bytes(old)
        os.chmod(target, 0o640)
        interrupter = Interrupter(at, error(k))
        interrupter.run(write)
        assert interrupter.fired, f"point {at} of {counting.seen} not reached"
        assert sorted(os.listdir(folder)) == ["file"], f"left behind at point {at}"
        data = target.read_bytes()
        if data == old:
            outcomes["old"] += 1
        else:
            assert data == new or (writer.whole is not None and writer.whole(data)), at
            outcomes["new"] += 1
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the permissions kept
    assert outcomes["old"], outcomes  # points before the rename were tried


# ----- the dissection count's checkpoint, written by compiled code -----


class _Stop(Exception):
    """Raised by a tick to stop a count part way."""


def test_a_dissection_checkpoint_interrupted_anywhere_is_a_whole_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count resumes from an old checkpoint and saves after every cell; stopped at
    any write, flush or rename of those saves (even while it saves on its way out), it
    leaves the old checkpoint or a whole later one, from which a count gives the total."""
    ledger = tmp_path / "count.bin"

    def stop(done: int, cells: int, states: int) -> None:
        if done >= 8:
            raise _Stop

    with pytest.raises(_Stop):
        count_dissections(5, 6, 5, checkpoint=ledger, tick=stop)
    old = ledger.read_bytes()
    seen = 0
    at: int | None = None
    raised: BaseException | None = None

    def counted(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            nonlocal seen, raised
            seen += 1
            if seen == at and raised is not None:
                error, raised = raised, None
                try:
                    raise error
                finally:  # held by no one but its traceback, no frame of it
                    del error
            return function(*args)

        return call

    monkeypatch.setattr(os, "write", counted(os.write))
    monkeypatch.setattr(os, "replace", counted(os.replace))
    # a point, not run: what a stop leaves is checked here, not what a power cut does
    monkeypatch.setattr(os, "fsync", counted(lambda descriptor: None))

    def run() -> None:
        count_dissections(5, 6, 5, checkpoint=ledger, checkpoint_every=0)

    run()
    total, whole = seen, ledger.read_bytes()
    assert total > POINTS
    check = tmp_path / "check"
    check.mkdir()
    outcomes = {"old": 0, "last": 0, "between": 0}
    for k, at in enumerate(points(total, "dissections")):
        ledger.write_bytes(old)
        seen, raised = 0, error(k)
        with suppress(KeyboardInterrupt, OSError, UsageError):  # or none: a folder's fsync
            run()
        assert raised is None, f"point {at} of {total} not reached"
        assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")], at
        data = ledger.read_bytes()
        if data in (old, whole):
            outcomes["old" if data == old else "last"] += 1
            continue
        outcomes["between"] += 1  # a later layer: whole, and the count goes on from it
        shutil.copyfile(ledger, check / "copy.bin")
        at = None
        assert count_dissections(5, 6, 5, checkpoint=check / "copy.bin") == 27950
    assert outcomes["old"] and outcomes["between"], outcomes


# ----- links planted where a file is written -----


def test_a_link_planted_at_the_old_spare_name_of_a_dissection_checkpoint_is_not_followed(
    tmp_path: Path,
) -> None:
    """The dissection count once wrote ``FILE.new`` and renamed it: a link planted at
    that name made it write its states into the link's target."""
    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    ledger = tmp_path / "count.bin"
    spare = tmp_path / "count.bin.new"
    spare.symlink_to(victim)
    assert count_dissections(4, 4, 4, checkpoint=ledger, checkpoint_every=0) == 117
    assert victim.read_text() == "precious\n"
    assert spare.is_symlink() and os.readlink(spare) == str(victim)
    assert sorted(tmp_path.iterdir()) == [ledger, spare, victim]


def test_a_hard_link_planted_at_a_lock_is_refused_and_left_whole(tmp_path: Path) -> None:
    """A hard link at ``FILE.lock`` names another file's content: the lock neither
    empties it nor writes a process id into it."""
    victim = tmp_path / "precious.txt"
    victim.write_text("precious\n")
    ledger = tmp_path / "count.bin"
    os.link(victim, tmp_path / "count.bin.lock")
    with pytest.raises(UsageError, match=r"cannot write checkpoint .*count\.bin: .*hard link"):
        count_dissections(4, 4, 4, checkpoint=ledger)
    with pytest.raises(UsageError, match=r"count\.bin\.lock"), claimed(ledger, wait=False):
        pass
    assert victim.read_text() == "precious\n" and not ledger.exists()


def test_a_lock_file_holding_something_else_is_refused(tmp_path: Path, capsys: Any) -> None:
    state = tmp_path / "state.json"
    lock = tmp_path / "state.json.lock"
    lock.write_text("notes that are not a process id\n")
    assert (
        main(["count", str(ROOT / "examples" / "pento6x10.dlx"), "--checkpoint", str(state)]) == 2
    )
    err = capsys.readouterr().err
    assert f"cannot write checkpoint {state}" in err and "process id" in err
    assert lock.read_text() == "notes that are not a process id\n"
    lock.write_text("12345\n")  # one left behind by a run killed: free
    with claimed(state, wait=False) as held:
        assert held == state and lock.read_text() == f"{os.getpid()}\n"
    assert not lock.exists()


def test_a_users_file_behind_a_link_is_replaced_there(tmp_path: Path) -> None:
    """``--svg LINK`` writes where the link leads, as writing to the name did; the link
    stays. A checkpoint's link is replaced instead (tests/test_checkpoint_sharing.py)."""
    target = tmp_path / "real.svg"
    target.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    write_file(str(link), "<svg/>")
    assert link.is_symlink() and target.read_text() == "<svg/>"
    assert sorted(tmp_path.iterdir()) == [link, target]


def test_a_device_is_written_not_replaced(tmp_path: Path) -> None:
    """``--svg /dev/null``: a device has no content to keep, and is never replaced."""
    atomic.write_whole(os.devnull, "nothing\n", follow_links=True)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_folder_that_cannot_be_written_is_an_error_naming_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "missing"
    with pytest.raises(UsageError, match=r"cannot write .*missing/out\.svg"):
        write_file(str(folder / "out.svg"), "<svg/>")


def test_a_long_name_gets_a_temporary_file_within_the_limit(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250)
    atomic.write_whole(target, b"data")
    assert target.read_bytes() == b"data" and os.listdir(tmp_path) == [target.name]
