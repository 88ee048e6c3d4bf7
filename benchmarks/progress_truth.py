"""How true the progress bars' time left is, over every route of a count.

Runs ``excover count FILE --json --progress`` (with the flags of each route: the race of
``--method auto``, one route forced by ``--route``, the search engines of ``--method
search``, the DXZ count of ``--method zdd``, the parts route, a count by subproblems with
``--workers 2``) on fourteen runs of 2-30 seconds each on a quiet machine (queens of 13
to 16, pentomino boxes, Scott's puzzle, dominoes on a 22 x 22 board), reads the JSON
progress events it writes on stderr (the reading of
:class:`excover.parallel.progress.Meter`, every half second), each stamped with the CPU
seconds the count and its workers had used by then (psutil, every
:data:`CPU_EVERY` seconds), and prints for each run: its length in wall and in CPU
seconds, the events that showed a time left, the worst factor between that time left
and the truth (the run's end less the event's moment) among the events from 10% of the
run on where the truth is at least :data:`FLOOR` seconds (below, a second's error is no
error a person sees), the same factor on CPU time (:func:`on_cpu`: the time left turned
into CPU seconds at the pace of CPU the run got over the meter's window, against the
CPU seconds the run still took; a machine whose load comes and goes moves the first
factor, not this one, so that this one judges the model), and whether the last event is
the bar at exactly 100% ("no bar" when the count ended before its first reading). The
target is 2x everywhere. ``--quick`` runs one problem of each kind of measure
(:data:`QUICK`), ``--only`` the runs named, ``--trace FILE`` writes each run's
trajectory (wall seconds, CPU seconds, share shown, time left shown) as JSON.

    PYTHONPATH=src python benchmarks/progress_truth.py [--quick | --only RUN...] [--trace FILE]

Timings depend on the machine's load: the script prints the load average.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

from excover.parallel.progress import MIN_WINDOW, WINDOW_SHARE

HERE = Path(__file__).resolve().parent
KNUTH = HERE.parent / "tests" / "data" / "knuth"
EXAMPLES = HERE.parent / "examples"
#: The truth below which a time left is not judged (seconds).
FLOOR = 1.0
#: The share of a run before which a time left is not judged.
FROM = 0.10
#: Seconds between two samples of a count's CPU time.
CPU_EVERY = 0.1


def two_apart(path: Path, out: Path) -> Path:
    """Two copies of the problem in DLX file ``path`` (no colours) with their items
    renamed apart: a problem that falls apart into two parts (the parts route)."""
    lines = [line.split() for line in path.read_text().splitlines()]
    lines = [line for line in lines if line and not line[0].startswith("|")]
    head, options = lines[0], lines[1:]

    def renamed(prefix: str, names: list[str]) -> list[str]:
        return [name if name == "|" else prefix + name for name in names]

    if "|" in head:
        cut = head.index("|")
        items = renamed("a", head[:cut]) + renamed("b", head[:cut]) + ["|"]
        items += renamed("a", head[cut + 1 :]) + renamed("b", head[cut + 1 :])
    else:
        items = renamed("a", head) + renamed("b", head)
    text = [" ".join(items)]
    text += [" ".join(renamed(prefix, option)) for prefix in "ab" for option in options]
    out.write_text("\n".join(text) + "\n")
    return out


def dominoes(side: int, out: Path) -> Path:
    """The domino tilings of a ``side`` x ``side`` board (the frontier count's kind)."""
    cells = [f"c{r}_{c}" for r in range(side) for c in range(side)]
    lines = [" ".join(cells)]
    for r in range(side):
        for c in range(side):
            if c + 1 < side:
                lines.append(f"c{r}_{c} c{r}_{c + 1}")
            if r + 1 < side:
                lines.append(f"c{r}_{c} c{r + 1}_{c}")
    out.write_text("\n".join(lines) + "\n")
    return out


def queens(n: int, out: Path) -> Path:
    """The ``n``-queens problem as a DLX file (no declared symmetry)."""
    from excover.puzzles.queens import queens as build

    build(n).write(out)
    return out


#: The runs for ``--quick``: one of each kind of measure (a search engine's own share,
#: DXZ's, the component count's, a race, subproblems on workers).
QUICK = (
    "queens15 search links",
    "pento6x10 search bits",
    "queens13 route dxz",
    "queens13 route components",
    "pento6x10 auto (race)",
    "queens16 --workers 2",
)


def cases(folder: Path) -> list[tuple[str, Path, list[str]]]:
    """The runs: a name, the file, the flags. Each takes 2-30 s of one core on a quiet
    machine, so that its bar is drawn and judged from 10% of the run on."""
    pento = EXAMPLES / "pento6x10.dlx"
    parts = two_apart(pento, folder / "pento6x10-twice.dlx")
    dom22 = dominoes(22, folder / "domino22x22.dlx")
    queens13 = KNUTH / "queens13.dlx"
    queens15, queens16 = queens(15, folder / "queens15.dlx"), queens(16, folder / "queens16.dlx")
    links, bits, cells = (["--method", "search", "--engine", e] for e in ("dlx", "bits", "cells"))
    return [
        ("pento6x10 auto (race)", pento, []),
        ("queens15 auto (race)", queens15, []),
        ("pento6x10 search bits", pento, bits),
        ("queens16 search bits", queens16, bits),
        ("pento6x10 search links", pento, links),
        ("queens15 search links", queens15, links),
        ("queens15 search cells", queens15, cells),
        ("queens13 route dxz", queens13, ["--route", "dxz"]),
        ("scott method zdd (dxz)", KNUTH / "scott.dlx", ["--method", "zdd"]),
        ("queens13 route components", queens13, ["--route", "components"]),
        ("domino22x22 route frontier", dom22, ["--route", "frontier"]),
        ("pento6x10 twice (parts)", parts, []),
        ("pento6x10 links --workers 2", pento, [*links, "--workers", "2"]),
        ("queens16 --workers 2", queens16, ["--workers", "2"]),
    ]


class Cpu:
    """The CPU seconds (user + system) of a process and all its descendants, sampled
    every :data:`CPU_EVERY` seconds on a thread while it runs (the workers' too, alive
    or ended), to tell at any moment of the run how much CPU it had got."""

    def __init__(self, pid: int) -> None:
        import psutil

        self.process = psutil.Process(pid)
        self.samples: list[tuple[float, float]] = [(time.monotonic(), 0.0)]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _read(self) -> float | None:
        import psutil

        try:
            times = self.process.cpu_times()
            total = times.user + times.system + times.children_user + times.children_system
            for child in self.process.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    child_times = child.cpu_times()
                    total += child_times.user + child_times.system
        except psutil.Error:
            return None
        return float(total)

    def _sample(self) -> None:
        while not self.done.wait(CPU_EVERY):
            total = self._read()
            if total is not None:
                # the sum never goes back (a worker ending moves its time between terms)
                self.samples.append((time.monotonic(), max(total, self.samples[-1][1])))

    def stop(self) -> None:
        """Stop sampling (the process has ended)."""
        self.done.set()
        self.thread.join()

    def at(self, moment: float) -> float:
        """The CPU seconds at ``moment`` (``time.monotonic``), interpolated."""
        samples = self.samples
        index = bisect.bisect_right(samples, (moment, math.inf))
        if index == 0:
            return 0.0
        if index == len(samples):
            return samples[-1][1]
        (t0, c0), (t1, c1) = samples[index - 1], samples[index]
        return c0 + (c1 - c0) * (moment - t0) / (t1 - t0) if t1 > t0 else c1


def run(path: Path, flags: list[str], cache: str) -> tuple[list[dict[str, object]], Cpu]:
    """The JSON progress events of one count, each with the moment it was read (``at``,
    ``time.monotonic``) and the CPU seconds of the count (and its workers) then
    (``cpu``), and the samples of that CPU time."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    command = [sys.executable, "-m", "excover", "count", str(path), "--json", "--progress"]
    child = subprocess.Popen(
        [*command, *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    cpu = Cpu(child.pid)
    assert child.stderr is not None
    stamped = []
    for line in child.stderr:
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("type") == "progress":
                stamped.append((time.monotonic(), event))
    if child.wait() != 0:
        raise subprocess.CalledProcessError(child.returncode, command)
    cpu.stop()
    events = []
    for moment, event in stamped:
        event["at"] = moment
        event["cpu"] = cpu.at(moment)
        events.append(event)
    return events, cpu


def factor(left: float, truth: float) -> float:
    """How far a time left is from the truth, either way (1: right)."""
    ratio = max(left, 0.01) / truth
    return max(ratio, 1 / ratio)


def on_cpu(event: dict[str, object], cpu: Cpu) -> float:
    """The time left shown by event ``index`` turned into CPU seconds at the pace of CPU
    the run got over the window of :class:`~excover.parallel.progress.Meter` (the last
    half of the run so far, at least a second): what the same model would have said on
    a clock that counts only the run's own work. For a time left made from the pace of
    the share, this is the pace of the share per CPU second over the same window."""
    at = float(event["at"])  # type: ignore[arg-type]
    window = max(MIN_WINDOW, WINDOW_SHARE * float(event["elapsed"]))  # type: ignore[arg-type]
    pace = (cpu.at(at) - cpu.at(at - window)) / window
    return float(event["left"]) * pace  # type: ignore[arg-type]


def judge(events: list[dict[str, object]], cpu: Cpu) -> Verdict:
    """The verdict on one run's events and CPU time (see :class:`Verdict`)."""
    if not events:
        return Verdict(0.0, 0.0, 0, None, None, False)
    last = events[-1]
    end, cpu_end = float(last["elapsed"]), float(last["cpu"])  # type: ignore[arg-type]
    ended = bool(last["finished"]) and last["fraction"] == 1.0
    worst: float | None = None
    worst_cpu: float | None = None
    judged = 0
    for event in events[:-1]:
        left, at = event["left"], float(event["elapsed"])  # type: ignore[arg-type]
        truth = end - at
        if left is None or at < FROM * end or truth < FLOOR:
            continue
        judged += 1
        wall = factor(float(left), truth)  # type: ignore[arg-type]
        worst = wall if worst is None else max(worst, wall)
        cpu_truth = cpu_end - float(event["cpu"])  # type: ignore[arg-type]
        if cpu_truth > 0:
            on = factor(on_cpu(event, cpu), cpu_truth)
            worst_cpu = on if worst_cpu is None else max(worst_cpu, on)
    return Verdict(end, cpu_end, judged, worst, worst_cpu, ended)


class Verdict(NamedTuple):
    """One run judged: its wall and CPU seconds (the count's and its workers'), the
    events judged, the worst factor of their time left against the truth in wall
    seconds and in CPU seconds (:func:`on_cpu`; None: none judged), and whether the
    last event is the bar at exactly 100%."""

    seconds: float
    cpu: float
    judged: int
    worst: float | None
    worst_cpu: float | None
    ended: bool


def trajectory(events: list[dict[str, object]]) -> list[list[object]]:
    """The run's progress as rows: wall seconds, CPU seconds, share shown, time left
    shown."""
    return [
        [round(float(e["elapsed"]), 3), round(float(e["cpu"]), 3), e["fraction"], e["left"]]  # type: ignore[arg-type]
        for e in events
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"only the runs {', '.join(QUICK)}")
    parser.add_argument("--only", nargs="+", metavar="RUN", help="only the runs named")
    parser.add_argument(
        "--trace", type=Path, metavar="FILE", help="write each run's progress to FILE (JSON)"
    )
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'run':30} {'seconds':>8} {'cpu':>7} {'shown':>6} {'wall':>7} {'on cpu':>7} {'100%':>6}"
    )
    traces: dict[str, list[list[object]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        runs = cases(Path(folder))
        wanted = QUICK if args.quick else args.only
        for name, path, flags in runs:
            if wanted is not None and name not in wanted:
                continue
            events, cpu = run(path, flags, folder)
            verdict = judge(events, cpu)
            traces[name] = trajectory(events)
            worst = "-" if verdict.worst is None else f"{verdict.worst:.2f}x"
            worst_cpu = "-" if verdict.worst_cpu is None else f"{verdict.worst_cpu:.2f}x"
            # no event at all: the count ended before its first reading (no bar is drawn
            # under a second), which says nothing of the bar's truth
            closed = "no bar" if not events else "yes" if verdict.ended else "NO"
            print(
                f"{name:30} {verdict.seconds:8.1f} {verdict.cpu:7.1f} {verdict.judged:6}"
                f" {worst:>7} {worst_cpu:>7} {closed:>6}",
                flush=True,
            )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.trace is not None:
        args.trace.write_text(json.dumps(traces, indent=1) + "\n")


if __name__ == "__main__":
    main()
