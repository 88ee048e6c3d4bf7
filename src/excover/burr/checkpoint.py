"""Checkpoints of a long disassembly run: which assemblies are done, and their results.

``excover disassemble FILE --checkpoint CK`` saves here the disassembly of every
assembly finished, now and then, on Ctrl-C, on ``--timeout`` and at the end; run again,
it takes them from the file and disassembles only the others, so the result is the one a
run without a stop would print. The file is JSON (``excover-disassembly-checkpoint``
version 1), written whole and locked while a run uses it as count's checkpoints are
(:mod:`excover.parallel.sharing`, :func:`excover.parallel.checkpoint.claimed`), and
carries the SHA-256 of its content.

It names what it holds: the SHA-256 of the puzzle file's bytes, the problem, and the
settings that change a result (``--greedy``, ``--min-total``, ``--max-states``); a
checkpoint of another file, problem or settings is refused with the reason, never mixed
in. Each assembly done is kept under its index in the order the assemblies are found,
with the exact cover options it is made of, which must be those of the assembly found
there again. An assembly cut short by the deadline or by the bound on memory is not
kept: the next run takes it apart again. A damaged file (bad JSON, a checksum that does
not match) is renamed aside and the run starts over.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from excover.atomic import write_whole
from excover.burr.assembly import Assembly
from excover.burr.disassembly import Disassembly, Move, PackedSeparationTree, Separation, held_tree
from excover.errors import UsageError
from excover.parallel.checkpoint import checksum
from excover.parallel.sharing import set_aside

__all__ = ["FORMAT", "RunCheckpoint", "digest"]

#: The format name and version written in every checkpoint.
FORMAT = ("excover-disassembly-checkpoint", 1)


def digest(data: bytes) -> str:
    """The SHA-256 naming a puzzle file by its bytes."""
    return hashlib.sha256(data).hexdigest()


def _separation(tree: Separation) -> dict[str, Any]:
    return {
        "pieces": list(tree.pieces),
        "start": [list(t) for t in tree.start],
        "moves": [[list(m.pieces), m.direction, m.distance, m.grid] for m in tree.moves],
        "left": None if tree.left is None else _separation(tree.left),
        "removed": None if tree.removed is None else _separation(tree.removed),
    }


def _tree(data: dict[str, Any] | None) -> Separation | None:
    if data is None:
        return None
    return Separation(
        tuple(data["pieces"]),
        tuple((int(x), int(y), int(z)) for x, y, z in data["start"]),
        tuple(
            Move(tuple(p), int(d), None if s is None else int(s), int(g))
            for p, d, s, g in data["moves"]
        ),
        _tree(data["left"]),
        _tree(data["removed"]),
    )


def encode(result: Disassembly) -> dict[str, Any]:
    """A disassembly as the checkpoint keeps it (its assembly by its options only; its
    tree read into objects for the file, not kept by the disassembly, which a run keeps
    until it prints)."""
    tree = held_tree(result)
    if isinstance(tree, PackedSeparationTree):
        tree = tree.separation(tuple((0, 0, 0) for _ in result.assembly.pieces))
    return {
        "options": list(result.assembly.options),
        "status": result.status,
        "tree": None if tree is None else _separation(tree),
        "beyond_greedy": result.beyond_greedy,
        "states": result.states_explored,
        "reason": result.reason,
        "groups": [list(g) for g in result.groups],
    }


def decode(data: dict[str, Any], assembly: Assembly) -> Disassembly:
    """The disassembly of ``assembly`` kept as :func:`encode` keeps it."""
    return Disassembly(
        assembly,
        data["status"],
        _tree(data["tree"]),
        bool(data["beyond_greedy"]),
        int(data["states"]),
        str(data["reason"]),
        tuple(tuple(g) for g in data["groups"]),
    )


@dataclass
class RunCheckpoint:
    """The assemblies done by a run (``done[index]``: :func:`encode`'s form) of the
    puzzle file ``input`` (its :func:`digest`), its ``problem`` and ``settings``;
    ``seconds`` spent by earlier runs."""

    path: Path
    input: str
    problem: int
    settings: dict[str, Any]
    done: dict[int, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0

    def record(self, index: int, result: Disassembly) -> None:
        """Keep the result of the assembly at ``index`` (saved by the next :meth:`save`)."""
        self.done[index] = encode(result)

    def save(self) -> None:
        """Write the checkpoint whole (:func:`~excover.atomic.write_whole`)."""
        content = {
            "format": FORMAT[0],
            "version": FORMAT[1],
            "input": self.input,
            "problem": self.problem,
            "settings": self.settings,
            "seconds": self.seconds,
            "done": {str(k): v for k, v in sorted(self.done.items())},
        }
        data = json.dumps({**content, "checksum": checksum(content)}).encode()
        try:
            write_whole(self.path, data)
        except OSError as exc:
            raise UsageError(
                f"cannot write checkpoint {self.path}: {exc.strerror or exc}"
            ) from None

    def take(self, index: int, assembly: Assembly) -> Disassembly | None:
        """The result kept for ``assembly``, found at ``index`` (None: none kept), refused
        when the checkpoint kept another assembly there."""
        data = self.done.get(index)
        if data is None:
            return None
        if list(assembly.options) != data["options"]:
            raise self._another(index)
        return decode(data, assembly)

    def check_count(self, count: int) -> None:
        """Refuse a checkpoint that keeps an assembly past the ``count`` assemblies of
        the problem (all of them found)."""
        beyond = [index for index in self.done if index >= count]
        if beyond:
            raise self._another(min(beyond))

    def _another(self, index: int) -> UsageError:
        return UsageError(
            f"checkpoint {self.path}: its assembly {index + 1} is not the one found "
            "now (another version of excover?); remove the file to start over"
        )

    @classmethod
    def open(
        cls,
        path: Path,
        input: str,
        problem: int,
        settings: dict[str, Any],
        say: Callable[[str], None],
    ) -> RunCheckpoint:
        """The checkpoint in ``path`` (a new one when there is none, or when it is
        damaged: then renamed aside, which ``say`` tells), refused when it is of another
        file, problem or settings."""
        fresh = cls(path, input, problem, settings)
        try:
            text = path.read_bytes().decode()
        except FileNotFoundError:
            return fresh
        except (OSError, UnicodeDecodeError) as exc:
            return cls._damaged(fresh, str(exc), say)
        try:
            document = json.loads(text)
        except ValueError as exc:
            return cls._damaged(fresh, f"not JSON ({exc})", say)
        if not isinstance(document, dict) or document.get("format") != FORMAT[0]:
            raise UsageError(f"{path} is no disassembly checkpoint of excover")
        if document.get("version") != FORMAT[1]:
            raise UsageError(f"{path}: checkpoint version {document.get('version')!r} unknown")
        content = {k: v for k, v in document.items() if k != "checksum"}
        if document.get("checksum") != checksum(content):
            return cls._damaged(fresh, "its checksum does not match its content", say)
        for key, mine, what in (
            ("input", input, "another puzzle file (or the file changed)"),
            ("problem", problem, f"problem {document.get('problem')}, not {problem}"),
            ("settings", settings, f"other settings ({document.get('settings')})"),
        ):
            if document.get(key) != mine:
                raise UsageError(f"checkpoint {path} is of {what}; remove it or name another")
        fresh.done = {int(k): v for k, v in document["done"].items()}
        fresh.seconds = float(document["seconds"])
        return fresh

    @classmethod
    def _damaged(cls, fresh: RunCheckpoint, why: str, say: Callable[[str], None]) -> RunCheckpoint:
        try:
            aside = set_aside(fresh.path)
        except OSError as exc:
            raise UsageError(
                f"checkpoint {fresh.path} is damaged ({why}) and cannot be "
                f"renamed aside: {exc.strerror or exc}"
            ) from None
        say(f"checkpoint {fresh.path} is damaged ({why}): renamed {aside.name}; starting over")
        return fresh
