"""The ledger of a design search: every design's outcome, on disk as it is found, so that
a stopped search resumes where it stopped.

The file is JSON lines (UTF-8, one JSON document a line). The first line is the
**header**: the format and its version, the kind of design, the space's declaration
(:meth:`~excover.design.space.DesignSpace.declaration`), its number of candidates and
the goal. A run that finds a ledger checks that its header is the one it would write
(another space or goal is refused, naming the first field that differs) and goes on
from it; a missing or empty file is a new ledger.

Every other line records a **range of consecutive indices** done::

    {"from": 120, "to": 184, "seconds": 0.41, "outcomes": [null, 3, "9+", "!area", ...]}

with one entry per index, in order:

- ``null``: not a design of its own (the candidate's orbit is represented at another
  index);
- a whole number ``n``: exactly n solutions;
- ``"n+"``: at least n solutions (the search stopped there: the goal needed no more);
- ``"!word"``: rejected before any search (``"!area"``, ``"!colouring"``, ``"!fit"``);
- ``{"solutions": n, "exact": true, "scores": {"nodes": 812}}``: a design that meets
  the goal's bound on solutions, with the scores the top K is ranked by (a score of
  several numbers, such as a burr's level, as a list).

``seconds`` is the time the range's evaluations took. Ranges never overlap; the indices
not covered by any line are what is left to do.

**Written safely.** The header is written whole (:func:`excover.atomic.write_whole`);
each range is then appended by one ``write`` of its whole line to the file opened for
appending, which never touches the lines before it. A run that is killed or whose
machine goes down leaves at worst a torn last line, without its newline: a run that
opens the ledger ignores it and cuts it off before appending. A line that fails mid-way
(a full disk) is cut off at once. Lines go to the disk (``fsync``) every
:data:`SYNC_EVERY` seconds and when the run ends, so a machine that goes down loses at
most those seconds of work, and a killed process only the designs in flight. A damaged
line anywhere else (not JSON, indices out of range or overlapping) is refused with its
line number. While a run uses a ledger it holds its lock
(:class:`~excover.parallel.sharing.FileLock`, the file ``LEDGER.lock``): a second run
on the same ledger is refused, naming the process that holds it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from excover.atomic import write_whole
from excover.design.errors import LedgerError
from excover.design.space import Evaluation
from excover.parallel.sharing import FileLock

__all__ = ["FORMAT", "SYNC_EVERY", "Ledger", "Range", "decode", "encode"]

#: The format name and version of the header.
FORMAT = ("excover-design-ledger", 1)

#: Seconds between two ``fsync`` calls of a ledger that is written to.
SYNC_EVERY = 5.0


def encode(outcome: Evaluation | None, with_scores: bool) -> Any:
    """A design's outcome as a ledger entry (see the module notes): ``None`` for an
    index that is not a design; the scores kept only ``with_scores``."""
    if outcome is None:
        return None
    if outcome.rejected is not None:
        return "!" + outcome.rejected
    if with_scores and outcome.scores:
        scores = {k: list(v) if isinstance(v, tuple) else v for k, v in outcome.scores.items()}
        return {"solutions": outcome.solutions, "exact": outcome.exact, "scores": scores}
    return outcome.solutions if outcome.exact else f"{outcome.solutions}+"


def decode(entry: Any) -> Evaluation | None:
    """The outcome of a ledger entry; ValueError when it is none of the forms. The
    outcomes without scores are shared (a ledger of millions of designs holds a few
    kinds of them, each once in memory)."""
    if entry is None:
        return None
    if isinstance(entry, int | str) and not isinstance(entry, bool):
        return _plain(entry)
    if isinstance(entry, dict) and set(entry) == {"solutions", "exact", "scores"}:
        solutions, exact, scores = entry["solutions"], entry["exact"], entry["scores"]
        if (
            _number(solutions)
            and solutions >= 0
            and isinstance(exact, bool)
            and isinstance(scores, dict)
            and all(_number(v) or _numbers(v) for v in scores.values())
        ):
            kept = {k: tuple(v) if isinstance(v, list) else v for k, v in scores.items()}
            return Evaluation(solutions, exact, kept)
    raise ValueError(f"bad outcome {entry!r}")


@lru_cache(maxsize=1024)
def _plain(entry: int | str) -> Evaluation:
    """The outcome of an entry without scores: ``n``, ``"n+"`` or ``"!word"``."""
    if isinstance(entry, int) and entry >= 0:
        return Evaluation(entry)
    if isinstance(entry, str):
        if entry.startswith("!") and len(entry) > 1:
            return Evaluation(0, rejected=entry[1:])
        if entry.endswith("+") and entry[:-1].isdigit():
            return Evaluation(int(entry[:-1]), exact=False)
    raise ValueError(f"bad outcome {entry!r}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numbers(value: Any) -> bool:
    """A score of several numbers (a JSON list)."""
    return isinstance(value, list) and all(_number(part) for part in value)


@dataclass(frozen=True)
class Range:
    """A line of the ledger: the outcomes of the indices ``start`` to ``stop``
    (excluded), in order, and the ``seconds`` they took."""

    start: int
    stop: int
    outcomes: tuple[Evaluation | None, ...]
    seconds: float

    def __iter__(self) -> Iterator[tuple[int, Evaluation | None]]:
        return zip(range(self.start, self.stop), self.outcomes, strict=True)


def _difference(mine: Any, theirs: Any, path: str) -> str | None:
    """The first field (dotted path) where two headers differ, None when they agree."""
    if isinstance(mine, Mapping) and isinstance(theirs, Mapping):
        for key in [*mine, *(key for key in theirs if key not in mine)]:
            found = _difference(mine.get(key), theirs.get(key), f"{path}.{key}" if path else key)
            if found is not None:
                return found
        return None
    return None if mine == theirs else path


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Ledger:
    """A ledger opened by a run (see the module notes): :attr:`ranges` holds the lines
    found in it, :meth:`append` adds one. Use it in a ``with`` block, which holds the
    lock and closes the file at the end (synced to the disk)."""

    def __init__(self, path: str | os.PathLike[str], header: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT[0], "version": FORMAT[1], **header}
        self.ranges: list[Range] = []
        self._lock = FileLock(self.path)
        self._descriptor: int | None = None
        self._synced = time.monotonic()

    def __enter__(self) -> Ledger:
        try:
            held = self._lock.take()
        except OSError as exc:
            raise LedgerError(
                f"cannot use ledger {self.path}: {exc.strerror or exc} (its lock {self._lock.path})"
            ) from None
        if not held:
            holder = self._lock.holder()
            who = "another process" if holder is None else f"process {holder}"
            raise LedgerError(f"ledger {self.path} is in use by {who}")
        try:
            self._open()
        except BaseException:
            self._lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        """Read the ledger (or start it), cut a torn last line off, open it to append."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            raise LedgerError(f"cannot read ledger {self.path}: {exc.strerror or exc}") from None
        if not data:
            line = json.dumps(self.header, sort_keys=True) + "\n"
            try:
                write_whole(self.path, line, follow_links=True)
            except OSError as exc:
                raise LedgerError(
                    f"cannot write ledger {self.path}: {exc.strerror or exc}"
                ) from None
            data = line.encode()
        whole = data[: data.rfind(b"\n") + 1]  # a torn last line (no newline) is left out
        self._read(whole)
        try:
            self._descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            if len(whole) < len(data):
                os.ftruncate(self._descriptor, len(whole))
        except OSError as exc:
            raise LedgerError(f"cannot write ledger {self.path}: {exc.strerror or exc}") from None

    def _read(self, data: bytes) -> None:
        lines = data.split(b"\n")[:-1]
        if not lines:
            raise LedgerError(f"{self.path}: not a design ledger (no header line)")
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT[0]:
            raise LedgerError(f"{self.path}: not a design ledger (its first line is no header)")
        if header.get("version") != FORMAT[1]:
            raise LedgerError(
                f"{self.path}: a design ledger of version {header.get('version')!r}; this "
                f"excover reads version {FORMAT[1]}"
            )
        differs = _difference(self.header, header, "")
        if differs is not None:
            mine: Any = self.header
            theirs: Any = header
            for key in differs.split("."):
                mine = mine.get(key) if isinstance(mine, Mapping) else None
                theirs = theirs.get(key) if isinstance(theirs, Mapping) else None
            raise LedgerError(
                f"ledger {self.path} holds another search: its {differs} is {_shown(theirs)}, "
                f"this one's {_shown(mine)} (name another ledger, or remove this one)"
            )
        size = int(self.header["size"])
        for number, raw in enumerate(lines[1:], 2):
            self.ranges.append(self._range(raw, number, size))
        self.ranges.sort(key=lambda found: found.start)
        for before, after in zip(self.ranges, self.ranges[1:], strict=False):
            if after.start < before.stop:
                raise LedgerError(
                    f"{self.path}: damaged: the indices {after.start} to {before.stop - 1} "
                    "are recorded twice"
                )

    def _range(self, raw: bytes, number: int, size: int) -> Range:
        """The range of the ledger's line ``number``, checked."""
        try:
            line = json.loads(raw)
            start, stop, entries = line["from"], line["to"], line["outcomes"]
            seconds = float(line.get("seconds", 0.0))
            if not (
                isinstance(start, int)
                and isinstance(stop, int)
                and 0 <= start < stop <= size
                and isinstance(entries, list)
                and len(entries) == stop - start
            ):
                raise ValueError("bad range")
            outcomes = tuple(decode(entry) for entry in entries)
        except (ValueError, KeyError, TypeError) as exc:
            raise LedgerError(f"{self.path}:{number}: damaged line ({exc})") from None
        return Range(start, stop, outcomes, seconds)

    def append(self, start: int, entries: list[Any], seconds: float) -> None:
        """Append the line of the indices from ``start`` on, one entry each (already
        :func:`encode`-d), which took ``seconds``."""
        if self._descriptor is None:
            raise LedgerError(f"ledger {self.path} is closed")
        line = {
            "from": start,
            "to": start + len(entries),
            "seconds": round(seconds, 4),
            "outcomes": entries,
        }
        data = (json.dumps(line, separators=(",", ":")) + "\n").encode()
        descriptor = self._descriptor
        end = os.fstat(descriptor).st_size
        try:
            written = 0
            while written < len(data):
                written += os.write(descriptor, data[written:])
        except BaseException:
            os.ftruncate(descriptor, end)  # never a torn line between two whole ones
            raise
        if time.monotonic() - self._synced >= SYNC_EVERY:
            os.fsync(descriptor)
            self._synced = time.monotonic()

    def close(self) -> None:
        """Sync the file to the disk, close it and let its lock go."""
        descriptor, self._descriptor = self._descriptor, None
        try:
            if descriptor is not None:
                try:
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
        finally:
            self._lock.release()
