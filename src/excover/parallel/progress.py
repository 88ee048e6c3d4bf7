"""The time left in a run of subproblems on several workers, from estimated sizes.

A progress bar that divides the work left by the pace so far (the fraction done per
second since the start) counts the time of the tasks still running but not their work,
and at the end keeps the pace of all the workers when fewer tasks than workers are left.
:class:`Pace` models the run instead: each worker counts at the same rate, measured on
the finished tasks only (the estimated size of the search they settled per second of a
worker), and what is left (the tasks running included, whole) is shared by as many
workers as there are tasks to run. The tasks running are not credited with the work
done in them: with sizes estimated by a few random probes, a task may run far past its
estimate, and a credit would then show no time left while it runs.

Sizes are on the scale of :meth:`Checkpoint.total_size
<excover.parallel.checkpoint.Checkpoint.total_size>`; times are seconds of any clock (the
tests use search nodes).
"""

from __future__ import annotations

__all__ = ["Pace"]


class Pace:
    """The rate of a run's workers and the time its remaining work will take."""

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
