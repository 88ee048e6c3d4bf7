"""Checkpoints of a long count: the subproblems and the counts of those finished.

A count cut into subproblems can stop at any time and go on later: the state is the list
of subproblems and, for each one finished, its count and its search nodes. The file is
JSON (``excover-checkpoint`` version 1), written whole (a temporary file of its own beside
it, renamed over it: :func:`~excover.atomic.write_whole`), so a process killed
while writing leaves the previous checkpoint whole and a reader never finds half of one.
It names the problem by a digest of its DLX text and the counting method, and a checkpoint
of another problem or method is refused rather than mixed in (a method's old name, such as
``dlx`` for ``search``, is read as the method it is now; the next save writes the new).
Counts of 2**53 and more are written as decimal strings, as in ``--json``
(:func:`excover.numbers.json_count`): exact for any reader, and at any size (Python's own
``json`` cannot write or read an integer of more than 4,300 digits); an integer is read
back from either form.

A checkpoint is trusted only when it proves itself: it carries the SHA-256 of its own
content (``checksum``), and its subproblems must partition the problem's search tree
(:func:`~excover.parallel.subproblems.check_partition`). A file edited by hand (a
subproblem dropped or repeated, a count changed) is refused with the reason, never
summed into a wrong total.

A run on a cluster may cut a subproblem that runs long into *parts* (dynamic splitting,
:mod:`excover.parallel.cluster`): the parts are appended to the list and ``split`` maps
the subproblem to them (version 2 of the format; version 1 files, without splits, are read
as before). The ledger is then a tree: a subproblem's count is its own result when it has
one (its task finished before its parts did), else the sum of its parts' counts once all
of them are known, so no part of the search is counted twice, whichever finished first.
On load, the subproblems at the top (no one's part) and the leaves (split into nothing)
must each partition the search tree, and every part must lie inside the subproblem it
was cut from.

Several runs may name one file (:mod:`excover.parallel.sharing`): a run holds the
checkpoint's lock from before it reads the file until its last save (:func:`claimed`), and
a second run of the same file says which process holds it, then waits for it or counts
without it, saving nothing. A *damaged* file (not UTF-8, bad JSON, or a checksum that does
not match: what a disk, a copy or an editor can leave) is renamed aside by the run that
holds the lock, which then counts from the start (:meth:`Checkpoint.resume`): it no longer
blocks every later run. An intact checkpoint of another problem or method, a file that is
JSON but no checkpoint (another program's, named by mistake) and one whose checksum holds
but whose content does not (made by hand) are still refused with the reason.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from excover.atomic import write_whole
from excover.errors import ExcoverWarning, UsageError
from excover.formats.dlx import format_dlx
from excover.names import METHOD_ALIASES, canonical_method
from excover.numbers import from_decimal, json_count
from excover.parallel.sharing import POLL, FileLock, set_aside
from excover.parallel.subproblems import Subproblem, check_options, check_partition
from excover.problem import Problem

__all__ = [
    "FORMAT",
    "Checkpoint",
    "DamagedCheckpoint",
    "checksum",
    "claimed",
    "fingerprint",
    "named_file",
    "warn",
]

#: The format name and version written in every checkpoint.
FORMAT = ("excover-checkpoint", 2)

#: The versions read back (1: before dynamic splitting, never with ``split``).
READ_VERSIONS = (1, 2)


class DamagedCheckpoint(UsageError):
    """A checkpoint file that is damaged: not UTF-8, bad JSON, or its checksum does not
    match its content (see the module notes)."""


def warn(text: str) -> None:
    """Say ``text`` as an :class:`~excover.errors.ExcoverWarning` (the library's way)."""
    warnings.warn(text, ExcoverWarning, stacklevel=4)


@contextmanager
def claimed(
    path: Path | None,
    *,
    wait: bool,
    deadline: float | None = None,
    say: Callable[[str], None] = warn,
) -> Iterator[Path | None]:
    """Hold the lock of the checkpoint ``path`` for the block and give ``path``
    (:class:`~excover.parallel.sharing.FileLock`). When another process holds it, say so
    through ``say`` and either wait for it (``wait``; until the ``time.monotonic()``
    instant ``deadline``, when there is one; Ctrl-C raises KeyboardInterrupt) or give
    None: the run then goes on without the checkpoint and saves nothing. None gives None.
    A lock that cannot be made is a UsageError, as is a file that cannot be written."""
    if path is None:
        yield None
        return
    lock = FileLock(path)
    try:
        held = _take(lock, path, wait, deadline, say)
    except OSError as exc:
        raise UsageError(
            f"cannot write checkpoint {path}: {exc.strerror or exc} (its lock {lock.path})"
        ) from None
    if not held:
        yield None
        return
    try:
        yield path
    finally:
        lock.release()


def _take(
    lock: FileLock, path: Path, wait: bool, deadline: float | None, say: Callable[[str], None]
) -> bool:
    """Take ``lock`` as :func:`claimed` says; True when held."""
    if lock.take():
        return True
    holder = lock.holder()
    who = "another process" if holder is None else f"process {holder}"
    if not wait:
        say(f"checkpoint {path} is in use by {who}; counting without it (nothing saved)")
        return False
    if holder == os.getpid():
        raise UsageError(f"checkpoint {path} is already in use by this process")
    say(f"checkpoint {path} is in use by {who}; waiting for it (Ctrl-C to stop)")
    while deadline is None or time.monotonic() < deadline:
        left = POLL if deadline is None else min(POLL, deadline - time.monotonic())
        time.sleep(max(left, 0.0))
        if lock.take():
            return True
    say(f"checkpoint {path} is still in use at the time limit; counting without it")
    return False


def checksum(content: dict[str, Any]) -> str:
    """The SHA-256 of a checkpoint's content in a canonical JSON form."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprint(problem: Problem) -> str:
    """A digest naming the problem: the SHA-256 of its DLX text."""
    return hashlib.sha256(format_dlx(problem).encode()).hexdigest()


@dataclass
class Checkpoint:
    """The state of a count cut into ``subproblems``: ``done[k] = (count, nodes)`` for
    each finished subproblem ``k``; ``seconds`` is the time spent by earlier runs.
    ``path`` is the file it is saved to (None: kept in memory only). ``split[k]`` lists
    the indices of the parts that subproblem ``k`` was cut into (see the module notes)."""

    path: Path | None
    problem: str
    method: str
    subproblems: list[Subproblem]
    done: dict[int, tuple[int, int]] = field(default_factory=dict)
    seconds: float = 0.0
    split: dict[int, list[int]] = field(default_factory=dict)

    def top(self) -> list[int]:
        """The subproblems that are no one's part: together, the whole search."""
        parts = {part for group in self.split.values() for part in group}
        return [index for index in range(len(self.subproblems)) if index not in parts]

    def result(self, index: int) -> tuple[int, int] | None:
        """The count and nodes of subproblem ``index``: its own result, else the sum of
        its parts' once every part has one; None while unknown."""
        own = self.done.get(index)
        if own is not None or index not in self.split:
            return own
        total = nodes = 0
        for part in self.split[index]:
            found = self.result(part)
            if found is None:
                return None
            total, nodes = total + found[0], nodes + found[1]
        return total, nodes

    def _results(self) -> list[tuple[int, int] | None]:
        return [self.result(index) for index in self.top()]

    @property
    def count(self) -> int:
        """The solutions counted so far (each part of the search once)."""
        if not self.split:
            return sum(total for total, _ in self.done.values())
        return sum(self._known(index)[0] for index in self.top())

    @property
    def nodes(self) -> int:
        """The search nodes of the finished subproblems (each part of the search once)."""
        if not self.split:
            return sum(nodes for _, nodes in self.done.values())
        return sum(self._known(index)[1] for index in self.top())

    def _known(self, index: int) -> tuple[int, int]:
        """The count and nodes of what is finished under ``index``."""
        own = self.done.get(index)
        if own is not None:
            return own
        total = nodes = 0
        for part in self.split.get(index, []):
            found = self._known(part)
            total, nodes = total + found[0], nodes + found[1]
        return total, nodes

    def total_size(self) -> float:
        """The estimated size of the whole search: its top subproblems' (what a progress
        bar counts up to)."""
        return sum(self.subproblems[index].size for index in self.top())

    def done_size(self, sizes: list[float] | None = None) -> float:
        """The estimated size of the search counted so far, on the scale of
        :meth:`total_size`. A subproblem cut into parts counts the share of its parts
        finished (by their estimated sizes) times its own size, so that a bar keeps moving
        while the last subproblem's parts are counted instead of waiting for all of them.
        ``sizes``: the size of each subproblem by index, instead of its own (a bar's
        weights)."""
        weights = [sub.size for sub in self.subproblems] if sizes is None else sizes
        return sum(self._done_size(index, weights) for index in self.top())

    def _done_size(self, index: int, sizes: list[float]) -> float:
        size = sizes[index]
        if index in self.done:
            return size
        parts = self.split.get(index)
        if not parts:
            return 0.0
        whole = sum(sizes[part] for part in parts)
        done = sum(self._done_size(part, sizes) for part in parts)
        share = done / whole if whole > 0 and math.isfinite(whole) else 0.0
        return size * share

    @property
    def complete(self) -> bool:
        """True when every part of the search is counted."""
        if not self.split:
            return len(self.done) == len(self.subproblems)
        return all(found is not None for found in self._results())

    def settled(self, index: int) -> bool:
        """True when subproblem ``index`` needs no more work: it has a result, or so does
        a subproblem it is a part of, or all its parts are settled."""
        if self.result(index) is not None:
            return True
        parent = self._parents().get(index)
        return parent is not None and self.settled(parent)

    def _parents(self) -> dict[int, int]:
        return {part: index for index, group in self.split.items() for part in group}

    def open_leaves(self) -> list[int]:
        """The subproblems still to count: not split, not settled."""
        return [
            index
            for index in range(len(self.subproblems))
            if index not in self.split and not self.settled(index)
        ]

    def cut(self, index: int, parts: list[Subproblem]) -> list[int]:
        """Record that subproblem ``index`` is cut into ``parts`` (appended); their
        indices."""
        if index in self.split:
            raise UsageError(f"subproblem {index} is already split")
        first = len(self.subproblems)
        self.subproblems.extend(parts)
        self.split[index] = list(range(first, len(self.subproblems)))
        return self.split[index]

    def as_dict(self) -> dict[str, Any]:
        """The checkpoint as a JSON-ready dictionary, with the checksum of its content."""
        content = {
            "format": FORMAT[0],
            "version": FORMAT[1],
            "problem": self.problem,
            "method": self.method,
            "count": json_count(self.count),
            "seconds": self.seconds,
            "subproblems": [sub.as_dict() for sub in self.subproblems],
            "done": {
                str(index): [json_count(total), nodes]
                for index, (total, nodes) in sorted(self.done.items())
            },
            "split": {str(index): parts for index, parts in sorted(self.split.items())},
        }
        return {**content, "checksum": checksum(content)}

    def save(self) -> None:
        """Write the checkpoint whole (:func:`~excover.atomic.write_whole`: a
        temporary file of its own, renamed over the old one); nothing without a path."""
        if self.path is None:
            return
        try:
            write_whole(self.path, json.dumps(self.as_dict()).encode())
        except OSError as exc:
            raise UsageError(
                f"cannot write checkpoint {self.path}: {exc.strerror or exc}"
            ) from None

    @classmethod
    def load(cls, path: Path, exact_cover: Problem, method: str) -> Checkpoint | None:
        """The checkpoint in ``path`` for this problem and method; None if there is no such
        file. A damaged file (see :class:`DamagedCheckpoint`) raises that error; a file
        that is not a checkpoint of this problem and method, or that does not prove
        itself (see the module notes), is an error naming the file and why. An old name
        of a method (:data:`excover.names.METHOD_ALIASES`), in the file or in ``method``,
        is read as the method it is now."""
        method = canonical_method(method)
        problem = fingerprint(exact_cover)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UsageError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise DamagedCheckpoint(f"{path}: damaged checkpoint (not UTF-8 text)") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DamagedCheckpoint(f"{path}: damaged checkpoint (bad JSON: {exc})") from None
        except ValueError as exc:  # an integer of more digits than Python reads
            raise UsageError(f"{path}: not a checkpoint ({exc})") from None
        except RecursionError:
            raise UsageError(f"{path}: not a checkpoint (JSON nested too deeply)") from None
        if (
            not isinstance(data, dict)
            or data.get("format") != FORMAT[0]
            or data.get("version") not in READ_VERSIONS
        ):
            versions = " or ".join(str(version) for version in READ_VERSIONS)
            raise UsageError(f"{path}: not an {FORMAT[0]} version {versions} file")
        stored = data.pop("checksum", None)
        try:
            proved = stored == checksum(data)
        except RecursionError:
            raise UsageError(f"{path}: not a checkpoint (JSON nested too deeply)") from None
        if not proved:
            raise DamagedCheckpoint(
                f"{path}: damaged checkpoint (its checksum does not match its content: "
                "edited or damaged)"
            )
        if data.get("problem") != problem:
            raise UsageError(f"{path}: checkpoint of another problem; delete it to start over")
        if canonical_method(data.get("method", "")) != method:
            raise UsageError(
                f"{path}: checkpoint of a count with --method {data.get('method')}, "
                f"not {method}; delete it to start over"
            )
        subproblems = data.get("subproblems")
        done = data.get("done")
        seconds = data.get("seconds", 0.0)
        if not isinstance(subproblems, list) or not isinstance(done, dict):
            raise UsageError(f"{path}: checkpoint without subproblems or results")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise UsageError(f"{path}: bad seconds {seconds!r}")
        try:
            parts = [Subproblem.from_dict(sub) for sub in subproblems]
            cuts = _cuts(data.get("split", {}), len(parts))
            check_options(exact_cover, parts)
            _check_tree(exact_cover, parts, cuts)
        except UsageError as exc:
            raise UsageError(f"{path}: {exc}; delete it to start over") from None
        checkpoint = cls(path, problem, method, parts, split=cuts)
        checkpoint.seconds = float(seconds)
        for key, result in done.items():
            total, nodes = _result(result)
            known = key.isascii() and key.isdigit() and int(key) < len(subproblems)
            if not known or total is None or nodes is None:
                shown = repr(result) if len(repr(result)) <= 60 else repr(result)[:57] + "..."
                raise UsageError(f"{path}: bad result {key!r}: {shown}")
            checkpoint.done[int(key)] = (total, nodes)
        return checkpoint

    @classmethod
    def resume(
        cls,
        path: Path,
        exact_cover: Problem,
        method: str,
        say: Callable[[str], None] = warn,
    ) -> Checkpoint | None:
        """:meth:`load`, but a damaged file is renamed aside
        (:func:`~excover.parallel.sharing.set_aside`), said through ``say``, and None is
        given: the run counts from the start rather than stop. For the run that holds the
        checkpoint's lock (:func:`claimed`)."""
        try:
            return cls.load(path, exact_cover, method)
        except DamagedCheckpoint as exc:
            try:
                aside = set_aside(path)
            except OSError as error:
                raise UsageError(f"{exc}; cannot set it aside: {error.strerror or error}") from None
            say(f"{exc}; kept aside as {aside}; counting from the start")
            return None


def named_file(folder: Path, digest: str, method: str) -> Path:
    """The checkpoint file a front end keeps in its own ``folder`` for the problem of
    ``digest`` (:func:`fingerprint`) counted by ``method``, named by both; the file named
    by an old name of the method (:data:`excover.names.METHOD_ALIASES`) when only that
    one exists, so that a count stopped before the method was renamed goes on."""
    path = folder / f"{digest[:32]}-{method}.json"
    for old in (old for old, new in METHOD_ALIASES.items() if new == method):
        before = folder / f"{digest[:32]}-{old}.json"
        if not path.exists() and before.exists():
            return before
    return path


def _cuts(split: object, size: int) -> dict[int, list[int]]:
    """A checkpoint's ``split`` map, checked: each part comes after the subproblem it was
    cut from and belongs to exactly one."""
    if not isinstance(split, dict):
        raise UsageError(f"bad split {split!r}")
    cuts: dict[int, list[int]] = {}
    owner: dict[int, int] = {}
    for key, parts in split.items():
        index = int(key) if key.isascii() and key.isdigit() else -1
        if not 0 <= index < size or not isinstance(parts, list) or len(parts) < 2:
            raise UsageError(f"bad split of subproblem {key!r}: {parts!r}")
        for part in parts:
            if type(part) is not int or not index < part < size or part in owner:
                raise UsageError(f"bad split of subproblem {key!r}: part {part!r}")
            owner[part] = index
        cuts[index] = list(parts)
    return cuts


def _check_tree(problem: Problem, parts: list[Subproblem], cuts: dict[int, list[int]]) -> None:
    """The checks of a ledger with splits (see the module notes)."""
    inner = {part for group in cuts.values() for part in group}
    check_partition(problem, [sub for index, sub in enumerate(parts) if index not in inner])
    if not cuts:
        return
    check_partition(problem, [sub for index, sub in enumerate(parts) if index not in cuts])
    for index, group in cuts.items():
        for part in group:
            if not within(parts[part], parts[index]):
                raise UsageError(
                    f"subproblem {list(parts[part].path)} is recorded as a part of "
                    f"{list(parts[index].path)}, outside it"
                )


def within(part: Subproblem, whole: Subproblem) -> bool:
    """True when the node ``part`` of the search tree lies inside ``whole`` (a node, or a
    rest node: its branch and every later one of the same parent)."""
    if not whole.rest:
        depth = len(whole.path)
        return len(part.path) > depth and part.path[:depth] == whole.path
    above, first = whole.path[:-1], whole.path[-1]
    return (
        len(part.path) >= len(whole.path)
        and part.path[: len(above)] == above
        and part.path[len(above)] >= first
        and part != whole
    )


def _result(result: object) -> tuple[int | None, int | None]:
    """The count and the search nodes of a subproblem's result in a checkpoint (a list
    of two; None for each that is not a count)."""
    if not isinstance(result, list) or len(result) != 2:
        return None, None
    return _count(result[0]), _count(result[1])


def _count(value: object) -> int | None:
    """A count as a checkpoint holds it: an int, or a decimal string (the big ones),
    never negative; None for anything else."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = from_decimal(value)
    return value if type(value) is int and value >= 0 else None
