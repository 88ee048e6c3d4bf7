"""Checkpoints of a long count: the subproblems and the counts of those finished.

A count cut into subproblems can stop at any time and go on later: the state is the list
of subproblems and, for each one finished, its count and its search nodes. The file is
JSON (``excover-checkpoint`` version 1), written to a temporary file beside it and then
renamed over it, so a process killed while writing leaves the previous checkpoint whole.
It names the problem by a digest of its DLX text and the counting method, and a checkpoint
of another problem or method is refused rather than mixed in.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from excover.errors import UsageError
from excover.parallel.subproblems import Subproblem
from excover.problem import ExactCover

__all__ = ["FORMAT", "Checkpoint", "fingerprint"]

#: The format name and version written in every checkpoint.
FORMAT = ("excover-checkpoint", 1)


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
        """The checkpoint as a JSON-ready dictionary."""
        return {
            "format": FORMAT[0],
            "version": FORMAT[1],
            "problem": self.problem,
            "method": self.method,
            "count": self.count,
            "seconds": self.seconds,
            "subproblems": [sub.as_dict() for sub in self.subproblems],
            "done": {str(index): list(result) for index, result in sorted(self.done.items())},
        }

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
    def load(cls, path: Path, problem: str, method: str) -> Checkpoint | None:
        """The checkpoint in ``path`` for this problem digest and method; None if there is
        no such file. A file that is not a checkpoint of this problem and method is an
        error, naming the file and what differs."""
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
        except UsageError as exc:
            raise UsageError(f"{path}: {exc}") from None
        checkpoint = cls(path, problem, method, parts)
        checkpoint.seconds = float(seconds)
        for key, result in done.items():
            if (
                not (key.isascii() and key.isdigit())
                or int(key) >= len(subproblems)
                or not isinstance(result, list)
                or len(result) != 2
                or not all(type(value) is int and value >= 0 for value in result)
            ):
                raise UsageError(f"{path}: bad result {key!r}: {result!r}")
            checkpoint.done[int(key)] = (result[0], result[1])
        return checkpoint
