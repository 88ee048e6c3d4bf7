"""Progress bars for long runs, drawn by tqdm on stderr.

:func:`progress` is the one way a command shows progress: it returns a bar when the
command line wants one (``--progress``; by default only when stderr is a terminal) and a
do-nothing stand-in otherwise, so callers never test for it. tqdm is imported only when a
bar is really drawn. A bar appears only after ``delay`` seconds, so short runs show none.

    bar = progress(args, total=len(puzzles), unit="puzzle", desc="sudoku")
    for chunk in chunks:
        ...
        bar.update(len(chunk))
    bar.close()
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Progress", "progress", "wanted"]

#: Seconds a run goes on before its bar appears.
DELAY = 1.0


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command line wants a progress bar: ``--progress`` or
    ``--no-progress`` when given, else whether stderr is a terminal."""
    choice = getattr(args, "progress", None)
    return bool(choice) if choice is not None else sys.stderr.isatty()


class Progress:
    """A progress bar (a tqdm bar on stderr) or, when ``bar`` is None, nothing at all."""

    def __init__(self, bar: Any = None) -> None:
        self._bar = bar

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn at all."""
        return self._bar is not None

    def update(self, amount: float = 1) -> None:
        """Add ``amount`` to the work done."""
        if self._bar is not None:
            self._bar.update(amount)

    def set(self, done: float, total: float | None = None, **postfix: object) -> None:
        """Set the work done (and the estimated ``total``); ``postfix`` shows beside it."""
        if self._bar is None:
            return
        if total is not None:
            self._bar.total = total
        if postfix:
            shown = {key: _short(value) for key, value in postfix.items()}
            self._bar.set_postfix(shown, refresh=False)
        # tqdm's own update draws the bar (at most every tenth of a second) and notes it
        # drawn, so that its close draws the final state and ends the line
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """End the bar's line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _short(value: object) -> object:
    """A postfix value as the bar shows it: a whole number too big for tqdm's own
    formatting (which goes through a float, or ``str``) abbreviated, any size."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        from excover.numbers import abbreviated

        return abbreviated(value)
    return value


def progress(
    args: argparse.Namespace,
    total: float | None = None,
    desc: str = "",
    unit: str = "it",
    delay: float | None = None,
) -> Progress:
    """A bar for ``total`` units of work (None: unknown), if the command line wants one;
    it appears after ``delay`` seconds (default :data:`DELAY`)."""
    if not wanted(args):
        return Progress()
    from tqdm import tqdm  # type: ignore[import-untyped]  # only when a bar is drawn

    bar = tqdm(
        total=total,
        desc=desc or None,
        unit=unit,
        file=sys.stderr,
        delay=DELAY if delay is None else delay,
        dynamic_ncols=True,
        unit_scale=True,
        leave=True,
    )
    return Progress(bar)
