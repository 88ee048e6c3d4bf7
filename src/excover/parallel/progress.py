"""Progress and the time left: :class:`Meter`, the one model of progress every front end
shows (the command line's bar, its ``--json`` progress events, the studio), and the
models of a run of subproblems on several workers, from estimated sizes.

:class:`Meter` takes the share of a run done, as the run measures it (a search's share
of its tree walked, the frontier count's layers, the subproblems' estimated sizes), at
whatever moments the run looks, and says the time left from the pace over a recent
window: the last half of the run (at least :data:`MIN_WINDOW` seconds), so that it
follows a machine whose load changes and forgets the run's slow start. It shows no time
left until that is meaningful (a share of :data:`MIN_SHARE`, :data:`MIN_SECONDS` of run,
:data:`MIN_SAMPLES` looks within the window, a pace that moved), none while the share
has stood still for :data:`STALL_SHARE` of the window (an estimate of the total that
proved too small), and never 0 before the end (:func:`duration` writes less than a second as
``<1 s``); its share never goes back, and reaches 1 only when the run ends
(:meth:`Meter.finish`). A run with no measure of its progress notes None: the front
ends then show the elapsed time and the work done, not a percentage.

Of the models of a run of subproblems, :class:`Pace`, the first one, divides the
estimated size left by the rate of the finished tasks (estimated size settled per second
of a worker) over the workers that have a task. On real runs it was several times off
(issue #43; the figures are in docs/performance.md, "Progress on a cluster") for three
reasons, each measured by replaying runs with every subproblem's real node count:

* the estimates regress to the mean. Knuth's probes are unbiased for one subproblem
  chosen blindly, but a run hands out the biggest *estimates* first, and the biggest
  estimates are mostly overestimates. A rate measured on the first tasks is too fast for
  the rest, and the time left too short;
* the time left stood still between two task ends (the tasks running were charged in
  full until they ended), so it was most wrong just before each end;
* at the end, fewer tasks than workers are left: the time left is then the end of the
  slowest one, not the work left over all the workers.

:class:`Forecast` is the model that replaced it. It keeps, for each finished task, its
estimated size, its real work (search nodes when the method reports them, else seconds)
and its time, and from them:

* a *calibration* of the estimates: while fewer than :data:`CALIBRATE_AFTER` tasks have
  finished, the work left is the estimated size of the whole run less the work done
  (the total estimate is unbiased even when the order of the tasks is not), shared over
  the tasks left by their estimates; from then on, expected work = c x estimate ** k,
  k (between 0, estimates that tell nothing, and 1, estimates right up to a factor)
  measured on the finished tasks and the estimates of all (:func:`_calibrated`), and
  when the total estimate leaves more work to do than that fit, the geometric mean of
  the two (the fit is made on the biggest estimates, and cannot see that the smallest
  mostly fall short: on queens16 cut in 12, by 1.3 to 2.8 times);
* a rate: the work of the last finished tasks per second of a worker (the tasks handed
  out as a pool opens left out once another has finished: their time includes their
  worker's start);
* the time a running task still needs, given the time it has run: the median of what
  is left over the errors of the calibration seen on the finished tasks (each smoothed
  into a normal, :data:`BANDWIDTH`), those the task has not already outrun. The median,
  not the mean: the time left is judged by a factor either way, and one subproblem many
  times its estimate (on queens16 cut in 12, one holds a third of the search) pulled the
  mean of every later task's time left far up. It counts down while the task runs and
  never reaches 0 while it runs, so a task that outruns its prediction shows a little
  time left, not none. When its worker posts how far it is (:mod:`excover.parallel.
  board`, a local run with a bar), its work done is its nodes, its work left leans on
  the share of its tree walked as that share grows (:meth:`Forecast._left`), and its
  rate is its own (:class:`Running`): a task far bigger than the others, running on
  alone, is past every error they showed, and only its own walk tells its end;
* the end of the run: the tasks running and waiting laid out on the worker threads as
  the run hands them out (each to the thread that frees first, biggest first), with the
  cut of a long task for idle workers (its work counted again, in parts shared by all
  threads) when the run would do that and it ends sooner;
* the share done inside each running task (:meth:`Forecast.shares`), for a bar that
  moves while tasks run.

Sizes are estimated search nodes (:attr:`Subproblem.size
<excover.parallel.subproblems.Subproblem.size>`); times are seconds of any clock (the
tests use search nodes).
"""

from __future__ import annotations

import bisect
import heapq
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from excover.parallel.board import Board

__all__ = ["BANDWIDTH", "CALIBRATE_AFTER", "RECENT", "Forecast", "LocalTasks", "Meter", "Pace"]
__all__ += ["Running"]
__all__ += ["duration"]

#: The share of a run done before a :class:`Meter` tells the time left ...
MIN_SHARE = 0.01
#: ... the seconds it must have run ...
MIN_SECONDS = 1.0
#: ... and the looks at its share within the window of the pace.
MIN_SAMPLES = 4
#: The window of the pace: the last :data:`WINDOW_SHARE` of the run, at least
#: :data:`MIN_WINDOW` seconds.
WINDOW_SHARE = 0.5
MIN_WINDOW = 1.0
#: The share of the window a share may stand still before the pace is taken as broken.
STALL_SHARE = 0.25
#: The highest share a :class:`Meter` shows while the run goes on (1: at its end only).
MAX_RUNNING = 0.999


class Meter:
    """The progress of one run (see the module notes): :meth:`note` the share done (0 to
    1, None: the run has no measure of it) as the run goes, :meth:`finish` at its end;
    :attr:`share`, :attr:`elapsed` and :meth:`left` say where it is. ``clock`` is
    ``time.monotonic`` (the tests give their own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.share: float | None = None
        self.finished = False
        self._samples: list[tuple[float, float]] = []  # (time, share), within the window
        self._told: tuple[float, float] | None = None  # the run's own time left, and when
        self._moved = self.started  # when the share last grew

    @property
    def elapsed(self) -> float:
        """Seconds since the meter was made."""
        return self.clock() - self.started

    def note(self, share: float | None, left: float | None = None) -> None:
        """The run has done ``share`` of its work (None: it cannot tell, and the time left
        is unknown). The share shown never goes back and stays below 1 until
        :meth:`finish`. ``left``: the seconds left by the run's own model, when it has
        one (a run of subproblems: :class:`Forecast`), shown instead of the pace's."""
        if self.finished:
            return
        self._told = None if left is None else (left, self.clock())
        if share is None or not math.isfinite(share):
            self.share = None
            self._samples.clear()
            return
        shown = min(max(share, self.share or 0.0, 0.0), MAX_RUNNING)
        now = self.clock()
        if self.share is None or shown > self.share:
            self._moved = now
        self.share = shown
        samples = self._samples
        samples.append((now, shown))
        start = now - self._window(now)
        while len(samples) > 2 and samples[1][0] <= start:
            del samples[0]  # keep one look at or before the window's start

    def finish(self) -> None:
        """The run ended: its share is 1, no time is left."""
        self.share = 1.0
        self.finished = True

    def _window(self, now: float) -> float:
        return max(MIN_WINDOW, WINDOW_SHARE * (now - self.started))

    def left(self) -> float | None:
        """Seconds left at the pace over the window (0 once finished), or None while
        that is not meaningful: too early, too few looks, a share that stood still."""
        if self.finished:
            return 0.0
        share = self.share
        now = self.clock()
        if self._told is not None:
            told, when = self._told
            return max(told - (now - when), 0.0)
        if share is None or share < MIN_SHARE or now - self.started < MIN_SECONDS:
            return None
        start = now - self._window(now)
        within = [(t, s) for t, s in self._samples if t >= start]
        if len(within) < MIN_SAMPLES:
            return None
        then, before = self._samples[0]
        if now - then < MIN_WINDOW / 2 or share <= before:
            return None
        if now - self._moved > STALL_SHARE * (now - then):
            return None  # it stood still too long for the pace to hold
        return (1.0 - share) * (now - then) / (share - before)

    def reading(self) -> dict[str, float | None]:
        """Where the run is, as events carry it: the ``fraction`` done (None: no
        measure), the ``elapsed`` seconds and the seconds ``left`` (None: unknown)."""
        left = self.left()
        return {
            "fraction": self.share,
            "elapsed": round(self.elapsed, 3),
            "left": None if left is None else round(left, 3),
        }


def duration(seconds: float) -> str:
    """A duration for people: ``<1 s`` (never 0 while a run goes on), ``42 s``,
    ``3 min 20 s``, ``5 h 07 min``, ``2 d 03 h``."""
    if seconds < 1:
        return "<1 s"
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    if whole < 86400:
        return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
    return f"{whole // 86400} d {whole % 86400 // 3600:02d} h"


#: Finished tasks before the estimates are calibrated by a fit on them (before: by the
#: total estimate).
CALIBRATE_AFTER = 5

#: The finished tasks whose pace gives the rate: the last ones, so that the time left
#: follows a machine whose other work comes and goes.
RECENT = 6

#: The spread of the calibration's errors assumed before two tasks have finished (a
#: factor of about 1.3 either way).
DEFAULT_SPREAD = 0.3

#: The smoothing of the calibration's errors: this many times their spread (at most
#: that of their middle half, as in Silverman's rule, so that one error far out does not
#: widen it), times n ** -1/5 for n finished tasks (Silverman's rule, widened 5 times:
#: the errors of the tasks finished, handed out first, understate those of the tasks
#: left, whose small estimates are the least sure), never beyond half the errors' mean
#: and never below :data:`MIN_BANDWIDTH`.
BANDWIDTH = 5.0
MIN_BANDWIDTH = 0.05
#: The most errors a running task's time left is drawn from: past that many tasks
#: finished, that many quantiles of their errors (the cost of a look stays bounded) ...
QUANTILES = 101
#: ... and the steps of the bisection that finds the median of its work left.
MEDIAN_STEPS = 30


class Running(NamedTuple):
    """A task running, as :class:`Forecast` takes it: its estimated ``size``, the
    ``seconds`` it has run, and what its worker posted of it (:mod:`excover.parallel.
    board`): the search ``nodes`` it has entered (0: none posted), the ``share`` of its
    tree walked, by the engine's estimate (None: not posted), and the walk's recent
    ``pace``, nodes per share over the last half of its nodes (None: unknown; its pace
    since its start, nodes / share, is taken then), and its own ``rate``, nodes per
    second lately (None: unknown; the finished tasks' is taken then): the last task,
    alone, can run faster than a worker among several did on a loaded machine (at load
    17 on 2 cores, twice as fast), and its time left was that much too long."""

    size: float
    seconds: float
    nodes: float = 0.0
    share: float | None = None
    pace: float | None = None
    rate: float | None = None


class Pace:
    """The first model (see the module notes): the rate of the finished tasks over the
    workers with a task. Kept as the baseline the tests measure :class:`Forecast`
    against."""

    def __init__(self) -> None:
        self.worked = 0.0  # seconds of a worker spent on the finished tasks
        self.settled = 0.0  # the estimated size they settled

    def finished(self, seconds: float, settled: float) -> None:
        """A task that ran ``seconds`` settled ``settled`` of the estimated size (0 for a
        task stopped, or whose part of the search was already counted: its time is not
        a measure of the rate)."""
        if settled > 0 and seconds > 0:
            self.worked += seconds
            self.settled += settled

    @property
    def rate(self) -> float | None:
        """The estimated size a worker settles per second; None before a task finished."""
        return self.settled / self.worked if self.worked > 0 else None

    def remaining(self, left: float, running: int, slots: int, waiting: int) -> float | None:
        """Seconds until the end: ``left`` is the estimated size not yet settled,
        ``running`` the number of tasks running, ``slots`` the worker threads and
        ``waiting`` the tasks queued. None before the rate is known."""
        rate = self.rate
        if rate is None:
            return None
        busy = max(min(slots, waiting + running), 1)
        return max(left, 0.0) / (rate * busy)


class Forecast:
    """The time left in a run and the share of it done, from the tasks finished so far
    (see the module notes). ``total`` is the estimated size of the tasks the run set out
    to count (for the calibration by the total while few tasks have finished);
    ``split_after`` (seconds, None: never) is when the run cuts a long task for idle
    workers."""

    def __init__(self, total: float, split_after: float | None = None) -> None:
        self.total = total
        self.split_after = split_after
        self.sizes: list[float] = []  # the estimated size of each finished task
        self.nodes: list[float] = []  # its search nodes (0: not reported)
        self.seconds: list[float] = []  # its time
        self.cold: list[bool] = []  # whether its time includes its worker's start

    def finished(self, seconds: float, size: float, nodes: int = 0, cold: bool = False) -> None:
        """A task of estimated ``size`` that ran ``seconds`` to its end, and its search
        ``nodes`` (0 when its method does not report them). Tasks stopped before their
        end, or whose part of the search was already counted, are left out: their time
        is not a measure of their work. ``cold``: its time counts from before its worker
        was ready (the first tasks of a pool, whose workers start with them), so that it
        gives the rate only while no task started on a ready worker has finished."""
        if seconds > 0 and size >= 0 and math.isfinite(size):
            self.sizes.append(max(size, 1.0))
            self.nodes.append(float(nodes))
            self.seconds.append(seconds)
            self.cold.append(cold)

    @property
    def known(self) -> bool:
        """Whether a task has finished (the time left is unknown before)."""
        return bool(self.seconds)

    def _work(self) -> tuple[list[float], float, bool]:
        """The work of each finished task, the rate (work per second of a worker, over
        the last :data:`RECENT` tasks, leaving out the cold ones once a task that was
        not has finished), and whether the work is search nodes (else seconds)."""
        in_nodes = all(nodes > 0 for nodes in self.nodes)
        work = self.nodes if in_nodes else self.seconds
        timed = [i for i, cold in enumerate(self.cold) if not cold] or range(len(work))
        recent = list(timed)[-RECENT:]
        rate = sum(work[i] for i in recent) / sum(self.seconds[i] for i in recent)
        return work, rate, in_nodes

    def _calibration(self, others: list[float]) -> tuple[_Calibration, float]:
        """The calibration of the estimates (see the module notes) and the rate;
        ``others`` are the estimated sizes of the tasks not finished."""
        work, rate, in_nodes = self._work()
        unsettled = sum(others)
        by_total = self.total - sum(work) if in_nodes and math.isfinite(self.total) else 0.0
        if len(work) >= CALIBRATE_AFTER:
            calibration = _calibrated(self.sizes, work, others)
            fitted = sum(calibration.work(size) for size in others)
            if by_total > fitted > 0:
                # the fit, made on the biggest estimates, cannot see that the smallest
                # are mostly too small (Knuth's estimates are skewed: most of them fall
                # short, a few overshoot far); the total estimate, unbiased, can: the
                # work left is then the geometric mean of the two
                calibration.rescale(math.sqrt(by_total / fitted))
            return calibration, rate
        ratio = sum(work) / sum(self.sizes)
        if in_nodes and unsettled > 0 and math.isfinite(self.total):
            ratio = max(max(by_total, 0.0) / unsettled, ratio / 2)
        calibration = _Calibration(math.log(ratio), 1.0, 1.0)
        errors = [w / calibration.work(size) for size, w in zip(self.sizes, work, strict=True)]
        # the level is the total's, the spread the finished tasks': their errors, mostly
        # below 1 (the biggest estimates, handed out first, are mostly too big), scaled
        # to a mean of 1, so that a task running is expected to do its expected work as
        # a task waiting is (unscaled, a first task of a third of its estimate called a
        # big one running beside it a third of its own)
        mean = sum(errors) / len(errors)
        calibration.errors = [error / mean for error in errors]
        return calibration, rate

    def remaining(
        self, running: Sequence[tuple[float, float] | Running], waiting: list[float], slots: int
    ) -> float | None:
        """Seconds until the end of the run: ``running`` holds each task running, as a
        :class:`Running` or as its estimated size and the seconds it has run, ``waiting``
        the estimated sizes of the tasks queued (in the order they will be handed out),
        ``slots`` the worker threads. None before a task finished."""
        if not self.known:
            return None
        tasks = [Running(*task) for task in running]
        calibration, rate = self._calibration([task.size for task in tasks] + waiting)
        left = [self._left(calibration, rate, task)[1] / self._rate(rate, task) for task in tasks]
        ran = [task.seconds for task in tasks]
        lengths = [calibration.work(size) / rate for size in waiting]
        return _makespan(left, ran, lengths, max(slots, 1), self.split_after)

    def shares(
        self, running: Sequence[tuple[float, float] | Running], waiting: list[float]
    ) -> list[float]:
        """The estimated size settled so far inside each task running (``running`` and
        ``waiting`` as for :meth:`remaining`): its size times the share of its expected
        work it has done. Less than its size while it runs, so a bar that adds these moves
        while the tasks run, without reaching their end before they do."""
        if not self.known or not running:
            return [0.0] * len(running)
        tasks = [Running(*task) for task in running]
        calibration, rate = self._calibration([task.size for task in tasks] + waiting)
        shares = []
        for task in tasks:
            done, left = self._left(calibration, rate, task)
            shares.append(task.size * done / (done + left) if done > 0 else 0.0)
        return shares

    def _rate(self, rate: float, task: Running) -> float:
        """The rate of a running ``task``: its own when its worker posts its nodes (and
        the work is nodes), else ``rate``, the finished tasks'."""
        if task.rate is not None and task.rate > 0 and all(n > 0 for n in self.nodes):
            return task.rate
        return rate

    def _left(self, calibration: _Calibration, rate: float, task: Running) -> tuple[float, float]:
        """The work a running ``task`` has done and the work it has left. Done: the
        search nodes its worker posted, when it posts them and the work is nodes, else
        the time it has run at the rate. Left: the calibration's median over the errors
        seen (:meth:`_Calibration.left`), and, when its worker also posts the share of
        its tree walked (the engine's own estimate, as a count in one process shows it),
        the weighted geometric mean of that and what the walk leaves (the share left at
        the walk's pace, :class:`Running`), the walk weighing its share: a subproblem far
        bigger than the others (pento6x10 cut in 12 leaves one of 60% of the search)
        runs on alone past every error the calibration has seen, where their median
        says much the same time left to its end, while its walk, rough early, is within
        a few hundredths of its true share late in a tree that big."""
        in_nodes = all(nodes > 0 for nodes in self.nodes)
        posted = in_nodes and task.nodes > 0
        done = task.nodes if posted else task.seconds * rate
        left = calibration.left(task.size, done)
        share = task.share
        if posted and share is not None and 0.0 < share < 1.0 and left > 0:
            pace = task.pace if task.pace is not None and task.pace > 0 else task.nodes / share
            walked = max(pace * (1.0 - share), 1.0)
            typical = statistics.median(self.nodes)
            weight = share * task.nodes / (task.nodes + typical)
            left = math.exp((1.0 - weight) * math.log(left) + weight * math.log(walked))
        return done, left


class LocalTasks:
    """A run of subproblems on ``slots`` workers of this machine, as its progress needs
    it: the pool hands the tasks out in ``order`` (biggest estimate first), each to the
    worker that frees first, so the tasks running are the first ``slots`` not finished,
    each since the moment it became one of them. From the tasks finished,
    :class:`Forecast` gives the time left (:meth:`remaining`) and the share done inside
    the tasks running; :meth:`share` is the run's share done, 0 to 1. ``sizes`` are the
    estimated sizes of all the subproblems (by index), ``total`` their sum over the whole
    search, ``clock`` ``time.monotonic`` (the tests give their own)."""

    def __init__(
        self,
        sizes: list[float],
        order: list[int],
        slots: int,
        total: float,
        clock: Callable[[], float] = time.monotonic,
        board: Board | None = None,
    ) -> None:
        self.sizes = sizes
        self.board = board
        self._walks: dict[int, list[tuple[float, float, float]]] = {}  # (nodes, share, when)
        self.pending = list(order)
        self.slots = max(slots, 1)
        self.total = total
        self.clock = clock
        # the tasks this run counts (a resumed run's earlier ones are no work left)
        self.forecast = Forecast(sum(sizes[index] for index in order))
        self.started: dict[int, float] = {}
        self._start_running()
        #: The tasks handed out as the pool opened: they start with their workers, whose
        #: start their time includes (cold, for :class:`Forecast`).
        self.cold = set(self.started)

    def _start_running(self) -> None:
        now = self.clock()
        for index in self.pending[: self.slots]:
            self.started.setdefault(index, now)

    def finished(self, index: int, nodes: int, complete: bool) -> None:
        """Subproblem ``index`` ended, after ``nodes`` search nodes (0: not reported);
        ``complete``: it ran to its end (else it was stopped, and says nothing of the
        pace)."""
        if index not in self.pending:
            return
        self.pending.remove(index)
        self._walks.pop(index, None)
        began = self.started.pop(index, None)
        if complete and began is not None:
            seconds = self.clock() - began
            self.forecast.finished(seconds, self.sizes[index], nodes, index in self.cold)
        self._start_running()

    def cut(self, index: int, parts: list[int], sizes: list[float], here: bool) -> None:
        """Subproblem ``index`` was cut into ``parts`` (indices, in the order they are
        handed out), its task stopped; ``sizes`` are now those of every subproblem.
        ``here``: the parts take its place (one worker counts them next); else they
        wait after the tasks running (a cut for idle workers, made when nothing waits)."""
        self.sizes = sizes
        at = self.pending.index(index) if index in self.pending else len(self.pending)
        if index in self.pending:
            self.pending.remove(index)
        self.started.pop(index, None)
        self._walks.pop(index, None)
        if here:
            self.pending[at:at] = parts
        else:
            self.pending.extend(parts)
        self._start_running()

    def _running(self) -> list[Running]:
        now = self.clock()
        running = self.pending[: self.slots]
        return [
            Running(self.sizes[index], now - self.started[index], *self._posted(index))
            for index in running
        ]

    def _posted(self, index: int) -> tuple[float, float | None, float | None, float | None]:
        """What the worker of task ``index`` posted on the board, as :class:`Running`
        takes it: its nodes (0: none), the share of its tree walked and the walk's pace
        over the last half of its nodes, and its own rate over the last half of its run
        (at least :data:`MIN_WINDOW`) (None: unknown), from the posts seen so far."""
        if self.board is None:
            return 0.0, None, None, None
        nodes, share = self.board.read(index)
        if nodes <= 0:
            return 0.0, None, None, None
        now = self.clock()
        posts = self._walks.setdefault(index, [])
        if not posts or nodes > posts[-1][0]:
            posts.append((nodes, math.nan if share is None else share, now))
        _, _, last = posts[-1]
        began = self.started.get(index, last)
        window = max(MIN_WINDOW, WINDOW_SHARE * (last - began))
        then = [post for post in posts if post[2] <= last - window]
        rate = None
        if then and last > then[-1][2]:
            rate = (nodes - then[-1][0]) / (last - then[-1][2])
        if share is None:
            return nodes, None, None, rate
        half = bisect.bisect_right(posts, (nodes / 2, math.inf)) - 1
        pace = None
        if half >= 0 and share > posts[half][1]:
            pace = (nodes - posts[half][0]) / (share - posts[half][1])
        return nodes, share, pace, rate

    def remaining(self) -> float | None:
        """Seconds until the end, by :class:`Forecast` (None before a task finished)."""
        waiting = [self.sizes[index] for index in self.pending[self.slots :]]
        return self.forecast.remaining(self._running(), waiting, self.slots)

    def share(self, done: float, counted: list[int] | None = None) -> float:
        """The share of the run done. Before a task of this run finished: the estimated
        size ``done`` of the subproblems counted (a resumed run's included) over the
        total. After: on the scale of work, the estimated sizes calibrated on the tasks
        finished (:class:`Forecast`, which undoes the regression to the mean of the
        estimates handed out biggest first): the work of the subproblems ``counted``
        (indices; their expected work when counted by an earlier run) and done inside the
        tasks running, over that and the expected work of the rest. 0 when the total is
        beyond floats."""
        if not 0 < self.total < math.inf:
            return 0.0
        waiting = [self.sizes[index] for index in self.pending[self.slots :]]
        running = self._running()
        if not self.forecast.known or counted is None:
            settled = sum(self.forecast.shares(running, waiting))
            return min((done + settled) / self.total, 1.0)
        calibration, rate = self.forecast._calibration([task.size for task in running] + waiting)
        finished = sum(calibration.work(self.sizes[index]) for index in counted)
        inside = [self.forecast._left(calibration, rate, task) for task in running]
        later = sum(calibration.work(size) for size in waiting)
        worked = finished + sum(done for done, _ in inside)
        whole = worked + sum(left for _, left in inside) + later
        return min(worked / whole, 1.0) if whole > 0 else 0.0


class _Calibration:
    """Expected work = ``scale`` x estimate ** ``slope`` x ``smear``; ``errors`` are
    the ratios of the real work of the finished tasks to their expected work."""

    def __init__(self, log_scale: float, slope: float, smear: float) -> None:
        self.log_scale = log_scale
        self.slope = slope
        self.smear = smear
        self.top = math.inf
        self.errors: list[float] = []

    def rescale(self, factor: float) -> None:
        """Expect ``factor`` times the work of every task (the errors seen, relative to
        the expected work, shrink by as much)."""
        self.smear *= factor
        self.errors = [error / factor for error in self.errors]

    def work(self, size: float) -> float:
        """The expected work of a task of estimated ``size``."""
        size = max(size, 1.0)
        beyond = max(size / self.top, 1.0)
        size = min(size, self.top)
        return beyond * self.smear * math.exp(self.log_scale + self.slope * math.log(size))

    def left(self, size: float, done: float) -> float:
        """The work left in a task of estimated ``size`` that has done ``done``: the
        median, over the errors seen (each smoothed into a normal), of the work beyond
        ``done``, given that the task has not ended yet."""
        expected = self.work(size)
        errors = self.errors or [1.0]
        n = len(errors)
        mean = sum(errors) / n
        if n > 1:
            spread = math.sqrt(sum((e - mean) ** 2 for e in errors) / (n - 1))
            if n >= 4:  # Silverman's: no more than the spread of the middle half
                quartiles = statistics.quantiles(errors, n=4)
                spread = min(spread, (quartiles[2] - quartiles[0]) / 1.349)
        else:
            spread = DEFAULT_SPREAD
        # no wider than half the errors' mean: a wider normal puts much of its weight on
        # negative work, which the condition (not ended yet) cuts off, so that a task
        # just started was expected to run for twice its expected work and more
        width = max(min(BANDWIDTH * spread * math.pow(n, -0.2), mean / 2), MIN_BANDWIDTH)
        reached = done / expected
        if len(errors) > QUANTILES:
            ordered = sorted(errors)
            errors = [ordered[k * (n - 1) // (QUANTILES - 1)] for k in range(QUANTILES)]
        scale = width * math.sqrt(2)

        def past(x: float) -> float:  # the errors (smoothed) beyond x, as a count
            return sum(0.5 * math.erfc((x - error) / scale) for error in errors)

        # past every error seen, the normal's tail would say the end is near, and nearer
        # the longer the task runs: a task that outran every error is taken to go on for
        # as long again as it has run past the largest
        largest = max(errors)
        outrun = max(reached - largest, 0.0)
        chance = past(reached)
        if chance <= 1e-12:
            return max(width * width / (reached - largest), outrun) * expected
        # the median of the error given that it is past the work done
        low, high = reached, max(reached, largest) + 8 * width
        for _ in range(MEDIAN_STEPS):
            middle = (low + high) / 2
            if past(middle) > chance / 2:
                low = middle
            else:
                high = middle
        return max((low + high) / 2 - reached, outrun) * expected


def _calibrated(sizes: list[float], work: list[float], others: list[float]) -> _Calibration:
    """Expected work = c x estimate ** k, from the finished tasks (``sizes``, ``work``)
    and the estimates of the others. k, the share of the truth in an estimate (1: right
    up to a factor, 0: all tasks alike whatever their estimates), is the mean of two
    measures of it, each right where the other fails:

    * the slope of the least-squares line of log(work) on log(estimate) over the
      finished tasks: unbiased for the tasks left although they were handed out by
      their estimates, but over the range of the estimates finished only (the biggest):
      on a split of pento6x10 into 60 tasks, the 25 big ones, all about 130,000 nodes
      but estimated from 47,000 to 240,000, give a slope near 0 that calls the 35 small
      ones (100 to 40,000 nodes, well estimated) 130,000 nodes each;
    * 1 - (the mean square of the log errors of the finished tasks) / (the variance of
      the log estimates of all the tasks): the classical reliability of a measure with
      errors, over the whole range, but with errors measured on the tasks finished,
      whose errors are not those of the rest (the biggest estimates are mostly the
      overestimated ones).

    c makes the total of the finished tasks right. Past :data:`CALIBRATE_AFTER`
    tasks."""
    logs = [math.log(size) for size in sizes]
    errors = [math.log(max(w, 1e-300) / size) for size, w in zip(sizes, work, strict=True)]
    spread = _variance([math.log(max(size, 1.0)) for size in [*sizes, *others]])
    noise = sum(error * error for error in errors) / len(errors)
    reliability = min(max(1.0 - noise / spread, 0.0), 1.0) if spread > 0 else 1.0
    ys = [log + error for log, error in zip(logs, errors, strict=True)]
    within = _variance(logs)
    if within > 0:
        mean_x, mean_y = sum(logs) / len(logs), sum(ys) / len(ys)
        covariance = sum((x - mean_x) * (y - mean_y) for x, y in zip(logs, ys, strict=True))
        slope = min(max(covariance / (len(logs) - 1) / within, 0.0), 1.0)
        reliability = (reliability + slope) / 2
    calibration = _Calibration(0.0, reliability, 1.0)
    calibration.top = max(sizes)
    calibration.smear = sum(work) / sum(calibration.work(size) for size in sizes)
    calibration.errors = [w / calibration.work(size) for size, w in zip(sizes, work, strict=True)]
    return calibration


def _variance(values: list[float]) -> float:
    """The sample variance of ``values`` (0 for fewer than 2)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return sum((value - mean) ** 2 for value in values) / (n - 1)


def _makespan(
    left: list[float],
    ran: list[float],
    lengths: list[float],
    slots: int,
    split_after: float | None,
) -> float:
    """When the last of the tasks ends: tasks running with ``left`` seconds to go (having
    run ``ran``), then tasks of ``lengths`` seconds handed out in order, each to the
    thread that frees first. With ``split_after``, when a thread falls idle with nothing
    waiting, the task that ends last is cut once it has run ``split_after``: its work is
    counted again in parts shared by all the threads (as
    :class:`~excover.parallel.cluster.ClusterRun` does; one cut only), when that ends
    sooner."""
    # each thread: (when it frees, when its task started, the task's whole length)
    threads: list[tuple[float, float, float]] = [
        (end, -seconds, seconds + end) for end, seconds in zip(left, ran, strict=True)
    ]
    threads += [(0.0, 0.0, 0.0)] * max(slots - len(threads), 0)
    heapq.heapify(threads)
    for length in lengths:
        free, _, _ = heapq.heappop(threads)
        heapq.heappush(threads, (free + length, free, length))
    ends = sorted(threads)
    if split_after is None or len(ends) < 2:
        return ends[-1][0]
    idle = ends[0][0]  # a thread is idle from then on, with nothing waiting
    last, started, length = ends[-1]  # the task cut: the last to end
    cut_at = max(idle, started + split_after)
    # a cut that would end later than the task itself is left out: near the end a task
    # that the run would cut just before it ends made the time left jump up and back
    return min(last, max(ends[-2][0], cut_at + length / len(ends)))
