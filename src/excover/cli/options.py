"""What every command's run reads of its flags, once, at the edge: :class:`RunOptions`.

A command's ``run`` reads its ``argparse.Namespace`` into typed objects as it starts
(:meth:`RunOptions.read`, or the request of the exact-cover commands,
:class:`excover.cli.exact_cover.request.CoverRequest`, which is one) and hands those
down: the output of a run (:mod:`excover.cli.report`, :mod:`excover.cli.status`), its
progress bar (:mod:`excover.cli.progress`) and its deadline read them, never the
Namespace, and nothing below the edge makes or changes one.

The clock of ``--timeout`` starts when the command starts: :func:`excover.main.main`
gives its parser the instant as the default ``started`` (a ``time.monotonic()`` value),
and :class:`RunOptions` turns ``--timeout`` into the run's ``deadline`` from it; a command
run on its own (as tests do) starts its clock when its options are read.
"""

from __future__ import annotations

import time

from excover.records import Record

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse
    from dataclasses import KW_ONLY
    from typing import Any, Protocol

    class Shown(Protocol):
        """What a progress bar reads of a run: ``--progress`` (None: when stderr is a
        terminal) and ``--json``; :class:`RunOptions` is one."""

        @property
        def progress(self) -> bool | None: ...

        @property
        def json(self) -> bool: ...


__all__ = ["RunOptions", "counts", "run_fields"]


def counts(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a count (``count``, or ``--count`` of a puzzle)
    rather than for solutions listed."""
    return getattr(args, "command", None) == "count" or getattr(args, "count", False) is True


def run_fields(args: argparse.Namespace, command: str | None = None) -> dict[str, Any]:
    """The keywords of :class:`RunOptions` that the flags ``args`` give (a flag a command
    does not have takes its default), for ``command`` (default: the one run)."""
    return {
        "command": command or getattr(args, "command", None) or "",
        "counting": counts(args),
        "json": bool(getattr(args, "json", False)),
        "quiet": bool(getattr(args, "quiet", False)),
        "stats": bool(getattr(args, "stats", False)),
        "progress": getattr(args, "progress", None),
        "timeout": getattr(args, "timeout", None),
        "started": getattr(args, "started", None),
    }


class RunOptions(Record):
    """How one run of a command goes and tells what it did, read off its flags once:
    the ``command``'s name (the ``command`` of its ``--json`` document), whether it
    ``counting`` (a count, not a listing: ``--limit`` then cuts it short), ``json``,
    ``quiet``, ``stats``, ``progress`` (None: a bar when stderr is a terminal), and
    ``timeout``, the seconds it may take from ``started`` (a ``time.monotonic()``
    value; None: now), which make its ``deadline`` (None: no ``--timeout``)."""

    command: str
    _: KW_ONLY
    counting: bool = False
    json: bool = False
    quiet: bool = False
    stats: bool = False
    progress: bool | None = None
    timeout: float | None = None
    started: float | None = None

    def _checked(self) -> None:
        """The deadline, ``timeout`` seconds after ``started`` (None: now)."""
        if self.timeout is None:
            self.deadline: float | None = None
        else:
            started = time.monotonic() if self.started is None else self.started
            self.deadline = started + self.timeout

    @classmethod
    def read(cls, args: argparse.Namespace, command: str | None = None) -> RunOptions:
        """The options of the run ``args`` asks for (see :func:`run_fields`)."""
        return cls(**run_fields(args, command))

    def time_left(self) -> float | None:
        """The seconds left before :attr:`deadline` (0 once it has passed; None: no
        ``--timeout``), for the API's ``timeout=`` arguments, which count wall-clock time
        from the call."""
        deadline = self.deadline
        return None if deadline is None else max(0.0, deadline - time.monotonic())
