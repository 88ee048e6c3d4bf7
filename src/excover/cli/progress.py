"""Progress bars for long runs, drawn by tqdm on stderr.

:func:`progress` is the one way a command shows progress: it returns a bar when the
command line wants one (``--progress``; by default only when stderr is a terminal) and a
do-nothing stand-in otherwise, so callers never test for it. tqdm is imported only when a
bar is really drawn. A bar appears only after ``delay`` seconds, so short runs show none.

    bar = progress(run, total=len(puzzles), unit="puzzle", desc="sudoku")
    for chunk in chunks:
        ...
        bar.update(len(chunk))
    bar.close()
"""

from __future__ import annotations

import math
import sys

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from excover.cli.options import Shown
    from excover.parallel.progress import Meter

__all__ = ["JsonProgress", "Progress", "progress", "wanted"]

#: Seconds a run goes on before its bar appears.
DELAY = 1.0
#: Seconds between two JSON progress events (``--json --progress``).
JSON_EVERY = 0.5
#: The highest share of its total a bar shows before the run ends (100% is the end's:
#: tqdm rounds the percentage).
MAX_RUNNING = 0.99
#: tqdm's bar without its own time left (the meter's shows in the postfix).
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} {unit} [{elapsed}{postfix}]"
#: ... and of a bar in percent, whose figures the percentage already says.
PERCENT_FORMAT = "{l_bar}{bar}| [{elapsed}{postfix}]"


def wanted(run: Shown) -> bool:
    """Whether the command line wants a progress bar: ``--progress`` or
    ``--no-progress`` when given, else whether stderr is a terminal (``run``: the run's
    :class:`~excover.cli.options.RunOptions`)."""
    choice = getattr(run, "progress", None)
    return bool(choice) if choice is not None else sys.stderr.isatty()


class Progress:
    """A progress bar (a tqdm bar on stderr) or, when ``bar`` is None, nothing at all.

    The share done and the time left are :class:`excover.parallel.progress.Meter`'s, the
    one model of progress of every front end (not tqdm's own rate, which knows nothing
    of a total that is an estimate): the percentage stays below 100 until
    :meth:`finish`, and the time left shows (``left=``) only once it means something.
    A run with no total (None) shows its work done and the elapsed time."""

    def __init__(self, bar: Any = None, clock: Callable[[], float] | None = None) -> None:
        self._bar = bar
        self.meter: Meter | None = None
        if bar is not None:
            from excover.parallel.progress import Meter

            self.meter = Meter() if clock is None else Meter(clock)
        self.total: float | None = None if bar is None else bar.total
        self._postfix: dict[str, object] = {}

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn at all."""
        return self._bar is not None

    def update(self, amount: float = 1) -> None:
        """Add ``amount`` to the work done."""
        if self._bar is not None:
            self.set(self._bar.n + amount)

    def set(
        self,
        done: float,
        total: float | None = None,
        *,
        left: float | None = None,
        **postfix: object,
    ) -> None:
        """Set the work done (and the estimated ``total``; 0: none any more, the bar
        counts up); ``postfix`` shows beside it, and the time left once it is known
        (``left``: the run's own model of it, when it has one)."""
        if not self.shown:
            return
        if total is not None:
            self.total = total if total > 0 else None
        if self.total and done >= self.total:  # all the work there is: the end
            self.finish(done, **postfix)
            return
        self._note(done, left, postfix)

    def _note(self, done: float, left: float | None, postfix: dict[str, object]) -> None:
        """Show ``done`` of a run that goes on (of :attr:`total`, when known)."""
        bar = self._bar
        assert bar is not None and self.meter is not None
        if self.total:
            self.meter.note(done / self.total, left)
            # tqdm rounds 99.6% up to 100%, which is the end's alone: the total shown
            # (an estimate while the run goes on) is raised to keep the bar below it
            bar.total = max(self.total, done / MAX_RUNNING)
        else:
            self.meter.note(None)
            bar.total = None
        self._postfix = dict(postfix)
        self._draw(done)

    def finish(self, done: float | None = None, **postfix: object) -> None:
        """The run ended: the bar at 100%, with ``done`` (default: the work so far) as
        its total."""
        bar = self._bar
        if bar is None or self.meter is None:
            return
        done = bar.n if done is None else done
        bar.total = self.total = done
        self.meter.finish()
        self._postfix = dict(postfix)
        self._draw(done)

    def _draw(self, done: float) -> None:
        assert self._bar is not None and self.meter is not None
        shown = {key: _short(value) for key, value in self._postfix.items()}
        left = self.meter.left()
        if left is not None and not self.meter.finished:
            from excover.parallel.progress import duration

            shown["left"] = duration(left)
        self._bar.set_postfix(shown, refresh=False)
        # tqdm's own update draws the bar (at most every tenth of a second) and notes it
        # drawn, so that its close draws the final state and ends the line
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """End the bar's line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class JsonProgress(Progress):
    """Progress as JSON lines on stderr (``--json --progress``), one event at most every
    :data:`JSON_EVERY` seconds once the run has lasted :data:`DELAY`, and one at the end:
    ``{"type": "progress", "what": ..., "unit": ..., "done": ..., "total": ...,
    "fraction": ..., "elapsed": ..., "left": ..., "finished": ...}`` (``fraction`` and
    ``left`` None while unknown; the reading of
    :class:`~excover.parallel.progress.Meter`)."""

    @property
    def shown(self) -> bool:
        """Always: the events are the bar."""
        return True

    def __init__(
        self, what: str, unit: str, total: float | None, clock: Callable[[], float] | None = None
    ) -> None:
        from excover.parallel.progress import Meter

        super().__init__()
        self.what = what
        self.unit = unit
        self.total = total
        self.meter: Meter = Meter() if clock is None else Meter(clock)
        self.done = 0.0
        self.sent = -math.inf
        self.postfix: dict[str, object] = {}

    def update(self, amount: float = 1) -> None:
        """Add ``amount`` to the work done."""
        self.set(self.done + amount)

    def _note(self, done: float, left: float | None, postfix: dict[str, object]) -> None:
        """Note ``done`` of a run that goes on; an event when the run has lasted
        :data:`DELAY` and the last event is :data:`JSON_EVERY` seconds old."""
        self.meter.note(done / self.total if self.total else None, left)
        self.done = done
        self.postfix = dict(postfix)
        elapsed = self.meter.elapsed
        if elapsed >= DELAY and elapsed - self.sent >= JSON_EVERY:
            self._send()

    def finish(self, done: float | None = None, **postfix: object) -> None:
        """As :meth:`Progress.finish`: one last event, at 100%."""
        if self.meter.finished:
            return
        self.done = self.done if done is None else done
        self.total = self.done
        self.postfix = dict(postfix)
        self.meter.finish()
        if self.sent > -math.inf:  # a run that drew nothing ends without a word
            self._send()

    def close(self) -> None:
        """Nothing to close: each event is a line of its own."""

    def _send(self) -> None:
        import json

        self.sent = self.meter.elapsed
        event: dict[str, object] = {"type": "progress", "what": self.what, "unit": self.unit}
        event.update(done=self.done, total=self.total, **self.meter.reading())
        event["finished"] = self.meter.finished
        event.update({key: _plain(value) for key, value in self.postfix.items()})
        print(json.dumps(event), file=sys.stderr, flush=True)


def _plain(value: object) -> object:
    """A postfix value for JSON: a whole number of any size as text beyond a double
    (:func:`excover.numbers.json_count`: ``str`` refuses past 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        from excover.numbers import json_count

        return json_count(value)
    return value


def _short(value: object) -> object:
    """A postfix value as the bar shows it: a whole number too big for tqdm's own
    formatting (which goes through a float, or ``str``) abbreviated, any size."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        from excover.numbers import abbreviated

        return abbreviated(value)
    return value


def progress(
    run: Shown,
    total: float | None = None,
    desc: str = "",
    unit: str = "it",
    delay: float | None = None,
) -> Progress:
    """A bar for ``total`` units of work (None: unknown), if the command line wants one;
    it appears after ``delay`` seconds (default :data:`DELAY`). With ``--json`` and
    ``--progress``, JSON progress events on stderr instead (:class:`JsonProgress`)."""
    if not wanted(run):
        return Progress()
    if getattr(run, "json", False) and getattr(run, "progress", None):
        return JsonProgress(desc, unit, total)
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
        bar_format=PERCENT_FORMAT if unit == "%" else BAR_FORMAT,
    )
    return Progress(bar)
