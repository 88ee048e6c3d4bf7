"""Checkpoints of a long count: the subproblems and the counts of those finished.

A count cut into subproblems can stop at any time and go on later: the state is the list
of subproblems and, for each one finished, its count and its search nodes. The file is
JSON (``excover-checkpoint`` version 1), written to a temporary file beside it and then
renamed over it, so a process killed while writing leaves the previous checkpoint whole.
It names the problem by a digest of its DLX text and the counting method, and a checkpoint
of another problem or method is refused rather than mixed in. Counts of 2**53 and more are
written as decimal strings, as in ``--json`` (:func:`excover.numbers.json_count`): exact
for any reader, and at any size (Python's own ``json`` cannot write or read an integer of
more than 4,300 digits); an integer is read back from either form.

A checkpoint is trusted only when it proves itself: it carries the SHA-256 of its own
content (``checksum``), and its subproblems must partition the problem's search tree
(:func:`~excover.parallel.subproblems.check_partition`). A file edited by hand (a
subproblem dropped or repeated, a count changed) is refused with the reason, never
summed into a wrong total.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from excover.errors import UsageError
from excover.numbers import from_decimal, json_count
from excover.parallel.subproblems import Subproblem, check_options, check_partition
from excover.problem import ExactCover

__all__ = ["FORMAT", "Checkpoint", "checksum", "fingerprint"]

#: The format name and version written in every checkpoint.
FORMAT = ("excover-checkpoint", 1)


def checksum(content: dict[str, Any]) -> str:
    """The SHA-256 of a checkpoint's content in a canonical JSON form."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprint(problem: ExactCover) -> str:
    """A digest naming the problem: the SHA-256 of its DLX text."""
    return hashlib.sha256(problem.to_dlx().encode()).hexdigest()


@dataclass
class Checkpoint:
    """The state of a count cut into ``subproblems``: ``done[k] = (count, nodes)`` for
    each finished subproblem ``k``; ``seconds`` is the time spent by earlier runs.
    ``path`` is the file it is saved to (None: kept in memory only)."""

    path: Path | None
    problem: str
    method: str
    subproblems: list[Subproblem]
    done: dict[int, tuple[int, int]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def count(self) -> int:
        """The solutions counted so far."""
        return sum(total for total, _ in self.done.values())

    @property
    def nodes(self) -> int:
        """The search nodes of the finished subproblems."""
        return sum(nodes for _, nodes in self.done.values())

    @property
    def complete(self) -> bool:
        """True when every subproblem is finished."""
        return len(self.done) == len(self.subproblems)

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
        }
        return {**content, "checksum": checksum(content)}

    def save(self) -> None:
        """Write the checkpoint atomically (a temporary file renamed over the old one);
        nothing without a path."""
        if self.path is None:
            return
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(temporary, "w", encoding="utf-8") as stream:
                json.dump(self.as_dict(), stream)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, self.path)
        except OSError as exc:
            raise UsageError(
                f"cannot write checkpoint {self.path}: {exc.strerror or exc}"
            ) from None

    @classmethod
    def load(cls, path: Path, exact_cover: ExactCover, method: str) -> Checkpoint | None:
        """The checkpoint in ``path`` for this problem and method; None if there is no such
        file. A file that is not a checkpoint of this problem and method, or that does
        not prove itself (see the module notes), is an error naming the file and why."""
        problem = fingerprint(exact_cover)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UsageError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{path}: not a checkpoint (not UTF-8 text)") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise UsageError(f"{path}: not a checkpoint (bad JSON: {exc})") from None
        if not isinstance(data, dict) or (data.get("format"), data.get("version")) != FORMAT:
            raise UsageError(f"{path}: not an {FORMAT[0]} version {FORMAT[1]} file")
        stored = data.pop("checksum", None)
        if stored != checksum(data):
            raise UsageError(
                f"{path}: the checkpoint's checksum does not match its content (edited or "
                "damaged); delete it to start over"
            )
        if data.get("problem") != problem:
            raise UsageError(f"{path}: checkpoint of another problem; delete it to start over")
        if data.get("method") != method:
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
            check_options(exact_cover, parts)
            check_partition(exact_cover, parts)
        except UsageError as exc:
            raise UsageError(f"{path}: {exc}; delete it to start over") from None
        checkpoint = cls(path, problem, method, parts)
        checkpoint.seconds = float(seconds)
        for key, result in done.items():
            total, nodes = _result(result)
            known = key.isascii() and key.isdigit() and int(key) < len(subproblems)
            if not known or total is None or nodes is None:
                shown = repr(result) if len(repr(result)) <= 60 else repr(result)[:57] + "..."
                raise UsageError(f"{path}: bad result {key!r}: {shown}")
            checkpoint.done[int(key)] = (total, nodes)
        return checkpoint


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
